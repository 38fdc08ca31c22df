#!/bin/sh
# ad-hoc: the two kselftests that load the stress module
cd $RB_LINUX/tools/testing/selftests/ring_buffer || exit 1
rc=0
for t in rb_stress.sh rb_admin.sh; do
	echo "=== $t"
	bash ./$t; r=$?
	echo "=== $t rc=$r"
	[ $r = 0 ] || rc=1
done
dmesg | grep -E 'ring_buffer_stress: (NMI|claim window, NMI|.*cpu[01]: committed|PASSED|FAILED|FAIL)' | cut -c1-200
exit $rc
