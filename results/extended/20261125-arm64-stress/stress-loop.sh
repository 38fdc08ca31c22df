#!/bin/bash
# $ROUNDS rounds of the stress module (both modes, $SECS s each); a
# failing round is reported and the next one runs.  Run in the guest by
# scripts/vm (see README.md beside it).
ROUNDS=${ROUNDS:-12} SECS=${SECS:-20}
fails=0
for i in $(seq 1 "$ROUNDS"); do
	dmesg -C
	if modprobe ring_buffer_stress run=1 seconds="$SECS"; then
		rmmod ring_buffer_stress
		r=ok
	else
		r=FAIL
		fails=$((fails + 1))
	fi
	echo "round $i: $r"
	dmesg | grep 'ring_buffer_stress:' | sed 's/^/  /'
done
echo "rounds failed: $fails"
[ $fails = 0 ]
