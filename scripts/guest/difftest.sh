#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The differential probe: tracefs operations a user relies on, each
# printed as one normalized "key: value" line (no times, no PIDs, no
# addresses), so that the outputs of the two ring buffers compare line
# by line (scripts/lib/rbdiff on the host, against the page-based output
# in scripts/expect/diff-page-based.txt, which scripts/extended's part
# pagebased makes).  Each key's value is what the page-based buffer does
# and the sub-buffer one must do too, or a difference listed under
# "Differences from the page-based buffer" in
# Documentation/trace/ring-buffer-subbuf.rst.
# Usage: difftest.sh (as root in a test guest; 2 CPUs or more)
case "${1:-}" in
"") ;;
-h|--help) echo "usage: difftest.sh"; exit 0 ;;
*) echo "usage: difftest.sh" >&2; exit 2 ;;
esac
T=/sys/kernel/tracing

out() { echo "$1: $2"; }
# try KEY COMMAND...: the command's status and error message, normalized
try() {
	local key=$1 err
	shift
	err=$( ("$@") 2>&1 >/dev/null)
	# bash's message ends in strerror(errno)
	out "$key" "rc=$? ${err##*: }"
}
size() { sed 's/ .*//' "$T/$1"; }
markers() { # markers CPU TAG N
	taskset -c "$1" bash -c \
		"for ((i = 0; i < $3; i++)); do echo $2-\$i > $T/trace_marker; done" 2>/dev/null
}
count() { grep -cE "\\b$1-[0-9]+" "${2:-$T/trace}"; }
# the trace file's "entries-in-buffer/entries-written: E/W" line
header() { grep -m1 'entries-in-buffer' $T/trace | sed 's/#P:.*//; s/^# //'; }
stat() { awk -v f="$2" 'index($0, f ":") == 1 { print $NF }' $T/per_cpu/cpu"$1"/stats; }
reset_all() {
	echo 0 > $T/tracing_on
	echo nop > $T/current_tracer
	echo 0 > $T/events/enable
	echo 1 > $T/options/overwrite
	echo local > $T/trace_clock
	echo "${1:-1410}" > $T/buffer_size_kb
	echo > $T/trace
	echo 1 > $T/tracing_on
}

# Sizes: what buffer_size_kb reads back for a request
reset_all
for kb in 1 7 8 100 1410 4096; do
	echo $kb > $T/buffer_size_kb
	out "size $kb" "$(size buffer_size_kb) total $(size buffer_total_size_kb)"
done
echo 300 > $T/per_cpu/cpu1/buffer_size_kb
out "size per-CPU 300" "cpu1 $(size per_cpu/cpu1/buffer_size_kb) cpu0 $(size per_cpu/cpu0/buffer_size_kb) top $(size buffer_size_kb)"
echo 1410 > $T/buffer_size_kb

# Bad input changes nothing
try "size abc" bash -c "echo abc > $T/buffer_size_kb"
try "size 0" bash -c "echo 0 > $T/buffer_size_kb"
out "size 0 then" "$(size buffer_size_kb)"
try "size -1" bash -c "echo -1 > $T/buffer_size_kb"
try "size 16 GiB" bash -c "echo 16777216 > $T/buffer_size_kb"
out "size 16 GiB then" "$(size buffer_size_kb)"
try "buffer_percent 101" bash -c "echo 101 > $T/buffer_percent"
try "buffer_percent 0" bash -c "echo 0 > $T/buffer_percent"
out "buffer_percent" "$(cat $T/buffer_percent)"
echo 50 > $T/buffer_percent

# The format user space parses
out "header_page" "$(tr '\n\t' '| ' < $T/events/header_page)"
out "header_event" "$(tr '\n\t' '| ' < $T/events/header_event)"
out "stats fields" "$(sed 's/:.*//' $T/per_cpu/cpu0/stats | tr '\n' ',')"

# The sub-buffer size (mainline's buffer_subbuf_size_kb) and the largest
# events a write to the markers makes at the default size
pkb=$(($(getconf PAGESIZE) / 1024))
data_size() { sed -n 's/.*char data;.*size:\([0-9]*\);.*/\1/p' $T/events/header_page; }
out "subbuf size" "$(cat $T/buffer_subbuf_size_kb) data $(data_size)"
try "subbuf size 0" bash -c "echo 0 > $T/buffer_subbuf_size_kb"
try "subbuf size abc" bash -c "echo abc > $T/buffer_subbuf_size_kb"
try "subbuf size 2 pages" bash -c "echo $((pkb * 2)) > $T/buffer_subbuf_size_kb"
out "subbuf size 2 pages then" "$(cat $T/buffer_subbuf_size_kb) data $(data_size)"
echo "$pkb" > $T/buffer_subbuf_size_kb
reset_all 1410
head -c 4096 /dev/zero | tr '\0' X > /tmp/difftest.mark
dd if=/tmp/difftest.mark of=$T/trace_marker bs=4096 count=1 2> /dev/null
out "trace_marker 4096 bytes" "$(grep -c 'tracing_mark_write: X' $T/trace) events"
ds=$(data_size)
for n in $((ds - 20)) $((ds - 19)); do
	head -c "$n" /dev/zero > /tmp/difftest.raw
	try "trace_marker_raw data-$((ds - n))" \
		dd if=/tmp/difftest.raw of=$T/trace_marker_raw bs="$n" count=1 status=none
