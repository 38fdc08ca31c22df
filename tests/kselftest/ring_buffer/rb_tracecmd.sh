#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# trace-cmd against the ring buffer: record/report with losses forced by a
# tiny buffer under a flood of trace_marker_raw records, in flight-recorder
# and in discard mode.  The report must announce the losses ("EVENTS
# DROPPED"), and records read plus records lost must equal records
# written, with the per-CPU stats trace-cmd saved agreeing.  Then show,
# stat, extract and snapshot must work, and live readers (trace_pipe,
# trace_pipe_raw, trace-cmd stream) get a new event promptly.
#
# The page-based ring buffer (CONFIG_RING_BUFFER_PAGE) differs in two
# ways, both counted, neither silent.  It counts the events it drops in
# discard mode but does not announce them in the stream, so the report of
# that mode need not show EVENTS DROPPED.  And with it trace-cmd can
# leave the newest records of a CPU, those after its last full page, in
# the buffer (measured under QEMU: in about half the runs, 20 to 30
# records on one CPU or both).  Seen with strace: the recorder's splice
# returns 0 when tracing stops, the stop signal comes after that, the
# next splice (now non-blocking) fails with EAGAIN for want of a full
# page, and the recorder exits without its final read.  The "entries"
# of the stats trace-cmd saved count those records, not exactly but
# never fewer in the runs measured.  So with the page-based buffer read +
# lost may fall short of written by at most the entries left.  With the
# sub-buffer one (in the run traced, its recorders were still waiting
# when the signal came, and flushed) it must equal written.
#
# Which buffer runs, from the kernel's config (/proc/config.gz, which
# the config fragment of this directory asks for, or
# /boot/config-<release>): the sub-buffer one with
# CONFIG_RING_BUFFER_SUBBUF=y, else the page-based one (the only one an
# upstream kernel has).

ksft_skip=4
T=/sys/kernel/tracing
dir=$(dirname "$0")
. "$dir/rb_lib.sh"
n=20000

