#!/bin/bash
# Guest side of nb.sh: ring_buffer_benchmark (3 runs per mode) and the
# 4-byte event (1000000 calls, 3 runs per configuration), as
# scripts/guest/bench.sh runs them under UML.  Not the tracepoint
# benchmark: its 128-byte records are not null-buffered.
d=$RB_TOP/scripts/guest
. "$d/lib.sh"
m=$RB_OUT/metrics.txt
: > "$m"
"$d/rbbench.sh" 3 || exit 1
for mode in reader noreader; do
	echo "rbb.$mode.ns $(awk -v m=$mode '$1 == m { print $3 }' "$RB_OUT/rbb.txt" | median)"
done >> "$m"
"$d/latbench.sh" 1000000 3 || exit 1
cat "$m"
