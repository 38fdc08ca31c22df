#!/bin/bash
# medians.sh RUNDIR...: the median subbuf/legacy ratio and its 95% interval
# of the headline figures, one column per run, from each run's README.md
# ("How sure the medians are", written by scripts/bench for 6+ rounds).
figs=("ring_buffer_benchmark with its reader" "ring_buffer_benchmark without reader"
	"tracepoint benchmark" "16k/CPU, clock local, 1 CPU(s), mean ns"
	"1408k/CPU, clock local, 1 CPU(s), mean ns" "16k/CPU, clock local, 1 CPU(s), p99 ns"
	"1408k/CPU, clock local, 1 CPU(s), p99 ns")
printf '| figure'; for d in "$@"; do printf ' | %s' "$(basename "$d")"; done; echo " | spread of the medians |"
printf '|---'; for d in "$@"; do printf '|---'; done; echo '|---|'
for f in "${figs[@]}"; do
	printf '| %s' "$f"
	meds=()
	for d in "$@"; do
		line=$(sed -n '/^## How sure/,/^## /p' "$d/README.md" | grep -F "$f" | head -1)
		med=$(echo "$line" | awk -F' [|] ' '{ print $3 }')
		int=$(echo "$line" | awk -F' [|] ' '{ print $4 }')
		meds+=("$med")
		printf ' | %s (%s)' "$med" "$int"
	done
	printf ' | %s |\n' "$(printf '%s\n' "${meds[@]}" | sort -g | sed -n '1p;$p' | paste -sd' ' |
		awk '{ printf "%.3f", $2 - $1 }')"
done
