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
