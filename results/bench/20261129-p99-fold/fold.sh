#!/bin/bash
# Boots UML bench kernels (default: page-based, sub-buffer and the two
# prototypes, fold.diff and fold2.diff), ROUNDS rounds, the order rotated
# each round, each boot
# running ../20261127-p99-tail/tail-guest.sh with teb_tail.ko built out of
# tree against that kernel (see ../20261127-p99-tail/tail.sh):
#   w=/var/tmp/teb-tail-F; mkdir $w; cp ../20261127-p99-tail/Kbuild $w
#   cp $TOP/kernel/trace/trace_event_bench.[ch] $w
#   patch -d $w -p0 < ../20261127-p99-tail/tail.diff
#   make -C $RB_CACHE/build/uml-F-bench M=$w ARCH=um modules
# TEB_DIR=/var/tmp/teb-tsc: modules built with tsc.diff on top (samples in
# host TSC cycles; the same Kbuild, applied after tail.diff).
# Usage: fold.sh ROUNDS OUTDIR [KERNEL...]   (uml-KERNEL-bench)
set -e
rounds=$1 out=$2 d=$(cd "$(dirname "$0")" && pwd)
shift 2
kernels=("$@")
[ ${#kernels[@]} -gt 0 ] || kernels=(legacy subbuf fold fold2)
n=${#kernels[@]}
top=$(cd "$d/../../.." && pwd)
mkdir -p "$out"
for r in $(seq "$rounds"); do
	for i in $(seq 0 $(( n - 1 ))); do
		f=${kernels[$(( (i + r - 1) % n ))]}
		rm -rf "/tmp/fold-$f"
		"$top/scripts/vm" -q -k "$RB_CACHE/build/uml-$f-bench" -o "/tmp/fold-$f" -t 900 -- \
			"$top/results/bench/20261127-p99-tail/tail-guest.sh" "${TEB_DIR:-/var/tmp/teb-tail}-$f/teb_tail.ko"
		sed "s/^/$r /" "/tmp/fold-$f/tail.txt" > "$out/tail-$f-$r.txt"
	done
done
