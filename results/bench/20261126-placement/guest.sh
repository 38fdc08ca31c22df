#!/bin/bash
# Placement A/B guest: the 4-byte event with trace_clock local, 1408 KiB,
# one CPU and both, three runs each.
export RB_TOP=/work/main
. "$RB_TOP/scripts/guest/lib.sh"
T=/sys/kernel/tracing
P=/sys/module/trace_event_bench/parameters
modprobe trace_event_bench || exit 1
echo 1000000 > $P/samples
echo 1 > $T/options/overwrite
echo 1 > $T/events/trace_event_bench/teb_event/enable
echo 1408 > $T/buffer_size_kb
echo local > $T/trace_clock
echo $(( 1408 * 1024 / 16 * 3 / 2 + 10000 )) > $P/warmup
for r in 1 2 3; do
	for n in 1 2; do
		echo > $T/trace
		line=$(teb_run $n) || exit 1
		echo "lat local $n $line" | tee -a "$RB_OUT/lat.txt"
	done
done
