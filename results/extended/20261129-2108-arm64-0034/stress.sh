#!/bin/bash
modprobe ring_buffer_stress run=1 seconds=10; echo "modprobe rc=$?"
dmesg | grep -E 'ring_buffer_stress' | tail -12
