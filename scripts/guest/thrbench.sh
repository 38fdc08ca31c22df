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
# Then HALF recordings (default 16; 0: none) estimate the rate at which
# half of the recordings lose (half_loss in lib.sh: up-and-down steps from
# that rate), when the ladder found a rate that loses and the writers were
# not the limit.  Near its top the ladder's rate is partly chance (a
# recording is clean with a probability that falls over a band of rates,
# results/bench/20261127-zl-stalls/); that one averages over them.
#
# Usage: thrbench.sh [SECS [START [MAX [REPS [HALF]]]]]
# Appends to $RB_OUT/thr-raw.txt one line per recording:
#   rate_per_cpu written recorded lost seconds
# and to $RB_OUT/metrics.txt:
#   thr.zero_loss <events/s per CPU written at the highest rate without
#                  loss (what the writers achieved, not the rate asked)>
#   thr.lost_at_2x <events lost per second at twice that rate> (not when
#                  the writers were the limit)
#   thr.half_loss <events/s per CPU asked, the estimate of half_loss> (not
#                  when it has none; thr-raw.txt says why)
. "$RB_TOP/scripts/guest/lib.sh"
secs=${1:-2} start=${2:-10000} max=${3:-20000000} reps=${4:-3} half=${5:-16}
export TEB_SECS=$secs TEB_RAW=$RB_OUT/thr-raw.txt
ncpu=$(nproc)
teb_rate_setup || exit 1

read -r good_rate good bound < <(zero_loss teb_rate_attempt "$start" "$max" \
	"$reps" "$TEB_RAW") || exit 1
echo "thr.zero_loss $good_rate" >> "$RB_OUT/metrics.txt"
if [ "$good" -gt 0 ] && [ $bound = 0 ]; then
	read -r lost got < <(teb_rate_attempt $((good * 2))) || exit 1
	echo "thr.lost_at_2x $(awk -v l="$lost" -v s="$secs" -v n="$ncpu" \
		'BEGIN { printf "%d", l / s / n }')" >> "$RB_OUT/metrics.txt"
	if [ "$half" -gt 0 ]; then
		read -r rate cnt nlost hbound < <(half_loss teb_rate_attempt \
			"$good" "$half" "$TEB_RAW") || exit 1
		echo "# half_loss: $rate from $cnt recordings, $nlost lost;" \
			"writer-bound $hbound" >> "$TEB_RAW"
		[ "$rate" -gt 0 ] && echo "thr.half_loss $rate" >> "$RB_OUT/metrics.txt"
	fi
fi
rmmod trace_event_bench
