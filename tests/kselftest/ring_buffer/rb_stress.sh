#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Nested writers of every context (task, softirq, irq, NMI) on every CPU
# and a concurrent reader, in flight-recorder and discard mode: the
# ring_buffer_stress module checks that every record is read intact and
# once, or counted as lost, and fails to load otherwise.

ksft_skip=4

[ "$(id -u)" = 0 ] || { echo "must run as root"; exit $ksft_skip; }
modprobe -n ring_buffer_stress 2>/dev/null ||
	{ echo "no ring_buffer_stress module (CONFIG_RING_BUFFER_STRESS_TEST)"; exit $ksft_skip; }

if modprobe ring_buffer_stress run=1; then
	rmmod ring_buffer_stress
	dmesg | grep 'ring_buffer_stress:' | tail -6 | sed 's/^/# /'
	exit 0
fi
dmesg | grep 'ring_buffer_stress:' | tail -30 | sed 's/^/# /'
exit 1
