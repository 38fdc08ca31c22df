#!/bin/bash
# compare.sh A B [PLATFORM]: the median subbuf/legacy ratio of every metric
# of PLATFORM (uml, the default, or vm) in the Summary tables of two
# scripts/bench runs' README.md, side by side, the difference, and whether
# it is within 0.05 (issue #18's reproducibility bar).
# Usage: compare.sh RUNDIR-A RUNDIR-B [uml|vm]
set -e
plat=${3:-uml}
case $#:$plat in
2:uml | 3:uml | 3:vm) ;;
*) echo "usage: compare.sh RUNDIR-A RUNDIR-B [uml|vm]" >&2; exit 2 ;;
esac
ratios() { # ratios README: "metric<TAB>median ratio" of its Summary table
	awk -F' [|] ' -v p="| $plat " '/^## / { on = /^## Summary/ }
		on && index($0, p) == 1 && NF >= 6 { split($6, r, " / "); print $2 "\t" r[2] }' "$1"
}
join -t "$(printf '\t')" <(ratios "$1/README.md" | sort) <(ratios "$2/README.md" | sort) |
	awk -F'\t' '{ d = $3 - $2; if (d < 0) d = -d
		printf "| %s | %s | %s | %.3f | %s |\n", $1, $2, $3, d, d <= 0.05 ? "yes" : "no" }'
