#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/bench: the cost of one 4-byte trace event, after
# Gebai and Dagenais (ACM CSUR 51(2), 2018), with the trace_event_bench
# module (patch 0014): SAMPLES calls per CPU (default 1000000), each timed
# alone with interrupts off, after a warm-up that fills the buffer
# (overwrite mode: the steady state).  Buffers of 16 KiB and BIG KiB
# (default 1408, the default size) per CPU, trace_clock local and global,
# on one CPU and on all CPUs at once; and the floor: the same calls with
# the event disabled.
# Samples an NMI hit or longer than 20 us (max_ns) are discarded by the
# module and counted (nmi=, long=).
#
# Each configuration runs REPS times (default 3) in a row: the mean of one
# run moves by up to 40% between consecutive runs on the same buffer, on
# both flavours alike (results/bench/20261125-variation/), so one run per
# boot samples that noise once.  A statistic is the median over the runs;
# mean_min is the lowest mean of a run.
#
# Usage: latbench.sh [SAMPLES [REPS [BIG]]]
#
# Appends the module's result lines to $RB_OUT/lat-raw.txt, prefixed with
# "size_kb clock cpus", and metrics to $RB_OUT/metrics.txt:
#   lat.<size>k.<clock>.<n>cpu.<stat> <ns>     stat: mean std p50 p90 p99
#                                                    mean_min
#   lat.floor.<n>cpu.<stat> <ns>
T=/sys/kernel/tracing
P=/sys/module/trace_event_bench/parameters
E=$T/events/trace_event_bench/teb_event/enable
. "$RB_TOP/scripts/guest/lib.sh"
samples=${1:-1000000} reps=${2:-3} big=${3:-1408}
modprobe trace_event_bench || exit 1
echo "$samples" > $P/samples
ncpu=$(nproc)
cpusets=1
[ "$ncpu" -gt 1 ] && cpusets="1 $ncpu"

# run SIZE_KB CLOCK NCPUS LABEL: $reps runs; their stats become metrics
# LABEL.* (the median over the runs, and mean_min).
run() {
	local size=$1 clock=$2 n=$3 label=$4 lines=() line s v i
	echo 0 > $T/tracing_on
	echo "$size" > $T/buffer_size_kb
	echo "$clock" > $T/trace_clock
	echo > $T/trace
	echo 1 > $T/tracing_on
	# Warm-up: 1.5 buffers' worth counted in 16-byte records; the
	# event's records are 24 bytes (results/bench/20261127-p99-tail/),
	# so over two buffers' worth
	echo $(( size * 1024 / 16 * 3 / 2 + 10000 )) > $P/warmup
	for i in $(seq "$reps"); do
		line=$(teb_run "$n") || return 1
		echo "$size $clock $n $line" | tee -a "$RB_OUT/lat-raw.txt"
		for s in mean std p50 p90 p99; do
			[ -n "$(teb_stat "$line" $s)" ] ||
				{ echo "latbench: no $s in '$line'"; return 1; }
		done
		lines+=("$line")
	done
	for s in mean std p50 p90 p99; do
		v=$(for line in "${lines[@]}"; do teb_stat "$line" $s; done | median)
		echo "$label.$s $v" >> "$RB_OUT/metrics.txt"
	done
	v=$(for line in "${lines[@]}"; do teb_stat "$line" mean; done | sort -g | head -1)
	echo "$label.mean_min $v" >> "$RB_OUT/metrics.txt"
}

echo 1 > $T/options/overwrite
for n in $cpusets; do
	echo 0 > $E
	run "$big" local "$n" "lat.floor.${n}cpu" || exit 1
	echo 1 > $E
	for size in 16 "$big"; do
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
