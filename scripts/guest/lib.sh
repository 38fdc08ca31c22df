# SPDX-License-Identifier: GPL-2.0
# Sourced by the guest scripts.

# workload [ROUNDS]: a little work on every CPU: forks, sleeps and wake-ups.
workload() {
	local c pids=()
	for c in $(seq 0 $(( $(nproc) - 1 ))); do
		taskset -c "$c" bash -c "for i in \$(seq ${1:-30}); do /bin/true; sleep 0.01; done" &
		pids+=($!)
	done
	wait "${pids[@]}"
}

# teb_run NCPUS: one run of the trace_event_bench module, its other
# parameters set by the caller, on one CPU (NCPUS 1) or on all at once;
# prints the module's result line.
teb_run() {
	local p=/sys/module/trace_event_bench/parameters
	echo $(( $1 > 1 )) > $p/all_cpus
	echo 1 > $p/run || return 1
	cat $p/run
}

# teb_stat LINE STAT: the value of STAT (mean, std, p50, ...) in LINE.
teb_stat() { echo "$1" | grep -o " $2=[0-9.]*" | cut -d= -f2; }

# teb_rate_setup: for trace-cmd recordings of trace_event_bench's rate
# writers (thrbench.sh; results/bench/20261127-zl-stalls/zlstall.sh):
# loads the module and leaves the top-level buffer off and empty, local
# clock, overwrite mode, 1408 KiB per CPU (trace-cmd's default size).
teb_rate_setup() {
	local t=/sys/kernel/tracing
	modprobe trace_event_bench || return 1
	echo 0 > $t/tracing_on
	echo local > $t/trace_clock
	echo 1 > $t/options/overwrite
	echo 1408 > $t/buffer_size_kb
	echo > $t/trace
}

# teb_rate_start DAT LOG: starts "trace-cmd record" of teb_event into DAT
# (its output into LOG) in the background, its pid in teb_pid; returns
# once the recording has begun.
teb_rate_start() {
	local t=/sys/kernel/tracing i
	rm -f "$1"
	trace-cmd record -q -e trace_event_bench:teb_event -o "$1" > "$2" 2>&1 &
	teb_pid=$!
	# Recording has begun when trace-cmd turned the event on
	for i in $(seq 100); do
		[ "$(cat $t/events/trace_event_bench/teb_event/enable)" = 1 ] && break
		sleep 0.1
	done
	sleep 0.5
}

# teb_rate_record RATE SECS DAT LOG: one "trace-cmd record" of teb_event
# into DAT (its output into LOG) while the rate writers run at RATE calls
# per second and CPU for SECS seconds; prints the calls they made.
teb_rate_record() {
	local p=/sys/module/trace_event_bench/parameters
	teb_rate_start "$3" "$4"
	echo "$1" > $p/rate
	sleep "$2"
	echo 0 > $p/rate
	cat $p/written
	sleep 0.5
	kill -INT $teb_pid
	wait $teb_pid
}

# teb_rate_attempt RATE: an ATTEMPT of zero_loss and half_loss (below) for
# trace-cmd: one teb_rate_record of TEB_SECS seconds into /tmp/thr.dat,
# removed once counted; appends "rate written recorded lost seconds" to
# TEB_RAW and prints the events lost (0 = none) and the events/s per CPU
# the writers achieved.
teb_rate_attempt() {
	local rate=$1 dat=/tmp/thr.dat w rec
	w=$(teb_rate_record "$rate" "$TEB_SECS" $dat /tmp/thr-rec.log)
	rec=$(trace-cmd report -i $dat 2>/dev/null | grep -c ' teb_event: ')
	rm -f $dat
	echo "$rate $w $rec $((w - rec)) $TEB_SECS" >> "$TEB_RAW"
	echo "teb_rate_attempt: rate $rate/s per CPU: written $w, recorded $rec" >&2
	echo $((w - rec)) $((w / TEB_SECS / $(nproc)))
}

# kconfig OPTION: its value in the running kernel's configuration
# (/proc/config.gz, else /boot/config-<release>); empty when not set.
kconfig() {
	local cfg=/boot/config-$(uname -r)
	if [ -r /proc/config.gz ]; then
		zcat /proc/config.gz
	elif [ -r "$cfg" ]; then
		cat "$cfg"
	fi | sed -n "s/^$1=//p"
}

# median: the median of the numbers on standard input (separated by
# blanks or newlines; the lower middle one of an even count).
median() {
	tr -s ' \t' '\n\n' | sed '/^$/d' | sort -g |
		awk '{ v[++n] = $1 } END { print v[int((n + 1) / 2)] }'
}

