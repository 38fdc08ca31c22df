#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Check the Spin model of the sub-buffer ring buffer protocol.
#
# Three kinds of runs, each an exhaustive search of its own configuration:
#   check  the protocol as specified: no assertion may fail;
#   probe  a reachability probe (-DCOVER=n): Spin must find the situation,
#          which shows the checks really explore it;
#   seed   a seeded bug (-DBUG_...): Spin must find a violation, which
#          shows the properties can fail.
# A run that ends otherwise (or runs out of memory or time) is a failure.
#
# Usage: check.sh [-j JOBS] [-k] [-o DIR] [-q] [NAME...]
#   -j JOBS  runs in parallel (default: number of CPUs)
#   -k       keep the work directories (trails of failures are always kept)
#   -o DIR   work directory (default: a temporary one)
#   -q       quick: leave out the long runs (see $long below), for a
#            check on every change; run everything when the model changes
#   NAME     run only these cases (see the table below)
#
# Needs spin and a C compiler.  Exit status 0 when every case ends as
# expected.

set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
model=$here/ring_buffer_subbuf.pml
jobs=$(nproc 2>/dev/null || echo 1)
keep=0
work=""
quick=0

while getopts "j:ko:q" opt; do
	case $opt in
	j) jobs=$OPTARG ;;
	k) keep=1 ;;
	o) work=$OPTARG ;;
	q) quick=1 ;;
	*) sed -n '/^# Usage/,/^# expected/p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))

command -v spin >/dev/null || { echo "check.sh: spin not found" >&2; exit 2; }

# Geometry and writers of the runs:
#   SMALL: 2 sub-buffers of 2 slots, task 2 records, irq 1, NMI 1.  The
#          buffer wraps, so overrun, commit overrun and pushes of a
#          partly read sub-buffer happen.
#   TINY:  the same buffer, one record per writer (with discarded
#          records, which double the task's choices).
#   WIDE:  2 sub-buffers of 4 slots, 2 + 1 + 1 records, deltas up to 7
#          without a TIME_EXTEND: more records share a sub-buffer, so
#          the time stamp hand-over between writers is exercised.
#   EXT:   the same with deltas of 2 or more in a TIME_EXTEND: records
#          of two slots (TIME_EXTEND or TIME_STAMP in front), which do
#          not fit in the 2-slot sub-buffers of SMALL.
# The slowest runs come first, so that they overlap the short ones.
# -q leaves out the long ones, about 2 to 4 minutes each on one x86
# core: the exhaustive checks of SMALL and EXT, and the seeded bug that
# Spin finds only deep in SMALL's state space.  The quick set keeps the
# checks of TINY and WIDE, every probe and every other seeded bug.
long="overwrite discard overwrite-extend seed-noref-after-cc-sb"
SMALL="-DSBS=2 -DNW0=2 -DNW1=1 -DNW2=1"
TINY="-DSBS=2 -DNW0=1 -DNW1=1 -DNW2=1"
WIDE="-DSBS=4 -DNW0=2 -DNW1=1 -DNW2=1 -DDMAX=8"
EXT="-DSBS=4 -DNW0=2 -DNW1=1 -DNW2=1 -DDMAX=2"

