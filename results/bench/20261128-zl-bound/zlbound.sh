#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side (UML bench kernel, one CPU): what bounds the rate at which
# "trace-cmd record" keeps up with trace_event_bench's rate writers, in the
# recording of thrbench.sh (teb_rate_record in scripts/guest/lib.sh:
# 16-byte records, overwrite mode, local clock).  For each configuration
# of ZB_CONFIGS (SIZE:PERCENT: buffer_size_kb and buffer_percent; default
# 1408:50, trace-cmd's size and the tracefs default) and each rate of
# ZB_RATES (events/s per CPU), ZB_N recordings of ZB_SECS seconds; over
# the seconds the writers write (from "echo RATE > rate" to "echo 0 >
# rate"):
#   - the run time of the trace-cmd tasks (se.sum_exec_runtime of
#     /proc/PID/sched, CONFIG_SCHED_DEBUG: the parent and the per-CPU
#     recorder), of the writer thread teb_w/0 and of all tasks;
#   - the CPU's time as /proc/stat splits it (tick-sampled, HZ=100);
#   - per trace-cmd task its voluntary context switches (sleeps);
# then the events written, recorded (trace-cmd report, as thrbench.sh
# counts them) and lost, and from per_cpu/cpu*/stats after the writers
# stopped and before trace-cmd's final flush, the events the buffer
# overwrote (overrun) and those not read yet (entries).  One line per recording:
#   size_kb percent rate i written recorded lost overrun unread wall_ms
#   tracecmd_ms writer_ms alltasks_ms user system idle irqsoft (/proc/stat
#   ticks)
#   pid:sleeps:run_ms,... (each trace-cmd task)
# A warm-up recording at the first rate, not printed, comes first (the
# first recording of a boot loses: results/bench/20261125-variation/).
#
#   scripts/vm -q -k $RB_CACHE/build/uml-F-bench -o DIR -t SECS -- \
#       env ZB_CONFIGS="1408:50 5632:50" ZB_RATES="2000000 3000000" \
#       ZB_N=3 /abs/zlbound.sh
. "$RB_TOP/scripts/guest/lib.sh"
rates=${ZB_RATES:-"1000000 2000000"} n=${ZB_N:-3} secs=${ZB_SECS:-2}
configs=${ZB_CONFIGS:-1408:50}
t=/sys/kernel/tracing p=/sys/module/trace_event_bench/parameters
dat=/tmp/zb.dat log=/tmp/zb-rec.log

# snap: in one process, the run time (ms) of the trace-cmd tasks, of the
# writer thread teb_w/0, of all tasks, the cpu line of /proc/stat (user,
# system, idle, irq+softirq ticks), then per trace-cmd task
# pid:voluntary_switches:run_time_ms (a voluntary switch is a sleep: a
# wait for data in splice, or a sleep interval)
snap() {
	awk 'FNR == 1 && FILENAME ~ /sched$/ {
		c = $1; pid = $2; sub(/[(,]/, "", pid); sub(/,/, "", pid) }
	     /^se.sum_exec_runtime/ { all += $3
		if (c == "trace-cmd") { tc += $3; rt[pid] = $3 }
		else if (c == "teb_w/0") wr += $3 }
	     /^nr_voluntary_switches/ && c == "trace-cmd" { sw[pid] = $3 }
	     FILENAME == "/proc/stat" && $1 == "cpu" { st = ($2 + $3) " " $4 " " ($5 + $6) " " ($7 + $8) }
	     END { printf "%.3f %.3f %.3f %s", tc, wr, all, st
		for (p in sw) printf " %s:%d:%.3f", p, sw[p], rt[p]; printf "\n" }' \
		/proc/[0-9]*/sched /proc/stat 2> /dev/null
}

# tasks BEFORE AFTER: per trace-cmd task in both snapshots,
# pid:switches:run_time_ms over the window
tasks() {
	echo "$1 $2" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /:/) {
		split($i, f, ":"); if (f[1] in s) { printf "%s%s:%d:%.1f", sep, f[1],
			f[2] - s[f[1]], f[3] - r[f[1]]; sep = "," }
		else { s[f[1]] = f[2]; r[f[1]] = f[3] } } }'
}

# deltas BEFORE AFTER: between two snapshots, the run times (ms) of
# trace-cmd, of the writer (started after BEFORE, by the write to rate: its
# value in AFTER) and of all tasks, and the /proc/stat ticks (each
# snapshot's first seven fields)
deltas() {
	awk -v a="$1" -v b="$2" 'BEGIN { split(a, x, " "); split(b, y, " ")
		printf "%.1f %.1f %.1f %d %d %d %d", y[1] - x[1], y[2], y[3] - x[3],
			y[4] - x[4], y[5] - x[5], y[6] - x[6], y[7] - x[7] }'
}

# one RATE: one recording; prints its line (without rate and index)
one() {
	local a b t0 t1 w rec ov
	teb_rate_start $dat $log
	a=$(snap)
	t0=$(date +%s%N)
	echo "$1" > $p/rate
	sleep "$secs"
	b=$(snap)
	t1=$(date +%s%N)
	echo 0 > $p/rate
	w=$(cat $p/written)
	sleep 0.5
	# What the buffer overwrote, and what trace-cmd has not read yet
	ov=$(cat $t/per_cpu/cpu*/stats | awk '/^overrun:/ { o += $2 }
		/^entries:/ { e += $2 } END { print o + 0, e + 0 }')
	kill -INT $teb_pid
	wait $teb_pid
	rec=$(trace-cmd report -i $dat 2> /dev/null | grep -c ' teb_event: ')
	rm -f $dat
	echo "$w $rec $((w - rec)) $ov $(((t1 - t0) / 1000000))" \
		"$(deltas "$a" "$b")" \
		"$(tasks "$a" "$b")"
}

teb_rate_setup || exit 1
echo "# $(uname -r), $(nproc) CPU(s), $secs s per recording, configs $configs, rates $rates"
echo "# size_kb percent rate i written recorded lost overrun unread wall_ms tracecmd_ms writer_ms alltasks_ms user system idle irqsoft pid:sleeps:ms,..."
set -- $rates
one "$1" > /dev/null
for cf in $configs; do
	echo "${cf%:*}" > $t/buffer_size_kb
	echo "${cf#*:}" > $t/buffer_percent
	for rate in $rates; do
		for i in $(seq "$n"); do
			echo "${cf%:*} ${cf#*:} $rate $i $(one "$rate")"
		done
	done
done
echo 1408 > $t/buffer_size_kb
echo 50 > $t/buffer_percent
rmmod trace_event_bench
