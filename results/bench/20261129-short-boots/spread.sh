#!/bin/bash
# spread.sh RUNDIR...: for each scripts/bench run, the interquartile range
# of the round-by-round subbuf/legacy ratios of six figures (how far one
# round's ratio moves), from its metrics-placements.txt.
echo "| run | rbb reader | rbb no reader | tracepoint | 4-byte 16 KiB mean | 4-byte 1408 KiB mean | floor |"
echo "|---|---|---|---|---|---|---|"
for d in "$@"; do
	printf '| %s' "$(basename "$d")"
	for m in rbb.reader.ns rbb.noreader.ns tp.ns lat.16k.local.1cpu.mean \
		 lat.1408k.local.1cpu.mean lat.floor.1cpu.mean; do
		awk -v m=$m '$5 == m { v[$2, $3] = $6; r[$3] = 1 }
			END { for (i in r) if (v["subbuf", i] != "" && v["legacy", i] > 0)
				print v["subbuf", i] / v["legacy", i] }' "$d/metrics-placements.txt" |
			sort -g | awk '{ x[++n] = $1 }
				END { printf " | %.3f", x[int(n * 3 / 4 + 0.5)] - x[int(n / 4 + 0.5)] }'
	done
	echo " |"
done
