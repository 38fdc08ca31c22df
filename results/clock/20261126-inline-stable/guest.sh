#!/bin/bash
# A/B guest: the global trace clock's cost, two ways.
export RB_TOP=/work/main
. "$RB_TOP/scripts/guest/lib.sh"
T=/sys/kernel/tracing
P=/sys/module/trace_event_bench/parameters
for i in 1 2 3; do
	modprobe trace_clock_test bench=2000000 2>&1
	rmmod trace_clock_test
done
dmesg | grep "trace_clock_test: bench" | tee "$RB_OUT/clockbench.txt"
modprobe trace_event_bench || exit 1
echo 1000000 > $P/samples
echo 1 > $T/options/overwrite
echo 1 > $T/events/trace_event_bench/teb_event/enable
echo 1408 > $T/buffer_size_kb
echo $(( 1408 * 1024 / 16 * 3 / 2 + 10000 )) > $P/warmup
for r in 1 2 3 4; do
	for clock in local global; do
		echo 0 > $T/tracing_on
		echo $clock > $T/trace_clock
		echo > $T/trace
		echo 1 > $T/tracing_on
		line=$(teb_run 2) || exit 1
		echo "lat $clock 2 $line" | tee -a "$RB_OUT/lat.txt"
	done
done
