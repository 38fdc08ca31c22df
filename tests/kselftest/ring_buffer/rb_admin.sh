#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Admin operations on a buffer that is being written, through tracefs as a
# user drives them, and the reader paths around them:
#  - per-CPU snapshot swaps of CPU 0 from CPU 1 while CPU 0 writes
#    trace_marker (the swap runs on CPU 0 in an IPI, between a writer's
#    reserve and commit);
#  - resizes that must fail (more than the machine has; more than it has
#    for all CPUs together, or allocations failing at random where the
#    kernel has fail_page_alloc): -ENOMEM, the size and the records kept,
#    nothing in the kernel log;
#  - the ring_buffer_stress module's admin=1 checks (a reader nested in a
#    writer, a reader in NMI under a held reader lock, writers and a reader
#    in NMI where the reader under them is moving its page or a resize
#    its ring, the reader's page across a reset and a resize);
#  - "echo > trace" (a reset of every online CPU) again and again while
#    CPU 1 goes offline and online: both CPUs must record afterwards.
# Every step also fails on a WARNING, BUG or Oops in the kernel log.

ksft_skip=4
. "$(dirname "$0")/rb_lib.sh"
T=/sys/kernel/tracing

[ "$(id -u)" = 0 ] || { echo "must run as root"; exit $ksft_skip; }
[ -w $T/trace_marker ] || { echo "no $T/trace_marker"; exit $ksft_skip; }
command -v taskset > /dev/null || { echo "no taskset"; exit $ksft_skip; }

size=$(sed 's/ .*//' $T/buffer_size_kb)
on=$(cat $T/tracing_on)
cpu1=/sys/devices/system/cpu/cpu1/online
restore() {
	[ -n "${wpid:-}" ] && kill "$wpid" 2> /dev/null && wait "$wpid" 2> /dev/null
	[ -n "${hpid:-}" ] && kill "$hpid" 2> /dev/null && wait "$hpid" 2> /dev/null
	[ -w $cpu1 ] && echo 1 > $cpu1
	[ -e $T/snapshot ] && echo 0 > $T/snapshot
	echo "$size" > $T/buffer_size_kb
	echo > $T/trace
	echo "$on" > $T/tracing_on
}
trap restore EXIT

rc=0 step=0
fail() { echo "# FAIL: $*"; rc=1; }
ok() { echo "# ok: $*"; }

klog_mark() { klog_start=$(dmesg | wc -l); }
# Anything the kernel complained about since klog_mark
klog_check() {
	local bad
	bad=$(dmesg | tail -n +$((klog_start + 1)) |
		grep -E 'WARNING:|BUG:|Oops|Bad page|Call Trace' | head -5)
	[ -z "$bad" ] && return 0
	fail "$1: kernel log says:"
	echo "$bad" | sed 's/^/#   /'
	return 1
}

ncpus=$(nproc)
echo 1 > $T/tracing_on

# --- per-CPU snapshot swap under a writer ---------------------------------
step_swap() {
	local n
	if [ ! -e $T/per_cpu/cpu0/snapshot ] || [ "$ncpus" -lt 2 ]; then
		echo "# per-CPU snapshot swap: needs per_cpu/cpu0/snapshot and 2 CPUs (skipped)"
		return
	fi
	klog_mark
	echo 1 > $T/snapshot || { fail "cannot allocate the snapshot buffer"; return; }
	taskset -c 0 bash -c 'exec 3> '$T'/trace_marker
		while :; do echo swap-writer >&3; done' 2> /dev/null &
	wpid=$!
	# One open file, one write(2) per swap: as many swaps as can be
	n=$(taskset -c 1 bash -c 'exec 3> '$T'/per_cpu/cpu0/snapshot
		n=0 end=$((SECONDS + 10))
		while [ $SECONDS -lt $end ]; do
			echo 1 >&3 || break
			n=$((n + 1))
		done
		echo $n')
	kill "$wpid"; wait "$wpid" 2> /dev/null; wpid=
	echo 0 > $T/snapshot
	grep -q swap-writer $T/trace ||
		fail "per-CPU snapshot swap: no record of the writer left in the buffer"
	klog_check "per-CPU snapshot swap ($n swaps)" &&
		ok "per-CPU snapshot swap: $n swaps of CPU 0 under a trace_marker writer"
}

# --- resizes that must fail -------------------------------------------------
# $1: size in KiB per CPU; $2: what it is
resize_fails() {
	local before after err
	echo "before resize $2" > $T/trace_marker
	before=$(cat $T/buffer_size_kb)
	klog_mark
	if err=$(echo "$1" 2>&1 > $T/buffer_size_kb); then
		# It fitted after all (MemAvailable is an estimate): put it back
		echo "# resize to $1 KiB ($2) succeeded; restoring $size KiB"
		echo "$size" > $T/buffer_size_kb
		klog_check "resize to $1 KiB ($2)"
		return
	fi
	case $err in
	*"Cannot allocate memory"*) ;;
	*) fail "resize to $1 KiB ($2): '$err', expected ENOMEM" ;;
	esac
	after=$(cat $T/buffer_size_kb)
	[ "$after" = "$before" ] ||
		fail "resize to $1 KiB ($2) failed but changed buffer_size_kb: $before -> $after"
	grep -q "before resize $2" $T/trace ||
		fail "resize to $1 KiB ($2) failed but lost the records"
	klog_check "failed resize to $1 KiB ($2)" &&
		ok "resize to $1 KiB ($2): ENOMEM, buffer kept"
}

