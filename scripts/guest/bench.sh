#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/bench: one round of every benchmark in this boot.
# Each writes "metric value" lines to $RB_OUT/metrics.txt (see scripts/bench
# for what every metric is) and its raw output beside it.
# Usage: bench.sh TP_SECS LAT_SAMPLES SYS_CALLS THR_SECS THR_START THR_MAX
d=$(dirname "$0")
m=$RB_OUT/metrics.txt
: > "$m"
"$d/rbbench.sh" 1 || exit 1
awk '{ print "rbb." $1 ".ns", $3 }' "$RB_OUT/rbb.txt" >> "$m"
"$d/tpbench.sh" "$1" || exit 1
awk '{ print "tp.ns", $1 }' "$RB_OUT/tp.txt" >> "$m"
"$d/latbench.sh" "$2" || exit 1
"$d/sysbench.sh" "$3" || exit 1
"$d/peerbench.sh" "$3" || exit 1
"$d/thrbench.sh" "$4" "$5" "$6" || exit 1
cat "$m"
