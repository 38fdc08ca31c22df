#!/bin/bash
T=/sys/kernel/tracing
cd $RB_LINUX/tools/testing/selftests/ring_buffer && make -s > /tmp/make.log 2>&1; ls rb_compat || { tail -5 /tmp/make.log; exit 1; }
( while :; do echo "$(cut -d' ' -f1 /proc/uptime) $(sed 's/.*\[\(.*\)\].*/\1/' $T/trace_clock)"; sleep 0.05; done ) > /tmp/clklog 2>&1 &
lp=$!
./rb_admin.sh > /tmp/admin.log 2>&1; echo "rb_admin rc=$?"; grep -E "hotplug" /tmp/admin.log
for i in 1 2 3; do
	./rb_torture.sh > /tmp/tort.$i 2>&1; echo "torture $i rc=$?"
	grep -E "operations|FAIL" /tmp/tort.$i | head -5
	dmesg | grep -q "went back" && break
done
kill $lp
dmesg | grep -B2 -A2 "went back" | head
w=$(dmesg | grep -m1 "went back" | sed 's/^\[ *\([0-9]*\)\..*/\1/')
[ -n "$w" ] && awk -v w=$w '$1 >= w-3 && $1 <= w+1' /tmp/clklog | uniq -f1 -c | head -40
echo "tort done"
