#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side: run ftracetest's test cases, each under a timeout of its own,
# and write "<test> <RESULT> <seconds>" lines to $RB_OUT/ftracetest.txt.
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
#
# One ftracetest process runs the test cases in turn: each process costs
# two resets of the whole of tracefs (initialize_ftrace, which reads every
# event's trigger and filter file) and its own start-up, 16 s a process
# under TCG on a slow host, more than most test cases take.  A test case
# whose result line does not come within its timeout is killed with the
# process, recorded as TIMEOUT, and a new process runs the ones after it.
# A test case flagged "instance" runs again in an instance after all the
# others (ftracetest's own order); its result is that of the first of its
# two runs that did not pass, and its seconds the sum.  Between the two
# passes runs ft-reset.tc, which does nothing: ftracetest resets the top
# level before every case, and without it the instance runs would find
# the top level as the last case left it (wakeup_rt.tc leaves its tracer
# set, and the wakeup tracers are global: basic2.tc's instance run then
# gets EBUSY for wakeup_dl, which a full ftracetest run, whose last top
# level cases are triggers, never sees).
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
# The test cases to run, their timeouts and whether they run again in an
# instance.
cases=() tmos=() inst=()
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
	cases+=("$tc") tmos+=("$tmo")
	grep -q '^#[ \t]*flags:.*instance' "$tc" && inst+=(1) || inst+=(0)
done

# Results so far, by index into cases[]
declare -A result secs
# run_from FIRST: one ftracetest process for cases[FIRST..]; sets next to
# the index of the case after one that timed out, or to the number of
# cases.  No command forks in the loop: under TCG a fork and exec takes
# a seventh of a second.
run_from() {
	local first=$1 n=${#cases[@]} i k line r rc pid fd last tmo
	local -a order=() again=() args=("${cases[@]:first}")
	for ((i = first; i < n; i++)); do
		order+=("$i")
		[ "${inst[i]}" = 1 ] && again+=("$i")
	done
	if [ ${#again[@]} -gt 0 ]; then
		order+=(reset "${again[@]}")
		args+=("$RB_TOP/scripts/guest/ft-reset.tc")
	fi
	exec {fd}< <(exec setsid ./ftracetest -l "$logs" "${args[@]}" 2>&1)
	pid=$!
	k=0 last=$SECONDS
	while [ $k -lt ${#order[@]} ]; do
		i=${order[k]} tmo=300
		[ "$i" = reset ] || tmo=${tmos[i]}
		IFS= read -r -t "$tmo" -u $fd line
		rc=$?
		if [ $rc -gt 128 ]; then
			kill -KILL -- -"$pid" 2>/dev/null
			exec {fd}<&-
			# A killed test case leaves its tracer running: stop it.
			echo 0 > $T/tracing_on
			echo nop > $T/current_tracer
			echo > $T/set_ftrace_filter
			echo 1 > $T/tracing_on
			# Past the top-level pass: every case has run once.
			next=$n
			if [ "$i" = reset ]; then
				echo "ft-reset.tc: no result within 300 s" >> "$logs/timeouts.txt"
				return
			fi
			result[$i]=TIMEOUT
			secs[$i]=$(( ${secs[$i]:-0} + SECONDS - last ))
			echo "${cases[i]}: no result within ${tmos[i]} s" >> "$logs/timeouts.txt"
			[ $k -ge $((n - first)) ] || next=$((i + 1))
			return
		fi
		[ $rc = 0 ] || break	# the process ended before every result
		printf '%s\n' "$line" >> "$logs/ftracetest-out.txt"
		# "[N] description<TAB>[RESULT]", N counting from 1 per process
		[[ "$line" =~ ^\[([0-9]+)\] ]] || continue
		if [ "$i" = reset ]; then
			[[ "$line" =~ \[PASS\][^[]*$ ]] ||
				echo "ft-reset.tc: $line" >> "$logs/timeouts.txt"
			k=$((k + 1)) last=$SECONDS
			continue
		fi
		r=NORESULT
		if [ "${BASH_REMATCH[1]}" = $((k + 1)) ] &&
		   [[ "$line" =~ \[(PASS|FAIL|UNRESOLVED|UNTESTED|UNSUPPORTED|XFAIL|UNDEFINED)\][^[]*$ ]]; then
			r=${BASH_REMATCH[1]}
		fi
		# Of a case's two runs, the first that did not pass
		[ -z "${result[$i]:-}" ] || [ "${result[$i]}" = PASS ] || r=${result[$i]}
		result[$i]=$r
		secs[$i]=$(( ${secs[$i]:-0} + SECONDS - last ))
		last=$SECONDS
		k=$((k + 1))
	done
	exec {fd}<&-
	wait "$pid" 2>/dev/null
	next=$n
}
next=0
while [ $next -lt ${#cases[@]} ]; do
	run_from $next
done
for i in "${!cases[@]}"; do
	r=${result[$i]:-NORESULT}
	echo "${cases[i]} $r ${secs[$i]:-0}" | tee -a "$res"
done
echo "ftracetest: $(wc -l < "$res") test cases ($tier) in $(( $(date +%s) - t0 )) s"
