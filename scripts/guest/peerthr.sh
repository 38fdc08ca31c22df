#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/bench -p vm: the highest event rate each tool's own
# consumer keeps up with, losing nothing, on the event every tool records
# from the same hook: getppid()'s syscall entry and exit (as peerbench.sh).
# Writers (sysloop -r, one per CPU, taskset to it) call getppid() at a set
# rate for SECS seconds (default 1); each call is two events.  Consumers,
# all with 1 MiB of buffer per CPU, writing to /tmp (tmpfs):
#   ftrace   trace-cmd record -b 1024 (splice, one reader per CPU; the
#            buffer in overwrite mode, as trace-cmd leaves it)
#   perf     perf record -a -m 256 (256 pages per CPU)
#   lttng    an LTTng session to disk, discard channel of 4 sub-buffers of
#            256 KiB per CPU (LTTng's kernel default is 4 of 1 MiB)
# An attempt's loss is the events the writers made (2 x calls) minus those
# of the writers in the tool's output (trace-cmd report and perf script by
# task, a record perf.data holds twice counted once; babeltrace2's counter
# sink counts all, as LTTng's records do not name the task), or what the
# tool says it lost (ftrace: overrun; perf: its LOST records; LTTng:
# discarded events) when that is more.  More of the writers' records than
# events made is noted in peerthr-raw.txt, and ends the run for ftrace: the
# sub-buffer buffer must not duplicate or garble a record.  Rates go up a
# ladder, as thrbench.sh's (zero_loss in lib.sh).
#
# Usage: peerthr.sh [SECS [START [MAX [REPS]]]]
#   START, MAX: events/s per CPU (default 20000, 20000000); REPS default 3.
# Appends to $RB_OUT/peerthr-raw.txt one line per attempt:
#   tool rate_per_cpu written recorded lost seconds [what the tool says]
# and to $RB_OUT/metrics.txt, for every tool that ran:
#   peer.<tool>.zero_loss <events/s per CPU the writers made at the highest
#                          rate without loss>
# A tool that cannot run here is named, with the reason, in peerthr-raw.txt.
. "$RB_TOP/scripts/guest/lib.sh"
secs=${1:-1} start=${2:-20000} max=${3:-20000000} reps=${4:-3}
raw=$RB_OUT/peerthr-raw.txt
tmp=/tmp/peerthr
bin=$tmp/sysloop
ncpu=$(nproc)
export HOME=${HOME:-/root}
rm -rf $tmp
mkdir -p $tmp
echo "# tool rate_per_cpu written recorded lost seconds [what the tool says]" >> "$raw"

sysloop_setup $bin "$raw"

# $tmp/writers RATE: getppid() at RATE events/s (RATE / 2 calls) on every
# CPU for $secs seconds; writes the calls made, summed, to $tmp/calls.  A
# script, so that trace-cmd record and perf record can run it.
cat > $tmp/writers <<EOF
#!/bin/bash
for c in \$(seq 0 $((ncpu - 1))); do
	taskset -c \$c $bin -r \$((\$1 / 2)) $secs > $tmp/calls.\$c &
done
wait
cat $tmp/calls.* | awk '{ n += \$1 } END { print n + 0 }' > $tmp/calls
rm -f $tmp/calls.*
EOF
chmod +x $tmp/writers

# record TOOL RATE: one recording by TOOL of writers at RATE; prints the
# events recorded (the writers' only, where the output names the task),
# the events the tool says it lost (perf: its LOST records, each one or
# more events) and how it says so.
record() {
	local said= n r
	case $1 in
	ftrace)
		trace-cmd record -q -b 1024 -o $tmp/t.dat -e syscalls:sys_enter_getppid \
			-e syscalls:sys_exit_getppid -- $tmp/writers "$2" > $tmp/rec.log 2>&1
		echo "$(trace-cmd report -i $tmp/t.dat 2>/dev/null | grep -c '^ *sysloop-[0-9].*getppid')" \
			"$(trace-cmd report -i $tmp/t.dat --stat 2>/dev/null |
				awk '/^overrun:/ { o += $2 } END { print o + 0, "overrun", o + 0 }')"
		rm -f $tmp/t.dat* ;;
	perf)
		perf record -q -a -m 256 -o $tmp/p.data -e syscalls:sys_enter_getppid \
			-e syscalls:sys_exit_getppid -- $tmp/writers "$2" > $tmp/rec.log 2>&1
		read -r n r l < <(perf script --show-lost-events -i $tmp/p.data \
			-F comm,tid,cpu,time,event 2> /dev/null | count_once sysloop)
		echo "$n $l LOST records $l repeated $r"
		rm -f $tmp/p.data ;;
	lttng)
		lttng create zl --output=$tmp/lttng > /dev/null &&
		lttng enable-channel --kernel --discard --subbuf-size=256k --num-subbuf=4 \
			ch > /dev/null &&
		lttng enable-event --kernel --syscall getppid --channel ch > /dev/null &&
		lttng start > /dev/null || { echo fail; return; }
		$tmp/writers "$2"
		lttng stop zl > /dev/null
		said=$(lttng list zl 2>/dev/null | awk '/Discarded events:/ { n += $3 } END { print n + 0 }')
		lttng destroy zl > /dev/null
		echo "$(babeltrace2 $tmp/lttng -c sink.utils.counter 2>/dev/null |
			awk '/ Event messages$/ { n = $1 } END { print n + 0 }')" "$said" \
			"discarded $said"
		rm -rf $tmp/lttng ;;
	esac
}

# attempt RATE (with $tool set): one recording; prints the events lost (0 =
# none) and the events/s per CPU the writers made.
attempt() {
	local w rec said lost toollost
	read -r rec toollost said < <(record "$tool" "$1")
	[[ "$rec" =~ ^[0-9]+$ ]] || { echo "peerthr: $tool: no count: $rec" >&2; return 1; }
	w=$((2 * $(cat $tmp/calls)))
	lost=$((w - rec))
	if [ $lost -lt 0 ]; then
		# LTTng's output does not name the task: another process's
		# getppid() adds records there, and its discard count tells the
		# loss.  trace-cmd's and perf's outputs do: a writer's event
		# recorded twice (but as perf's adjacent copies, counted once
		# above), or a record that names a writer wrongly.
		echo "peerthr: $tool at $1/s per CPU: $((-lost)) records more than the writers' events" |
			tee -a "$raw" >&2
		[ "$tool" != ftrace ] || return 1
	fi
	[ $lost -ge "$toollost" ] || lost=$toollost
	echo "$tool $1 $w $rec $lost $secs $said" >> "$raw"
	echo "peerthr: $tool at $1/s per CPU: written $w, recorded $rec $said" >&2
	echo $lost $((w / secs / ncpu))
}

tools=(ftrace)
peers_find $tmp "$raw"
for t in "${PEERS[@]}"; do
	if [ "$t" = lttng ] && ! command -v babeltrace2 > /dev/null; then
		echo "peerthr: lttng: no babeltrace2 to count its records" >> "$raw"
		continue
	fi
	tools+=("$t")
done
for tool in "${tools[@]}"; do
	echo "# $tool" >> "$raw"
	read -r got _ _ < <(zero_loss attempt "$start" "$max" "$reps" "$raw") || exit 1
	echo "peer.$tool.zero_loss $got" >> "$RB_OUT/metrics.txt"
done
peers_end
rm -rf $tmp
