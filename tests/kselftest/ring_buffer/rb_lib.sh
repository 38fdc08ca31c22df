# SPDX-License-Identifier: GPL-2.0
# Helpers of the ring_buffer selftests, sourced by them.

# rb_kconfig OPTION: y, m or n for CONFIG_OPTION of the running kernel,
# from /proc/config.gz (the config fragment of this directory asks for
# it) or /boot/config-<release>; nothing when neither can be read.
rb_kconfig() {
	local config

	config=$( { zcat /proc/config.gz || cat "/boot/config-$(uname -r)"; } 2> /dev/null)
	[ -n "$config" ] || return 0
	case $(printf '%s\n' "$config" | grep -E "^CONFIG_$1=[ym]$") in
	*=y) echo y ;;
	*=m) echo m ;;
	*) echo n ;;
	esac
}

# rb_stress_load ARG...: modprobe ring_buffer_stress ARG... with perf's
# time limit on its interrupts off.  Where the module takes its NMIs from
# PMU overflows (arm64), its NMIs that read a whole buffer run for
# milliseconds; perf would lower kernel.perf_event_max_sample_rate after
# them until it throttles the module's counters, and a throttled counter
# stays off while interrupts are off, which is where the module waits for
# an NMI.  Both settings are put back afterwards.
rb_stress_load() {
	local pct=/proc/sys/kernel/perf_cpu_time_max_percent
	local rate=/proc/sys/kernel/perf_event_max_sample_rate
	local old_pct old_rate ret=0

	old_pct=$(cat $pct 2> /dev/null)
	old_rate=$(cat $rate 2> /dev/null)
	# The rate can be set only while the limit is on
	[ -z "$old_rate" ] || echo 100000 2> /dev/null > $rate
	[ -z "$old_pct" ] || echo 0 > $pct
	modprobe ring_buffer_stress "$@" || ret=$?
	[ -z "$old_pct" ] || echo "$old_pct" > $pct
	[ -z "$old_rate" ] || echo "$old_rate" 2> /dev/null > $rate
	return $ret
}
