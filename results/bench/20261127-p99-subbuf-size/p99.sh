#!/bin/bash
# 16 KiB 4-byte event with 4 KiB vs 8 KiB sub-buffers, same boot
T=/sys/kernel/tracing
P=/sys/module/trace_event_bench/parameters
modprobe trace_event_bench || exit 1
echo 1000000 > $P/samples
echo 0 > $P/all_cpus
echo local > $T/trace_clock
echo 1 > $T/options/overwrite
size=${1:-16}
for sb in 4 8 4 8 4 8; do
	echo 0 > $T/tracing_on
	echo $sb > $T/buffer_subbuf_size_kb
	echo $size > $T/buffer_size_kb
	echo > $T/trace
	echo 1 > $T/events/trace_event_bench/teb_event/enable
	echo 1 > $T/tracing_on
	echo 1 > $P/run
	echo "size ${size}k subbuf ${sb}k ($(cat $T/buffer_subbuf_size_kb)): $(cat $P/run)"
	echo 0 > $T/events/trace_event_bench/teb_event/enable
done
