#!/bin/bash
export RB_CACHE=/var/tmp/rb-subbuf
cd /work/main
for i in 1 2; do for v in old new; do
	rm -rf /tmp/ab/$v-$i
	scripts/vm -q -k $RB_CACHE/build/ab-$v -o /tmp/ab/$v-$i -t 900 -- /tmp/ab/guest.sh > /tmp/ab/$v-$i.log 2>&1
done; done
echo done > /tmp/ab/DONE
