#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Nested writers of every context (task, softirq, irq, NMI) on every CPU
# and a concurrent reader, in flight-recorder and discard mode: the
# ring_buffer_stress module checks that every record is read intact and
# once, or counted as lost, and fails to load otherwise.  Then the same
# with the non-consuming iterator in place of the reader, and beside it.

ksft_skip=4
. "$(dirname "$0")/rb_lib.sh"

[ "$(id -u)" = 0 ] || { echo "must run as root"; exit $ksft_skip; }
modprobe -n ring_buffer_stress 2>/dev/null ||
	{ echo "no ring_buffer_stress module (CONFIG_RING_BUFFER_STRESS_TEST)"; exit $ksft_skip; }

# The sub-buffer ring buffer (CONFIG_RING_BUFFER_SUBBUF=y in the kernel's
# config) runs it again with sub-buffers of four pages (subbuf_order=2);
# the page-based one has one-page sub-buffers only.
orders=0
[ "$(rb_kconfig RING_BUFFER_SUBBUF)" = y ] && orders="0 2"

rc=0
for order in $orders; do
	if rb_stress_load run=1 subbuf_order="$order"; then
		rmmod ring_buffer_stress
		dmesg | grep 'ring_buffer_stress:' | tail -6 | sed 's/^/# /'
	else
		dmesg | grep 'ring_buffer_stress:' | tail -30 | sed 's/^/# /'
		rc=1
	fi
done
exit $rc
