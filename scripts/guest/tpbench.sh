#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/bench: the kernel's tracepoint benchmark
# (CONFIG_TRACEPOINT_BENCHMARK, kernel/trace/trace_benchmark.c).  Enabling
# benchmark:benchmark_event starts a kthread that calls the tracepoint
# (128-byte string payload) in a loop, timing each call with interrupts off
# between two trace_clock_local() reads; every event carries the running
# statistics of the calls before it.  Runs it for SECS seconds (default
# 10; the buffer wraps within the first second, so this is the steady
# state of overwrite mode) and writes one line to $RB_OUT/tp.txt:
#   avg std min max calls   (ns per call; calls = events in the buffer +
#                            overruns, i.e. tracepoint calls that wrote)
T=/sys/kernel/tracing
E=$T/events/benchmark/benchmark_event
secs=${1:-10}
[ -d $E ] || { echo "no $E: CONFIG_TRACEPOINT_BENCHMARK=y needed"; exit 1; }
echo 0 > $T/tracing_on
echo > $T/trace
echo 1 > $T/options/overwrite
echo 1 > $T/tracing_on
echo 1 > $E/enable
sleep "$secs"
echo 0 > $E/enable
echo 0 > $T/tracing_on
line=$(grep 'benchmark_event:' $T/trace | tail -1)
calls=0
for s in $T/per_cpu/cpu*/stats; do
	calls=$((calls + $(sed -n 's/^entries: //p' "$s") + $(sed -n 's/^overrun: //p' "$s")))
done
echo "$line" > "$RB_OUT/tp-raw.txt"
val() { echo "$line" | grep -o " $1=[0-9]*" | head -1 | cut -d= -f2; }
avg=$(val avg) std=$(val std) min=$(val min) max=$(val max)
[ -n "$avg" ] || { echo "no statistics in the benchmark event: '$line'"; exit 1; }
echo "$avg $std $min $max $calls" | tee -a "$RB_OUT/tp.txt"
echo > $T/trace
echo 1 > $T/tracing_on
