#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# buffer_subbuf_size_kb (mainline's sub-buffer size ABI, Linux 6.8): the
# size reads back rounded up to a power-of-two number of pages, 1 to 128;
# bad input gets EINVAL and changes nothing; an open iterator gets EBUSY;
# changing it discards the records; events/header_page, trace_pipe_raw
# (read and splice) and the largest trace_marker and trace_marker_raw
# writes follow it, in the top level and in an instance on its own (with
# mainline's checks of trace_marker_raw: a write shorter than its id is
# refused, records of 1 to 1010 bytes print whole); the snapshot buffer
# follows it; rb_compat decodes what trace_pipe_raw hands out at 16 KiB.
#
# The page-based ring buffer has one-page sub-buffers only: there the
# file reads the page size and refuses every other size with EINVAL, and
# the checks at the page size run.

ksft_skip=4
T=/sys/kernel/tracing
dir=$(dirname "$0")
. "$dir/rb_lib.sh"

[ "$(id -u)" = 0 ] || { echo "must run as root"; exit $ksft_skip; }
[ -e $T/buffer_subbuf_size_kb ] || { echo "no $T/buffer_subbuf_size_kb"; exit $ksft_skip; }
command -v dd > /dev/null || { echo "no dd"; exit $ksft_skip; }

page_kb=$(($(getconf PAGESIZE) / 1024))
size=$(sed 's/ .*//' $T/buffer_size_kb)
overwrite=$(cat $T/options/overwrite)
on=$(cat $T/tracing_on)
tmp=$(mktemp -d)
rc=0
fail() { echo "# FAIL: $*"; rc=1; }
expect() { # expect WHAT GOT WANT
	[ "$2" = "$3" ] && { echo "# ok: $1"; return; }
	fail "$1: got '${2:0:120}', want '${3:0:120}'"
}
# put FILE VALUE: write VALUE, print the errno name or "ok"
put() {
	local err

	err=$( (echo "$2" > "$1") 2>&1) && { echo ok; return; }
	case $err in
	*"Invalid argument"*) echo EINVAL ;;
	*"out of range"*) echo ERANGE ;;
	*"busy"*) echo EBUSY ;;
	*) echo "$err" ;;
	esac
}
data_size() { sed -n 's/.*char data;.*size:\([0-9]*\);.*/\1/p' "$1"/events/header_page; }
# raw DIR BYTES: one write() of BYTES to trace_marker_raw (a 4-byte id first)
raw() {
	local err

	head -c "$2" /dev/zero | tr '\0' 'R' > $tmp/raw
	err=$(dd if=$tmp/raw of="$1"/trace_marker_raw bs="$2" count=1 2>&1) &&
		{ echo ok; return; }
	case $err in
	*"Invalid argument"*) echo EINVAL ;;
	*) echo "$err" | tail -n 1 ;;
	esac
}
# raw_ids DIR: one trace_marker_raw write each of ids 1-10, 101-110 and
# 1001-1010, each id followed by as many bytes 'X' as its value; prints
# the ids whose printed record ("# <id> buf: <bytes>") is missing, does
# not start with its bytes, or does not hold a whole number of 4-byte
# words (the record's length: 6.1 pads short records to the size of
# "<faulted>", so more may follow), or "ok"
raw_ids() {
	local ids="$(seq -s ' ' 1 10) $(seq -s ' ' 101 110) $(seq -s ' ' 1001 1010)"

	command -v python3 > /dev/null || { echo "no python3"; return; }
	echo > "$1"/trace
	python3 - "$1"/trace_marker_raw $ids <<-'EOF' || { echo "a write failed"; return; }
	import os, struct, sys
	fd = os.open(sys.argv[1], os.O_WRONLY)
	for i in map(int, sys.argv[2:]):
	    os.write(fd, struct.pack("=I", i) + b"X" * i)
	EOF
	awk -v ids="$ids" '
		/ # [0-9a-f]+ buf:/ {
			for (i = 1; i <= NF && $i != "#"; i++)
				;
			id = $(i + 1)
			n[id] = NF - (i + 2)
			for (x[id] = 0; $(i + 3 + x[id]) == "58"; x[id]++)
				;
		}
		END {
			k = split(ids, want, " ")
			for (j = 1; j <= k; j++) {
				d = want[j] + 0
				id = sprintf("%x", d)
				if (!(id in n) || n[id] < d || n[id] % 4 || x[id] < d)
					bad = bad " " d
			}
			print bad == "" ? "ok" : bad
		}' "$1"/trace
}
# markers DIR BYTES: events one write() of BYTES to trace_marker becomes
markers() {
	echo > "$1"/trace
	head -c "$2" /dev/zero | tr '\0' 'X' > $tmp/mark
	dd if=$tmp/mark of="$1"/trace_marker bs="$2" count=1 2> /dev/null
	grep -c 'tracing_mark_write: X' "$1"/trace
}
# marker_bytes DIR: the X bytes of the markers in the trace, all together
marker_bytes() {
	grep -o 'tracing_mark_write: X*' "$1"/trace | sed 's/.*: //' | tr -d '\n' | wc -c
}
# raw_read DIR: bytes one read() of CPU 0's trace_pipe_raw returns
raw_read() {
	taskset -c 0 sh -c "echo one-record > $1/trace_marker"
	dd if="$1"/per_cpu/cpu0/trace_pipe_raw of=$tmp/page bs=1M count=1 \
		iflag=nonblock 2> /dev/null
	stat -c %s $tmp/page
}
# splice_sub DIR BYTES: after two full sub-buffers of BYTES on CPU 0, what
# one splice() of BYTES from its trace_pipe_raw moves, and what the pipe
# then reads (trace-cmd's way, with python3's os.splice())
splice_sub() {
	local line

	command -v python3 > /dev/null || { echo "$2 $2 (no python3: not checked)"; return; }
	echo > "$1"/trace
	line=$(printf 'S%.0s' $(seq 1000))
	taskset -c 0 bash -c "for ((i = 0; i < $2 / 500 + 2; i++)); do
		echo $line > $1/trace_marker; done"
	python3 - "$1"/per_cpu/cpu0/trace_pipe_raw "$2" <<-'EOF' 2>&1
	import fcntl, os, sys
	fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
	size = int(sys.argv[2])
	r, w = os.pipe()
	fcntl.fcntl(w, 1031, 2 * size)	# F_SETPIPE_SZ
	n = os.splice(fd, w, size)
	print(n, len(os.read(r, 2 * size)))
	EOF
}
# sizes DIR KB: the checks that follow the sub-buffer size KB
sizes() {
	local d=$1 kb=$2 bytes=$(($2 * 1024)) ds n

	ds=$(data_size "$d")
	expect "$kb KiB: header_page data size" "$ds" $((bytes - 16))
	expect "$kb KiB: a trace_pipe_raw read is one sub-buffer" "$(raw_read "$d")" $bytes
	expect "$kb KiB: a splice of trace_pipe_raw is one sub-buffer" \
		"$(splice_sub "$d" $bytes)" "$bytes $bytes"
	# A raw marker up to what fits a sub-buffer, not one byte more
	expect "$kb KiB: trace_marker_raw of $((ds - 32)) bytes" "$(raw "$d" $((ds - 32)))" ok
	expect "$kb KiB: trace_marker_raw of $((ds + 4)) bytes" "$(raw "$d" $((ds + 4)))" EINVAL
	expect "$kb KiB: trace_marker_raw of 3 bytes (no whole id)" "$(raw "$d" 3)" EINVAL
	expect "$kb KiB: trace_marker_raw ids with 1-1010 bytes each" "$(raw_ids "$d")" ok
	# trace_marker: 4096 bytes per event (mainline), less if a
	# sub-buffer holds less; the rest comes as another event
	n=1
	[ $bytes -le 4096 ] && n=2
	expect "$kb KiB: a 4096-byte trace_marker write is $n event(s)" \
		"$(markers "$d" 4096)" $n
	expect "$kb KiB: ... and nothing of it is lost" "$(marker_bytes "$d")" 4096
	expect "$kb KiB: a marker of $((bytes - 16)) bytes arrives whole" \
		"$(markers "$d" $((bytes - 16)) > /dev/null; marker_bytes "$d")" $((bytes - 16))
}

