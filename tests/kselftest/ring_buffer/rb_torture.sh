#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Concurrency torture: writers on every CPU (sched and irq events, and
# trace_marker from a task per CPU) and readers of trace, trace_pipe and
# trace_pipe_raw (cat, and splice through trace-cmd if it is installed),
# while admin operations run in random order: global and per-CPU
# snapshot and reads of it, resize up, down and beyond memory,
# "echo > trace" and per-CPU reset, tracing_on and overwrite toggles,
# every trace_clock, buffer_percent, instance mkdir and rmdir, CPU
# offline and online.
#
# Then the books: rb_compat's three modes (every numbered record read
# once, intact, or announced and counted as lost: read + lost = written
# per CPU, stats agreeing) while the operations that must neither drop
# nor damage a record run beside them: buffer_percent changes, instance
# mkdir and rmdir, reads of the snapshot buffer and of the stats.  The
# operations of the first part that discard records by design (reset,
# snapshot swap, resize, clock change) or refuse writes for a while
# (tracing_on, CPU offline, and any resize, even one that fails:
# __tracing_resize_ring_buffer() stops tracing around it, so a write in
# that window fails with EBADF and is counted nowhere, on either ring
# buffer) leave no interval whose books can balance.
#
# Passes when the kernel log has no WARNING, BUG, Oops or lockdep report,
# every reader is still there at the end and ends when tracing is shut
# down (no hang), every line read from trace_pipe, trace and snapshot is
# one of the events written here (a record read at the wrong place prints
# as another event or other text), a last write after it all is read
# back, and the books balance.
#
# Usage: rb_torture.sh [SECONDS] (default 30)

ksft_skip=4
T=/sys/kernel/tracing
dir=$(dirname "$0")
. "$dir/rb_lib.sh"
secs=${1:-30}

[ "$(id -u)" = 0 ] || { echo "must run as root"; exit $ksft_skip; }
[ -w $T/trace_marker ] || { echo "no $T/trace_marker"; exit $ksft_skip; }
command -v taskset > /dev/null || { echo "no taskset"; exit $ksft_skip; }

ncpus=$(nproc)
size=$(sed 's/ .*//' $T/buffer_size_kb)
on=$(cat $T/tracing_on)
overwrite=$(cat $T/options/overwrite)
clock=$(sed 's/.*\[\(.*\)\].*/\1/' $T/trace_clock)
percent=$(cat $T/buffer_percent 2> /dev/null)
tmp=$(mktemp -d)
pids=()

restore() {
	kill "${pids[@]}" 2> /dev/null
	wait 2> /dev/null
	for c in /sys/devices/system/cpu/cpu[1-9]*/online; do
		[ -w "$c" ] && echo 1 > "$c"
	done
	rmdir $T/instances/rb_torture 2> /dev/null
	[ -e $T/snapshot ] && echo 0 > $T/snapshot
	echo 0 > $T/events/enable
	echo "$size" > $T/buffer_size_kb
	echo "$overwrite" > $T/options/overwrite
	echo "$clock" > $T/trace_clock
	[ -n "$percent" ] && echo "$percent" > $T/buffer_percent
	echo > $T/trace
	echo "$on" > $T/tracing_on
	rm -rf "$tmp"
}
trap restore EXIT

rc=0
fail() { echo "# FAIL: $*"; rc=1; }
klog_start=$(dmesg | wc -l)

echo 1 > $T/tracing_on
for e in sched/sched_switch sched/sched_wakeup irq/irq_handler_entry \
	 irq/softirq_entry timer/hrtimer_expire_entry; do
	[ -e $T/events/$e/enable ] && echo 1 > $T/events/$e/enable
done

# Writers: one trace_marker task per CPU
for ((c = 0; c < ncpus; c++)); do
	taskset -c $c bash -c 'exec 3> '$T'/trace_marker
		while :; do echo torture >&3; done' 2> /dev/null &
	pids+=($!)
done
# Readers.  A read of trace_pipe or trace_pipe_raw ends (EOF) when
# tracing is turned off: each starts again.  trace_pipe's marker lines
# must be whole: any other is counted and the first few kept.
readers=()
# The lines of trace and snapshot: comments, losses, the events enabled
# here, the markers written here.  Any other is kept in trace.bad, from
# reads that ended ("#end" after them): a killed cat cuts a line short.
cat > "$tmp/lines.awk" << 'EOF'
{ last = $0 }
/^#/ || /^$/ || /^CPU:[0-9]+ \[LOST ([0-9]+ )?EVENTS\]$/ { next }
/ tracing_mark_write: (torture|inst)$/ { next }
/ (sched_switch|sched_wakeup|irq_handler_entry|softirq_entry|hrtimer_expire_entry): / { next }
{ bad[++n] = $0 }
END { if (last == "#end") for (i = 1; i <= n; i++) print bad[i] }
EOF
# readall FILE: read FILE through lines.awk
readall() { { cat "$1" && echo "#end"; } 2> /dev/null |
	awk -f "$tmp/lines.awk" >> "$tmp/trace.bad"; }
