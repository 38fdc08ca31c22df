#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# PID 1 of the test VM (see scripts/vm).
#
# The root file system is the host's / over virtio-9p, read-only.  Stage 1
# puts a tmpfs overlay on top and chroots into it, so the guest can write
# anywhere.  Stage 2 mounts the pseudo file systems and the host's result
# directory (tag "rbout", mounted at the same path as on the host), runs
# $rb_out/guest-cmd, records its exit status in $rb_out/rc and the kernel
# log in $rb_out/dmesg.txt, and powers off.
#
# From the kernel command line (unknown "key=value" parameters become init's
# environment): rb_out (host result directory), rb_mods (modules_install dir).
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LC_ALL=C

poweroff_now() {
	sync
	echo o > /proc/sysrq-trigger
	sleep 10
	echo "init: ACPI poweroff did not work, halting by panic" > /dev/console
	echo c > /proc/sysrq-trigger
}

if [ "${1:-}" != stage2 ]; then
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mountpoint -q /dev || mount -t devtmpfs devtmpfs /dev
	mount -t tmpfs -o mode=755 tmpfs /run
	mkdir -p /run/ovl/upper /run/ovl/work /run/ovl/root
	if mount -t overlay overlay \
		-o lowerdir=/,upperdir=/run/ovl/upper,workdir=/run/ovl/work /run/ovl/root; then
		exec chroot /run/ovl/root "$0" stage2
	fi
	echo "init: overlay root failed, staying on the read-only root" > /dev/console
fi

mountpoint -q /proc || mount -t proc proc /proc
mountpoint -q /sys || mount -t sysfs sysfs /sys
mountpoint -q /dev || mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mountpoint -q /run || mount -t tmpfs -o mode=755 tmpfs /run
mount -t tracefs tracefs /sys/kernel/tracing
mount -t debugfs debugfs /sys/kernel/debug
# What udev would make: the kselftest runner writes to /dev/stdout, which
# would otherwise become a plain file in /dev.
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
for i in 0:stdin 1:stdout 2:stderr; do
	[ -e "/dev/${i#*:}" ] || ln -s "/proc/self/fd/${i%%:*}" "/dev/${i#*:}"
done

mkdir -p "$rb_out"
if ! mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 rbout "$rb_out"; then
	echo "init: cannot mount the result share at $rb_out" > /dev/console
	poweroff_now
fi
if [ -d "$rb_mods/lib/modules" ]; then
	mkdir -p /lib/modules
	mount --bind "$rb_mods/lib/modules" /lib/modules
fi
hostname rb-guest
ip link set lo up

echo "init: running $rb_out/guest-cmd at uptime $(cut -d' ' -f1 /proc/uptime) s" > /dev/console
cd /tmp
bash "$rb_out/guest-cmd" > "$rb_out/guest.log" 2>&1 < /dev/null
echo $? > "$rb_out/rc"
dmesg > "$rb_out/dmesg.txt"
echo "init: done at uptime $(cut -d' ' -f1 /proc/uptime) s" > /dev/console
umount "$rb_out"
poweroff_now
