#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guarantee of the global trace clock, on both of its paths: the
# in-kernel checks of the trace_clock_test module (ping-pong between CPUs,
# NMIs) and the user-space ping-pong, first on the path the machine uses,
# then with the slow path forced through trace_clock.global_slow.

ksft_skip=4
param=/sys/module/trace_clock/parameters/global_slow
dir=$(dirname "$0")

[ "$(id -u)" = 0 ] || { echo "must run as root"; exit $ksft_skip; }
modprobe -n trace_clock_test 2>/dev/null ||
	{ echo "no trace_clock_test module (CONFIG_TRACE_CLOCK_TEST)"; exit $ksft_skip; }
[ -w $param ] || { echo "no $param"; exit $ksft_skip; }

old=$(cat $param)
rc=0
for slow in N Y; do
	echo $slow > $param
	echo "# global_slow=$slow"
	if modprobe trace_clock_test test=1; then
		rmmod trace_clock_test
		echo "# trace_clock_test test=1: passed"
	else
		echo "# trace_clock_test test=1: FAILED"
		dmesg | grep 'trace_clock_test:' | tail -15 | sed 's/^/# /'
		rc=1
	fi
	"$dir/global_clock_pingpong" | sed 's/^/# /'
	[ "${PIPESTATUS[0]}" = 0 ] || rc=1
done
echo "$old" > $param
exit $rc