[ "$(id -u)" = 0 ] || { echo "must run as root"; exit $ksft_skip; }
command -v trace-cmd > /dev/null || { echo "no trace-cmd"; exit $ksft_skip; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; trace-cmd reset > /dev/null 2>&1' EXIT
ncpu=$(getconf _NPROCESSORS_ONLN)
page_based=1
[ "$(rb_kconfig RING_BUFFER_SUBBUF)" = y ] && page_based=0
[ $page_based = 1 ] && echo "# the page-based ring buffer's rules (see above)"
rc=0
fail() { echo "# FAIL: $*"; rc=1; }

# Sum of a field over the per-CPU stats trace-cmd saved in the file.
stat_sum() { trace-cmd report --stat -i "$1" 2>/dev/null |
	awk -v f="$2" 'index($0, f ":") == 1 { s += $NF } END { print s + 0 }'; }

for mode in overwrite nooverwrite; do
	f=$tmp/$mode.dat
	# The recorders run at nice 19 and the writers, one on each CPU,
	# at nice 0, so that the recorders fall behind wherever the smallest
	# buffer is large (with 64 KiB pages it is two sub-buffers of
	# 64 KiB a CPU, which a recorder at the writers' priority drained
	# as fast as 640000 records filled it).  A reader that keeps up
	# all the same (a slow kernel: a sanitizer under emulation) loses
	# nothing: then write four times as much, up to twice.
	for m in $n $((n * 4)) $((n * 16)); do
		if ! nice -n 19 trace-cmd record -q -b 4 -O "$mode" -p nop -o "$f" \
			-- nice -n -19 "$dir/rb_compat" -n $m write \
			> "$tmp/record.log" 2>&1; then
			fail "$mode: trace-cmd record failed"
			cat "$tmp/record.log"
			continue 2
		fi
		over=$(stat_sum "$f" overrun)
		dropped=$(stat_sum "$f" "dropped events")
		cover=$(stat_sum "$f" "commit overrun")
		lost=$((over + dropped + cover))
		[ "$lost" -gt 0 ] && break
		echo "# $mode: nothing lost of $((m * ncpu)) records: again with more"
	done
	trace-cmd report -i "$f" > "$tmp/report.txt" 2> "$tmp/report.err" ||
		fail "$mode: trace-cmd report failed"
	grep -iE 'error|fail|bad|corrupt' "$tmp/report.err" | head -3 | sed 's/^/# /'
	read=$(grep -c 'raw_data:' "$tmp/report.txt")
	# "[N EVENTS DROPPED]", or "[EVENTS DROPPED]" when the count did
	# not fit after the data of a full sub-buffer.
	drops=$(grep -o '\[[0-9][0-9]* EVENTS DROPPED\]' "$tmp/report.txt" |
		tr -dc '0-9\n' | awk '{ s += $1 } END { print s + 0 }')
	unknown=$(grep -c '\[EVENTS DROPPED\]' "$tmp/report.txt")
	left=$(stat_sum "$f" entries)
	written=$((m * ncpu))
	echo "# $mode: written $written, read $read, report: $drops dropped" \
	     "+ $unknown times an unknown number; stats: overrun $over," \
	     "dropped $dropped, commit overrun $cover, entries left $left"
	[ "$lost" -gt 0 ] || fail "$mode: nothing lost: the buffer did not fill"
	if [ $((drops + unknown)) -gt 0 ]; then
		:
	elif [ "$mode" = nooverwrite ] && [ $page_based = 1 ]; then
		echo "# $mode: page-based ring buffer: losses not announced in the stream"
	else
		fail "$mode: no EVENTS DROPPED in the report"
	fi
	short=$((written - read - lost))
	if [ $page_based = 1 ] && [ $short -gt 0 ] && [ $short -le "$left" ]; then
		echo "# $mode: page-based ring buffer: $short records left unread"
	else
		[ $((read + lost)) = $written ] ||
			fail "$mode: read $read + lost $lost != written $written"
	fi
	[ "$drops" -le "$lost" ] || fail "$mode: report drops $drops > lost $lost"
	[ "$unknown" -gt 0 ] || [ "$mode" = nooverwrite ] || [ "$drops" = "$lost" ] ||
		fail "$mode: report drops $drops != lost $lost"
	if [ "$mode" = overwrite ]; then
		[ "$dropped" = 0 ] || fail "$mode: dropped events in overwrite mode"
	else
		[ "$over" = 0 ] || fail "$mode: overrun in discard mode"
	fi
done

# Live readers: a marker written on a quiet CPU (the last one) must reach
# a blocking reader of trace_pipe and of that CPU's trace_pipe_raw within
# 5 s, and trace-cmd stream within 10 s (measured under QEMU TCG, both
# buffers: 0.3 s, 0.3 s and 1.7 s).  trace-cmd 3.1's recorder splices
# whole sub-buffers only: with nothing but the marker traced it waits,
# on either buffer, until the sub-buffer fills; the stream traces
# sched_switch beside the marker, as a user watching it would.
# Prints the seconds it took, or fails.
appears() { # appears FILE TEXT SECONDS
	local t0=$SECONDS i

	for ((i = 0; i < $3 * 10; i++)); do
		grep -q "$2" "$1" 2>/dev/null && { echo "$((SECONDS - t0))"; return 0; }
		sleep 0.1
	done
	return 1
}
live() { # live NAME LIMIT COMMAND...
	local name=$1 limit=$2 pid t

	shift 2
	trace-cmd reset > /dev/null 2>&1
	# The default size: trace-cmd reset keeps what record -b set
	echo 1410 > $T/buffer_size_kb
	echo > $T/trace
	"$@" > "$tmp/live.out" 2>&1 &
	pid=$!
	sleep 3
	# The write fails (EBADF) until trace-cmd has turned tracing on
	for ((t = 0; t < 50; t++)); do
		taskset -c $((ncpu - 1)) sh -c "echo rb-live-$name > $T/trace_marker" \
			2> /dev/null && break
		sleep 0.2
	done
	if t=$(appears "$tmp/live.out" "rb-live-$name" "$limit"); then
		echo "# live: $name got the marker within $((t + 1)) s"
	else
		fail "live: $name did not get the marker within $limit s"
	fi
	# trace-cmd stream's recorders are processes of their own
	pkill -KILL -P $pid 2>/dev/null
	kill -KILL $pid 2>/dev/null
	wait $pid 2>/dev/null
}
live trace_pipe 5 cat $T/trace_pipe
live trace_pipe_raw 5 cat $T/per_cpu/cpu$((ncpu - 1))/trace_pipe_raw
live trace-cmd-stream 10 trace-cmd stream -e sched:sched_switch

# The other commands users run.
trace-cmd reset > /dev/null 2>&1
echo 1 > $T/options/overwrite
trace-cmd start -e sched > /dev/null 2>&1 || fail "trace-cmd start"
sleep 1
trace-cmd show 2>&1 | grep -q 'sched_' || fail "trace-cmd show: no sched events"
trace-cmd stat > "$tmp/stat.txt" 2>&1 || fail "trace-cmd stat failed"
grep -q 'sched' "$tmp/stat.txt" || fail "trace-cmd stat does not list the sched events"
trace-cmd snapshot -s > /dev/null 2>&1 || fail "trace-cmd snapshot -s"
trace-cmd snapshot 2>&1 | grep -q 'sched_' || fail "trace-cmd snapshot: no sched events in it"
trace-cmd snapshot -f > /dev/null 2>&1 || fail "trace-cmd snapshot -f"
trace-cmd stop > /dev/null 2>&1
trace-cmd extract -o "$tmp/extract.dat" > /dev/null 2>&1 || fail "trace-cmd extract"
trace-cmd report -i "$tmp/extract.dat" 2>/dev/null | grep -q 'sched_' ||
	fail "trace-cmd extract: no sched events in the file"
exit $rc
