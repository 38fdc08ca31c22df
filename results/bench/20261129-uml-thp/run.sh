#!/bin/bash
# THP experiment (UML): the guest's physical memory (UML's tempfile,
# TMPDIR) on /dev/shm (4 KiB pages, shmem_enabled=never) or on a tmpfs
# mounted huge=always (2 MiB pages); legacy and subbuf alternating.
export RB_CACHE=/var/tmp/rb-subbuf
cd /work/main
for pass in 1 2; do
	for back in 4k huge; do
		for f in legacy subbuf; do
			o=/tmp/thp/$f-$back-$pass
			rm -rf $o
			dir=/dev/shm; [ $back = huge ] && dir=/var/tmp/umlhuge
			echo "$(date +%T) $f $back $pass $(/work/main/out/hostref | tr '\n' ' ')" >> /tmp/thp/run.log
			( sleep 40; grep -E 'ShmemHugePages|Shmem:' /proc/meminfo | tr -s ' ' | tr '\n' ' ' > $o.mem ) &
			TMPDIR=$dir ./scripts/vm -q -k $RB_CACHE/build/uml-$f-bench -o $o -t 900 -- /tmp/thp/guest.sh > $o.out 2>&1 || echo "FAIL $f $back $pass" >> /tmp/thp/run.log
			wait
		done
	done
done
echo "$(date +%T) done" >> /tmp/thp/run.log
touch /tmp/thp/RUN-DONE
