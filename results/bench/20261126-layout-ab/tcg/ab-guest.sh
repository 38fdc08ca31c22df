#!/bin/bash
# Guest command of the A/B: ring_buffer_benchmark with and without its
# reader, ROUNDS times each (scripts/guest/rbbench.sh).
d=/work/main/scripts/guest
export RB_TOP=/work/main
: > "$RB_OUT/metrics.txt"
"$d/rbbench.sh" "${1:-3}" || exit 1
awk '{ print "rbb." $1 ".ns", $3 }' "$RB_OUT/rbb.txt" >> "$RB_OUT/metrics.txt"
cat "$RB_OUT/metrics.txt"
