#!/bin/bash
# How low could any buffer take the native (UML) figures of issue #18?
# Boots, in turn, the page-based ("legacy") and sub-buffer ("subbuf") UML
# bench kernels of scripts/build and a "null" kernel: the sub-buffer one
# with null-buffer.diff applied (reserve = checks, recursion lock, one
# clock read and a record header written to a per-CPU scratch area;
# commit = unlock), built by hand into $RB_CACHE/build/uml-null-bench.
# Usage: nb.sh ROUNDS OUTDIR
set -e
rounds=$1 out=$2
top=/work/main
mkdir -p "$out"
for r in $(seq 1 "$rounds"); do
	for f in legacy subbuf null; do
		run=/tmp/nb/$f-$r
		rm -rf "$run"
		"$top/scripts/vm" -q -k "$RB_CACHE/build/uml-$f-bench" -o "$run" -t 1800 -- \
			"$top/results/bench/20261127-null-bound/nb-guest.sh"
		awk -v f=$f -v r=$r 'NF == 2 { print f, r, $1, $2 }' "$run/metrics.txt" >> "$out/metrics.txt"
		cat "$run/rbb-raw-all.txt" "$run/lat-raw.txt" > "$out/raw-$f-$r.txt"
		echo "$(date -u +%H:%M) $f $r done"
	done
done