step_resize() {
	local avail
	avail=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
	resize_fails $((16 * 1024 * 1024)) "16 GiB per CPU"
	# Each CPU's share fits, all of them together do not: the first
	# CPUs' new buffers are allocated when a later one fails.  Minutes
	# of page allocation under TCG: where fail_page_alloc can make the
	# same happen in a few pages (step_fault), that does it instead.
	if [ "$ncpus" -ge 2 ] && [ ! -d /sys/kernel/debug/fail_page_alloc ]; then
		resize_fails $((avail * 6 / 10)) "60% of MemAvailable per CPU"
	fi
}

# --- allocations failing at random (fault injection, if the kernel has it)
# Each resize either succeeds or fails with ENOMEM, and then leaves the
# size as it was; the kernel log stays clean.
step_fault() {
	local D=/sys/kernel/debug/fail_page_alloc S=/sys/kernel/debug/failslab
	local i want before after err n_ok=0 n_nomem=0
	mountpoint -q /sys/kernel/debug ||
		mount -t debugfs none /sys/kernel/debug 2> /dev/null
	if [ ! -d $D ]; then
		echo "# fault injection: no fail_page_alloc in this kernel (skipped)"
		return
	fi
	klog_mark
	for f in $D $S; do
		[ -d $f ] || continue
		echo 1 > $f/task-filter
		# Per allocation: a resize of 16 to 256 pages per CPU
		# then fails on the first CPU or on a later one
		echo 1 > $f/probability
		echo 0 > $f/interval
		echo -1 > $f/times
		echo 0 > $f/verbose
		# GFP_KERNEL sleeps; user pages (highmem flag) stay exempt
		[ -e $f/ignore-gfp-wait ] && echo N > $f/ignore-gfp-wait
		[ -e $f/min-order ] && echo 0 > $f/min-order
	done
	for i in $(seq 40); do
		want=$((64 + (RANDOM % 960)))
		before=$(cat $T/buffer_size_kb)
		# Only this subshell's allocations fail, and only during the
		# resize: failures in anything else it does (exec, reads of
		# the root file system) are not this test's business.
		if err=$(bash -c 'exec 3> '$T'/buffer_size_kb 4> /proc/self/make-it-fail
				echo 1 >&4; echo '$want' >&3; r=$?; echo 0 >&4; exit $r' 2>&1); then
			n_ok=$((n_ok + 1))
			continue
		fi
		n_nomem=$((n_nomem + 1))
		after=$(cat $T/buffer_size_kb)
		case $err in
		*"Cannot allocate memory"*) ;;
		*) fail "fault injection: resize to $want KiB: '$err'" ;;
		esac
		[ "$after" = "$before" ] ||
			fail "fault injection: failed resize changed the size: $before -> $after"
	done
	for f in $D $S; do [ -d $f ] && echo 0 > $f/probability; done
	echo "$size" > $T/buffer_size_kb
	echo "# fault injection: $n_ok resizes went through, $n_nomem failed with ENOMEM"
	klog_check "resizes under fault injection" &&
		ok "resizes under fault injection ($n_nomem failed cleanly)"
}

# --- the module's reader checks ---------------------------------------------
step_module() {
	if ! modprobe -n ring_buffer_stress 2> /dev/null; then
		echo "# no ring_buffer_stress module (skipped)"
		return
	fi
	klog_mark
	if rb_stress_load admin=1; then
		rmmod ring_buffer_stress
	else
		fail "ring_buffer_stress admin=1"
	fi
	dmesg | tail -n +$((klog_start + 1)) | grep 'ring_buffer_stress:' | sed 's/^/# /'
	klog_check "ring_buffer_stress admin=1"
}

# --- resets while a CPU goes offline and online ----------------------------
# A reset quiesces the online CPUs' buffers, waits a grace period, then
# empties them: a CPU that came online or went offline meanwhile must not
# be left with recording off for good, nor emptied under its writers.
step_hotplug() {
	local end n=0 cpu
	if [ "$ncpus" -lt 2 ] || [ ! -w $cpu1 ]; then
		echo "# resets under CPU hotplug: needs a CPU 1 that can go offline (skipped)"
		return
	fi
	klog_mark
	end=$((SECONDS + 20))
	( while [ $SECONDS -lt $end ]; do echo 0 > $cpu1; echo 1 > $cpu1; done ) &
	hpid=$!
	while [ $SECONDS -lt $end ]; do
		echo > $T/trace
		n=$((n + 1))
	done
	wait $hpid
	hpid=""
	echo 1 > $cpu1
	echo > $T/trace
	for cpu in 0 1; do
		taskset -c $cpu sh -c "echo rb_admin_hotplug_$cpu > $T/trace_marker" 2> /dev/null
		if grep -q "rb_admin_hotplug_$cpu" $T/per_cpu/cpu$cpu/trace; then
			ok "CPU $cpu records after $n resets under CPU hotplug"
		else
			fail "CPU $cpu records nothing after $n resets under CPU hotplug"
		fi
	done
	klog_check "resets under CPU hotplug"
}

for s in swap resize fault module hotplug; do
	t=$SECONDS
	step_$s
	echo "# step $s: $((SECONDS - t)) s"
done
exit $rc
