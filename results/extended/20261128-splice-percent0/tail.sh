#!/bin/bash
. "$RB_TOP/scripts/guest/lib.sh"
t=/sys/kernel/tracing p=/sys/module/trace_event_bench/parameters
teb_rate_setup || exit 1
for pct in ${PCTS:-0 50}; do
echo "== percent $pct"
echo $pct > $t/buffer_percent
teb_rate_start /tmp/h.dat /tmp/h.log
pid=$teb_pid
echo 100000 > $p/rate; sleep 2; echo 0 > $p/rate; w=$(cat $p/written)
sleep 0.5
echo "before kill: $(grep -E '^(entries|overrun|read events)' $t/per_cpu/cpu0/stats | tr '\n' ' ')"
kill -INT $pid; wait $pid
echo "after exit: $(grep -E '^(entries|overrun|read events)' $t/per_cpu/cpu0/stats | tr '\n' ' ') tracing_on $(cat $t/tracing_on) enable $(cat $t/events/trace_event_bench/teb_event/enable)"
echo "left in buffer: $(grep -c teb_event $t/trace) last: $(grep teb_event $t/trace | tail -1)"
trace-cmd report -i /tmp/h.dat 2>/dev/null | grep ' teb_event: ' > /tmp/rep.txt
echo "written $w recorded $(wc -l < /tmp/rep.txt) first: $(head -1 /tmp/rep.txt | sed 's/.*teb_event: //') last: $(tail -1 /tmp/rep.txt | sed 's/.*teb_event: //')"
trace-cmd report -i /tmp/h.dat --stat 2>/dev/null | head -20
echo > $t/trace
done
echo 50 > $t/buffer_percent