# name kind defines
cases() {
	cat <<EOF
overwrite		check	$SMALL
seed-noref-after-cc-sb	seed	$SMALL -DBUG_NOREF_LATE
discard			check	$SMALL -DOVERWRITE=0
overwrite-wide		check	$WIDE
overwrite-extend	check	$EXT
seed-torn-time-stamp	seed	$WIDE -DBUG_LTS_TORN
discard-commit		check	$TINY -DDISCARD
seed-no-delivery-check	seed	$SMALL -DBUG_NO_CC_SB_CHECK
seed-clock-outside-loop	seed	$SMALL -DBUG_CLOCK_OUTSIDE
seed-no-spare-swap	seed	$SMALL -DBUG_NO_SWAP
seed-offset-before-cc	seed	$SMALL -DBUG_CC_ORDER
seed-no-commit-check	seed	$SMALL -DBUG_NO_COMMIT_CHECK
seed-deliver-early	seed	$SMALL -DBUG_DELIVER_EARLY
seed-no-generation-tag	seed	$SMALL -DBUG_NO_TAG
seed-push-after-reserve	seed	$SMALL -DBUG_PUSH_AFTER
seed-fail-stale-offset	seed	$SMALL -DBUG_STALE_FAIL
seed-no-delivery-claim	seed	$SMALL -DBUG_NO_CLAIM
seed-no-deliver-prev	seed	$SMALL -DBUG_NO_DELIVER_PREV
seed-full-read-count	seed	$SMALL -DBUG_FULL_KEEPS_COUNT
probe-time-extend	probe	$EXT -DCOVER=1
probe-time-stamp	probe	$EXT -DCOVER=2
probe-switch		probe	$SMALL -DCOVER=3
probe-commit-overrun	probe	$SMALL -DCOVER=4
probe-overrun		probe	$SMALL -DCOVER=5
probe-overrun-partial	probe	$SMALL -DCOVER=6
probe-read-whole	probe	$SMALL -DCOVER=7
probe-read-partial	probe	$SMALL -DCOVER=8
probe-read-dropped	probe	$SMALL -DCOVER=9
probe-dropped		probe	$SMALL -DOVERWRITE=0 -DCOVER=10
probe-retry		probe	$SMALL -DCOVER=11
probe-discarded-read	probe	$TINY -DDISCARD -DCOVER=12
probe-closed-on-refusal	probe	$SMALL -DOVERWRITE=0 -DCOVER=13
probe-stale-retry	probe	$SMALL -DCOVER=14
probe-stale-time-word	probe	$WIDE -DCOVER=15
probe-deliver-prev	probe	$SMALL -DCOVER=16
probe-claim-lost	probe	$SMALL -DCOVER=17
probe-read-exact-fill	probe	$SMALL -DCOVER=18
probe-read-closed	probe	$SMALL -DCOVER=19
EOF
}

if [ -z "$work" ]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/rb-model.XXXXXX")
	[ $keep = 1 ] || trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"

# run_case NAME KIND DEFINES...: one search; prints one result line.
run_case() {
	local name=$1 kind=$2 dir=$work/$1 out verdict start
	shift 2
	start=$(date +%s)
	rm -rf "$dir"
	mkdir -p "$dir"
	cp "$model" "$dir/"
	(
		cd "$dir"
		spin "$@" -a ring_buffer_subbuf.pml > spin.log 2>&1 &&
		gcc -O2 -DSAFETY -DCOLLAPSE -DMEMLIM=10240 pan.c -o pan \
			> cc.log 2>&1 &&
		./pan -m1000000 -w24 > pan.log 2>&1
	) || true
	out=$dir/pan.log
	# pan's own words for a search it could not finish
	incomplete="out of memory|reached -DMEMLIM bound"
	incomplete+="|max search depth too small"
	incomplete+="|Search not completed|Search incomplete"
	if [ ! -s "$out" ] || ! grep -q "errors:" "$out"; then
		verdict="FAIL (no search result, see $dir)"
	elif grep -q "errors: 0" "$out" && ! grep -qE "$incomplete" "$out"; then
		case $kind in
		check) verdict=PASS ;;
		probe) verdict="FAIL (probe not reached)" ;;
		seed) verdict="FAIL (seeded bug not found)" ;;
		esac
	elif grep -q "errors: 0" "$out"; then
		verdict="FAIL (search incomplete, see $out)"
	else
		found=$(grep -m1 -oE '(assertion violated|invalid end state).*' "$out" |
			sed 's/ (at depth.*//')
		case $kind in
		check) verdict="FAIL (${found:-error}; trail in $dir)" ;;
		*) verdict="PASS (found: $found)" ;;
		esac
	fi
	printf '%-24s %-5s %4ss  %s  [%s]\n' "$name" "$kind" \
		"$(( $(date +%s) - start ))" "$verdict" \
		"$(grep -m1 -oE '[0-9.e+]+ states, stored' "$out" 2>/dev/null || echo "-")"
	case $verdict in
	PASS*) [ $keep = 1 ] || rm -rf "$dir" ;;
	esac
}
export -f run_case
export work model keep

selected=$(cases | while read -r name kind defs; do
	if [ $quick = 1 ] && printf '%s\n' $long | grep -qx "$name"; then
		continue
	fi
	if [ $# -eq 0 ] || printf '%s\n' "$@" | grep -qx "$name"; then
		echo "$name $kind $defs"
	fi
done)
[ -n "$selected" ] || { echo "check.sh: no such case: $*" >&2; exit 2; }

results=$work/results
echo "$selected" | xargs -P "$jobs" -L 1 bash -c 'run_case "$@"' _ | tee "$results"

total=$(wc -l < "$results")
bad=$(grep -vc '  PASS' "$results" || true)
echo "model: $((total - bad)) of $total cases as expected"
if [ "$bad" != 0 ]; then
	trap - EXIT
	echo "model: work directories of the failures kept under $work" >&2
	exit 1
fi
