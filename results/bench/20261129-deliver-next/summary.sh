#!/bin/bash
# summary.sh DIR...: from run.sh's pos-r*/ directories, (1) the slowest
# position and its slower neighbour per kernel and size
# (../20261129-p99-fold/pos-fill.sh), (2) per round, each kernel's mean and
# p99 over all records divided by the page-based kernel's in the same
# round: median (range) over the rounds.
d=$(cd "$(dirname "$0")" && pwd)
echo "| kernel | KiB | runs | slowest position, ns above the median position | its slower neighbour |"
echo "|---|---|---|---|---|"
KERNELS="legacy subbuf deliv fold2" "$d/../20261129-p99-fold/pos-fill.sh" "$@"
echo
echo "| kernel | KiB | rounds | mean / page-based | p99 / page-based |"
echo "|---|---|---|---|---|"
for f in subbuf deliv fold2; do
	for s in 16 1408; do
		for r in "$@"; do
			for k in legacy $f; do
				awk -v s="$s" '$1 == s && $3 == "result" {
					for (i = 4; i <= NF; i++) {
						split($i, p, "=")
						if (p[1] == "mean") m += p[2]
						if (p[1] == "p99") q += p[2]
					}
				} END { printf "%s %s ", m, q }' "$r/pos-$k.txt"
			done
			echo
		done | awk -v f=$f -v s=$s '
		function srt(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } }
		function med(a, n) { return (a[int((n + 1) / 2)] + a[int(n / 2) + 1]) / 2 }
		{ rm[NR] = $3 / $1; rq[NR] = $4 / $2 }
		END {
			srt(rm, NR); srt(rq, NR)
			printf "| %s | %d | %d | %.3f (%.3f-%.3f) | %.3f (%.3f-%.3f) |\n", f, s, NR,
				med(rm, NR), rm[1], rm[NR], med(rq, NR), rq[1], rq[NR]
		}'
	done
done
