#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/test: the functional checks, then ftracetest.
# Prints one line per check, "PASS: <name>" or "FAIL: <name>: <why>".
# Env: RB_SUITE (comma list of parts, default
# "startup,tracefs,tracecmd,diff,kselftest,ftracetest"; also "unstable" and
# "benchsmoke"), RB_LABEL (prefix of the check names, for a second boot
# with other kernel parameters), RB_KSELFTESTS (comma list of the
# kselftest directories to run, default all), RB_TORTURE_SECONDS (for the
# "torture" part: a long rb_torture.sh, the extended tier's).
T=/sys/kernel/tracing
D=$RB_OUT/suite
mkdir -p "$D"
parts=,${RB_SUITE:-startup,tracefs,tracecmd,diff,kselftest,ftracetest},
label=${RB_LABEL:+$RB_LABEL }
want() { case "$parts" in *",$1,"*) return 0 ;; esac; return 1; }
# Each check's time goes to $D/times.txt ("<seconds> <name>"), for the
# budget of scripts/test: the check lines themselves stay as they are.
times=$D/times.txt
check() { # check NAME CONDITION-COMMAND... ; WHY from $why
	local name=$1 t0=$SECONDS; shift
	why=""
	if "$@"; then echo "PASS: $label$name"; else echo "FAIL: $label$name: ${why:-failed}"; fi
	echo "$((SECONDS - t0)) $label$name" >> "$times"
}
. "$RB_TOP/scripts/guest/lib.sh"
# tracer_check NAME CONFIG TRACER FUNCTION [ARG...]: a kernel built
# without TRACER (Debian's config has no latency tracer, nor osnoise and
# timerlat) skips the check, and says so; any other kernel must have it.
tracer_check() {
	local name=$1 opt=$2 tracer=$3
	shift 3
	if ! grep -qw "$tracer" $T/available_tracers && [ "$(kconfig "$opt")" = "" ]; then
		echo "SKIP: $label$name: $opt is not set in this kernel's config"
		return
	fi
	check "$name" "$@"
}

if want startup; then
	startup_passed() {
		dmesg | grep -q 'Ring buffer PASSED!' && return 0
		why="no 'Ring buffer PASSED!' in dmesg: $(dmesg | grep -iE 'ring buffer' | tail -2 | tr '\n' ' ')"
		return 1
	}
	check "ring buffer startup self-test" startup_passed
fi

if want unstable; then
	sched_clock_unstable() {
		dmesg | grep -q 'sched_clock: Marking stable' || return 0
		why="sched_clock was marked stable"
		return 1
	}
	check "sched_clock is unstable" sched_clock_unstable
fi

