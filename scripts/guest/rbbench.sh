#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/bench: run ring_buffer_benchmark ROUNDS times
# with its reader and ROUNDS times without (alternating), one measurement
# (10 s of writing) each.  Writes one line per run to $RB_OUT/rbb.txt:
#   mode round ns_per_entry entries_per_ms hit entries overruns read missed time_us
T=/sys/kernel/tracing
rounds=${1:-3}
res=$RB_OUT/rbb.txt
: > "$res"
field() { sed -n "s/^$1 *\([0-9]\+\).*/\1/p" "$RB_OUT/rbb-raw.txt" | head -1; }
# The first "ns per entry" is per written entry (a second one, printed only
# when writes failed, counts the failed attempts too).
ns_per_entry() { sed -n 's/^\([0-9]\+\) ns per entry/\1/p' "$RB_OUT/rbb-raw.txt" | head -1; }
for r in $(seq 1 "$rounds"); do
	for mode in reader noreader; do
		args=()
		[ $mode = noreader ] && args=(disable_reader=1)
		echo > $T/trace
		modprobe ring_buffer_benchmark "${args[@]}" || exit 1
		for _ in $(seq 120); do
			sleep 1
			grep -q 'ns per entry' $T/trace && break
		done
		rmmod ring_buffer_benchmark
		sed -n 's/^.*: 0x[0-9a-f]*: //p' $T/trace > "$RB_OUT/rbb-raw.txt"
		cat "$RB_OUT/rbb-raw.txt" >> "$RB_OUT/rbb-raw-all.txt"
		grep -q 'ns per entry' "$RB_OUT/rbb-raw.txt" || { echo "no result for $mode $r"; exit 1; }
		read_=$(field 'Read:')
		line="$mode $r $(ns_per_entry) $(field 'Entries per millisec:') $(field 'Hit:')"
		line+=" $(field 'Entries:') $(field 'Overruns:') ${read_:-0} $(field 'Missed:') $(field 'Time:')"
		echo "$line" | tee -a "$res"
	done
done
