#!/bin/bash
# The host's 1408 KiB pointer chase (scripts/lib/hostref.c) as it is, on
# 4 KiB pages, and with its lines on one 2 MiB page (2 MiB aligned,
# madvise(MADV_HUGEPAGE)), alternating, N runs each (default 10); the
# variant also prints its AnonHugePages, to show the huge page was used.
set -e
n=${1:-10}
src=$(dirname "$0")/../../../scripts/lib/hostref.c
w=$(mktemp -d)
gcc -O2 -o "$w/4k" "$src"
sed -e 's|if (posix_memalign((void \*\*)&lines, 4096, n \* sizeof(\*lines)))|if (posix_memalign((void **)\&lines, 2 << 20, 2 << 20) \|\| madvise(lines, 2 << 20, MADV_HUGEPAGE))|' \
	-e 's|^#include <time.h>|#include <time.h>\n#include <unistd.h>\n#include <sys/mman.h>|' \
	-e 's|^\tchase_ns(start);.*|&\n\t{ char c[64]; snprintf(c, sizeof(c), "grep AnonHuge /proc/%d/smaps_rollup", getpid()); if (system(c)) return 1; }|' \
	"$src" > "$w/2m.c"
grep -q MADV_HUGEPAGE "$w/2m.c"
gcc -O2 -o "$w/2m" "$w/2m.c"
for i in $(seq "$n"); do
	echo "4k $("$w/4k" | tr '\n' ' ')"
	echo "2m $("$w/2m" | tr -s ' \n' ' ')"
done
rm -rf "$w"
