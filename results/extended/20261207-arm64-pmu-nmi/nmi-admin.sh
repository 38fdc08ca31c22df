#!/bin/sh
# ad-hoc: the stress module's admin checks only
. $RB_LINUX/tools/testing/selftests/ring_buffer/rb_lib.sh
rc=0
if rb_stress_load admin=1; then rmmod ring_buffer_stress; else echo "admin failed"; rc=1; fi
dmesg | grep -E 'ring_buffer_stress' | grep -v "iterator ahead"
exit $rc
