#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/bench-clock: ROUNDS rounds of the trace_clock_test
# benchmark (LOOPS calls per CPU) and of a 4-byte event (trace_event_bench,
# LOOPS samples per CPU, mean), with the global clock's fast path and with
# its slow path forced, under trace_clock local and global.  Writes
# "round path trace_clock what cpus ns_per_call" lines to $RB_OUT/clock.txt.
T=/sys/kernel/tracing
P=/sys/module/trace_event_bench/parameters
rounds=${1:-3} loops=${2:-100000}
param=/sys/module/trace_clock/parameters/global_slow
res=$RB_OUT/clock.txt
. "$RB_TOP/scripts/guest/lib.sh"
: > "$res"
modprobe trace_event_bench || exit 1
echo "$loops" > $P/samples
echo 1 > $T/events/trace_event_bench/teb_event/enable
cpusets=1
[ "$(nproc)" -gt 1 ] && cpusets="1 $(nproc)"
echo "sched_clock stable: $(dmesg | grep -c 'sched_clock: Marking stable') (dmesg)"
echo "buffer_size_kb: $(cat $T/buffer_size_kb)"
for r in $(seq 1 "$rounds"); do
	for slow in N Y; do
		path=fast
		[ $slow = Y ] && path=slow
		echo $slow > $param
		for clk in local global; do
			echo $clk > $T/trace_clock
			echo > $T/trace
			dmesg -C
			modprobe trace_clock_test bench="$loops" || exit 1
			rmmod trace_clock_test
			dmesg | sed -n 's/.*trace_clock_test: bench \([^ ]*\) cpus=\([0-9]*\) ns_per_call=\([0-9]*\).*/\1 \2 \3/p' |
				while read -r what cpus ns; do
					echo "$r $path $clk $what $cpus $ns"
				done | tee -a "$res"
			for n in $cpusets; do
				line=$(teb_run "$n") || exit 1
				mean=$(teb_stat "$line" mean)
				[ -n "$mean" ] || { echo "no mean in: $line"; exit 1; }
				echo "$r $path $clk event $n $mean" | tee -a "$res"
			done
		done
	done
done
echo 0 > $T/events/trace_event_bench/teb_event/enable
rmmod trace_event_bench
echo N > $param
echo local > $T/trace_clock
