#!/bin/bash
# basic2.tc + wakeup_rt.tc in the single tier: the old runner (main), then the new one (s60)
echo 19 > /proc/$$/autogroup
for tree in main s60; do
	cd /work/$tree
	RB_TCG_THREAD=single RB_CACHE=/var/tmp/rb-subbuf scripts/vm -q -k /var/tmp/rb-subbuf/build/subbuf-test \
		-o /work/runs/s60/ftpair-$tree -t 2400 -- env RB_SUITE=ftracetest RB_FT_TIER=single \
		RB_FT_FILTER='basic2|wakeup_rt' /work/$tree/scripts/guest/suite.sh
	echo "$tree rc=$?"
	cat /work/runs/s60/ftpair-$tree/ftracetest.txt
done
