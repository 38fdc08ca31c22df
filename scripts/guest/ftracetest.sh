#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side: run ftracetest one test case per process, each under a
# timeout, and write "<test> <RESULT> <seconds>" lines to $RB_OUT/ftracetest.txt.
#
# Usage: ftracetest.sh [TESTDIR] [LISTFILE]
#   TESTDIR   ftracetest directory (default: the applied tree's)
#   LISTFILE  expectation list: test cases marked SKIP there are not run
#             and recorded as SKIP; without it every test case runs.
# Env: RB_FT_TIMEOUT (seconds per test, default 300: at least twice the
# slowest case measured under TCG, 97 s), RB_FT_FILTER (regex on
# the test path: only matching tests run).
FT=${1:-$RB_LINUX/tools/testing/selftests/ftrace}
LIST=${2:-}
res=$RB_OUT/ftracetest.txt
logs=$RB_OUT/ftracetest-logs
T=/sys/kernel/tracing
mkdir -p "$logs"
: > "$res"

cd "$FT" || exit 1
t0=$(date +%s)
for tc in $(find test.d -name '*.tc' | sort); do
	if [ -n "${RB_FT_FILTER:-}" ] && ! echo "$tc" | grep -qE "$RB_FT_FILTER"; then
		continue
	fi
	if [ -n "$LIST" ] && grep -qE "^$tc SKIP" "$LIST"; then
		echo "$tc SKIP 0" | tee -a "$res"
		continue
	fi
	tmo=${RB_FT_TIMEOUT:-300}
	# checkbashisms runs once per test file: minutes of perl under TCG.
	[ "$tc" = test.d/selftest/bashisms.tc ] && tmo=$((tmo * 4))
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
echo "ftracetest: $(wc -l < "$res") test cases in $(( $(date +%s) - t0 )) s"
