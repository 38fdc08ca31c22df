#!/bin/bash
# Summarises pos-*.txt (pos-guest.sh's output): per run the event's mean
# and p99, the median over the 170 residues of the per-residue mean, and
# every residue whose mean is 3 ns or more above that median, as
# "residue:+ns", the slowest first.  Residues are sequence numbers mod 170;
# where a page or sub-buffer starts among them depends on the warm-up.
# Usage: pos-summary.sh FILE...
for f in "$@"; do
	echo "== $(basename "$f" .txt)"
	while read -r size run what rest; do
		case $what in
		result)
			mean=$(echo "$rest" | grep -o 'mean=[0-9.]*')
			p99=$(echo "$rest" | grep -o 'p99=[0-9]*') ;;
		pos)
			vals=$(echo "$rest" | tr ' ' '\n' | grep :)
			n=$(echo "$vals" | wc -l)
			med=$(echo "$vals" | cut -d: -f2 | sort -n |
				awk -v n="$n" '{ v[NR] = $1 } END { print (v[int((n + 1) / 2)] + v[int(n / 2) + 1]) / 20 }')
			slow=$(echo "$vals" | awk -F: -v med="$med" '$2 / 10 - med >= 3 {
				printf "%.1f %d\n", $2 / 10 - med, $1 }' | sort -rn |
				awk '{ printf " %d:+%s", $2, $1 }')
			echo "$size KiB run $run: $mean $p99 median-of-residues=$med ns; slow residues$slow" ;;
		esac
	done < "$f"
done
