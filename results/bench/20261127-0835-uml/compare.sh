#!/bin/bash
# compare.sh A B: the median subbuf/legacy ratio of every uml (native)
# metric in the Summary tables of two scripts/bench runs' README.md, side
# by side, the difference, and whether it is within 0.05 (issue #18's
# reproducibility bar).  Usage: compare.sh RUNDIR-A RUNDIR-B
set -e
[ $# = 2 ] || { echo "usage: compare.sh RUNDIR-A RUNDIR-B" >&2; exit 2; }
ratios() { # ratios README: "metric<TAB>median ratio" of its Summary table
	awk -F' [|] ' '/^## Summary/ { on = 1 } /^## Across/ { on = 0 }
		on && /^[|] uml/ && NF >= 6 { split($6, r, " / "); print $2 "\t" r[2] }' "$1"
}
join -t "$(printf '\t')" <(ratios "$1/README.md" | sort) <(ratios "$2/README.md" | sort) |
	awk -F'\t' '{ d = $3 - $2; if (d < 0) d = -d
		printf "| %s | %s | %s | %.3f | %s |\n", $1, $2, $3, d, d <= 0.05 ? "yes" : "no" }'
