#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/demo: trace the scheduler through tracefs, then with
# trace-cmd, and print what came out.
T=/sys/kernel/tracing
say() { printf '\n=== %s\n' "$*"; }
. "$RB_TOP/scripts/guest/lib.sh"

say "kernel: $(uname -r), $(nproc) CPUs, trace clock: $(sed 's/.*\[\(.*\)\].*/\1/' $T/trace_clock)"
dmesg | grep -E 'Ring buffer (PASSED|FAILED)' | sed 's/^/dmesg: /'

say "echo 1 > $T/events/sched/enable; <workload>; head $T/trace"
echo > $T/trace
echo 1 > $T/events/sched/enable
workload 20
echo 0 > $T/events/sched/enable
head -25 $T/trace
echo "... $(grep -vc '^#' $T/trace) events in all"
echo > $T/trace

say "trace-cmd record -e sched -o /tmp/sched.dat -- <workload>"
trace-cmd record -e sched -o /tmp/sched.dat -- bash -c "$(declare -f workload); workload 20" 2>&1 |
	tail -8 || exit 1

say "trace-cmd report -i /tmp/sched.dat (first 40 lines)"
trace-cmd report -i /tmp/sched.dat > /tmp/report.txt || exit 1
head -40 /tmp/report.txt
echo "... $(wc -l < /tmp/report.txt) lines; by event:"
grep -oE ' [a-z_]+: ' /tmp/report.txt | sort | uniq -c | sort -rn | head -8
trace-cmd reset > /dev/null 2>&1
