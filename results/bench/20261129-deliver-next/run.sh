#!/bin/bash
# run.sh OUTDIR: ten rounds of ../20261127-p99-position/pos.sh, the four
# UML bench kernels in a rotated order each round (page-based, the series
# before patch 34, the series with it, the fold2 prototype of
# ../20261129-p99-fold), each with its teb_pos.ko in /var/tmp/teb-pos-F.
set -e
out=$1 d=$(cd "$(dirname "$0")" && pwd)
[ -n "$out" ] || { echo "usage: run.sh OUTDIR" >&2; exit 2; }
k=(legacy subbuf deliv fold2)
for r in $(seq 1 10); do
	i=$(( (r - 1) % 4 ))
	order="${k[*]:$i} ${k[*]:0:$i}"
	# shellcheck disable=SC2086 # the order is a word list
	"$d/../20261127-p99-position/pos.sh" "$out/pos-r$r" $order
	echo "round $r ($order) done $(date +%T)"
done
