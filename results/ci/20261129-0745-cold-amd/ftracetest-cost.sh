#!/bin/bash
FT=$RB_LINUX/tools/testing/selftests/ftrace
T=/sys/kernel/tracing
tm() { local s=$EPOCHREALTIME; "$@" > /dev/null 2>&1; echo "$(echo "$EPOCHREALTIME - $s" | bc) s: $*"; }
echo "events: $(ls -d $T/events/*/*/ | wc -l), syscalls: $(ls -d $T/events/syscalls/*/ | wc -l)"
cd $T
tm bash -c 'echo events/*/*/trigger > /dev/null'
tm bash -c 'grep -H ":on[^:]*(" events/*/*/trigger'
tm bash -c 'grep -v "^none" events/*/*/filter'
tm bash -c 'echo 0 > events/enable'
tm bash -c 'echo > trace'
tm bash -c 'echo > set_ftrace_filter'
tm bash -c 'echo | tee set_graph_function set_graph_notrace'
tm bash -c 'echo > kprobe_events; echo > uprobe_events; echo > synthetic_events'
tm bash -c 'echo 0 > snapshot'
tm bash -c ". $FT/test.d/functions; initialize_ftrace"
tm bash -c ". $FT/test.d/functions; initialize_ftrace"
mkdir -p /tmp/ft/test.d/x; cp -r $FT/ftracetest $FT/test.d/functions /tmp/ft/ 2>/dev/null; cp $FT/test.d/functions /tmp/ft/test.d/
printf '#!/bin/sh\n# description: nothing\nexit 0\n' > /tmp/ft/test.d/x/nothing.tc
cd /tmp/ft
tm ./ftracetest test.d/x/nothing.tc
tm ./ftracetest test.d/x/nothing.tc
cd $FT
tm ./ftracetest test.d/00basic/basic1.tc
tm ./ftracetest test.d/00basic/basic1.tc test.d/00basic/basic4.tc
tm ./ftracetest test.d/00basic/basic4.tc