if want tracefs; then
	tracefs_trace() {
		echo > $T/trace
		echo 1 > $T/events/sched/enable
		workload
		echo 0 > $T/events/sched/enable
		cp $T/trace "$D/trace.txt"
		grep -q '^# tracer: nop' "$D/trace.txt" || { why="no trace header"; return 1; }
		grep -q 'sched_switch:' "$D/trace.txt" || { why="no sched_switch in trace"; return 1; }
		grep -q 'sched_wakeup' "$D/trace.txt" || { why="no sched_wakeup in trace"; return 1; }
	}
	check "tracefs: events/sched/enable, read trace" tracefs_trace

	tracefs_pipe() {
		echo > $T/trace
		echo 1 > $T/events/sched/enable
		timeout 5 cat $T/trace_pipe > "$D/trace_pipe.txt" &
		local reader=$!
		workload
		wait $reader
		echo 0 > $T/events/sched/enable
		grep -q 'sched_switch:' "$D/trace_pipe.txt" || { why="no sched_switch from trace_pipe"; return 1; }
		# trace_pipe consumes: what it returned is gone from the buffer.
		local first
		first=$(grep -m1 'sched_switch:' "$D/trace_pipe.txt")
		if grep -qF -- "$first" $T/trace; then why="trace_pipe did not consume"; return 1; fi
	}
	check "tracefs: read trace_pipe" tracefs_pipe
	echo > $T/trace

	# The function tracers write through the ring buffer like events do,
	# from every function entry: with a narrow filter (the workload's
	# writes), so that TCG keeps up.  All-function cases are ftracetest's.
	tracefs_function() {
		local tracer=$1 want=$2
		echo > $T/trace
		echo 'vfs_write' > $T/set_ftrace_filter || { why="no vfs_write to filter on"; return 1; }
		echo "$tracer" > $T/current_tracer || { why="no $tracer tracer"; return 1; }
		for _ in $(seq 50); do echo x > /dev/null; done
		echo 0 > $T/tracing_on
		cp $T/trace "$D/trace-$tracer.txt"
		echo nop > $T/current_tracer
		echo > $T/set_ftrace_filter
		echo 1 > $T/tracing_on
		grep -q "^# tracer: $tracer" "$D/trace-$tracer.txt" || { why="no $tracer header"; return 1; }
		[ "$(grep -cE "$want" "$D/trace-$tracer.txt")" -ge 50 ] ||
			{ why="fewer than 50 vfs_write records"; return 1; }
		# The function tracer: any other line is a wrong record
		[ "$tracer" = function ] || return 0
		if grep -vE '^#|^ *$|'"$want" "$D/trace-$tracer.txt" | grep -q .; then
			why="other records: $(grep -vE '^#|^ *$|'"$want" "$D/trace-$tracer.txt" | head -1)"
			return 1
		fi
	}
	check "tracefs: function tracer, set_ftrace_filter vfs_write" \
		tracefs_function function ' vfs_write <-'
	# The latency tracers keep the worst case in the snapshot buffer by
	# swapping buffers (irqsoff, preemptoff: ring_buffer_swap_cpu() on
	# the CPU; wakeup*: the whole buffer).  function-trace off: TCG.
	# $1 tracer, $2 command that makes a latency of at least $3 us.
	tracefs_latency() {
		local tracer=$1 cmd=$2 min=$3 lat
		grep -qw "$tracer" $T/available_tracers || { why="no $tracer tracer"; return 1; }
		echo 0 > $T/options/function-trace
		echo "$tracer" > $T/current_tracer || { why="cannot set $tracer"; return 1; }
		echo 0 > $T/tracing_max_latency
		echo 1 > $T/tracing_on
		eval "$cmd" > /dev/null 2>&1
		# No new maximum between the two reads below
		echo 0 > $T/tracing_on
		lat=$(cat $T/tracing_max_latency)
		cp $T/trace "$D/trace-$tracer.txt"
		echo 1 > $T/tracing_on
		echo nop > $T/current_tracer
		echo 1 > $T/options/function-trace
		[ "$lat" -ge "$min" ] ||
			{ why="tracing_max_latency $lat us, expected at least $min"; return 1; }
		grep -q "^# $tracer latency trace" "$D/trace-$tracer.txt" ||
			{ why="no '# $tracer latency trace' header"; return 1; }
		grep -qE "^# latency: $lat us" "$D/trace-$tracer.txt" ||
			{ why="header latency is not tracing_max_latency ($lat us)"; return 1; }
	}
	# The module's kthread makes its section when it gets a CPU, which
	# on a loaded host may be seconds later (the CI run of 2026-11-24
	# 23:51 traced an RCU section of 645 us instead, after "sleep 1"):
	# wait for a maximum of at least $1 us, 30 s at most.
	latency_wait() {
		local i
		for i in $(seq 300); do
			[ "$(cat $T/tracing_max_latency)" -ge "$1" ] && return 0
			sleep 0.1
		done
		return 0
	}
	latency_check() { # NAME CONFIG TRACER CMD MIN
		tracer_check "$1" "$2" "$3" tracefs_latency "${@:3}"
	}
	if modprobe -n preemptirq_delay_test 2> /dev/null; then
		latency_check "tracefs: irqsoff tracer (1 ms irqs off)" CONFIG_IRQSOFF_TRACER irqsoff \
			'modprobe preemptirq_delay_test test_mode=irq delay=1000 && latency_wait 1000; rmmod preemptirq_delay_test' 1000
		latency_check "tracefs: preemptoff tracer (1 ms preemption off)" CONFIG_PREEMPT_TRACER preemptoff \
			'modprobe preemptirq_delay_test test_mode=preempt delay=1000 && latency_wait 1000; rmmod preemptirq_delay_test' 1000
	fi
	# A CFS wakeup may be scheduled within the microsecond: RT tasks
	latency_check "tracefs: wakeup tracer" CONFIG_SCHED_TRACER wakeup \
		'for i in 1 2 3 4 5; do chrt -f 10 sleep 0.01; done' 1
	latency_check "tracefs: wakeup_rt tracer" CONFIG_SCHED_TRACER wakeup_rt \
		'for i in 1 2 3 4 5; do chrt -f 10 sleep 0.01; done' 1
	check "tracefs: function_graph tracer, set_ftrace_filter vfs_write" \
		tracefs_function function_graph 'vfs_write\(\);|vfs_write\(\) \{|^ *[0-9]+\) .*\}'
	echo > $T/trace

	# The timerlat and osnoise tracers (in Fedora's and Ubuntu's
	# configs, not in Debian's, which skips them; hwlat stays out: it
	# spins with interrupts off).  timerlat writes, on every CPU and
	# every period, a record from its timer's hard interrupt and one
	# from its thread, both numbered by a per-CPU count: in a buffer
	# large enough to overrun nothing, every number must be there once
	# in each context, from the first to the last.  The first numbers of
	# a CPU may be missing: timerlat starts its threads before it adds
	# the trace array to those it writes to (timerlat_tracer_start()).
	tracefs_timerlat() {
		local f=$D/trace-timerlat.txt size c ok=1
		size=$(cat $T/buffer_size_kb)
		echo > $T/trace
		echo 4096 > $T/buffer_size_kb || { why="cannot resize to 4096 KiB"; return 1; }
		# Read before the switch to nop, which empties the buffer.
		if echo timerlat > $T/current_tracer; then
			sleep 3
			echo 0 > $T/tracing_on
		else
			why="cannot set timerlat" ok=0
		fi
		cp $T/trace "$f"
		for c in $(seq 0 $(( $(nproc) - 1 ))); do
			grep -q '^overrun: 0$' $T/per_cpu/cpu$c/stats ||
				why="CPU $c overran: $(grep '^overrun' $T/per_cpu/cpu$c/stats)" ok=0
		done
		echo nop > $T/current_tracer
		echo 1 > $T/tracing_on
		echo "$size" > $T/buffer_size_kb
		[ $ok = 1 ] || return 1
		grep -q '^# tracer: timerlat' "$f" || { why="no timerlat header"; return 1; }
		awk -v ncpu="$(nproc)" '
		match($0, /\[[0-9]+\] /) { cpu = substr($0, RSTART + 1, RLENGTH - 3) + 0 }
		match($0, /#[0-9]+ +context +(irq|thread) /) {
			split(substr($0, RSTART + 1, RLENGTH - 1), w, " ")
			n = w[1] + 0; k = cpu " " w[3]
			if (!(k in first)) first[k] = n
			else if (n != last[k] + 1) { print "CPU " k ": #" n " after #" last[k]; bad = 1; exit }
			last[k] = n
		}
		END {
			if (bad) exit 1
			for (c = 0; c < ncpu; c++) {
				i = c " irq"; t = c " thread"
				if (last[i] - first[i] + 1 < 10) {
					print "CPU " c ": " last[i] - first[i] + 1 " timer interrupts in 3 s"; exit 1
				}
				if (first[t] - first[i] > 1 || first[i] - first[t] > 1 ||
				    (last[t] != last[i] && last[t] != last[i] - 1)) {
					print "CPU " c ": irq #" first[i] "-" last[i] ", thread #" first[t] "-" last[t]
					exit 1
				}
			}
		}' "$f" > "$D/timerlat-seq.txt" || { why="$(head -1 "$D/timerlat-seq.txt")"; return 1; }
	}
	# osnoise: its threads (here 20 ms of every 100) write a sample
	# record each period, and with the osnoise events on, the interrupts
	# that hit them are written from interrupt context.
	tracefs_osnoise() {
		local f=$D/trace-osnoise.txt O=$T/osnoise c period runtime
		period=$(cat $O/period_us) runtime=$(cat $O/runtime_us)
		echo > $T/trace
		# The runtime may not exceed the period: runtime down first.
		echo 20000 > $O/runtime_us && echo 100000 > $O/period_us ||
			{ why="cannot set osnoise's period and runtime"; return 1; }
		echo 1 > $T/events/osnoise/enable
		if echo osnoise > $T/current_tracer; then
			sleep 2
			echo 0 > $T/tracing_on
		else
			why="cannot set osnoise"
		fi
		cp $T/trace "$f"
		echo nop > $T/current_tracer
		echo 1 > $T/tracing_on
		echo 0 > $T/events/osnoise/enable
		echo "$period" > $O/period_us
		echo "$runtime" > $O/runtime_us
		[ -z "$why" ] || return 1
		grep -q '^# tracer: osnoise' "$f" || { why="no osnoise header"; return 1; }
		for c in $(seq 0 $(( $(nproc) - 1 ))); do
			[ "$(grep -cE "^ *osnoise/$c-[0-9]+ +\[0*$c\] [^:]*: +[0-9]+ +[0-9]+ +[0-9]+\.[0-9]+ " "$f")" -ge 3 ] ||
				{ why="fewer than 3 samples from CPU $c"; return 1; }
		done
		grep -q ' irq_noise: ' "$f" || { why="no irq_noise event"; return 1; }
	}
	tracer_check "tracefs: timerlat tracer, every record of every CPU's timer and thread" \
		CONFIG_TIMERLAT_TRACER timerlat tracefs_timerlat
	tracer_check "tracefs: osnoise tracer and events" CONFIG_OSNOISE_TRACER osnoise tracefs_osnoise
	echo > $T/trace
