#!/bin/bash
# One-off investigation (issue #18): does a 4-byte event's cost change
# with a new allocation of the buffer within one boot?  The 16 KiB / local
# configuration of latbench.sh, REPS times, the buffer freed (4 KiB) and
# allocated again (16 KiB) before each; then REPS times without a new
# allocation.
T=/sys/kernel/tracing
P=/sys/module/trace_event_bench/parameters
E=$T/events/trace_event_bench/teb_event/enable
. /work/main/scripts/guest/lib.sh
modprobe trace_event_bench || exit 1
echo 1000000 > $P/samples
echo 1 > $T/options/overwrite
echo local > $T/trace_clock
echo 1 > $E
one() {
	echo > $T/trace
	echo 1 > $T/tracing_on
	echo $(( 16 * 1024 / 16 * 3 / 2 + 10000 )) > $P/warmup
	line=$(teb_run 1) || exit 1
	echo "RESULT $1 mean=$(teb_stat "$line" mean) p50=$(teb_stat "$line" p50) p90=$(teb_stat "$line" p90) p99=$(teb_stat "$line" p99)"
}
for i in $(seq ${REPS:-6}); do
	echo 0 > $T/tracing_on
	echo 4 > $T/buffer_size_kb
	echo 16 > $T/buffer_size_kb
	one "realloc-$i"
done
for i in $(seq ${REPS:-6}); do
	echo 0 > $T/tracing_on
	one "same-$i"
done
echo 0 > $E
rmmod trace_event_bench