mkfifo "$tmp/pipe"
awk '/tracing_mark_write:/ && !/tracing_mark_write: torture$/ {
		if (++bad <= 5) print > "'$tmp/pipe.bad'" }
     /tracing_mark_write: torture$/ { n++ }
     END { print n + 0, bad + 0 > "'$tmp/pipe.count'" }' < "$tmp/pipe" &
apid=$!
bash -c 'while :; do cat '$T'/trace_pipe 2> /dev/null; done' > "$tmp/pipe" &
readers+=($!)
bash -c 'while :; do cat '$T'/per_cpu/cpu0/trace_pipe_raw > /dev/null 2>&1; done' &
readers+=($!)
bash -c "$(declare -f readall); tmp=$tmp
	while :; do readall $T/trace; sleep 0.2; done" &
readers+=($!)
if command -v trace-cmd > /dev/null; then
	(cd "$tmp" && exec trace-cmd record -q -b 64 -e sched_switch \
		-o "$tmp/t.dat" sleep "$secs" > "$tmp/tracecmd.log" 2>&1) &
	tcpid=$!
fi
pids+=("${readers[@]}")

clocks=($(sed 's/[][]//g' $T/trace_clock))
# 6.1's page-based ring buffer WARNs "Delta way too big!" when a writer
# straddles a change to a clock whose epoch is 2^59 ns away (tai) before
# tracing_set_clock() resets the buffer: there the clock changes with
# tracing off.  The sub-buffer ring buffer's clock changes live.
subbuf=
[ "$(rb_kconfig RING_BUFFER_SUBBUF)" = y ] && subbuf=1
hotplug=
[ -w /sys/devices/system/cpu/cpu1/online ] && hotplug=/sys/devices/system/cpu/cpu1/online
declare -A count

op() {
	local cpu=$((RANDOM % ncpus))
	case $1 in
	snapshot) [ -e $T/snapshot ] && echo 1 > $T/snapshot ;;
	snapread) [ -e $T/snapshot ] && readall $T/snapshot ;;
	cpusnap) [ -e $T/per_cpu/cpu$cpu/snapshot ] &&
		echo 1 > $T/per_cpu/cpu$cpu/snapshot ;;
	grow) echo $((64 + RANDOM % 512)) > $T/buffer_size_kb ;;
	shrink) echo $((4 + RANDOM % 16)) > $T/buffer_size_kb ;;
	cpusize) echo $((4 + RANDOM % 128)) > $T/per_cpu/cpu$cpu/buffer_size_kb ;;
	nomem) echo $((16 * 1024 * 1024)) > $T/buffer_size_kb ;;
	reset) echo > $T/trace ;;
	cpureset) echo > $T/per_cpu/cpu$cpu/trace ;;
	onoff) echo 0 > $T/tracing_on; echo 1 > $T/tracing_on ;;
	overwrite) echo $((RANDOM % 2)) > $T/options/overwrite ;;
	clock) [ -n "$subbuf" ] || echo 0 > $T/tracing_on
		echo "${clocks[RANDOM % ${#clocks[@]}]}" > $T/trace_clock
		[ -n "$subbuf" ] || echo 1 > $T/tracing_on ;;
	percent) [ -e $T/buffer_percent ] &&
		echo $((RANDOM % 101)) > $T/buffer_percent ;;
	instance) mkdir $T/instances/rb_torture &&
		echo 1 > $T/instances/rb_torture/events/sched/enable &&
		echo inst > $T/instances/rb_torture/trace_marker
		sleep 0.1
		rmdir $T/instances/rb_torture ;;
	hotplug) [ -n "$hotplug" ] && echo 0 > $hotplug && sleep 0.1 &&
		echo 1 > $hotplug ;;
	esac
}

ops=(snapshot snapread cpusnap grow shrink cpusize nomem reset cpureset onoff
     overwrite clock percent instance hotplug)
