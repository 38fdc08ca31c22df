#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# PID 1 of every test guest (see scripts/vm): x86_64 and arm64 in QEMU, um.
#
# The root file system is a host directory, read-only: the host's / (9p,
# or hostfs on um) or the arm64 root of scripts/rootfs.  Stage 1 puts a
# tmpfs overlay on top and chroots into it, so the guest can write
# anywhere.  Stage 2 mounts the pseudo file systems, the shares (the
# project and the cache, when the root is not the host's), the host's
# result directory at the same path as on the host, runs
# $rb_out/guest-cmd, records its exit status in $rb_out/rc and the kernel
# log in $rb_out/dmesg.txt, and powers off.
#
# In a Debian system booted from its disk (scripts/distro), systemd is PID 1
# and runs this as a service with the argument "service": the pseudo file
# systems are there, the root is the system's own, the rest is the same and
# the power-off is systemd's.
#
# From the kernel command line (unknown "key=value" parameters become init's
# environment; the service reads /proc/cmdline): rb_out (host result
# directory), rb_outfs (9p or hostfs: how to mount it), rb_mods
# (modules_install dir), rb_platform (x86_64, arm64, um, distro: the host
# name), rb_shares (TAG:PATH,...: 9p shares to mount at PATH).
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LC_ALL=C

poweroff_now() {
	sync
	if [ "$mode" = service ]; then
		systemctl --no-block poweroff
		exit 0
	fi
	echo o > /proc/sysrq-trigger
	sleep 10
	echo "init: poweroff did not work, ending by panic" > /dev/console
	echo c > /proc/sysrq-trigger
}

P9OPTS=trans=virtio,version=9p2000.L,msize=262144
mode=${1:-stage1}

if [ "$mode" = service ]; then
	for kv in $(cat /proc/cmdline); do
		case "$kv" in rb_*=*) export "${kv?}" ;; esac
	done
	modprobe -a 9pnet_virtio 9p overlay
elif [ "$mode" != stage2 ]; then
	mount -t proc proc /proc
	mount -t sysfs sysfs /sys
	mountpoint -q /dev || mount -t devtmpfs devtmpfs /dev
	mount -t tmpfs -o mode=755 tmpfs /run
	mkdir -p /run/ovl/upper /run/ovl/work /run/ovl/root
	if mount -t overlay overlay \
		-o lowerdir=/,upperdir=/run/ovl/upper,workdir=/run/ovl/work /run/ovl/root; then
		exec chroot /run/ovl/root "$0" stage2
	fi
	echo "init: overlay root failed" > /dev/console
	poweroff_now
fi

if [ "$mode" = stage2 ]; then
	mountpoint -q /proc || mount -t proc proc /proc
	mountpoint -q /sys || mount -t sysfs sysfs /sys
	mountpoint -q /dev || mount -t devtmpfs devtmpfs /dev
	mkdir -p /dev/pts /dev/shm
	mount -t devpts devpts /dev/pts
	mount -t tmpfs tmpfs /dev/shm
	mountpoint -q /run || mount -t tmpfs -o mode=755 tmpfs /run
fi
mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
# What udev would make: the kselftest runner writes to /dev/stdout, which
# would otherwise become a plain file in /dev.
[ -e /dev/fd ] || ln -s /proc/self/fd /dev/fd
for i in 0:stdin 1:stdout 2:stderr; do
	[ -e "/dev/${i#*:}" ] || ln -s "/proc/self/fd/${i%%:*}" "/dev/${i#*:}"
done

# Shares, read-only, each under an overlay of its own (kselftests build in
# the source tree).
n=0
for s in ${rb_shares//,/ }; do
	tag=${s%%:*} dir=${s#*:} n=$((n + 1))
	mkdir -p "/run/share$n/ro" "/run/share$n/upper" "/run/share$n/work" "$dir"
	if ! mount -t 9p -o "$P9OPTS,ro" "$tag" "/run/share$n/ro" ||
	   ! mount -t overlay overlay -o "lowerdir=/run/share$n/ro,upperdir=/run/share$n/upper,workdir=/run/share$n/work" "$dir"; then
		echo "init: cannot mount share $tag at $dir" > /dev/console
		poweroff_now
	fi
done

mkdir -p "$rb_out"
case "${rb_outfs:-9p}" in
hostfs) mount -t hostfs -o "$rb_out" hostfs "$rb_out" ;;
*) mount -t 9p -o "$P9OPTS" rbout "$rb_out" ;;
esac || {
	echo "init: cannot mount the result directory at $rb_out" > /dev/console
	poweroff_now
}
if [ "$mode" != service ] && [ -d "$rb_mods/lib/modules" ]; then
	mkdir -p /lib/modules
	mount --bind "$rb_mods/lib/modules" /lib/modules
fi
if [ "$mode" != service ]; then
	hostname "rb-${rb_platform//_/-}"
	ip link set lo up 2>/dev/null
fi

echo "init: running $rb_out/guest-cmd at uptime $(cut -d' ' -f1 /proc/uptime) s" > /dev/console
cd /tmp
bash "$rb_out/guest-cmd" > "$rb_out/guest.log" 2>&1 < /dev/null
echo $? > "$rb_out/rc"
dmesg > "$rb_out/dmesg.txt"
echo "init: done at uptime $(cut -d' ' -f1 /proc/uptime) s" > /dev/console
umount "$rb_out"
poweroff_now
