#!/bin/bash
# Kept as it ran from /tmp/upad/ (scripts/build --pad of d024357).
export RB_CACHE=/var/tmp/rb-subbuf
cd /work/main
for f in subbuf legacy; do
	for p in 0 1024 2064 3104; do
		/usr/bin/time -f "%e s" ./scripts/build -p um -f $f -v bench --pad $p > /tmp/upad/build1-$f-$p.log 2>&1 || echo "FAIL $f $p" >> /tmp/upad/FAIL
	done
done
touch /tmp/upad/BUILD1-DONE
