#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# PID 1 of the UML guest (see scripts/uml/run).
#
# The root file system is the host's / over hostfs, read-only.  Stage 1
# puts a tmpfs overlay on top and chroots into it, so the guest can write
# anywhere (and /lib/modules can be bound over).  Stage 2 mounts the pseudo
# file systems and the host's result directory (hostfs, read-write, at the
# same path as on the host), runs $rb_out/guest-cmd, records its exit status
# in $rb_out/rc and the kernel log in $rb_out/dmesg.txt, and powers off,
# which ends the UML process.
#
# From the kernel command line (unknown "key=value" parameters become init's
# environment): rb_out (host result directory), rb_mods (modules_install dir).
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LC_ALL=C

poweroff_now() {
	sync
	echo o > /proc/sysrq-trigger
	sleep 10
	echo "init: poweroff did not work, ending by panic" > /dev/console
	echo c > /proc/sysrq-trigger
}

if [ "${1:-}" != stage2 ]; then
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mount -t tmpfs -o mode=755 tmpfs /run
	mkdir -p /run/ovl/upper /run/ovl/work /run/ovl/root
	if mount -t overlay overlay \
		-o lowerdir=/,upperdir=/run/ovl/upper,workdir=/run/ovl/work /run/ovl/root; then
		exec chroot /run/ovl/root "$0" stage2
	fi
	echo "init: overlay root failed" > /dev/console
	poweroff_now
fi

mountpoint -q /proc || mount -t proc proc /proc
mountpoint -q /sys || mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs -o mode=755 tmpfs /run
mount -t tracefs tracefs /sys/kernel/tracing
mount -t debugfs debugfs /sys/kernel/debug
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd

if ! mount -t hostfs -o "$rb_out" hostfs "$rb_out"; then
	echo "init: cannot mount the result directory $rb_out" > /dev/console
	poweroff_now
fi
if [ -d "$rb_mods/lib/modules" ]; then
	mkdir -p /lib/modules
	mount --bind "$rb_mods/lib/modules" /lib/modules
fi
hostname rb-uml

echo "init: running $rb_out/guest-cmd at uptime $(cut -d' ' -f1 /proc/uptime) s" > /dev/console
cd /tmp
bash "$rb_out/guest-cmd" > "$rb_out/guest.log" 2>&1 < /dev/null
echo $? > "$rb_out/rc"
dmesg > "$rb_out/dmesg.txt"
echo "init: done at uptime $(cut -d' ' -f1 /proc/uptime) s" > /dev/console
umount "$rb_out"
poweroff_now
