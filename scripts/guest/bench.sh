#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/bench: one round of each benchmark in this boot
# (ring_buffer_benchmark with and without its reader, the tracepoint
# benchmark for SECS seconds, default 10, and the 4-byte event benchmark
# with LOOPS calls per CPU, default 1000000).
# Usage: bench.sh [SECS [LOOPS]]
d=$(dirname "$0")
"$d/rbbench.sh" 1 || exit 1
"$d/tpbench.sh" "${1:-10}" || exit 1
"$d/evbench.sh" "${2:-1000000}"
