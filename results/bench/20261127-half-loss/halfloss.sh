#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side (UML bench kernel): thrbench.sh's half-loss estimate alone,
# without the zero-loss ladder before it: trace_event_bench's rate
# writers and trace-cmd record as thrbench.sh sets them up
# (teb_rate_setup), 2-s recordings (teb_rate_attempt), one warm-up
# recording at HL_START, not counted, then half_loss from HL_START
# (default 2000000 events/s per CPU, where the ladders of
# ../20261127-1136-uml/ stopped) with HL_N recordings (default 16, as
# thrbench.sh).
#
#   scripts/vm -k BUILD -o DIR -t SECS -q -- env HL_START=.. HL_N=.. /abs/halfloss.sh
#
# Prints every recording ("rate written recorded lost seconds", after
# thr-raw.txt's comment lines) and then
#   half_loss <estimate> <recordings averaged> <of those, lost> <writer-bound>
. "$RB_TOP/scripts/guest/lib.sh"
start=${HL_START:-2000000} n=${HL_N:-16}
export TEB_SECS=2 TEB_RAW=$RB_OUT/thr-raw.txt
: > "$TEB_RAW"
teb_rate_setup || exit 1
echo "# $(uname -r), $(nproc) CPU(s), start $start, $n recordings" >> "$TEB_RAW"
echo "# warm-up recording, not counted:" >> "$TEB_RAW"
teb_rate_attempt "$start" > /dev/null || exit 1
read -r est cnt lost bound < <(half_loss teb_rate_attempt "$start" "$n" \
	"$TEB_RAW") || exit 1
cat "$TEB_RAW"
echo "half_loss $est $cnt $lost $bound"
rmmod trace_event_bench
