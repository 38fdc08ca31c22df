#!/bin/bash
# Memory a ring buffer takes beside its data pages, measured in the guest:
# MemFree before and after growing the top buffer from 1 page per CPU to
# SIZE_KB per CPU, minus the data pages that adds.  Run by scripts/vm
# (README.md beside it).  Prints one line per step.
T=/sys/kernel/tracing
size_kb=${1:-65536}
ncpu=$(nproc)
free_kb() { sync; echo 3 > /proc/sys/vm/drop_caches; awk '/^MemFree:/ { print $2 }' /proc/meminfo; }
echo 0 > $T/tracing_on
echo 4 > $T/buffer_size_kb
sleep 1
a=$(free_kb)
echo "$size_kb" > $T/buffer_size_kb || exit 1
sleep 1
b=$(free_kb)
total=$(cat $T/buffer_total_size_kb)
pages=$(( $(cat $T/buffer_size_kb) * 1024 / 4080 ))
echo "ncpu $ncpu buffer_size_kb $(cat $T/buffer_size_kb) buffer_total_size_kb $total"
echo "memfree_before_kb $a memfree_after_kb $b taken_kb $((a - b))"
# buffer_size_kb is the data per CPU: pages of 4 KiB that each hold 4080
# bytes of it (a 16-byte header), in both flavours.
over=$(( (a - b) - ncpu * pages * 4 ))
echo "data_pages_per_cpu $pages beside_data_kb $over bytes_per_page $(( over * 1024 / (ncpu * pages) ))"
echo 4 > $T/buffer_size_kb
sleep 1
c=$(free_kb)
echo "memfree_after_shrink_kb $c"
