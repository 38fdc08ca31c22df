#!/bin/bash
# Compile kernel/trace/ring_buffer_subbuf.c as each split patch leaves it,
# in a work tree of that commit, with the flags of the subbuf-test build.
set -u
L=/var/tmp/rb-subbuf/linux B=/var/tmp/rb-subbuf/build/subbuf-test
cmd=$(sed -n 's/^cmd_kernel\/trace\/ring_buffer_subbuf.o := //p' $B/kernel/trace/.ring_buffer_subbuf.o.cmd | sed 's/;.*//')
for c in $(git -C $L log --reverse --format=%h base..series | sed -n 6,11p); do
	wt=/tmp/pfx/wt-$c
	[ -d $wt ] || git -C $L worktree add -q --detach $wt $c
	subj=$(git -C $L log -1 --format=%s $c)
	lines=$(wc -l < $wt/kernel/trace/ring_buffer_subbuf.c)
	c2=$(echo "$cmd" | sed "s|$L|$wt|g; s|-Wp,-MMD,[^ ]*|-Wp,-MMD,/tmp/pfx/$c.d|; s| -o [^ ]*| -o /tmp/pfx/$c.o|")
	# the source is the last argument of the command
	(cd $B && eval "$c2") > /tmp/pfx/$c.log 2>&1
	rc=$?
	echo "$c rc=$rc lines=$lines warnings=$(grep -c 'warning:' /tmp/pfx/$c.log) errors=$(grep -c 'error:' /tmp/pfx/$c.log) $subj"
	grep 'warning:' /tmp/pfx/$c.log | sed 's/.*warning: /  /' | sort | uniq -c | sort -rn | head -5
done