fi

if want tracecmd; then
	tracecmd_roundtrip() {
		local dat=$D/sched.dat rep=$D/sched-report.txt err=$D/sched-report.err
		trace-cmd record -q -e sched -o "$dat" -- bash -c "$(declare -f workload); workload" \
			> "$D/sched-record.log" 2>&1 || { why="trace-cmd record failed"; return 1; }
		trace-cmd report -i "$dat" > "$rep" 2> "$err" || { why="trace-cmd report failed"; return 1; }
		grep -q ' sched_switch: ' "$rep" || { why="no sched_switch in report"; return 1; }
		grep -q ' sched_wakeup' "$rep" || { why="no sched_wakeup in report"; return 1; }
		if grep -iE 'bad page|failed|error|invalid|corrupt' "$err" "$rep" | head -3 > "$D/bad.txt" &&
			[ -s "$D/bad.txt" ]; then
			why="report complains: $(head -1 "$D/bad.txt")"; return 1
		fi
		# Per-CPU timestamps never go backwards.
		awk '
		match($0, /\[[0-9]+\] +[0-9]+\.[0-9]+:/) {
			s = substr($0, RSTART, RLENGTH); gsub(/[\[\]:]/, " ", s)
			split(s, f, " "); cpu = f[1]; ts = f[2]
			if ((cpu in last) && ts + 0 < last[cpu] + 0) {
				print "CPU " cpu ": " ts " after " last[cpu]; bad = 1
			}
			last[cpu] = ts; n++
		}
		END { if (n < 10) { print "only " n " events"; bad = 1 }; exit bad }' "$rep" > "$D/ts.txt" ||
			{ why="timestamps: $(head -1 "$D/ts.txt")"; return 1; }
	}
	check "trace-cmd record/report round trip (sched)" tracecmd_roundtrip
	trace-cmd reset > /dev/null 2>&1

	# trace-cmd's network paths, over loopback.  Every CPU writes N
	# numbered markers at a rate the recorder keeps up with: each must
	# arrive, once, in order, with sched_switch events from every CPU,
	# and no loss announced.
	# net_writer TAG N: the command that writes the markers.
	net_writer() {
		echo "for c in \$(seq 0 \$((\$(nproc) - 1))); do
			taskset -c \$c bash -c 'for i in \$(seq $2); do
				echo \"$1 cpu=\$0 seq=\$i\" > $T/trace_marker
				[ \$((i % 50)) = 0 ] && sleep 0.05
			done' \$c &
		done
		wait"
	}
	# net_listening PORT: wait up to 10 s for a TCP listener on PORT.
	net_listening() {
		for _ in $(seq 40); do ss -ltn | grep -q ":$1 " && return; sleep 0.25; done
	}
	# net_check DAT TAG N: the report of DAT holds every marker.
	net_check() {
		local dat=$1 tag=$2 n=$3 rep=$1.txt c
		trace-cmd report -i "$dat" > "$rep" 2> "$rep.err" ||
			{ why="trace-cmd report failed"; return 1; }
		if grep -E 'EVENTS DROPPED|LOST' "$rep" | head -1 > "$D/bad.txt" && [ -s "$D/bad.txt" ]; then
			why="losses announced: $(head -1 "$D/bad.txt")"; return 1
		fi
		for c in $(seq 0 $(( $(nproc) - 1 ))); do
			grep -q "\[$(printf %03d "$c")\].* sched_switch:" "$rep" ||
				{ why="no sched_switch from CPU $c"; return 1; }
			# The marker's own CPU, in order, each number once.
			awk -v c="$c" -v n="$n" -v tag="$tag" '
			index($0, " " tag " cpu=" c " ") {
				split($0, a, "seq="); s = a[2] + 0
				if (s != last + 1) { print "CPU " c ": seq " s " after " last; bad = 1; exit }
				last = s
			}
			END { if (!bad && last != n) { print "CPU " c ": " last " of " n " markers"; bad = 1 }; exit bad }' \
				"$rep" > "$D/$tag-seq.txt" || { why="$(head -1 "$D/$tag-seq.txt")"; return 1; }
		done
	}
	# "trace-cmd listen" takes the data that "trace-cmd record -N" reads
	# from trace_pipe_raw and sends over TCP.
	tracecmd_listen() {
		local dir=$D/listen port=18765 lp n=300 dat
		rm -rf "$dir"
		mkdir -p "$dir"
		trace-cmd listen -p $port -d "$dir" > "$D/listen.log" 2>&1 &
		lp=$!
		net_listening $port
		trace-cmd record -N 127.0.0.1:$port -e sched_switch -- bash -c "$(net_writer rbnet $n)" \
			> "$D/listen-record.log" 2>&1 || { why="trace-cmd record -N failed"; kill $lp; return 1; }
		sleep 1
		kill $lp
		wait $lp 2> /dev/null
		dat=$(ls "$dir"/*.dat 2> /dev/null | head -1)
		[ -n "$dat" ] || { why="trace-cmd listen wrote no file"; return 1; }
		net_check "$dat" rbnet $n
	}
	check "trace-cmd listen + record -N over loopback: every CPU's markers arrive" tracecmd_listen
	trace-cmd reset > /dev/null 2>&1
	# "trace-cmd agent" traces the machine it runs on for a remote
	# "trace-cmd record -A", normally a guest over vsock.  No vsock here
	# (the test hosts have no /dev/vhost-vsock for QEMU), so its TCP mode
	# (-N), over loopback, without time synchronization (no peer clock).
	tracecmd_agent() {
		local dir=$D/agent port=18766 ap n=300 dat
		rm -rf "$dir"
		mkdir -p "$dir"
		trace-cmd agent -N 127.0.0.1 -p $port > "$D/agent.log" 2>&1 &
		ap=$!
		net_listening $port
		(cd "$dir" && timeout 300 trace-cmd record --tsync-interval -1 -A 127.0.0.1:$port \
			-e sched:sched_switch -- bash -c "$(net_writer rbagent $n)") \
			> "$D/agent-record.log" 2>&1 || { why="trace-cmd record -A failed"; kill $ap; return 1; }
		kill $ap
		wait $ap 2> /dev/null
		dat=$(ls "$dir"/trace-*.dat 2> /dev/null | head -1)
		[ -n "$dat" ] || { why="trace-cmd record -A wrote no agent file"; return 1; }
		net_check "$dat" rbagent $n
	}
	check "trace-cmd agent -N + record -A over loopback: every CPU's markers arrive" tracecmd_agent
	trace-cmd reset > /dev/null 2>&1

	# Debian's rtla (built from the kernel's tools/tracing/rtla) runs the
	# timerlat tracer in an instance of its own and reads its records
	# through libtracefs (trace_pipe_raw); its summary must count timer
	# interrupts and thread wake-ups on every CPU.
	rtla_timerlat() {
		local out=$D/rtla-timerlat.txt c
		rtla timerlat top -q -d 3s > "$out" 2>&1 ||
			{ why="rtla timerlat top failed: $(tail -1 "$out")"; return 1; }
		for c in $(seq 0 $(( $(nproc) - 1 ))); do
			grep -qE "^ *$c #[1-9][0-9]* +\|( +[0-9]+){4} \|( +[0-9]+){4}" "$out" ||
				{ why="no counts for CPU $c in rtla's summary"; return 1; }
		done
	}
	if command -v rtla > /dev/null; then
		tracer_check "rtla timerlat top: every CPU's timer latencies counted" \
			CONFIG_TIMERLAT_TRACER timerlat rtla_timerlat
	else
		echo "SKIP: ${label}rtla timerlat top: rtla is not installed in this root"
	fi
fi

# The differential probe: its "key: value" lines go to $D/diff.txt, which
# scripts/test compares with the page-based reference (rb_diffref_lines).
if want diff; then
	diff_probe() {
		"$RB_TOP/scripts/guest/difftest.sh" > "$D/diff.txt" 2> "$D/diff.err" ||
			{ why="difftest.sh failed: $(tail -1 "$D/diff.err")"; return 1; }
		local n
		n=$(grep -c ': ' "$D/diff.txt")
		[ "$n" -ge 40 ] || { why="only $n probe lines (see $D/diff.err)"; return 1; }
	}
	check "differential probe ran (suite/diff.txt)" diff_probe
fi

# The kselftests the series adds (tests/kselftest/<dir> of the project), but
# ftracetest's test cases, which the ftracetest part runs with the others.
if want kselftest; then
	for dir in "$RB_TOP"/tests/kselftest/*/; do
		[ -d "$dir" ] || continue
		name=$(basename "$dir")
		[ "$name" = ftrace ] && continue
		case ,${RB_KSELFTESTS:-$name}, in *",$name,"*) ;; *) continue ;; esac
		ks=$D/kselftest-$name
		# Built in place: the guest's root is an overlay, the host's
		# tree stays clean, and test scripts find their programs.
		# Through a pipe: the kselftest runner appends each test's
		# output to /dev/stdout, which a plain file's offset overwrites.
		t0=$SECONDS
		# Each start and result line is stamped with the suite's
		# clock in $ks.stamps, for the time of every test.
		make -C "$RB_LINUX/tools/testing/selftests/$name" run_tests 2>&1 |
			while IFS= read -r l; do
				printf '%s\n' "$l"
				case $l in *"selftests: "*) echo "$SECONDS $l" >> "$ks.stamps" ;; esac
			done > "$ks.log"
		echo "$((SECONDS - t0)) ${label}kselftest $name (all)" >> "$times"
		grep -q -E '^(not )?ok [0-9]+ selftests: ' "$ks.log" ||
			echo "FAIL: ${label}kselftest $name: no result (see $ks.log)"
		# Our own tests must run: a skip means a missing option or tool.
		grep -E '^(not )?ok [0-9]+ selftests: ' "$ks.log" | while read -r line; do
			t=${line#*selftests: }
			t=${t%% #*}
			t=${t/: //}
			case "$line" in
			"not ok"*) echo "FAIL: ${label}kselftest $t" ;;
			*"# SKIP"*) echo "FAIL: ${label}kselftest $t: skipped" ;;
			*) echo "PASS: ${label}kselftest $t" ;;
			esac
		done
	done