# zl_try ATTEMPT REPS RATE: for zero_loss, up to REPS recordings at RATE
# until one loses; prints the events that one lost and the lowest rate
# the writers achieved.
zl_try() {
	local attempt=$1 reps=$2 rate=$3 i l g low=
	for i in $(seq "$reps"); do
		read -r l g < <($attempt "$rate") || return 1
		if [ -z "$low" ] || [ "$g" -lt "$low" ]; then low=$g; fi
		[ "$l" -eq 0 ] || break
	done
	echo "$l $low"
}

# zl_short RATE ACHIEVED RAW: true when the writers, asked for RATE, fell
# short of it by more than 10% (noted in RAW and on standard error).
zl_short() {
	[ "$2" -lt $(($1 * 9 / 10)) ] || return 1
	echo "# writer-bound: asked $1/s per CPU, written $2/s, nothing lost" |
		tee -a "$3" >&2
}

# zero_loss ATTEMPT START MAX REPS RAW: the highest event rate a consumer
# keeps up with, losing nothing.  "ATTEMPT RATE" makes one recording with
# writers asked for RATE events/s per CPU and prints the events it lost
# (0 = none) and the events/s per CPU the writers achieved.  A rate counts
# as kept up with when REPS recordings in a row lose nothing.  Rates go up
# from START on a 1-2-5 ladder to the first rate that loses events (or
# MAX), then five bisection steps (geometric) between the last rate
# without loss and that one: 2-3% apart at the end (with three, 9-12%: the
# trace-cmd figures of results/bench/20261127-0615-uml/ fell on 1.84, 2.00,
# 2.24, 2.51 and 2.82 M).  When the writers fall short of a rate by more
# than 10% and nothing was lost, on the ladder or in a bisection step, no
# higher rate is tried: the writers, not the consumer, are the limit
# (noted in RAW).  One warm-up recording, not counted, comes first.
# Prints "achieved asked bound": the writers' rate at the highest rate
# kept up with (0: none), that rate as asked, and 1 when the writers were
# the limit.
zero_loss() {
	local attempt=$1 start=$2 max=$3 reps=$4 raw=$5
	local good=0 good_rate=0 bad=0 r=$start bound=0 lost got lo hi mid

	echo "# warm-up recording, not counted:" >> "$raw"
	$attempt "$start" > /dev/null || return 1
	while [ "$r" -le "$max" ]; do
		read -r lost got < <(zl_try "$attempt" "$reps" "$r") || return 1
		if [ "$lost" -eq 0 ]; then
			good=$r good_rate=$got
			if zl_short "$r" "$got" "$raw"; then
				bound=1
				break
			fi
		else
			bad=$r
			break
		fi
		case ${r:0:1} in 1) r=$((r * 2)) ;; 2) r=$((r * 5 / 2)) ;; *) r=$((r * 2)) ;; esac
	done
	if [ "$bad" -gt 0 ] && [ "$good" -gt 0 ]; then
		lo=$good hi=$bad
		for _ in 1 2 3 4 5; do
			mid=$(awk -v a="$lo" -v b="$hi" 'BEGIN { printf "%d", sqrt(a * b) }')
			read -r lost got < <(zl_try "$attempt" "$reps" "$mid") || return 1
			if [ "$lost" -ne 0 ]; then
				hi=$mid
				continue
			fi
			lo=$mid good_rate=$got
			if zl_short "$mid" "$got" "$raw"; then
				bound=1
				break
			fi
		done
		good=$lo
	fi
	echo "$good_rate $good $bound"
}

# hl_rate START X: START times e^(X / 1000), to the event (half_loss's
# steps are in thousandths of the logarithm of the rate).
hl_rate() { awk -v s="$1" -v x="$2" 'BEGIN { printf "%d", s * exp(x / 1000) }'; }

