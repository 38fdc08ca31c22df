#!/bin/bash
# lower-median.sh RUNDIR...: for each scripts/bench run with an even number
# of rounds, per UML/VM metric of a per-event cost (ring_buffer_benchmark,
# tracepoint benchmark, 4-byte event mean and p99; not the floor), the
# subbuf/legacy ratio's median as the report printed it before 2026-11-30
# (the lower of the two middle ratios, each rounded to 3 decimals) and as it
# prints it now (their mean): "run rounds metric old new new-old".
for r in "$@"; do
	awk '$4 ~ /^(rbb|tp)|\.mean$|\.p99$/ && $4 !~ /floor/ {
		k = $1 " " $4; v[k, $2, $3] = $5; m[k] = 1; rd[$3] = 1
	}
	END {
		for (k in m) {
			n = 0
			split("", a)
			for (i in rd)
				if (v[k, "legacy", i] > 0 && v[k, "subbuf", i] != "")
					a[++n] = sprintf("%.3f", v[k, "subbuf", i] / v[k, "legacy", i])
			if (n < 2 || n % 2)
				continue
			for (i = 1; i <= n; i++)
				for (j = i + 1; j <= n; j++)
					if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
			h = n / 2
			printf "%s %d %s %.3f %.4f %.4f\n", run, n, k, a[h], (a[h] + a[h + 1]) / 2,
				(a[h] + a[h + 1]) / 2 - a[h]
		}
	}' run="${r%/}" run="$(basename "$r")" "$r/metrics.txt" | sort -k3
done