end=$((SECONDS + secs))
while [ $SECONDS -lt $end ]; do
	o=${ops[RANDOM % ${#ops[@]}]}
	op "$o" 2> /dev/null
	count[$o]=$((${count[$o]:-0} + 1))
	sleep 0.0$((RANDOM % 10))
done
echo "# operations: $(for o in "${ops[@]}"; do printf '%s %s, ' "$o" "${count[$o]:-0}"; done)"
[ -z "$hotplug" ] && echo "# no CPU hotplug in this kernel (cpu1/online not writable)"

for p in "${readers[@]}"; do
	kill -0 "$p" 2> /dev/null || fail "reader $p died"
done
if [ -n "${tcpid:-}" ]; then
	if ! timeout 120 tail --pid="$tcpid" -f /dev/null; then
		fail "trace-cmd record did not end"
		kill "$tcpid"
	elif ! trace-cmd report -i "$tmp/t.dat" > /dev/null 2> "$tmp/report.err"; then
		fail "trace-cmd report failed: $(head -3 "$tmp/report.err")"
	fi
fi
# Shut the readers down: they must go
kill "${pids[@]}" 2> /dev/null
pkill -f "cat $T" 2> /dev/null
for p in "${pids[@]}" "$apid"; do
	timeout 30 tail --pid="$p" -f /dev/null || fail "process $p hangs after kill"
done
pids=()
if [ -s "$tmp/pipe.count" ]; then
	read -r good badn < "$tmp/pipe.count"
	echo "# trace_pipe: $good whole marker lines, $badn others"
	if [ "$badn" != 0 ]; then
		fail "trace_pipe: torn marker lines:"
		sed 's/^/#   /' "$tmp/pipe.bad"
	fi
	[ "$good" -gt 0 ] || fail "trace_pipe: no marker line read"
else
	fail "trace_pipe reader left no count"
fi

# The buffer still works
echo "$overwrite" > $T/options/overwrite
echo "$clock" > $T/trace_clock
echo 1 > $T/tracing_on
echo > $T/trace
echo rb-torture-last > $T/trace_marker
grep -q rb-torture-last $T/trace || fail "a write after the torture is not in the trace"

# The books, with the operations that keep every record beside them.
# Those and the writers may starve the drain reader: losses are allowed
# there (-l), announced and counted.  The page-based ring buffer does not
# announce discard-mode losses in the stream (-u), it only counts them:
# the sub-buffer one's rules need CONFIG_RING_BUFFER_SUBBUF=y in the
# kernel's config.
books_opts=(-l)
[ -n "$subbuf" ] || books_opts+=(-u)
if [ -x "$dir/rb_compat" ]; then
	bash -c "$(declare -f op readall); T=$T ncpus=$ncpus tmp=$tmp; n=0
		trap 'echo \$n > $tmp/books.ops; exit' TERM
		while :; do
			for o in percent instance snapread; do op \$o 2> /dev/null; done
			cat $T/per_cpu/cpu*/stats > /dev/null
			n=\$((n + 3))
		done" &
	bookpid=$!
	# Half as long as the first part, and at least one round
	end=$((SECONDS + (secs + 1) / 2))
	rounds=0
	while :; do
		for mode in drain overrun discard; do
			log=$tmp/books-$mode.log
			"$dir/rb_compat" "${books_opts[@]}" -n 100000 "$mode" > "$log" 2>&1 ||
				{ fail "books ($mode):"; grep -E 'FAIL|not ok' "$log" | head -5; }
			# read and missing, summed over the CPUs
			echo "$mode $(awk '/^# cpu[0-9]+: read/ { r += $4; m += $6 + $8 }
				END { print r + 0, m + 0 }' "$log")" >> "$tmp/books.sum"
		done
		rounds=$((rounds + 1))
		[ $SECONDS -lt $end ] || break
	done
	kill "$bookpid"
	wait "$bookpid" 2> /dev/null
	echo "# books: $rounds rounds of rb_compat ${books_opts[*]} drain, overrun and discard;" \
	     "$(cat "$tmp/books.ops" 2> /dev/null || echo 0) operations beside them"
	awk '{ r[$1] += $2; m[$1] += $3 }
	     END { for (k in r) printf "#   %s: read %d, lost %d\n", k, r[k], m[k] }' \
		"$tmp/books.sum"
else
	fail "no rb_compat next to $0: the books are not checked"
fi

if [ -s "$tmp/trace.bad" ]; then
	fail "trace and snapshot: $(wc -l < "$tmp/trace.bad") lines of no event written here:"
	head -5 "$tmp/trace.bad" | cut -c1-160 | sed 's/^/#   /'
fi

bad=$(dmesg | tail -n +$((klog_start + 1)) |
	grep -E 'WARNING:|BUG:|Oops|Call Trace|possible .*deadlock|INFO: task' | head -5)
[ -z "$bad" ] || { fail "kernel log:"; echo "$bad" | sed 's/^/#   /'; }
[ $rc = 0 ] && echo "# torture: ${secs}s, $ncpus CPUs, no splat, readers alive"
exit $rc
