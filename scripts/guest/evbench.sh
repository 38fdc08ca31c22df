#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/bench: 4-byte trace events through the whole event
# path (trace_event_buffer_reserve, the ring buffer's reserve and commit),
# timed by the trace_clock_test module: LOOPS calls of trace_tct_event()
# per CPU with interrupts off, after a warm-up pass that also fills the
# buffer (so the timed pass is the steady state of overwrite mode), on one
# CPU and on all CPUs at once.  trace_clock local.  Writes to
# $RB_OUT/ev.txt one line per CPU set:
#   cpus ns_per_event loops_per_cpu
T=/sys/kernel/tracing
loops=${1:-1000000}
echo 0 > $T/tracing_on
echo local > $T/trace_clock
echo 1 > $T/options/overwrite
echo > $T/trace
echo 1 > $T/tracing_on
dmesg -C
modprobe trace_clock_test bench="$loops" || exit 1
rmmod trace_clock_test
dmesg > "$RB_OUT/ev-raw.txt"
# The module prints "bench event cpus=1 ..." and then "bench event cpus=N
# ...": keep the all-CPUs line only when there is more than one CPU.
sed -n 's/.*trace_clock_test: bench event cpus=\([0-9]*\) ns_per_call=\([0-9]*\).*/\1 \2/p' \
	"$RB_OUT/ev-raw.txt" | awk -v l="$loops" '!seen[$1]++ { print $1, $2, l }' \
	> "$RB_OUT/ev.txt"
[ -s "$RB_OUT/ev.txt" ] || { echo "no event benchmark result"; cat "$RB_OUT/ev-raw.txt"; exit 1; }
cat "$RB_OUT/ev.txt"
echo > $T/trace
