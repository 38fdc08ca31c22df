#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side: run ftracetest one test case per process, each under a
# timeout, and write "<test> <RESULT> <seconds>" lines to $RB_OUT/ftracetest.txt.
#
# Usage: ftracetest.sh [TESTDIR] [LISTFILE]
#   TESTDIR   ftracetest directory (default: the applied tree's)
#   LISTFILE  expectation list (scripts/expect/ftracetest.txt): it says
#             which tier runs each test case and may give it a timeout of
#             its own; without it every test case runs.
# Env: RB_FT_TIER (ci, the default, extended, single or all: see
# rb_ft_in_tier in scripts/lib/common.sh), RB_FT_TIMEOUT (seconds per test case
# without a timeout of its own, default 300: at least twice the slowest
# such case measured under TCG), RB_FT_FILTER (regex on the test path:
# only matching tests run).
. "$RB_TOP/scripts/lib/common.sh"
FT=${1:-$RB_LINUX/tools/testing/selftests/ftrace}
LIST=${2:-}
tier=${RB_FT_TIER:-ci}
res=$RB_OUT/ftracetest.txt
logs=$RB_OUT/ftracetest-logs
T=/sys/kernel/tracing
mkdir -p "$logs"
: > "$res"
[[ "$tier" =~ ^($RB_FT_TIERS)$ ]] || { echo "ftracetest.sh: bad RB_FT_TIER $tier" >&2; exit 2; }

# expectation TEST: the case's line of the list, without its comment
expectation() {
	[ -n "$LIST" ] || return 0
	grep -E "^$1 " "$LIST" | sed 's/#.*//'
}

cd "$FT" || exit 1
t0=$(date +%s)
for tc in $(find test.d -name '*.tc' | sort); do
	if [ -n "${RB_FT_FILTER:-}" ] && ! echo "$tc" | grep -qE "$RB_FT_FILTER"; then
		continue
	fi
	exp=" $(expectation "$tc") "
	rb_ft_in_tier "$tier" "$exp" || continue
	case "$exp" in
	*" SKIP "*) echo "$tc SKIP 0" | tee -a "$res"; continue ;;
	esac
	tmo=${RB_FT_TIMEOUT:-300}
	case "$exp" in
	*" timeout="*) tmo=${exp##* timeout=}; tmo=${tmo%% *} ;;
	esac
	s=$(date +%s)
	out=$(timeout -k 10 "$tmo" ./ftracetest -l "$logs" "$tc" 2>&1)
	rc=$?
	r=$(echo "$out" | grep -oE '\[(PASS|FAIL|UNSUPPORTED|UNRESOLVED|UNTESTED|XFAIL)\]' | head -1 | tr -d '[]')
	if [ $rc = 124 ] || [ $rc = 137 ]; then
		r=TIMEOUT
		# A killed test case leaves its tracer running: stop it.
		echo 0 > $T/tracing_on
		echo nop > $T/current_tracer
		echo > $T/set_ftrace_filter
		echo 1 > $T/tracing_on
	fi
	[ -n "$r" ] || r=NORESULT
	echo "$tc $r $(( $(date +%s) - s ))" | tee -a "$res"
	[ "$r" = PASS ] || echo "$out" > "$logs/$(echo "$tc" | tr / _).out"
done
echo "ftracetest: $(wc -l < "$res") test cases ($tier) in $(( $(date +%s) - t0 )) s"
