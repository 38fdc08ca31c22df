#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/bench: what tracing a syscall costs.  A loop of
# CALLS getppid() calls (default 1000000), timed with syscall events
# syscalls:sys_{enter,exit}_getppid disabled and enabled (overwrite mode,
# 1408 KiB per CPU, trace_clock local), three times each, alternating.
# Each enabled call writes two events, so the added cost per event is
# (median on - median off) / 2.  Needs CONFIG_FTRACE_SYSCALLS (not in
# UML): without the events it says so and writes nothing.
# Appends to $RB_OUT/metrics.txt: sys.off.ns, sys.on.ns, sys.event.ns.
. "$RB_TOP/scripts/guest/lib.sh"
T=/sys/kernel/tracing
calls=${1:-1000000}
bin=/tmp/sysloop
sysloop_setup $bin
off=() on=()
for _ in 1 2 3; do
	for e in 0 1; do
		echo $e > $T/events/syscalls/sys_enter_getppid/enable
		echo $e > $T/events/syscalls/sys_exit_getppid/enable
		v=$(taskset -c 0 $bin "$calls") || exit 1
		if [ $e = 0 ]; then off+=("$v"); else on+=("$v"); fi
	done
done
echo 0 > $T/events/syscalls/sys_enter_getppid/enable
echo 0 > $T/events/syscalls/sys_exit_getppid/enable
echo > $T/trace
moff=$(printf '%s\n' "${off[@]}" | median)
mon=$(printf '%s\n' "${on[@]}" | median)
ev=$(awk -v a="$mon" -v b="$moff" 'BEGIN { printf "%.1f", (a - b) / 2 }')
echo "sysbench: ns per getppid() off ${off[*]}, on ${on[*]}: $ev ns per event" |
	tee "$RB_OUT/sys-raw.txt"
printf 'sys.off.ns %s\nsys.on.ns %s\nsys.event.ns %s\n' "$moff" "$mon" "$ev" >> "$RB_OUT/metrics.txt"