done

# Records, counters and their fates
reset_all 1410
markers 0 a 200
out "trace markers" "$(count a)"
out "stats after 200" "entries $(stat 0 entries) overrun $(stat 0 overrun) bytes $(stat 0 bytes)"
out "trace_pipe_raw after 200" "$(timeout 3 cat $T/per_cpu/cpu0/trace_pipe_raw | wc -c) bytes"
out "stats after raw read" "entries $(stat 0 entries) read $(stat 0 'read events') bytes $(stat 0 bytes)"
out "trace header" "$(header)"
# bytes in the stats counts what is not read yet: records leave it as
# trace_pipe returns them (64 bytes of it consume one or two of 200
# markers), not all at once when the reader takes their page
reset_all 1410
markers 0 r 200
before=$(stat 0 bytes)
dd if=$T/per_cpu/cpu0/trace_pipe of=/dev/null bs=64 count=1 2> /dev/null
after=$(stat 0 bytes)
left=$(count r)
out "bytes after a partial read" "$(awk -v a="$after" -v b="$before" -v l="$left" 'BEGIN {
	d = a / b - l / 200
	if (l > 0 && l < 200 && d < 0.1 && d > -0.1)
		print "follows the records left"
	else
		print "off: " a " of " b " bytes for " l " of 200 records" }')"
reset_all 8
markers 0 a 1000
out "overwrite 8 KiB kept" "$(count a) entries $(stat 0 entries) overrun $(stat 0 overrun)"
out "overwrite 8 KiB newest" "$(grep -oE '\ba-[0-9]+' $T/trace | tail -1)"
out "overwrite 8 KiB header" "$(header)"
# the mode changed with the buffer full: discard refuses the next
# records once the writer's page (sub-buffer) is full; overwrite again
# takes them, overwriting the oldest
echo 0 > $T/options/overwrite
markers 0 b 100
out "overwrite then discard" "kept $(count b) entries $(stat 0 entries) dropped $(stat 0 'dropped events')"
echo 1 > $T/options/overwrite
markers 0 c 100
out "then overwrite again" "kept $(count c) of c $(count b) of b entries $(stat 0 entries) overrun $(stat 0 overrun)"
reset_all 8
echo 0 > $T/options/overwrite
markers 0 a 1000
out "discard 8 KiB kept" "$(count a) entries $(stat 0 entries) dropped $(stat 0 'dropped events')"
out "discard 8 KiB oldest" "$(grep -oE '\ba-[0-9]+' $T/trace | head -1)"
# a write the full buffer refuses fails (6.1's tracing_mark_write(): EBADF)
try "discard 8 KiB marker" taskset -c 0 bash -c "echo a-x > $T/trace_marker"
timeout 3 cat $T/per_cpu/cpu0/trace_pipe > /tmp/difftest.pipe
out "discard trace_pipe" "$(count a /tmp/difftest.pipe) LOST lines $(grep -c 'LOST' /tmp/difftest.pipe)"

# Discard-mode losses, then new records: announced before them?
reset_all 8
echo 0 > $T/options/overwrite
markers 0 a 1000
timeout 3 cat $T/per_cpu/cpu0/trace_pipe > /dev/null
markers 0 b 10
timeout 3 cat $T/per_cpu/cpu0/trace_pipe > /tmp/difftest.pipe
out "discard drops announced" "$(count b /tmp/difftest.pipe) LOST lines $(grep -c 'LOST' /tmp/difftest.pipe)"

# Resize keeps the records (grow, shrink)
reset_all 64
markers 0 a 1000
echo 1024 > $T/buffer_size_kb
out "resize grow kept" "$(count a)"
echo 8 > $T/buffer_size_kb
out "resize shrink kept" "$(count a) entries $(stat 0 entries) overrun $(stat 0 overrun)"

# splice takes delivered sub-buffers only (the page-based buffer: no
# records from the page the writers are on).  100 markers fill part of
# one; trace_pipe prints about 70 of them (one page of text), the rest
# must not come out of splice while the writer is still in it.
splice() {
	python3 -c '
import errno, os
fd = os.open("'$T'/per_cpu/cpu0/trace_pipe_raw", os.O_RDONLY | os.O_NONBLOCK)
r, w = os.pipe()
got = []
for _ in range(3):
    try:
        got.append(str(os.splice(fd, w, 4096, flags=os.SPLICE_F_NONBLOCK)))
        os.read(r, 65536)
    except OSError as e:
        got.append(errno.errorcode[e.errno])
print(" ".join(got))
'
}
reset_all 1410
markers 0 s 100
dd if=$T/per_cpu/cpu0/trace_pipe of=/dev/null bs=64 count=1 2> /dev/null
out "splice after a partial read" "$(splice) left $(count s)"
# and with 300: the rest of the first, the second, nothing of the third
reset_all 1410
markers 0 s 300
dd if=$T/per_cpu/cpu0/trace_pipe of=/dev/null bs=64 count=1 2> /dev/null
out "splice after a partial read, 300" "$(splice) left $(count s)"

