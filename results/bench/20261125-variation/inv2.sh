#!/bin/bash
export RB_CACHE=/var/tmp/rb-subbuf
cd /work/main
while pgrep -f "scripts/test" >/dev/null; do sleep 10; done
O=/tmp/inv2; rm -rf $O; mkdir -p $O
for r in 1 2; do for k in ab-old ab-new; do
	scripts/vm -q -k $RB_CACHE/build/$k -o $O/thr-$k-$r -t 1200 -- env REPS=5 RATES=2000000 $RB_CACHE/thr2-guest.sh > $O/thr-$k-$r.log 2>&1
done; done
echo done > $O/DONE
scripts/extended --only kcsan -f subbuf -s 120 -o results/extended/20261125-kcsan-rerun > /tmp/ext2.log 2>&1
echo "extended rc=$?" >> /tmp/ext2.log
