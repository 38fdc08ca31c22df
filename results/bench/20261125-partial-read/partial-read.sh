#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# What a reader that keeps up with a writer costs, by sub-buffer size: a
# writer on CPU 0 writes N trace_marker lines (one write() each, default
# 20000) while a reader on CPU 1 reads CPU 0's trace_pipe_raw (or
# trace_pipe) as it fills; prints the bytes the reader got and the CPU
# time it used (getrusage: user + system, ms).  Run in a test VM:
#   scripts/vm -k $RB_CACHE/build/subbuf-test -- $PWD/partial-read.sh
T=/sys/kernel/tracing
n=${1:-20000}
echo 0 > $T/tracing_on
echo nop > $T/current_tracer
echo 0 > $T/options/overwrite
echo 2048 > $T/buffer_size_kb
# The reader: reads FILE until SIGTERM, then prints the bytes it got and
# the CPU time it used
cat > /tmp/reader.py <<'PY'
import os, resource, select, signal, sys
stop = False
def done(*a):
    global stop
    stop = True
signal.signal(signal.SIGTERM, done)
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
got = 0
while not stop:
    try:
        got += len(os.read(fd, 1 << 20))
    except BlockingIOError:
        select.select([fd], [], [], 0.05)
    except InterruptedError:
        pass
r = resource.getrusage(resource.RUSAGE_SELF)
print("%d %.0f" % (got, (r.ru_utime + r.ru_stime) * 1000))
PY
for file in trace_pipe_raw trace_pipe; do
	for kb in 4 16 64; do
		echo $kb > $T/buffer_subbuf_size_kb 2>/dev/null || continue
		echo > $T/trace
		echo 1 > $T/tracing_on
		taskset -c 1 python3 /tmp/reader.py $T/per_cpu/cpu0/$file > /tmp/reader.out &
		pid=$!
		sleep 2
		taskset -c 0 bash -c "for ((i = 0; i < $n; i++)); do echo marker-\$i; done > $T/trace_marker"
		sleep 2
		kill -TERM $pid
		wait $pid
		echo 0 > $T/tracing_on
		left=$(awk '/entries/ { print $2 }' $T/per_cpu/cpu0/stats)
		echo "$file sub-buffer ${kb} KiB: bytes read, reader CPU ms: $(cat /tmp/reader.out); entries left $left"
	done
done
echo 4 > $T/buffer_subbuf_size_kb