fi

# The guest scripts of scripts/bench on this kernel, with tiny figures:
# on every CPU, global clock included, syscall events (UML, where the
# quick benchmark run of scripts/test happens, has none) and trace-cmd
# record at a steady rate, of trace_event_bench's event and of getppid().
# Checks that each produces its numbers, never a timing; the kernel log
# check after the boot covers the module.  The peers (perf, LTTng) run
# where they are installed and built; here only ftrace's figures of those
# scripts are required.  One run of each latency configuration and two
# recordings for the half-loss estimate: with two runs and sixteen
# recordings this check took 524 s of a slow host's 12-minute boot.
if want benchsmoke; then
	benchsmoke() {
		local m=$RB_OUT/metrics.txt k
		: > "$m"
		# Each at its smallest: one rate of each ladder, 64 KiB
		# buffers for latbench (its warm-up fills them): 240 s on a
		# slow host, 299 s with two rates and 1408 KiB.
		"$RB_TOP/scripts/guest/latbench.sh" 2000 1 64 > "$D/latbench.log" 2>&1 &&
		"$RB_TOP/scripts/guest/sysbench.sh" 5000 > "$D/sysbench.log" 2>&1 &&
		"$RB_TOP/scripts/guest/peerbench.sh" 2000 > "$D/peerbench.log" 2>&1 &&
		"$RB_TOP/scripts/guest/thrbench.sh" 1 500 500 1 0 > "$D/thrbench.log" 2>&1 &&
		"$RB_TOP/scripts/guest/peerthr.sh" 1 1000 1000 1 > "$D/peerthr.log" 2>&1 ||
			{ why="a benchmark script failed (see $D)"; return 1; }
		for k in lat.floor.1cpu.mean "lat.64k.global.$(nproc)cpu.p99" \
			sys.event.ns peer.ftrace.event.ns thr.zero_loss peer.ftrace.zero_loss; do
			grep -qE "^$k -?[0-9.]+$" "$m" && continue
			why="no $k in $m"
			return 1
		done
	}
	check "benchmark scripts (trace_event_bench, syscalls, peers, trace-cmd at a rate) produce numbers" \
		benchsmoke
fi

if want torture; then
	torture() {
		local secs=${RB_TORTURE_SECONDS:-300}
		"$RB_LINUX/tools/testing/selftests/ring_buffer/rb_torture.sh" "$secs" \
			> "$D/torture.log" 2>&1 && return 0
		why="$(grep -m1 FAIL "$D/torture.log") (see $D/torture.log)"
		return 1
	}
	check "rb_torture.sh for ${RB_TORTURE_SECONDS:-300} s" torture
fi

if want ftracetest; then
	t0=$SECONDS
	"$RB_TOP/scripts/guest/ftracetest.sh" "" "$RB_TOP/scripts/expect/ftracetest.txt" \
		> "$D/ftracetest.log" 2>&1
	echo "$((SECONDS - t0)) ${label}ftracetest (all)" >> "$times"
	echo "ftracetest: $(tail -1 "$D/ftracetest.log")"
fi
exit 0
