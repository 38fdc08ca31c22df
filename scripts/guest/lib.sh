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
