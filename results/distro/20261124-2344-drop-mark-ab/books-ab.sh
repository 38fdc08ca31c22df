# rb_compat -l drain rounds with admin reads and buffer_percent writes
# beside them (no event enable: no text_poke), for SECS seconds.
secs=${1:-150}
make -s -C $RB_LINUX/tools/testing/selftests/ring_buffer > /dev/null 2>&1 || echo build-failed
cd $RB_LINUX/tools/testing/selftests/ring_buffer
T=/sys/kernel/tracing
bash -c "while :; do echo \$((RANDOM % 101)) > $T/buffer_percent; cat $T/per_cpu/cpu*/stats > /dev/null; cat $T/snapshot > /dev/null 2>&1; done" &
bg=$!
end=$((SECONDS + secs)); n=0; bad=0
while [ $SECONDS -lt $end ]; do
	n=$((n + 1))
	if ! ./rb_compat -l -n 100000 drain > /tmp/b.log 2>&1; then
		bad=$((bad + 1)); grep -E "FAIL" /tmp/b.log | head -3
	fi
done
kill $bg
echo "drain rounds: $n, failed: $bad"
