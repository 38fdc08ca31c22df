#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side (UML bench kernel): what happens when trace-cmd record loses
# events at a rate near the zero-loss figure.  thrbench.sh's recording
# (trace_event_bench's rate writer, trace-cmd record of teb_event, 1408 KiB
# per CPU, overwrite mode, local clock), N times at one RATE.  Each record
# carries its writer's call number (seq), so a loss shows as a jump in seq
# and its place in time is known.  The writer runs in bursts: after each
# usleep_range(1000, 1100) it makes the calls due since it started; under
# UML (HZ=100, no high-resolution timers) that sleep lasts 10 ms (seen:
# 5 records at 1000/s, then 10 ms without one), so a burst is 10 ms of
# calls, and a gap between two records much longer than 10 ms is a time
# the writer did not run (and made up for afterwards).
#
#   scripts/vm -k BUILD -o DIR -t SECS -q -- env ZL_RATE="2000000 2500000" ZL_N=12 /abs/zlstall.sh
#
# ZL_RATE: one rate or several (then N recordings at each, in turn; one
# warm-up recording before the first rate only).  Prints one line per
# recording:
#   rate i written recorded lost first_seq last_seq maxgap_us gaps_over_15ms lost_runs
#   gap_before_loss_us...
# first_seq above 0: the first records were lost (overwritten before the
# reader had them); last_seq + 1 below written: the last ones were not
# in the file; lost_runs: runs of records missing in between.
# gap_before_loss_us: for each run of lost records, the largest gap between
# two recorded records in the 50 ms before the first one lost.
. "$RB_TOP/scripts/guest/lib.sh"
rates=${ZL_RATE:-2000000} n=${ZL_N:-12} secs=2
dat=/tmp/zl.dat
teb_rate_setup || exit 1
echo "# rates $rates /s per CPU, $secs s per recording, $(nproc) CPU(s), $(uname -r)"
echo "# rate i written recorded lost first_seq last_seq maxgap_us gaps_over_15ms lost_runs gap_before_loss_us..."
first=0
for rate in $rates; do
for i in $(seq $first "$n"); do
	w=$(teb_rate_record "$rate" "$secs" $dat /tmp/zl-rec.log)
	# -t: time stamps to the nanosecond
	trace-cmd report -t -i $dat 2> /dev/null | awk -v w="$w" -v i="$rate $i" '
	/ teb_event: +seq=/ {
		for (f = 1; f <= NF; f++) if ($f ~ /^[0-9]+\.[0-9]+:$/) { ts = $f; break }
		sub(/:$/, "", ts)
		split(ts, p, ".")
		t = p[1] * 1000000 + substr(p[2], 1, 6)	# microseconds
		s = $NF; sub(/seq=/, "", s); s += 0
		if (++rec == 1)
			fs = s
		if (rec > 1) {
			g = t - lt
			if (g > maxg) maxg = g
			if (g > 15000) over++
			# gaps between bursts only (records of one burst are
			# far closer than 200 us), to keep the list short
			if (g > 200) { hist[++h] = t; gap[h] = g }
			if (s != ls + 1) {
				runs++
				# largest gap in the 50 ms before
				m = 0
				for (k = h; k > 0 && hist[k] > t - 50000; k--)
					if (gap[k] > m) m = gap[k]
				before = before " " m
			}
		}
		lt = t; ls = s
	}
	END {
		printf "%s %d %d %d %d %d %d %d %d%s\n", i, w, rec, w - rec, fs, ls, maxg, over, runs, before
	}'
done
first=1
done
echo "# i = 0 is a warm-up recording (thrbench.sh does not count its first either)"
rmmod trace_event_bench