echo 0 > $T/tracing_on
echo 1 > $T/options/overwrite
echo nop > $T/current_tracer
echo 256 > $T/buffer_size_kb
echo > $T/trace
echo 1 > $T/tracing_on

expect "default: one page" "$(cat $T/buffer_subbuf_size_kb)" $page_kb
sizes $T $page_kb

if [ "$(put $T/buffer_subbuf_size_kb $((page_kb * 2)))" = EINVAL ] &&
   [ "$(cat $T/buffer_subbuf_size_kb)" = $page_kb ]; then
	echo "# one-page sub-buffers only (the page-based ring buffer)"
	for v in 0 -1 abc $((page_kb * 4)); do
		expect "write '$v': refused" "$(put $T/buffer_subbuf_size_kb "$v")" EINVAL
	done
	expect "write $page_kb: taken" "$(put $T/buffer_subbuf_size_kb $page_kb)" ok
else
	# Rounding to a power of two of pages, 1 to 128
	for v in "1 $page_kb" "$((page_kb + 1)) $((page_kb * 2))" \
		 "$((page_kb * 3)) $((page_kb * 4))" "$((page_kb * 128)) $((page_kb * 128))"; do
		set -- $v
		put $T/buffer_subbuf_size_kb "$1" > /dev/null
		expect "write $1: reads back" "$(cat $T/buffer_subbuf_size_kb)" "$2"
	done
	echo $((page_kb * 4)) > $T/buffer_subbuf_size_kb
	four=$((page_kb * 4))
	for v in "0 EINVAL" "-1 EINVAL" "abc EINVAL" "$((page_kb * 128 + 1)) EINVAL" \
		 "99999999999999999999 ERANGE"; do
		set -- $v
		expect "write '$1': $2" "$(put $T/buffer_subbuf_size_kb "$1")" "$2"
		expect "write '$1': size unchanged" "$(cat $T/buffer_subbuf_size_kb)" $four
	done

	# The buffer's size in bytes stays, in whole sub-buffers, at least
	# two (with 64 KiB pages two 256 KiB sub-buffers are above 100 KiB)
	echo 100 > $T/buffer_size_kb
	kb=$(sed 's/ .*//' $T/buffer_size_kb)
	most=$((100 + page_kb * 4))
	[ $most -ge $((page_kb * 8)) ] || most=$((page_kb * 8))
	[ "$kb" -ge 100 ] && [ "$kb" -lt $most ] ||
		fail "buffer_size_kb 100 at $((page_kb * 4)) KiB sub-buffers reads $kb"
	echo "# ok: buffer_size_kb 100 with $((page_kb * 4)) KiB sub-buffers: $kb"
	echo 256 > $T/buffer_size_kb

	# Changing the size discards the records
	echo before-change > $T/trace_marker
	echo $((page_kb * 2)) > $T/buffer_subbuf_size_kb
	expect "a change discards the records" "$(grep -c before-change $T/trace)" 0

	# An open iterator (the trace file) keeps the size
	exec 3< $T/trace
	expect "with trace open: EBUSY" "$(put $T/buffer_subbuf_size_kb $((page_kb * 8)))" EBUSY
	exec 3<&-
	expect "with trace open: size unchanged" "$(cat $T/buffer_subbuf_size_kb)" $((page_kb * 2))

	for kb in $((page_kb * 2)) $((page_kb * 4)) $((page_kb * 8)); do
		echo $kb > $T/buffer_subbuf_size_kb
		sizes $T $kb
	done

	# The snapshot buffer follows: a global and a per-CPU swap work.
	# The per-CPU swap exists with CONFIG_RING_BUFFER_ALLOW_SWAP (the
	# latency tracers select it); without it the kernel refuses it with
	# EINVAL at any size.
	if [ -e $T/snapshot ]; then
		echo 1 > $T/snapshot
		echo $((page_kb * 4)) > $T/buffer_subbuf_size_kb
		taskset -c 0 sh -c "echo in-snapshot > $T/trace_marker"
		expect "snapshot at $((page_kb * 4)) KiB" "$(put $T/snapshot 1)" ok
		expect "... holds the marker" "$(grep -c in-snapshot $T/snapshot)" 1
		swap=$(rb_kconfig RING_BUFFER_ALLOW_SWAP)
		if [ -z "$swap" ]; then
			echo "# skip: per-CPU snapshot swap (no kernel config to tell whether it is built)"
		elif [ "$swap" = y ]; then
			expect "per-CPU snapshot swap" "$(put $T/per_cpu/cpu0/snapshot 1)" ok
		else
			expect "per-CPU snapshot swap, not built" "$(put $T/per_cpu/cpu0/snapshot 1)" EINVAL
		fi
		echo 0 > $T/snapshot
	fi

	# An instance has its own size
	echo $page_kb > $T/buffer_subbuf_size_kb
	I=$T/instances/rb_subbuf_size
	rmdir $I 2> /dev/null
	if mkdir $I; then
		expect "instance: default one page" "$(cat $I/buffer_subbuf_size_kb)" $page_kb
		echo $((page_kb * 8)) > $I/buffer_subbuf_size_kb
		expect "instance: top level unchanged" "$(cat $T/buffer_subbuf_size_kb)" $page_kb
		expect "top level: header_page unchanged" "$(data_size $T)" $((page_kb * 1024 - 16))
		sizes $I $((page_kb * 8))
		rmdir $I
	else
		fail "mkdir $I"
	fi

	# What user space decodes at 4 pages, as trace-cmd would
	if [ -x "$dir/rb_compat" ]; then
		echo $((page_kb * 4)) > $T/buffer_subbuf_size_kb
		for mode in drain overrun; do
			"$dir/rb_compat" -n 5000 "$mode" > $tmp/compat 2>&1
			r=$?
			sed 's/^/# /' $tmp/compat | tail -5
			expect "rb_compat $mode at $((page_kb * 4)) KiB" $r 0
		done
	fi
fi

echo 0 > $T/tracing_on
echo $page_kb > $T/buffer_subbuf_size_kb
echo "$overwrite" > $T/options/overwrite
echo "$size" > $T/buffer_size_kb
echo > $T/trace
echo "$on" > $T/tracing_on
rm -rf "$tmp"
exit $rc
