#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What trace_pipe_raw hands user space, decoded with libtraceevent's
# kbuffer API (rb_compat.c): with a reader running and room (the writers
# wait for it to stay within a quarter of the buffer) nothing is lost; in
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
rc=0
for mode in drain overrun discard gaps; do
	"$dir/rb_compat" "$mode" || rc=1
done
echo "$overwrite" > $T/options/overwrite
echo "$size" > $T/buffer_size_kb
echo > $T/trace
echo "$on" > $T/tracing_on
exit $rc
