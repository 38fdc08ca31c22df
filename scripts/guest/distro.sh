#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/distro, run by systemd's rb-test.service in the
# Debian 12 system that has the series' kernel package installed: the
# system's own checks, then the suite's tracefs, trace-cmd and kselftest
# parts.  Prints "PASS: ..." / "FAIL: ..." lines.  Env: RB_LABEL.
label=${RB_LABEL:+$RB_LABEL }
D=$RB_OUT/suite
mkdir -p "$D"
ok() { echo "PASS: $label$1"; }
ko() { echo "FAIL: $label$1: $2"; }

rel=$(uname -r)
pkg=$(dpkg-query -S "/boot/vmlinuz-$rel" 2>/dev/null | cut -d: -f1)
if [ -n "$pkg" ]; then
	ok "running the packaged kernel $rel ($pkg $(dpkg-query -W -f='${Version}' "$pkg"))"
else
	ko "running the packaged kernel" "no package owns /boot/vmlinuz-$rel"
fi
if [ -s "/boot/initrd.img-$rel" ]; then
	ok "initramfs made by Debian's hooks: /boot/initrd.img-$rel ($(du -k "/boot/initrd.img-$rel" | cut -f1) KiB)"
else
	ko "initramfs" "no /boot/initrd.img-$rel"
fi
# Booted through systemd to a state where one can log in.
state=$(systemctl is-active multi-user.target)
getty=$(systemctl is-active serial-getty@ttyS0.service)
failed=$(systemctl list-units --failed --plain --no-legend | awk '{ print $1 }' | tr '\n' ' ')
systemctl list-units --failed > "$D/systemd-failed.txt" 2>&1
systemctl list-jobs > "$D/systemd-jobs.txt" 2>&1
if [ "$state" = active ] && [ "$getty" = active ]; then
	ok "systemd: multi-user.target active, serial getty on ttyS0 running (failed units: ${failed:-none})"
else
	ko "systemd reached a login-capable state" "multi-user.target $state, serial-getty@ttyS0 $getty"
fi
flav=$(grep -E '^CONFIG_RING_BUFFER_(SUBBUF|PAGE)=y' "/boot/config-$rel")
echo "ring buffer: $flav" > "$D/flavour.txt"

# The issue's two commands, as a user types them.
T=/sys/kernel/tracing
sched_enable() {
	echo 1 > $T/events/sched/enable || return 1
	sleep 1
	echo 0 > $T/events/sched/enable
	grep -q 'sched_switch:' $T/trace
}
if sched_enable; then
	ok "echo 1 > events/sched/enable: sched_switch in trace ($flav)"
else
	ko "echo 1 > events/sched/enable" "no sched_switch in trace"
fi
echo > $T/trace

exec env RB_SUITE=tracefs,tracecmd,kselftest "$RB_TOP/scripts/guest/suite.sh"
