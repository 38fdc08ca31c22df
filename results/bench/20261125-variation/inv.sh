#!/bin/bash
export RB_CACHE=/var/tmp/rb-subbuf
cd /work/main
while pgrep -f "scripts/extended" >/dev/null; do sleep 10; done
O=/tmp/inv; rm -rf $O; mkdir -p $O
for k in uml-legacy-bench ab-old ab-new; do
	scripts/vm -q -k $RB_CACHE/build/$k -o $O/thr-$k -t 1200 -- env REPS=4 RATES=2000000 $RB_CACHE/thr2-guest.sh > $O/thr-$k.log 2>&1
done
for r in 1 2; do for k in uml-legacy-bench uml-subbuf-bench; do
	scripts/vm -q -k $RB_CACHE/build/$k -o $O/lat-$k-$r -t 600 -- env REPS=6 $RB_CACHE/lat-realloc-guest.sh > $O/lat-$k-$r.log 2>&1
done; done
echo done > $O/DONE
