#!/bin/bash
d=/work/main/scripts/guest
export RB_TOP=/work/main
: > "$RB_OUT/metrics.txt"
"$d/rbbench.sh" 2 || exit 1
awk '{ print "rbb." $1 ".ns", $3 }' "$RB_OUT/rbb.txt" >> "$RB_OUT/metrics.txt"
"$d/latbench.sh" 1000000 || exit 1
cat "$RB_OUT/metrics.txt"
