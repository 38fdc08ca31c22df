#!/bin/bash
export RB_CACHE=/var/tmp/rb-subbuf
cd /work/main
/tmp/pad/build.sh 0 16 64 256 1040 2064
for i in 1 2; do for n in 0 16 64 256 1040 2064; do
	rm -rf /tmp/pad/$n-$i
	scripts/vm -q -k $RB_CACHE/build/pad-$n -o /tmp/pad/$n-$i -t 900 -- /tmp/pad/guest.sh > /tmp/pad/$n-$i.log 2>&1
done; done
echo done > /tmp/pad/DONE
