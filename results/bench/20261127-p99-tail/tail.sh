#!/bin/bash
# Boots the page-based, sub-buffer and null (../20261127-null-bound) UML
# bench kernels in turn, each running tail-guest.sh with teb_tail.ko built
# out of tree against that kernel (trace_event_bench of the series plus
# tail.diff, with the Kbuild here):
#   w=/var/tmp/teb-tail-F; mkdir $w; cp Kbuild $w
#   cp $TOP/kernel/trace/trace_event_bench.[ch] $w; patch -d $w -p0 < tail.diff
#   make -C $RB_CACHE/build/uml-F-bench M=$w ARCH=um modules
# Usage: tail.sh OUTDIR
set -e
out=$1 d=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$d/../../.." && pwd)
mkdir -p "$out"
for f in legacy subbuf null; do
	rm -rf "/tmp/tail-$f"
	"$top/scripts/vm" -q -k "$RB_CACHE/build/uml-$f-bench" -o "/tmp/tail-$f" -t 900 -- \
		"$d/tail-guest.sh" "/var/tmp/teb-tail-$f/teb_tail.ko"
	cp "/tmp/tail-$f/tail.txt" "$out/tail-$f.txt"
done
