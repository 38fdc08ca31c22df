#!/bin/bash
# Guest side of tail.sh: trace_event_bench with tail.diff (teb_tail.ko,
# given by path), one CPU, local clock, overwrite, as latbench.sh runs it
# (latbench's warm-up, over two buffers of 24-byte records; 10^6 samples); per size 16 and 1408 KiB one run
# to find p90, then three runs counting the samples >= p90 + 8 ns by
# position.  Writes $RB_OUT/tail.txt.
# Also the guest side of ../20261127-p99-position/pos.sh: given teb_pos.ko
# (pos.diff), no run to find p90, and each run's per-position means
# ("pos") into $RB_OUT/pos.txt.
T=/sys/kernel/tracing
E=$T/events/trace_event_bench/teb_event/enable
mod=$(basename "$1" .ko)
P=/sys/module/$mod/parameters
out=$RB_OUT/${mod#teb_}.txt
insmod "$1" || exit 1
echo 1000000 > $P/samples
echo 1 > $T/options/overwrite
echo 1 > $E
for size in 16 1408; do
	echo 0 > $T/tracing_on
	echo "$size" > $T/buffer_size_kb
	echo local > $T/trace_clock
	echo > $T/trace
	echo 1 > $T/tracing_on
	echo $(( size * 1024 / 16 * 3 / 2 + 10000 )) > $P/warmup
	if [ -e $P/slow_ns ]; then
		echo 1 > $P/run || exit 1
		p90=$(grep -o ' p90=[0-9]*' $P/run | cut -d= -f2)
		echo $(( p90 + 8 )) > $P/slow_ns
	fi
	for r in 1 2 3; do
		echo 1 > $P/run || exit 1
		echo "$size $r result $(cat $P/run)" >> "$out"
		if [ -e $P/slow_ns ]; then
			echo "$size $r slow_ns=$(cat $P/slow_ns) $(cat $P/slowpos)" >> "$out"
			echo "$size $r tail $(cat $P/tail)" >> "$out"
		else
			echo "$size $r pos $(cat $P/pos)" >> "$out"
		fi
	done
done
echo 0 > $E
rmmod "$mod"
cat "$out" | cut -c1-300
