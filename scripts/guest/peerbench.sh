#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/bench -p vm: ftrace's ring buffer against its
# peers, perf and LTTng, in the same boot on the same event.  The event is
# the one every tool can record from the same kernel hook: getppid()'s
# syscall entry and exit (ftrace: syscalls:sys_{enter,exit}_getppid; perf:
# the same tracepoints; LTTng: its syscall probes, `--syscall getppid`,
# which record entry and exit too).  A loop of CALLS getppid() on CPU 0
# (sysloop, default 100000 calls) is timed with no tracer on, then under
# each tracer, all with per-CPU buffers of 1 MiB (perf can only have a
# power-of-two number of pages, LTTng power-of-two sub-buffers):
#   ftrace     1024 KiB per CPU, overwrite mode, trace_clock local, no reader
#              (as sysbench.sh, whose 1408 KiB LTTng cannot have)
#   perf       perf record -a, 256 pages per CPU, to /tmp (its consumer runs)
#   lttng-ow   LTTng snapshot session (flight recorder: no consumer output),
#              overwrite channel of 256 sub-buffers of 4 KiB per CPU
#   lttng-dis  LTTng session to /tmp (its consumer daemon writes it), discard
#              channel of the same size
# Rounds of (off, ftrace, perf, lttng-ow, lttng-dis), five rounds; the
# figure is the median.  The loop runs on CPU 0, the tools' own processes
# (perf record, LTTng's session and consumer daemons) on CPU 1.  Each call writes two events, so the added cost per
# event is (median on - median off) / 2.
#
# Usage: peerbench.sh [CALLS]
# Appends to $RB_OUT/metrics.txt: peer.off.ns, peer.<tool>.event.ns for every
# tool that ran; a tool that cannot run here is named, with the reason, in
# $RB_OUT/peer-raw.txt and gives no figure.  LTTng's modules must be in
# /lib/modules/$(uname -r) (scripts/bench builds them from Debian's
# lttng-modules-dkms source against the kernel under test).
. "$RB_TOP/scripts/guest/lib.sh"
T=/sys/kernel/tracing
calls=${1:-100000}
raw=$RB_OUT/peer-raw.txt
m=$RB_OUT/metrics.txt
tmp=/tmp/peerbench
bin=$tmp/sysloop
export HOME=${HOME:-/root}
rm -rf $tmp
mkdir -p $tmp
: > "$raw"
note() { echo "peerbench: $*" | tee -a "$raw" >&2; }

sysloop_setup $bin "$raw"
loop() { taskset -c 0 $bin "$calls"; }
echo 1024 > $T/buffer_size_kb

tools=(off ftrace)
peers_find $tmp "$raw"
for t in "${PEERS[@]}"; do
	case $t in
	lttng) tools+=(lttng-ow lttng-dis) ;;
	*) tools+=("$t") ;;
	esac
done

# lttng_session NAME MODE: create, configure and start an LTTng kernel
# session with a 1 MiB per-CPU channel in MODE (overwrite or discard).
lttng_session() {
	local name=$1 mode=$2
	if [ "$mode" = overwrite ]; then
		lttng create "$name" --snapshot --output=$tmp/lttng-snap
	else
		lttng create "$name" --output=$tmp/lttng-$name
	fi > /dev/null &&
	lttng enable-channel --kernel --$mode --subbuf-size=4096 --num-subbuf=256 \
		ch > /dev/null &&
	lttng enable-event --kernel --syscall getppid --channel ch > /dev/null &&
	lttng start > /dev/null
}

# lttng_end NAME: stop the session, note what it says it lost, destroy it.
lttng_end() {
	lttng stop "$1" > /dev/null
	lttng list "$1" 2>/dev/null | grep -i 'discarded\|lost' | sed "s/^/  $1: /" >> "$raw"
	lttng destroy "$1" > /dev/null
	rm -rf $tmp/lttng-*
}

# run TOOL: one timed loop under TOOL; prints ns per call.
run() {
	local v
	case $1 in
	off) loop ;;
	ftrace)
		echo 1 > $T/events/syscalls/sys_enter_getppid/enable
		echo 1 > $T/events/syscalls/sys_exit_getppid/enable
		v=$(loop)
		echo 0 > $T/events/syscalls/sys_enter_getppid/enable
		echo 0 > $T/events/syscalls/sys_exit_getppid/enable
		echo > $T/trace
		echo "$v" ;;
	perf)
		taskset -c 1 perf record -q -a -m 256 -o $tmp/perf.data \
			-e syscalls:sys_enter_getppid -e syscalls:sys_exit_getppid \
			-- taskset -c 0 $bin "$calls" 2> $tmp/perf.log
		grep -i 'lost' $tmp/perf.log | sed 's/^/  perf: /' >> "$raw"
		rm -f $tmp/perf.data ;;
	lttng-ow|lttng-dis)
		local mode=overwrite
		[ "$1" = lttng-dis ] && mode=discard
		lttng_session peer-$mode $mode || { echo fail; return; }
		v=$(loop)
		lttng_end peer-$mode
		echo "$v" ;;
	esac
}

declare -A res
for r in 1 2 3 4 5; do
	for t in "${tools[@]}"; do
		v=$(run "$t")
		[[ "$v" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { note "$t round $r failed: '$v'"; exit 1; }
		res[$t]="${res[$t]:-} $v"
	done
done
peers_end

off=$(median <<< "${res[off]}")
echo "peer.off.ns $off" >> "$m"
note "ns per getppid() with no tracer:${res[off]}"
for t in "${tools[@]:1}"; do
	on=$(median <<< "${res[$t]}")
	ev=$(awk -v a="$on" -v b="$off" 'BEGIN { printf "%.1f", (a - b) / 2 }')
	note "ns per getppid() under $t:${res[$t]}: $ev ns per event"
	echo "peer.$t.event.ns $ev" >> "$m"
done
