#!/bin/bash
# Guest command of the UML A/B: ring_buffer_benchmark with and without its
# reader, ROUNDS times each (first argument, default 2), then a 4-byte
# event timed call by call (three runs per configuration).
d=/work/main/scripts/guest
export RB_TOP=/work/main
: > "$RB_OUT/metrics.txt"
"$d/rbbench.sh" "${1:-2}" || exit 1
awk '{ print "rbb." $1 ".ns", $3 }' "$RB_OUT/rbb.txt" >> "$RB_OUT/metrics.txt"
"$d/latbench.sh" 1000000 3 || exit 1
cat "$RB_OUT/metrics.txt"
