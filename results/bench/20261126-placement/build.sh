#!/bin/bash
# Build the subbuf bench kernel with N bytes of padding at the end of
# kernel/trace/trace_clock.o's text (everything linked after it moves).
export RB_CACHE=/var/tmp/rb-subbuf
set -e
cd $RB_CACHE/linux
for n in "$@"; do
	git checkout -q kernel/trace/trace_clock.c
	if [ "$n" != 0 ]; then
		printf '\nstatic noinline void __used tc_placement_pad(void)\n{\n\tasm volatile(".skip %d, 0x90");\n}\n' "$n" >> kernel/trace/trace_clock.c
	fi
	/work/main/scripts/build -f subbuf -v bench --as-is > /tmp/pad/build-$n.log 2>&1
	rm -rf $RB_CACHE/build/pad-$n
	cp -a $RB_CACHE/build/subbuf-bench $RB_CACHE/build/pad-$n
done
git checkout -q kernel/trace/trace_clock.c
