#!/bin/bash
# Boots the UML bench kernels named (default: legacy subbuf null) in turn,
# each running ../20261127-p99-tail/tail-guest.sh with teb_pos.ko built out of tree against that
# kernel (trace_event_bench of the series plus pos.diff, with the Kbuild
# here):
#   w=/var/tmp/teb-pos-F; mkdir $w; cp Kbuild $w
#   cp $TOP/kernel/trace/trace_event_bench.[ch] $w; patch -d $w -p0 < pos.diff
#   make -C $RB_CACHE/build/uml-F-bench M=$w ARCH=um modules
# Usage: pos.sh OUTDIR [FLAVOUR...]
set -e
out=$1 d=$(cd "$(dirname "$0")" && pwd)
shift
top=$(cd "$d/../../.." && pwd)
mkdir -p "$out"
for f in ${@:-legacy subbuf null}; do
	rm -rf "/tmp/pos-$f"
	"$top/scripts/vm" -q -k "$RB_CACHE/build/uml-$f-bench" -o "/tmp/pos-$f" -t 900 -- \
		"$d/../20261127-p99-tail/tail-guest.sh" "/var/tmp/teb-pos-$f/teb_pos.ko"
	cp "/tmp/pos-$f/pos.txt" "$out/pos-$f.txt"
done
