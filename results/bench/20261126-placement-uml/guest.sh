#!/bin/bash
# Placement experiment (UML): ring_buffer_benchmark with and without its
# reader (3 runs each) and the 4-byte event (latbench.sh, 1000000 samples,
# 3 runs per configuration): scripts/guest/bench.sh's first and third parts.
d=/work/main/scripts/guest
. "$d/lib.sh"
m=$RB_OUT/metrics.txt
: > "$m"
"$d/rbbench.sh" 3 || exit 1
for mode in reader noreader; do
	echo "rbb.$mode.ns $(awk -v m=$mode '$1 == m { print $3 }' "$RB_OUT/rbb.txt" | median)"
done >> "$m"
"$d/latbench.sh" 1000000 3 || exit 1
cat "$m"
