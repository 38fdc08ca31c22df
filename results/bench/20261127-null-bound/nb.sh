#!/bin/bash
# How low could any buffer take the native (UML) figures of issue #18?
# Boots, in turn, the page-based ("legacy") and sub-buffer ("subbuf") UML
# bench kernels of scripts/build and a "null" kernel: the sub-buffer one
# with null-buffer.diff applied (reserve = checks, recursion lock, one
# clock read and a record header written to a per-CPU scratch area;
# commit = unlock), built by hand into $RB_CACHE/build/uml-null-bench:
#   git -C $RB_CACHE/linux worktree add --detach /var/tmp/rb-null series
#   cd /var/tmp/rb-null; for p in $TOP/scripts/uml/*.patch \
#     $TOP/results/bench/20261127-null-bound/null-buffer.diff; do git apply $p; done
#   O=$RB_CACHE/build/uml-null-bench; mkdir -p $O
#   cp $RB_CACHE/build/uml-subbuf-bench/{.config,.rb-platform} $O
#   make O=$O ARCH=um CC="ccache gcc" -j2 linux modules
#   make O=$O ARCH=um INSTALL_MOD_PATH=$O/modroot modules_install
# Any other UML bench kernels can be named instead, booted in that order
# ($RB_CACHE/build/uml-F-bench for each F; ../20261127-p99-position/).
# Usage: nb.sh ROUNDS OUTDIR [F...]   (default: legacy subbuf null)
set -e
rounds=$1 out=$2
shift 2
top=$(cd "$(dirname "$0")/../../.." && pwd)
mkdir -p "$out"
for r in $(seq 1 "$rounds"); do
	for f in ${@:-legacy subbuf null}; do
		run=/tmp/nb/$f-$r
		rm -rf "$run"
		"$top/scripts/vm" -q -k "$RB_CACHE/build/uml-$f-bench" -o "$run" -t 1800 -- \
			"$top/results/bench/20261127-null-bound/nb-guest.sh"
		awk -v f=$f -v r=$r 'NF == 2 { print f, r, $1, $2 }' "$run/metrics.txt" >> "$out/metrics.txt"
		cat "$run/rbb-raw-all.txt" "$run/lat-raw.txt" > "$out/raw-$f-$r.txt"
		echo "$(date -u +%H:%M) $f $r done"
	done
done
