#!/bin/bash
# fold-summary.sh OUTDIR: per kernel (legacy, subbuf, fold, fold2) and size, over
# every counting run of every round: the median and range of the runs'
# mean, p90 and p99 (ns), and how many residues per run hold 1000 or more
# slow samples (>= p90 + 8 ns).  The records are 24 bytes, 170 per
# sub-buffer or page; tail.diff counts slow samples by sequence number mod
# 255, so one slow position of the sub-buffer shows as three residues 85
# apart, each with about 10^6 / 170 / 3 = 1960 samples if that position is
# always slow: three residues a run for one slow record per sub-buffer,
# six for two.
d=$1
# med(LIST, FMT): "median (min-max)" of the numbers in LIST, each printed
# with FMT; shared by both tables' awk programs.
med='
function med(list, fmt,   a, n, i, j, t) {
	n = split(list, a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return sprintf(fmt " (" fmt "-" fmt ")", n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2, a[1], a[n])
}'
for f in legacy subbuf fold fold2; do
	cat "$d"/tail-$f-*.txt 2>/dev/null | awk -v f=$f "$med"'
	$4 == "result" {
		for (i = 5; i <= NF; i++) {
			split($i, kv, "=")
			if (kv[1] == "mean" || kv[1] == "p90" || kv[1] == "p99")
				v[$2 " " kv[1]] = v[$2 " " kv[1]] " " kv[2]
		}
		runs[$2]++
	}
	$4 ~ /^slow_ns=/ {
		hot = 0; split($6, b, "=")
		for (i = 8; i <= NF; i++) { split($i, p, ":"); if (p[2] >= 1000) hot++ }
		h[$2] = h[$2] " " hot
		sl[$2] = sl[$2] " " sprintf("%.2f", 100 * b[2] / 1000000)
	}
	END {
		for (s = 16; s <= 1408; s += 1392)
			printf "| %s | %d | %d | %s | %s | %s | %s | %s |\n", f, s, runs[s],
				med(v[s " mean"], "%s"), med(v[s " p90"], "%s"), med(v[s " p99"], "%s"),
				med(sl[s], "%s"), med(h[s], "%s")
	}'
done

# Then, round by round (the boots of a round run back to back): each boot's
# median over its three counting runs of mean and p99, divided by the
# page-based boot's of that round; the median and range of those ratios.
# boot_stat FILE SIZE: "MEAN P99", medians of the three counting runs.
boot_stat() {
	local st
	for st in mean p99; do
		awk -v s="$2" -v st=$st '$2 == s && $4 == "result" {
			for (i = 5; i <= NF; i++) { split($i, kv, "="); if (kv[1] == st) print kv[2] }
		}' "$1" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
	done | paste -sd' '
}
echo
echo "| kernel | KiB | rounds | mean / page-based | p99 / page-based |"
echo "|---|---|---|---|---|"
for f in subbuf fold fold2; do
	for s in 16 1408; do
		for t in "$d"/tail-$f-*.txt; do
			[ -f "$t" ] || continue
			r=${t##*-}; r=${r%.txt}
			[ -f "$d/tail-legacy-$r.txt" ] || continue
			echo "$(boot_stat "$d/tail-legacy-$r.txt" $s) $(boot_stat "$t" $s)"
		done | awk -v f=$f -v s=$s "$med"'
		NF == 4 { rm = rm " " $3 / $1; rp = rp " " $4 / $2; n++ }
		END { if (n) printf "| %s | %d | %d | %s | %s |\n", f, s, n, med(rm, "%.3f"), med(rp, "%.3f") }'
	done
done
