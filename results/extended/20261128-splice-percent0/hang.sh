#!/bin/bash
. "$RB_TOP/scripts/guest/lib.sh"
t=/sys/kernel/tracing p=/sys/module/trace_event_bench/parameters
teb_rate_setup || exit 1
for pct in ${PCTS:-50 0}; do
for rate in ${RATES:-100000 3000000}; do
echo "== percent $pct rate $rate"
echo $pct > $t/buffer_percent; cat $t/buffer_percent
teb_rate_start /tmp/h.dat /tmp/h.log
pid=$teb_pid
echo $rate > $p/rate; sleep 2; echo 0 > $p/rate; cat $p/written
sleep 0.5
kill -INT $pid
for i in $(seq 20); do kill -0 $pid 2>/dev/null || break; sleep 0.5; done
if kill -0 $pid 2>/dev/null; then
	echo "HUNG after 10 s"
	for q in /proc/[0-9]*; do c=$(cat $q/comm 2>/dev/null); [ "$c" = trace-cmd ] || continue
		echo "${q#/proc/} state $(awk '{print $3}' $q/stat) wchan $(cat $q/wchan 2>/dev/null)"; cat $q/stack 2>/dev/null; done
	cat /tmp/h.log | tail -5
	for q in /proc/[0-9]*; do c=$(cat $q/comm 2>/dev/null); [ "$c" = trace-cmd ] && kill -9 ${q#/proc/}; done
	sleep 1
else
	wait $pid; echo "exit $? rec $(trace-cmd report -i /tmp/h.dat 2>/dev/null | grep -c ' teb_event: ')"
fi
done
done
echo 50 > $t/buffer_percent
