#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/bench: the highest event rate trace-cmd record
# keeps up with, losing nothing.  trace_event_bench's writers (patch 0014)
# emit trace_event_bench:teb_event (16-byte records) at a set rate on every
# CPU for SECS seconds (default 2) while "trace-cmd record" (splice, one
# reader per CPU, default 1408 KiB buffers, overwrite mode) records them;
# an event is lost when the writers' call count exceeds the records in the
# trace.dat.  Rates per CPU go up from START (default 10000) on a 1-2-5
# ladder (zero_loss in lib.sh, which peerthr.sh shares) to the first rate
# that loses events, then five bisection steps.  When the writers fall
# short of a rate by more than 10% (a slow CPU, e.g. TCG) and nothing was
# lost, on the ladder or in a bisection step, no higher rate is tried: the
# writers, not the consumer, are the limit, and thr-raw.txt says so.
#
# A rate counts as kept up with when REPS recordings (default 3) in a row
# lose nothing.  One recording per rate decided on noise: at 2 M/s under
# UML the first recording of a boot lost and the four after it did not,
# on both flavours (results/bench/20261125-variation/).  So a warm-up
# recording, not counted, comes first.
#
# Appends to $RB_OUT/thr-raw.txt one line per rate:
#   rate_per_cpu written recorded lost seconds
# and to $RB_OUT/metrics.txt:
#   thr.zero_loss <events/s per CPU written at the highest rate without
#                  loss (what the writers achieved, not the rate asked)>
#   thr.lost_at_2x <events lost per second at twice that rate> (not when
#                  the writers were the limit)
. "$RB_TOP/scripts/guest/lib.sh"
secs=${1:-2} start=${2:-10000} max=${3:-20000000} reps=${4:-3}
dat=/tmp/thr.dat
ncpu=$(nproc)
teb_rate_setup || exit 1

# attempt RATE: one recording; prints the events lost (0 = none) and the
# events per second and CPU the writers achieved.
attempt() {
	local rate=$1 w rec
	w=$(teb_rate_record "$rate" "$secs" $dat /tmp/thr-rec.log)
	rec=$(trace-cmd report -i $dat 2>/dev/null | grep -c ' teb_event: ')
	echo "$rate $w $rec $((w - rec)) $secs" >> "$RB_OUT/thr-raw.txt"
	echo "thrbench: rate $rate/s per CPU: written $w, recorded $rec" >&2
	echo $((w - rec)) $((w / secs / ncpu))
}

read -r good_rate good bound < <(zero_loss attempt "$start" "$max" "$reps" \
	"$RB_OUT/thr-raw.txt") || exit 1
echo "thr.zero_loss $good_rate" >> "$RB_OUT/metrics.txt"
if [ "$good" -gt 0 ] && [ $bound = 0 ]; then
	read -r lost got < <(attempt $((good * 2))) || exit 1
	echo "thr.lost_at_2x $(awk -v l="$lost" -v s="$secs" -v n="$ncpu" \
		'BEGIN { printf "%d", l / s / n }')" >> "$RB_OUT/metrics.txt"
fi
rm -f $dat
rmmod trace_event_bench
