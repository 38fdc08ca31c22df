#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The non-consuming iterator behind the "trace" file, on one CPU: it must
# show every record that trace_pipe would deliver, in order, without
# consuming them; after trace_pipe consumed part of a sub-buffer the
# writers are still filling, it must go on past the consumed part into the
# records written afterwards; when trace_pipe consumed records between two
# reads of "trace", it must go on from the first one trace_pipe has not
# returned; after the buffer wrapped it must show a gap free run that ends
# with the newest record.

ksft_skip=4
T=/sys/kernel/tracing
C=$T/per_cpu/cpu0

[ "$(id -u)" = 0 ] || { echo "must run as root"; exit $ksft_skip; }
[ -w $T/trace_marker ] || { echo "no $T/trace_marker"; exit $ksft_skip; }
command -v taskset > /dev/null || { echo "no taskset"; exit $ksft_skip; }

size=$(sed 's/ .*//' $T/buffer_size_kb)
overwrite=$(cat $T/options/overwrite)
on=$(cat $T/tracing_on)
tracer=$(cat $T/current_tracer)
restore() {
	echo "$overwrite" > $T/options/overwrite
	echo "$size" > $T/buffer_size_kb
	echo "$tracer" > $T/current_tracer
	echo > $T/trace
	echo "$on" > $T/tracing_on
}
tmp=$(mktemp)
trap 'restore; rm -f "$tmp"' EXIT

rc=0
fail() { echo "# FAIL: $*"; rc=1; }

# Write markers "m FIRST" .. "m LAST" from CPU 0, one write(2) each.
mark() {
	taskset -c 0 bash -c 'exec 3> '$T'/trace_marker
		for ((i = $0; i <= $1; i++)); do echo "m $i" >&3; done' "$1" "$2"
}

# The marker numbers a file (or stdin) shows, one per line.
marks() { grep -o 'tracing_mark_write: m [0-9]*' "$@" | sed 's/.* //'; }

# Is stdin the run FIRST..LAST?
is_run() { [ "$(cat)" = "$(seq "$1" "$2")" ]; }

# Consume what CPU 0 holds into $tmp (trace_pipe blocks when empty).
drain() { timeout 3 cat $C/trace_pipe > "$tmp"; }

reset() {
	echo 0 > $T/tracing_on
	echo nop > $T/current_tracer
	echo "$1" > $T/buffer_size_kb
	echo "$2" > $T/options/overwrite
	echo > $T/trace
	echo 1 > $T/tracing_on
}

# 1. "trace" shows everything and consumes nothing.
reset 1408 1
mark 1 300
marks $C/trace | is_run 1 300 || fail "trace: not markers 1..300"
marks $C/trace | is_run 1 300 || fail "trace, read again: not markers 1..300"
n=$(sed -n 's/^# entries-in-buffer\/entries-written: \([0-9]*\)\/.*/\1/p' \
	$C/trace)
[ "$n" = 300 ] || fail "trace: entries-in-buffer $n, not 300"
drain
marks "$tmp" | is_run 1 300 || fail "trace_pipe after trace: not 1..300"

# 2. trace_pipe consumed one record of a sub-buffer that is still being
# written; "trace" starts at the next and goes on past the part the
# reader took.
reset 1408 1
mark 1 5
dd if=$C/trace_pipe of="$tmp" bs=1 count=1 status=none
mark 6 10
marks $C/trace | is_run 2 10 ||
	fail "trace after consuming one: $(marks $C/trace | xargs) (want 2..10)"
drain
marks "$tmp" | is_run 2 10 || fail "trace_pipe: not 2..10"

# 3. "trace" read in two parts, and between them trace_pipe took records
# the iterator had not reached: the iterator goes on from the first
# record trace_pipe has not returned (here 4), held on the reader's page,
# and shows none that it returned.  Whether it still shows 1, which it
# held before the consuming reads, is up to the buffer.
reset 1408 1
mark 1 5
exec 3< $C/trace
dd bs=1 count=1 status=none <&3 > /dev/null
for i in 1 2 3; do
	dd if=$C/trace_pipe bs=1 count=1 status=none
done > /dev/null
got=$(marks <&3 | xargs)
exec 3<&-
case "$got" in
"1 4 5" | "4 5") ;;
*) fail "trace read across consuming reads of 1..3: '$got' (want 4 5)" ;;
esac
drain
marks "$tmp" | is_run 4 5 || fail "trace_pipe after trace: not 4..5"

# 4. Flight-recorder mode, wrapped many times: a gap free run up to the
# newest record, as long as entries-in-buffer says.  8 KiB is two
# sub-buffers of a page at least: 3000 markers a 4 KiB page.
reset 8 1
last=$((3000 * $(getconf PAGESIZE) / 4096))
mark 1 $last
first=$(marks $C/trace | head -1)
[ -n "$first" ] && [ "$first" -gt 1 ] || fail "wrapped: first shown is '$first'"
marks $C/trace | is_run "$first" $last || fail "wrapped: not a run $first..$last"
n=$(sed -n 's/^# entries-in-buffer\/entries-written: \([0-9]*\)\/.*/\1/p' \
	$C/trace)
[ "$n" = $((last + 1 - first)) ] ||
	fail "wrapped: entries-in-buffer $n, trace shows $((last + 1 - first))"

# 5. Discard mode, full: the oldest records, up to the first drop.  Once
# the buffer is full, trace_marker refuses writes with EBADF.
reset 8 0
mark 1 3000 2> /dev/null
last=$(marks $C/trace | tail -1)
marks $C/trace | is_run 1 "$last" || fail "discard: not a run 1..$last"
d=$(sed -n 's/^dropped events: //p' $C/stats)
[ "$((last + d))" = 3000 ] || fail "discard: shown $last + dropped $d != 3000"

[ $rc = 0 ] && echo "# rb_iter: ok"
exit $rc
