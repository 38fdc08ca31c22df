#!/bin/bash
# summary.sh METRICS [KERNEL...]: per metric, each kernel's runs (rounds in
# order) and median, and the ratios of the other kernels' medians to the
# first's.  With a kernel "null" among them, also each other kernel's own
# buffer part (kernel - null), the first kernel's last.  Kernels: those
# of nb.sh (default: legacy subbuf null).
m=$1
shift
awk -v kernels="${*:-legacy subbuf null}" '
function med(k,   n, a, i, j, t) {
	n = split(v[k], a, " ")
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++)
		if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function name(f) { return f == "legacy" ? "page-based" : f == "subbuf" ? "sub-buffer" : f }
{ k = $1 SUBSEP $3; v[k] = v[k] " " $4; if (!($3 in seen)) { seen[$3] = 1; order[++m] = $3 } }
END {
	nk = split(kernels, K, " ")
	null = 0
	for (j = 1; j <= nk; j++) if (K[j] == "null") null = j
	# the buffer part: the kernels after the first, then the first
	np = 0
	for (j = 2; j <= nk; j++) if (j != null) P[++np] = K[j]
	P[++np] = K[1]
	h = "| metric | " name(K[1]) " (runs; median) |"; sep = "|---|---|"
	for (j = 2; j <= nk; j++) { h = h " " name(K[j]) " |"; sep = sep "---|" }
	for (j = 2; j <= nk; j++) { h = h " " name(K[j]) " / " name(K[1]) " |"; sep = sep "---|" }
	if (null) {
		h = h " buffer part:"
		for (j = 1; j <= np; j++) h = h (j > 1 ? " /" : "") " " name(P[j]) " - null"
		h = h " |"; sep = sep "---|"
	}
	print h; print sep
	for (i = 1; i <= m; i++) {
		x = order[i]
		for (j = 1; j <= nk; j++) M[j] = med(K[j] SUBSEP x)
		line = "| " x " |"
		for (j = 1; j <= nk; j++) line = line v[K[j] SUBSEP x] "; " M[j] " |"
		for (j = 2; j <= nk; j++) line = line sprintf(" %.3f |", M[1] ? M[j] / M[1] : 0)
		if (null) {
			for (j = 1; j <= np; j++) {
				for (q = 1; q <= nk; q++) if (K[q] == P[j]) y = M[q]
				line = line sprintf("%s %.1f", j > 1 ? " /" : "", y - M[null])
			}
			line = line " ns |"
		}
		print line
	}
}' "$m"
