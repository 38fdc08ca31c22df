#!/bin/bash
# Kept as it ran from /tmp/upad/ (scripts/build --pad of d024357).
export RB_CACHE=/var/tmp/rb-subbuf
cd /work/main
for pass in 1 2; do
	for p in 0 1024 2064 3104; do
		for f in legacy subbuf; do
			k=uml-$f-bench; [ $p = 0 ] || k=$k+pad$p
			o=/tmp/upad/$f-$p-$pass
			rm -rf $o
			echo "$(date +%T) $f $p $pass" >> /tmp/upad/run.log
			./scripts/vm -q -k $RB_CACHE/build/$k -o $o -t 900 -- /tmp/upad/guest.sh > $o.out 2>&1 || echo "FAIL $f $p $pass" >> /tmp/upad/run.log
		done
	done
done
echo "$(date +%T) done" >> /tmp/upad/run.log
touch /tmp/upad/RUN-DONE
