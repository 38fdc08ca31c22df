#!/bin/bash
T=/sys/kernel/tracing
cat $T/trace_clock
echo "clock offsets (marker time in trace, each clock after a reset):"
for c in $(sed 's/[][]//g' $T/trace_clock); do
	echo $c > $T/trace_clock; echo m > $T/trace_marker
	echo "$c $(grep -m1 'tracing_mark_write' $T/trace | awk '{print $4}')"
done
echo local > $T/trace_clock
dmesg | grep -c "went back"
# writers on CPU 0 while the clock changes live
for i in 1 2 3; do taskset -c 0 sh -c "while :; do echo w > $T/trace_marker; done" & done
echo 1 > $T/events/sched/enable
for n in $(seq 1 ${1:-100}); do
	for c in mono local boot local global local uptime local counter local perf local; do
		echo $c > $T/trace_clock
	done
	dmesg | grep -q "went back" && { echo "went back after $n rounds"; break; }
done
kill %1 %2 %3 2>/dev/null
echo 0 > $T/events/sched/enable
echo local > $T/trace_clock
dmesg | grep -A3 "went back" | head -5
echo "clk done"
