#!/bin/bash
# norm.sh DIR...: for each run of scripts/bench -p uml, the median over
# its rounds of the subbuf/legacy ratio of five per-event costs, raw and
# divided by the same round's floor ratio (lat.floor.1cpu.mean: two clock
# reads around a disabled event, no buffer touched), "raw / divided".
for d in "$@"; do
	awk -v d="$(basename "$d")" '
	$1 == "uml" { v[$2, $3, $4] = $5; r[$3] = 1 }
	function median(a, n,   i, j, t) {
		for (i = 1; i <= n; i++)
			for (j = i + 1; j <= n; j++)
				if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return a[int((n + 1) / 2)]
	}
	END {
		n = split("rbb.noreader.ns rbb.reader.ns tp.ns lat.1408k.local.1cpu.mean lat.16k.local.1cpu.mean", ms, " ")
		line = d
		for (k = 1; k <= n; k++) {
			m = ms[k]; c = 0
			for (i = 1; i in r; i++) {
				fl = v["subbuf", i, "lat.floor.1cpu.mean"] / v["legacy", i, "lat.floor.1cpu.mean"]
				x = v["subbuf", i, m] / v["legacy", i, m]
				c++; raw[c] = x; div[c] = x / fl
			}
			line = line sprintf(" | %s %.3f / %.3f", m, median(raw, c), median(div, c))
		}
		print line
	}' "$d/metrics.txt"
done
