#!/bin/sh
# ad-hoc: the stress module's admin checks and run, its log lines
. $RB_LINUX/tools/testing/selftests/ring_buffer/rb_lib.sh
rc=0
if rb_stress_load admin=1; then rmmod ring_buffer_stress; else echo "admin failed"; rc=1; fi
if rb_stress_load run=1 seconds=${SECS:-3}; then rmmod ring_buffer_stress; else echo "run failed"; rc=1; fi
cat /proc/sys/kernel/perf_cpu_time_max_percent /proc/sys/kernel/perf_event_max_sample_rate
dmesg | grep -E 'ring_buffer_stress|perf:'
exit $rc