# trace_pipe consumes; snapshot; per-CPU reset
reset_all 1410
markers 0 p 50
markers 1 q 50
timeout 3 cat $T/per_cpu/cpu0/trace_pipe > /tmp/difftest.pipe
out "per-CPU trace_pipe" "read $(count p /tmp/difftest.pipe) left $(count p) other $(count q)"
echo 1 > $T/snapshot
out "snapshot" "$(count q $T/snapshot) main $(count q)"
# With the nop tracer a resize leaves the snapshot buffer as it is; the
# next snapshot resizes it to the main one's size, keeping its records,
# and swaps it in
echo 4096 > $T/buffer_size_kb
out "snapshot after a resize" "$(count q $T/snapshot) size $(size buffer_size_kb)"
echo 1 > $T/snapshot
out "second snapshot" "snapshot $(count q $T/snapshot) main $(count q)"
echo 1410 > $T/buffer_size_kb
echo 0 > $T/snapshot
echo > $T/per_cpu/cpu1/trace
out "per-CPU reset" "cpu1 $(count q)"
try "per-CPU snapshot" bash -c "echo 1 > $T/per_cpu/cpu0/snapshot"

# A CPU left out of tracing_cpumask records nothing (its buffer's
# recording disabled); a marker written on it fails
reset_all 1410
mask=$(cat $T/tracing_cpumask)
echo 2 > $T/tracing_cpumask
try "cpumask without cpu0 marker" taskset -c 0 bash -c "echo m0-x > $T/trace_marker"
markers 1 m1 10
out "cpumask without cpu0" "cpu0 $(count m0) cpu1 $(count m1)"
echo "$mask" > $T/tracing_cpumask
markers 0 m0 10
out "cpumask back" "cpu0 $(count m0)"

# Changing the clock empties the buffer (6.1's tracing_set_clock())
markers 0 k 10
echo global > $T/trace_clock
out "clock change" "kept $(count k)"

# Clocks and tracing_on
for c in local global counter uptime perf mono mono_raw boot; do
	grep -qw "$c" $T/trace_clock || continue
	try "clock $c" bash -c "echo $c > $T/trace_clock"
done
try "clock bogus" bash -c "echo bogus > $T/trace_clock"
echo local > $T/trace_clock
echo 0 > $T/tracing_on
markers 0 off 10
out "tracing_on 0" "$(count off) reads $(cat $T/tracing_on)"
try "tracing_on 0 marker" bash -c "echo off-x > $T/trace_marker"
echo 1 > $T/tracing_on

# Non-blocking reads: an empty buffer says EAGAIN; trace_pipe_raw's
# read() takes the partial sub-buffer (page) the writer is on
nonblock() {
	python3 -c '
import errno, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
got = []
for _ in range(2):
    try:
        got.append(str(len(os.read(fd, 4096))))
    except OSError as e:
        got.append(errno.errorcode[e.errno])
print(" ".join(got))
' "$1"
}
reset_all 1410
out "empty trace_pipe, O_NONBLOCK" "$(nonblock $T/per_cpu/cpu0/trace_pipe)"
out "empty trace_pipe_raw, O_NONBLOCK" "$(nonblock $T/per_cpu/cpu0/trace_pipe_raw)"
markers 0 n 5
out "5 records, trace_pipe_raw, O_NONBLOCK" "$(nonblock $T/per_cpu/cpu0/trace_pipe_raw) left $(count n)"

# free_buffer: closing it shrinks the buffer to its least (two pages),
# keeping the newest records; with disable_on_free it also stops tracing
reset_all 1410
markers 0 f 10
bash -c "exec 3> $T/free_buffer"
out "free_buffer" "size $(size buffer_size_kb) total $(size buffer_total_size_kb) kept $(count f) tracing_on $(cat $T/tracing_on)"
reset_all 1410
echo 1 > $T/options/disable_on_free
bash -c "exec 3> $T/free_buffer"
out "free_buffer, disable_on_free" "size $(size buffer_size_kb) tracing_on $(cat $T/tracing_on)"
echo 0 > $T/options/disable_on_free

# Instances
mkdir $T/instances/difftest
out "instance size" "$(size instances/difftest/buffer_size_kb)"
echo difftest-hi > $T/instances/difftest/trace_marker
out "instance marker" "$(grep -c 'difftest-hi' $T/instances/difftest/trace)"
rmdir $T/instances/difftest
reset_all 1410
