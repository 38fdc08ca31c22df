#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/bench: one round of each benchmark in this boot
# (ring_buffer_benchmark with and without its reader, then the tracepoint
# benchmark for SECS seconds, default 10).
d=$(dirname "$0")
"$d/rbbench.sh" 1 || exit 1
"$d/tpbench.sh" "${1:-10}"
