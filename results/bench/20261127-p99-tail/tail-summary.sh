#!/bin/bash
# tail-summary.sh TAIL.TXT: per size and run, the slow samples' share, how
# they fall by sequence number mod 4, and the residues mod 255 that hold
# the most of them, with the share of the slow samples there.  (tail.diff
# chose 255 for 16-byte records; the records are 24 bytes, 170 per
# sub-buffer, so one position shows as three residues 85 apart.)
awk '
$3 == "result" { for (i = 4; i <= NF; i++) if ($i ~ /^(p90|p99|mean)=/) r[$1 " " $2] = r[$1 " " $2] " " $i }
$3 ~ /^slow_ns=/ {
	k = $1 " " $2; split($4, a, "="); kept = a[2]; split($5, b, "="); slow = b[2]
	n = 0; delete c
	for (i = 8; i <= NF; i++) { split($i, p, ":"); c[p[1]] = p[2]; n++ }
	# the five largest residues
	top = ""; cum = 0
	for (t = 1; t <= 5; t++) {
		best = -1; bv = 0
		for (x in c) if (c[x] > bv) { bv = c[x]; best = x }
		if (best < 0) break
		top = top sprintf(" %s:%d", best, bv); cum += bv; delete c[best]
	}
	printf "%s KiB run %s:%s %s slow %d of %d (%.2f%%), %s, residues with any %d; top five%s = %.0f%% of slow\n",
		$1, $2, r[k], $3, slow, kept, 100 * slow / kept, $6, n, top, slow ? 100 * cum / slow : 0
}' "$1"
