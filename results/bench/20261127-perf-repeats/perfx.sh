#!/bin/bash
# Where perf record's extra getppid() records come from (peerthr.sh counts
# up to 0.08% more records of the writers than calls they made).  Per rate:
# writers as peerthr.sh's, but each writer's calls kept by its pid; perf
# record as peerthr.sh runs it; then perf report's count (peerthr.sh's before),
# perf script's records per pid and event, and records that appear twice.
# RATES: events/s per CPU (default 200000 500000 500000).  DUMP=1: also
# perf's raw dump: is a repeated record in the file twice (two offsets)?
. "$RB_TOP/scripts/guest/lib.sh"
secs=2 ncpu=$(nproc)
tmp=/tmp/perfx
rm -rf $tmp; mkdir -p $tmp
bin=$tmp/sysloop
sysloop_setup $bin
cat > $tmp/writers <<EOS
#!/bin/bash
for c in \$(seq 0 $((ncpu - 1))); do
	taskset -c \$c $bin -r \$((\$1 / 2)) $secs > $tmp/calls.tmp.\$c &
	echo \$! \$c >> $tmp/pids
done
wait
for c in \$(seq 0 $((ncpu - 1))); do
	echo "\$(awk -v c=\$c '\$2 == c { print \$1 }' $tmp/pids) \$(cat $tmp/calls.tmp.\$c)"
done > $tmp/calls
EOS
chmod +x $tmp/writers
for rate in ${RATES:-200000 500000 500000}; do
	rm -f $tmp/pids $tmp/calls
	perf record -q -a -m 256 -o $tmp/p.data -e syscalls:sys_enter_getppid \
		-e syscalls:sys_exit_getppid -- $tmp/writers "$rate" > $tmp/rec.log 2>&1
	echo "## rate $rate"
	echo "# writers: pid calls"; cat $tmp/calls
	w=$(awk '{ n += 2 * $2 } END { print n }' $tmp/calls)
	r=$(perf report -i $tmp/p.data --sort comm -n --stdio -q 2> /dev/null |
		awk '$3 == "sysloop" { n += $2 } END { print n + 0 }')
	echo "written $w, perf report (sysloop) $r, excess $((r - w))"
	echo "# perf report --sort comm,pid -n"
	perf report -i $tmp/p.data --sort comm,pid -n --stdio -q 2> /dev/null | grep -v '^$' | head -20
	perf report -i $tmp/p.data --stats 2> /dev/null | grep -E 'SAMPLE|LOST|TOTAL'
	perf script -i $tmp/p.data --ns -F comm,tid,cpu,time,event > $tmp/s.txt 2> $tmp/script.log
	echo "# perf script: records per comm/pid and event"
	awk '{ k = $1 " " $2 " " $NF; n[k]++ } END { for (k in n) print k, n[k] }' $tmp/s.txt | sort
	echo "# records that appear more than once (same task, cpu, time, event): $(sort $tmp/s.txt | uniq -d | wc -l)"
	sort $tmp/s.txt | uniq -d | head -5
	echo "# per writer: enter - calls, exit - calls"
	while read -r pid calls; do
		e=$(awk -v p=$pid '$2 == p && /sys_enter/' $tmp/s.txt | wc -l)
		x=$(awk -v p=$pid '$2 == p && /sys_exit/' $tmp/s.txt | wc -l)
		echo "pid $pid: calls $calls, enter $e ($((e - calls))), exit $x ($((x - calls)))"
	done < $tmp/calls
	if [ -n "${DUMP:-}" ]; then
		echo "# perf report -D: SAMPLE records; same cpu, time and task more than once, and at how many file offsets"
		perf report -D -i $tmp/p.data 2> /dev/null | grep 'PERF_RECORD_SAMPLE' > $tmp/d.txt
		echo "samples in the file: $(wc -l < $tmp/d.txt)"
		awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\/[0-9]+:$/) t = $i; k = $1 " " $2 " " t; n[k]++; o[k] = o[k] " " $3 }
			END { for (k in n) if (n[k] > 1) { d++; if (d <= 5) print k, "offsets" o[k] } print "repeated:", d + 0 }' $tmp/d.txt
	fi
	rm -f $tmp/p.data $tmp/s.txt
done
