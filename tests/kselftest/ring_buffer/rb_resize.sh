#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Resizing keeps the records, as the page-based ring buffer does: growing
# keeps every record not read yet, shrinking keeps the newest that fit
# and counts the others as overrun, a per-CPU resize leaves the other
# CPUs alone, a resize while a reader has taken part of a CPU buffer
# loses nothing and leaves the "trace" file reading what is left, and
# writing goes on after it with times in order.

ksft_skip=4
T=/sys/kernel/tracing

[ "$(id -u)" = 0 ] || { echo "must run as root"; exit $ksft_skip; }
[ -w $T/trace_marker ] || { echo "no $T/trace_marker"; exit $ksft_skip; }
ncpu=$(getconf _NPROCESSORS_ONLN)
[ "$ncpu" -ge 2 ] || { echo "needs two CPUs"; exit $ksft_skip; }

size=$(sed 's/ .*//' $T/buffer_size_kb)
overwrite=$(cat $T/options/overwrite)
on=$(cat $T/tracing_on)
rc=0
fail() { echo "# FAIL: $*"; rc=1; }

# write CPU TAG FIRST LAST: markers "TAG-<n>" from CPU
write() {
	taskset -c "$1" bash -c \
		"for ((i = $3; i <= $4; i++)); do echo $2-\$i > $T/trace_marker; done"
}
# seqs TAG: the numbers of the TAG markers in the trace, in order
seqs() { grep -oE "\\b$1-[0-9]+" $T/trace | sed 's/.*-//' | tr '\n' ' '; }
stat() { awk -v f="$2" 'index($0, f ":") == 1 { print $NF }' $T/per_cpu/cpu"$1"/stats; }
expect() { # expect WHAT GOT WANT
	[ "$2" = "$3" ] && { echo "# ok: $1"; return; }
	fail "$1: got '${2:0:120}', want '${3:0:120}'"
}

# Sizes and counts for 4 KiB pages, times the page size over 4 KiB: with
# 64 KiB pages 8 KiB is two 64 KiB sub-buffers, which would hold all 1000.
f=$(($(getconf PAGESIZE) / 4096))
nr=$((1000 * f))

echo 0 > $T/tracing_on
echo 1 > $T/options/overwrite
echo nop > $T/current_tracer
echo $((64 * f)) > $T/buffer_size_kb
echo > $T/trace
echo 1 > $T/tracing_on

all=$(seq -s ' ' 0 $((nr - 1)))' '
write 0 a 0 $((nr - 1))
expect "grow $((64 * f)) -> $((1024 * f)) KiB keeps every record" \
	"$(echo $((1024 * f)) > $T/buffer_size_kb; seqs a)" "$all"

# Shrink: the newest that fit, contiguous up to the last; the others
# counted as overrun (entries + overrun = written).
echo $((8 * f)) > $T/buffer_size_kb
got=$(seqs a)
set -- $got
n=$#
first=${1:-none}
expect "shrink $((1024 * f)) -> $((8 * f)) KiB keeps the newest" "$got" \
	"$( [ "$n" -gt 0 ] && seq -s ' ' "$first" $((nr - 1)))${n:+ }"
[ "$n" -gt 0 ] && [ "$n" -lt $nr ] || fail "shrink kept $n of $nr records"
ent=$(stat 0 entries) over=$(stat 0 overrun)
expect "shrink: entries $ent + overrun $over = written" "$((ent + over))" $nr

# A per-CPU resize leaves the other CPUs' records alone.
echo 256 > $T/buffer_size_kb
echo > $T/trace
write 0 b 0 99
write 1 c 0 99
echo 512 > $T/per_cpu/cpu1/buffer_size_kb
echo 64 > $T/per_cpu/cpu1/buffer_size_kb
hundred=$(seq -s ' ' 0 99)' '
expect "per-CPU resize of CPU 1: CPU 0's records" "$(seqs b)" "$hundred"
expect "per-CPU resize of CPU 1: its own records" "$(seqs c)" "$hundred"

# A reader that took part of the buffer, then a resize: nothing lost.
echo 256 > $T/buffer_size_kb
echo > $T/trace
write 0 d 0 199
timeout 3 cat $T/per_cpu/cpu0/trace_pipe | head -n 20 > /dev/null
taken=$(stat 0 "read events")
echo 1024 > $T/buffer_size_kb
write 0 d 200 249
got=$(timeout 3 cat $T/per_cpu/cpu0/trace_pipe | grep -oE '\bd-[0-9]+' |
	sed 's/.*-//' | tr '\n' ' ')
expect "read $taken, resize, write: the rest in order" "$got" \
	"$(seq -s ' ' "$taken" 249) "

# The "trace" file after such a resize: the records the reader left in
# its page, then the ring, each read where it is.  The reader took part
# of a sub-buffer the writers were still in (40 records), or a whole one
# (300 records).
for n in 40 300; do
	echo 256 > $T/buffer_size_kb
	echo > $T/trace
	write 0 part 0 $((n - 1))
	dd if=$T/per_cpu/cpu0/trace_pipe bs=64 count=1 status=none > /dev/null
	taken=$(stat 0 "read events")
	echo 1024 > $T/buffer_size_kb
	expect "$n records, $taken read, resize: the trace file" "$(seqs part)" \
		"$(seq -s ' ' "$taken" $((n - 1))) "
done

# Times go on in order across a resize.
echo > $T/trace
write 0 e 0 49
echo 2048 > $T/buffer_size_kb
write 0 e 50 99
times=$(grep 'e-[0-9]' $T/trace | grep -o ' [0-9]*\.[0-9]*: ' | tr -d ' :')
expect "times in order across a resize" "$(echo "$times" | sort -n | tr '\n' ' ')" \
	"$(echo "$times" | tr '\n' ' ')"
expect "records across a resize" "$(seqs e)" "$hundred"

echo 0 > $T/tracing_on
echo "$overwrite" > $T/options/overwrite
echo "$size" > $T/buffer_size_kb
echo > $T/trace
echo "$on" > $T/tracing_on
exit $rc
