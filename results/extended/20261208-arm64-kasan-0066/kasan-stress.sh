#!/bin/sh
cd $RB_LINUX/tools/testing/selftests/ring_buffer || exit 1
bash ./rb_stress.sh; r=$?
echo "=== rb_stress.sh rc=$r"
dmesg | grep -E 'ring_buffer_stress: (NMIs|.*cpu[01]: committed)|KASAN|BUG' | cut -c1-200
exit $r
