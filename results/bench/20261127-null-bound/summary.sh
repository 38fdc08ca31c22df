#!/bin/bash
# summary.sh METRICS: per metric, each kernel's runs (rounds in order) and
# median, the ratios of the medians to the page-based kernel's, and the
# buffer's own part (kernel - null) of each.
awk '
function med(k,   n, a, i, j, t) {
	n = split(v[k], a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{ k = $1 SUBSEP $3; v[k] = v[k] " " $4; if (!($3 in seen)) { seen[$3] = 1; order[++m] = $3 } }
END {
	print "| metric | page-based (runs; median) | sub-buffer | null | sub-buffer / page-based | null / page-based | buffer part: sub-buffer - null / page-based - null |"
	print "|---|---|---|---|---|---|---|"
	for (i = 1; i <= m; i++) {
		x = order[i]
		L = med("legacy" SUBSEP x); S = med("subbuf" SUBSEP x); N = med("null" SUBSEP x)
		printf "| %s |%s; %s |%s; %s |%s; %s | %.3f | %.3f | %.1f / %.1f ns |\n", x,
			v["legacy" SUBSEP x], L, v["subbuf" SUBSEP x], S, v["null" SUBSEP x], N,
			L ? S / L : 0, L ? N / L : 0, S - N, L - N
	}
}' "$1"
