#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side: repeat rb_tracecmd.sh's record step (trace-cmd record with
# a 4 KiB buffer per CPU under a flood of trace_marker_raw records from
# rb_compat, flight-recorder mode then discard mode) until the kernel log
# has a WARNING or RB_SECS (default 600) have passed.  Prints the
# iterations and the first WARNING line.
#   scripts/vm -k BUILD -o DIR -t SECS -q -- env RB_SECS=600 /abs/path/repro.sh
secs=${RB_SECS:-600}
sel=$RB_LINUX/tools/testing/selftests/ring_buffer
make -C "$sel" > /dev/null 2>&1 || { echo "build of rb_compat failed"; exit 1; }
tmp=$(mktemp -d)
end=$((SECONDS + secs)) i=0
while [ $SECONDS -lt $end ]; do
	for mode in overwrite nooverwrite; do
		trace-cmd record -q -b 4 -O "$mode" -p nop -o "$tmp/t.dat" \
			-- "$sel/rb_compat" -n 80000 write > "$tmp/record.log" 2>&1 ||
			{ echo "record failed:"; cat "$tmp/record.log"; }
	done
	i=$((i + 1))
	w=$(dmesg | grep -m1 'WARNING:') && break
done
trace-cmd reset > /dev/null 2>&1
echo "iterations: $i (each: one record per mode), ${SECONDS}s"
echo "first warning: ${w:-none}"
dmesg | grep -A3 'WARNING:' | head -8
exit 0
