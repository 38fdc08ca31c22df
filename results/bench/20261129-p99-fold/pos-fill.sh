#!/bin/bash
# pos-fill.sh DIR...: from the per-position means (pos-*.txt of
# ../20261127-p99-position/pos.sh), per kernel and size, over every run in
# DIRs: how much the slowest of the 170 positions costs above their median
# (ns), and how much the slower of its two neighbours does.  The slowest is
# the first record of a sub-buffer or page, or the record before it (the
# one that fills it exactly); a second slow record per sub-buffer shows as
# a slow neighbour.  (Which residue is the first record depends on the
# run's history, time extends included, so it is found, not assumed.)
for f in ${KERNELS:-legacy subbuf fold fold2}; do
	for s in 16 1408; do
		for d in "$@"; do
			[ -f "$d/pos-$f.txt" ] || continue
			awk -v s=$s '$1 == s && $3 == "pos" {
				n = 0; for (i = 4; i <= NF; i++) { split($i, p, ":"); v[p[1]] = p[2] / 10; w[++n] = p[2] / 10 }
				for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (w[j] < w[i]) { t = w[i]; w[i] = w[j]; w[j] = t }
				med = (w[int((n + 1) / 2)] + w[int(n / 2) + 1]) / 2
				best = -1; for (r in v) if (v[r] > best) { best = v[r]; at = r }
				a = v[(at + 169) % 170]; b = v[(at + 1) % 170]
				printf "%.1f %.1f\n", best - med, (a > b ? a : b) - med
			}' "$d/pos-$f.txt"
		done | awk -v f=$f -v s=$s '
		{ x[NR] = $1; y[NR] = $2 }
		function srt(a, n,   i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t } }
		END {
			srt(x, NR); srt(y, NR)
			printf "| %s | %d | %d | %.1f (%.1f-%.1f) | %.1f (%.1f-%.1f) |\n", f, s, NR,
				x[int((NR + 1) / 2)], x[1], x[NR], y[int((NR + 1) / 2)], y[1], y[NR]
		}'
	done
done