# half_loss ATTEMPT START N RAW: the event rate at which half of a
# consumer's recordings lose events, by the up-and-down method (Dixon and
# Mood, J. Am. Stat. Assoc. 43(241), 1948).  Near the top a rate is not
# kept up with or not: a 2-s recording is clean with a probability that
# falls from 0.97 to 0.02 between 2.25 and 3.0 M/s under UML
# (results/bench/20261127-zl-stalls/), so where zero_loss's ladder stops
# is partly chance; the rate where that probability is one half is what
# a fixed number of recordings can estimate.  "ATTEMPT RATE" as for
# zero_loss.  N recordings, the first at START; after a clean one the next
# rate is one step higher, after one that lost one step lower.  The step
# starts at 24% (of the logarithm of the rate) and halves at each change
# of direction, down to 4%; the estimate is the geometric mean of the
# rates of the recordings made at 4% and of the rate that would come
# next.  When the writers fall short of a clean rate by more than 10%, no
# higher rate is tried (as in zero_loss).  Prints "rate count lost
# bound": the estimate (0 when fewer than 4 recordings were made at 4%,
# or when the writers were the limit), the recordings it averages, how
# many of those lost events, and 1 when the writers were the limit.
half_loss() {
	local attempt=$1 start=$2 n=$3 raw=$4
	local x=0 step=240 up= i rate lost got sum=0 cnt=0 nlost=0

	echo "# half-loss recordings, $n from $start:" >> "$raw"
	for i in $(seq "$n"); do
		rate=$(hl_rate "$start" $x)
		read -r lost got < <($attempt "$rate") || return 1
		if [ "$lost" -eq 0 ] && zl_short "$rate" "$got" "$raw"; then
			echo "0 $cnt $nlost 1"
			return 0
		fi
		if [ $step = 40 ]; then
			sum=$((sum + x)) cnt=$((cnt + 1)) nlost=$((nlost + (lost > 0)))
		fi
		if [ -n "$up" ] && [ "$up" != $((lost == 0)) ] && [ $step -gt 40 ]; then
			step=$((step / 2 < 40 ? 40 : step / 2))
		fi
		up=$((lost == 0))
		x=$((up ? x + step : x - step))
	done
	if [ $cnt -lt 4 ]; then
		echo "0 $cnt $nlost 0"
		return 0
	fi
	echo "$(hl_rate "$start" $(((sum + x) / (cnt + 1)))) $cnt $nlost 0"
}

# peers_find TMP RAW: which of perf and LTTng can record system calls here,
# in PEERS (perf lttng); a peer that cannot is named in RAW with the reason.
# Starts LTTng's session daemon (it loads the tracer's modules by modprobe)
# on CPU 1; peers_end stops it.
peers_find() {
	local tmp=$1 raw=$2 me=${0##*/}
	PEERS=()
	if command -v perf > /dev/null && perf record -a -e syscalls:sys_enter_getppid \
		-o "$tmp/probe.data" -- true > "$tmp/perf-probe.log" 2>&1; then
		PEERS+=(perf)
	else
		echo "${me%.sh}: perf: cannot record here: $(tail -n 1 "$tmp/perf-probe.log" 2>/dev/null)"
	fi >> "$raw"
	if ! command -v lttng-sessiond > /dev/null; then
		echo "${me%.sh}: lttng: lttng-tools is not installed"
	elif ! modprobe -n lttng-tracer 2> /dev/null; then
		echo "${me%.sh}: lttng: no lttng-modules built for $(uname -r)"
	elif ! taskset -c 1 lttng-sessiond --daemonize --kmod-probes=lttng-probe-sched \
		> "$tmp/sessiond.log" 2>&1; then
		echo "${me%.sh}: lttng: lttng-sessiond did not start: $(tail -n 1 "$tmp/sessiond.log")"
	elif ! lttng list --kernel > "$tmp/lttng-list.log" 2>&1; then
		echo "${me%.sh}: lttng: no kernel tracing: $(tail -n 1 "$tmp/lttng-list.log")"
		pkill lttng-sessiond
	else
		PEERS+=(lttng)
	fi >> "$raw"
	rm -f "$tmp/probe.data"
}

# peers_end: stop what peers_find started.
peers_end() { pkill lttng-sessiond || true; }

# count_once COMM: of the lines perf script printed (-F comm,tid,cpu,time,
# event, --show-lost-events) on standard input, those of task COMM: prints
# how many, a line equal to the one before it counted once, how many such
# repeats, and how many PERF_RECORD_LOST lines there were (of any task:
# such a line names the task the lost records were of).  perf.data can
# hold a record twice: the same task, CPU, event and nanosecond at two
# file offsets (results/bench/20261127-perf-repeats/); perf script prints
# in time order, so the two are adjacent there.
count_once() {
	awk -v c="$1" '$5 == "PERF_RECORD_LOST" { l++; next }
		$1 == c { if ($0 == prev) r++; else n++ } { prev = $0 }
		END { print n + 0, r + 0, l + 0 }'
}

# sysloop_setup BIN [RAW]: for the getppid() benchmarks: compiles
# sysloop.c to BIN and leaves the top-level buffer empty and on, overwrite
# mode, local clock.  In a kernel without syscall events there is nothing
# to measure: it says so (on standard error, and in RAW) and ends the
# calling script with status 0.  When BIN does not compile, status 1.
sysloop_setup() {
	local t=/sys/kernel/tracing me=${0##*/}
	if [ ! -d $t/events/syscalls/sys_enter_getppid ]; then
		echo "${me%.sh}: no syscall events in this kernel: skipped" |
			tee -a "${2:-/dev/null}" >&2
		exit 0
	fi
	cc -O2 -o "$1" "$RB_TOP/scripts/guest/sysloop.c" || exit 1
	echo 0 > $t/tracing_on
	echo local > $t/trace_clock
	echo 1 > $t/options/overwrite
	echo > $t/trace
	echo 1 > $t/tracing_on
}
