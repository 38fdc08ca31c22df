#!/bin/bash
# Shares of the samples of one perf report (prof-guest.sh) by part of the
# path: the ring buffer (ftrace) or LTTng's buffer, the trace clock, and the
# layer above the buffer (ftrace's event layer, LTTng's probes).
# Usage: shares.sh REPORT...
for f in "$@"; do
	awk -v f="$(basename "$f" .txt)" '
	$1 ~ /%$/ && $2 == "[k]" {
		s = $1; sub("%", "", s); sym = $3
		if (sym ~ /^(ring_buffer_|rb_|__rb_|lttng_event_(reserve|commit|write)|lib_ring_buffer|record_header_size)/)
			buf += s
		else if (sym ~ /clock|read_tsc|ktime_get|tk_clock/)
			clk += s
		else if (sym ~ /^(trace_|ftrace_|tracing_|__trace|__buffer|syscall_nr_to_meta|class_preempt|__event_probe|syscall_(entry|exit)_event_probe|preempt_count_|rcu_read_unlock_sched_notrace|preempt_latency)/)
			layer += s
	}
	END { printf "%-24s buffer %5.1f%%  clock %5.1f%%  layer above %5.1f%%\n", f, buf, clk, layer }' "$f"
done
