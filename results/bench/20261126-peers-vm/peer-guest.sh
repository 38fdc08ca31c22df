#!/bin/bash
# Guest command of the peers-only run: the getppid() syscall events under
# ftrace alone (sysbench.sh) and beside perf and LTTng (peerbench.sh),
# CALLS calls per loop (first argument), as scripts/bench -p vm runs them,
# without the other benchmarks of its boots.
d=/work/main/scripts/guest
export RB_TOP=/work/main
: > "$RB_OUT/metrics.txt"
"$d/sysbench.sh" "$1" || exit 1
"$d/peerbench.sh" "$1" || exit 1
cat "$RB_OUT/metrics.txt"
