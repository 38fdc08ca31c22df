#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# neighbour.sh OUT: can a neighbour inside this machine put the host in the
# state of the slow runs?  hostref (scripts/lib/hostref.c) five times on
# host CPU 0 with CPU 1 idle, with thrash.c's chase over 64 MiB on CPU 1,
# with its stream over 256 MiB on CPU 1, and idle again.  Every neighbour
# is killed and waited for before the next phase, and none may be left.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
out=${1:?usage: neighbour.sh OUT}
mkdir -p "$out"
gcc -O2 -Wall -o "$out/hostref" "$top/scripts/lib/hostref.c"
gcc -O2 -Wall -o "$out/thrash" "$here/thrash.c"
phase() {
	local name=$1 pid="" i
	shift
	if [ $# -gt 0 ]; then
		taskset -c 1 "$out/thrash" "$@" &
		pid=$!
		sleep 3
	fi
	for i in 1 2 3 4 5; do
		taskset -c 0 "$out/hostref" | sed "s/^/$name /"
	done
	if [ -n "$pid" ]; then
		kill "$pid"
		wait "$pid" 2> /dev/null || true
	fi
}
{
	phase idle
	phase chase64 chase 64
	phase stream256 stream 256
	phase idle-again
} | tee "$out/neighbour.txt"
if pgrep -f "$out/thrash" > /dev/null; then
	echo "neighbour.sh: a thrash process is left" >&2
	exit 1
fi
