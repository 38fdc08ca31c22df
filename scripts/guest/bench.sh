#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/bench: one round of every benchmark in this boot.
# Each writes "metric value" lines to $RB_OUT/metrics.txt (see scripts/bench
# for what every metric is) and its raw output beside it.  REPS: runs of
# ring_buffer_benchmark per mode and of the 4-byte event per configuration;
# a figure is their median.  THR_REPS (default REPS): trace-cmd recordings
# per rate (the zero-loss rate needs THR_REPS in a row without loss), and
# recordings per rate of each peer's consumer (peerthr.sh).  THR_SECS 0:
# stop after the 4-byte event (scripts/bench -s, short boots).
# Usage: bench.sh TP_SECS LAT_SAMPLES SYS_CALLS THR_SECS THR_START THR_MAX REPS
#        [THR_REPS]
d=$(dirname "$0")
. "$d/lib.sh"
m=$RB_OUT/metrics.txt
: > "$m"
"$d/rbbench.sh" "$7" || exit 1
for mode in reader noreader; do
	echo "rbb.$mode.ns $(awk -v m=$mode '$1 == m { print $3 }' "$RB_OUT/rbb.txt" | median)"
done >> "$m"
"$d/tpbench.sh" "$1" || exit 1
awk '{ print "tp.ns", $1 }' "$RB_OUT/tp.txt" >> "$m"
"$d/latbench.sh" "$2" "$7" || exit 1
if [ "$4" = 0 ]; then
	cat "$m"
	exit 0
fi
"$d/sysbench.sh" "$3" || exit 1
"$d/peerbench.sh" "$3" || exit 1
"$d/thrbench.sh" "$4" "$5" "$6" "${8:-$7}" || exit 1
"$d/peerthr.sh" "$4" "$5" "$6" "${8:-$7}" || exit 1
cat "$m"
