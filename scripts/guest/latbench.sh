#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/bench: the cost of one 4-byte trace event, after
# Gebai and Dagenais (ACM CSUR 51(2), 2018), with the trace_event_bench
# module (patch 0009): SAMPLES calls per CPU (default 1000000), each timed
# alone with interrupts off, after a warm-up that fills the buffer
# (overwrite mode: the steady state).  Buffers of 16 KiB and 1408 KiB (the
# default size) per CPU, trace_clock local and global, on one CPU and on
# all CPUs at once; and the floor: the same calls with the event disabled.
# Samples an NMI hit or longer than 20 us (max_ns) are discarded by the
# module and counted (nmi=, long=).
#
# Appends the module's result lines to $RB_OUT/lat-raw.txt, prefixed with
# "size_kb clock cpus", and metrics to $RB_OUT/metrics.txt:
#   lat.<size>k.<clock>.<n>cpu.<stat> <ns>     stat: mean std p50 p90 p99
#   lat.floor.<n>cpu.<stat> <ns>
T=/sys/kernel/tracing
P=/sys/module/trace_event_bench/parameters
E=$T/events/trace_event_bench/teb_event/enable
. "$RB_TOP/scripts/guest/lib.sh"
samples=${1:-1000000}
modprobe trace_event_bench || exit 1
echo "$samples" > $P/samples
ncpu=$(nproc)
cpusets=1
[ "$ncpu" -gt 1 ] && cpusets="1 $ncpu"

# run SIZE_KB CLOCK NCPUS LABEL: one run; its stats become metrics LABEL.*
run() {
	local size=$1 clock=$2 n=$3 label=$4 line s v
	echo 0 > $T/tracing_on
	echo "$size" > $T/buffer_size_kb
	echo "$clock" > $T/trace_clock
	echo > $T/trace
	echo 1 > $T/tracing_on
	# Warm-up: a buffer's worth of 16-byte records and half again
	echo $(( size * 1024 / 16 * 3 / 2 + 10000 )) > $P/warmup
	line=$(teb_run "$n") || return 1
	echo "$size $clock $n $line" | tee -a "$RB_OUT/lat-raw.txt"
	for s in mean std p50 p90 p99; do
		v=$(teb_stat "$line" $s)
		[ -n "$v" ] || { echo "latbench: no $s in '$line'"; return 1; }
		echo "$label.$s $v" >> "$RB_OUT/metrics.txt"
	done
}

echo 1 > $T/options/overwrite
for n in $cpusets; do
	echo 0 > $E
	run 1408 local "$n" "lat.floor.${n}cpu" || exit 1
	echo 1 > $E
	for size in 16 1408; do
		for clock in local global; do
			run "$size" "$clock" "$n" "lat.${size}k.$clock.${n}cpu" || exit 1
		done
	done
	echo 0 > $E
done
echo local > $T/trace_clock
echo 1408 > $T/buffer_size_kb
echo > $T/trace
rmmod trace_event_bench
