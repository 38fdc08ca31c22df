#!/bin/bash
# Profile (perf cpu-clock sampling on CPU 0) of the getppid() loop with
# no tracer, ftrace's syscall events and LTTng's syscall probes.
export RB_TOP=/work/main
T=/sys/kernel/tracing
calls=${1:-1000000}
tmp=/tmp/prof; rm -rf $tmp; mkdir -p $tmp
export HOME=${HOME:-/root}
cc -O2 -o $tmp/sysloop $RB_TOP/scripts/guest/sysloop.c || exit 1
echo 0 > $T/tracing_on; echo local > $T/trace_clock; echo 1 > $T/options/overwrite
echo 1024 > $T/buffer_size_kb; echo > $T/trace; echo 1 > $T/tracing_on
echo 0 > /proc/sys/kernel/kptr_restrict; echo -1 > /proc/sys/kernel/perf_event_paranoid
prof() {
	local name=$1
	taskset -c 1 perf record -q -e cpu-clock -c 20000 -C 0 -o $tmp/$name.data -- \
		taskset -c 0 $tmp/sysloop "$calls" > $RB_OUT/$name.loop 2> $tmp/$name.log
	perf report -i $tmp/$name.data --stdio --no-children --sort sym 2>/dev/null |
		grep -v '^$' | head -70 > $RB_OUT/$name.report
	cat $RB_OUT/$name.loop
}
for round in 1 2; do
	echo "off $(prof off-$round)"
	echo 1 > $T/events/syscalls/sys_enter_getppid/enable
	echo 1 > $T/events/syscalls/sys_exit_getppid/enable
	echo "ftrace $(prof ftrace-$round)"
	echo 0 > $T/events/syscalls/sys_enter_getppid/enable
	echo 0 > $T/events/syscalls/sys_exit_getppid/enable
	echo > $T/trace
	if [ $round = 1 ]; then
		taskset -c 1 lttng-sessiond --daemonize --kmod-probes=lttng-probe-sched > $tmp/sd.log 2>&1
	fi
	lttng create s$round --snapshot --output=$tmp/snap > /dev/null &&
	lttng enable-channel --kernel --overwrite --subbuf-size=4096 --num-subbuf=256 ch > /dev/null &&
	lttng enable-event --kernel --syscall getppid --channel ch > /dev/null &&
	lttng start > /dev/null
	echo "lttng $(prof lttng-$round)"
	lttng destroy s$round > /dev/null
done | tee $RB_OUT/loops.txt
