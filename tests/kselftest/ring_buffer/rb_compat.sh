#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What trace_pipe_raw hands user space, decoded with libtraceevent's
# kbuffer API (rb_compat.c): with a reader running nothing is lost; in
# flight-recorder mode the oldest records are lost and announced; in
# discard mode the newest are lost; stats agree with what is missing;
# records 4.5 s apart get TIME_EXTENDs, never 6.1-unknown TIME_STAMPs.

ksft_skip=4
T=/sys/kernel/tracing
dir=$(dirname "$0")

[ "$(id -u)" = 0 ] || { echo "must run as root"; exit $ksft_skip; }
[ -w $T/trace_marker_raw ] || { echo "no $T/trace_marker_raw"; exit $ksft_skip; }

size=$(sed 's/ .*//' $T/buffer_size_kb)
overwrite=$(cat $T/options/overwrite)
on=$(cat $T/tracing_on)
# A drain run needs its reader to get the CPU: held off it for a fifth of
# a second (a TCG guest's vCPU thread descheduled on a loaded host), it
# lets the writers fill the buffer, which then drops records, counted and
# announced as it must.  Only that failure runs again, three runs at most.
only_fell_behind() {
	grep '^# FAIL: ' "$1" | grep -qv 'lost records with a reader and room' && return 1
	grep -q '^# FAIL: .*lost records with a reader and room' "$1"
}
tmp=$(mktemp)
rc=0
for mode in drain overrun discard gaps; do
	runs=1
	while ! "$dir/rb_compat" "$mode" > "$tmp"; do
		cat "$tmp"
		if [ $mode != drain ] || [ $runs = 3 ] || ! only_fell_behind "$tmp"; then
			rc=1
			continue 2
		fi
		runs=$((runs + 1))
		echo "# drain: the reader fell behind; run $runs"
	done
	cat "$tmp"
done
rm -f "$tmp"
echo "$overwrite" > $T/options/overwrite
echo "$size" > $T/buffer_size_kb
echo > $T/trace
echo "$on" > $T/tracing_on
exit $rc
