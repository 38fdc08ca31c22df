#!/bin/bash
dmesg -C
modprobe ring_buffer_stress admin=1; rc=$?
dmesg | grep 'ring_buffer_stress:'
echo "modprobe rc=$rc"
exit $rc
