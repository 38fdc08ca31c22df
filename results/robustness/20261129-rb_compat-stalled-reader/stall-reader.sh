#!/bin/bash
# guest: rb_compat.sh with its first drain run's reader stopped for 3 s
stall() { # stop the reader of the first rb_compat run with a writer, 1 s
	local d c pp pc x
	while :; do
		for d in /proc/[0-9]*; do
			read -r c < $d/comm 2>/dev/null || continue
			[ "$c" = rb_compat ] || continue
			read -r x x x pp x < $d/stat 2>/dev/null || continue
			read -r pc < /proc/$pp/comm 2>/dev/null || continue
			[ "$pc" = rb_compat ] || continue
			kill -STOP $pp; sleep 1; kill -CONT $pp
			echo "stopped reader $pp for 1 s"
			return
		done
	done
}
for v in old new; do
	stall &
	/var/tmp/repro/rb/rb_compat_$v.sh > $RB_OUT/compat-$v.log 2>&1
	echo "rb_compat_$v.sh with a stalled reader: exit $?"
	wait
	grep -E 'FAIL|fell behind|^(not )?ok' $RB_OUT/compat-$v.log
done
/var/tmp/repro/rb/rb_compat_new.sh > $RB_OUT/compat-new-nostall.log 2>&1
echo "rb_compat_new.sh, no stall: exit $?"
grep -E 'FAIL|fell behind|^(not )?ok' $RB_OUT/compat-new-nostall.log
