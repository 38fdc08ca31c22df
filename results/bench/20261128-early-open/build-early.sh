#!/bin/bash
# Builds a kernel with early-open.diff (here) applied to the series'
# kernel/trace/ring_buffer_subbuf.c: an experiment, never part of the
# series.  It patches the source tree scripts/build uses for that platform
# (holding scripts/build's UML tree lock either way), builds a copy of
# scripts/build's build directory of the same kernel without the diff
# incrementally, and puts the file back.
#   um        $RB_CACHE/build/uml-early-bench from uml-subbuf-bench (tree
#             $RB_CACHE/uml-src; run `scripts/build -p um -f subbuf -v
#             bench` first)
#   x86-test  $RB_CACHE/build/early-test from subbuf-test (tree
#             $RB_CACHE/linux; run `scripts/build -f subbuf -v test` first)
# Usage: build-early.sh um|x86-test
set -e
usage="usage: build-early.sh um|x86-test"
d=$(cd "$(dirname "$0")" && pwd)
case "${1:-}" in
-h) echo "$usage"; exit 0 ;;
um) src=uml-src from=uml-subbuf-bench O=uml-early-bench arch=um targets="linux modules" ;;
x86-test) src=linux from=subbuf-test O=early-test arch=x86_64 targets="bzImage modules" ;;
*) echo "$usage" >&2; exit 2 ;;
esac
[ $# = 1 ] || { echo "$usage" >&2; exit 2; }
: "${RB_CACHE:?}"
src=$RB_CACHE/$src O=$RB_CACHE/build/$O
f=kernel/trace/ring_buffer_subbuf.c
exec 9> "$RB_CACHE/uml-src.lock"
flock 9
git -C "$src" diff --quiet -- $f || { echo "build-early: $src/$f is modified" >&2; exit 1; }
rm -rf "$O"
cp -a "$RB_CACHE/build/$from" "$O"
trap 'git -C "$src" checkout -- $f' EXIT
patch -s -d "$src" -p0 "$f" < "$d/early-open.diff"
# shellcheck disable=SC2086
make -s -C "$src" O="$O" ARCH=$arch CC="ccache gcc" HOSTCC="ccache gcc" -j2 $targets
rm -rf "$O/modroot"
make -s -C "$src" O="$O" ARCH=$arch INSTALL_MOD_PATH="$O/modroot" modules_install > /dev/null
echo "$O"
