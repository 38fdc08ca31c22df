#!/bin/bash
modprobe ring_buffer_stress admin=1; echo "modprobe rc=$?"
dmesg | grep -E 'ring_buffer_stress|exact fill|WARN|BUG' | tail -30
