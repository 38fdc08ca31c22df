#!/bin/bash
# The trace clocks' cost per call on this platform: trace_clock_test's
# bench mode (patch 0002), LOOPS calls per CPU, three loads in a row, with
# the global clock's fast path allowed and with its slow path forced.
loops=${1:-200000}
S=/sys/module/trace_clock/parameters/global_slow
echo "$(uname -m), $(nproc) CPUs, $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
for slow in N Y; do
	echo "$slow" > $S || exit 1
	for i in 1 2 3; do
		dmesg -C
		modprobe trace_clock_test bench="$loops" || exit 1
		rmmod trace_clock_test
		dmesg | grep 'trace_clock_test: bench' |
			sed "s/^\[[ 0-9.]*\] trace_clock_test: /global_slow=$(cat $S) run $i: /"
	done
done | tee "$RB_OUT/clock-bench.txt"
echo N > $S
