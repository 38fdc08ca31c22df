#!/bin/bash
# Boot two kernels in turn, old then new, BOOTS times each, each boot
# running GUEST (a guest command: it gets $RB_OUT from scripts/vm).
# Usage: ab.sh PREFIX GUEST BOOTS OUT [GUEST-ARGS...]
#   the kernels are $RB_CACHE/build/PREFIX-old and PREFIX-new
# Run here as:
#   ab.sh abx tcg/ab-guest.sh 3 /tmp/abx/out 3     (sets 1, 2; set 3 with
#                                                   abx-new2, the final patch)
#   ab.sh abu uml/ab-guest.sh 3 /tmp/abu/out
export RB_CACHE=${RB_CACHE:-/var/tmp/rb-subbuf}
prefix=$1 guest=$(realpath "$2") boots=$3 out=$4
shift 4
cd /work/main || exit 1
mkdir -p "$out"
for i in $(seq "$boots"); do for v in old new; do
	rm -rf "$out/$v-$i"
	scripts/vm -q -k "$RB_CACHE/build/$prefix-$v" -o "$out/$v-$i" -t 900 -- \
		"$guest" "$@" > "$out/$v-$i.log" 2>&1
done; done
echo done > "$out/DONE"
