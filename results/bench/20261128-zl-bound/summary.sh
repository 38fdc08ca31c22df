#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# summary.sh subbuf.txt legacy.txt: per kernel, configuration and rate, the
# recordings' written and recorded rates (M events/s), the events the
# buffer overwrote and those left unread at trace-cmd's stop, and the CPU
# shares of the writer and of trace-cmd (run time over the window), and
# trace-cmd's sleeps per second.
for f in "$@"; do
	echo "## ${f%.txt}"
	echo
	echo "| size KiB:percent | rate asked (M/s) | written (M/s) | recorded (M/s) | overrun | unread at stop | writer CPU | trace-cmd CPU | trace-cmd sleeps/s |"
	echo "|---|---|---|---|---|---|---|---|---|"
	awk '!/^#/ && NF >= 18 {
		n = split($NF, tk, ","); sl = 0
		for (i = 1; i <= n; i++) { split(tk[i], x, ":"); sl += x[2] }
		k = $1 ":" $2 " " $3
		if (!(k in seen)) { order[++m] = k; seen[k] = 1 }
		wall = $10 / 1000
		w[k] = w[k] sep[k] sprintf("%.2f", $5 / wall / 1e6)
		r[k] = r[k] sep[k] sprintf("%.2f", $6 / wall / 1e6)
		o[k] = o[k] sep[k] $8; u[k] = u[k] sep[k] $9
		wc[k] = wc[k] sep[k] sprintf("%.0f%%", 100 * $12 / $10)
		tc[k] = tc[k] sep[k] sprintf("%.0f%%", 100 * $11 / $10)
		s[k] = s[k] sep[k] sprintf("%.0f", sl / wall); sep[k] = " / " }
	END { for (i = 1; i <= m; i++) { k = order[i]; split(k, a, " ")
		printf "| %s | %.1f | %s | %s | %s | %s | %s | %s | %s |\n", a[1], a[2] / 1e6,
			w[k], r[k], o[k], u[k], wc[k], tc[k], s[k] } }' "$f"
	echo
done
