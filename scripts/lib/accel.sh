# SPDX-License-Identifier: GPL-2.0
# Choose QEMU's accelerator.  Sourced after common.sh.
#
# KVM is used only when a guest has been seen to boot with it on this host:
# /dev/kvm may belong to a nested hypervisor that runs only its own kind of
# guest (a stock kernel then hangs before printing a line).  The verdict is
# cached per host kernel and QEMU version.  RB_ACCEL=kvm|tcg overrides.

# rb_accel KERNEL: prints "kvm" or "tcg".
rb_accel() {
	local kernel=$1 key cache=$RB_CACHE/accel verdict log
	if [ -n "${RB_ACCEL:-}" ]; then echo "$RB_ACCEL"; return; fi
	if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then echo tcg; return; fi
	key="$(uname -r) $(qemu-system-x86_64 --version | head -1)"
	if [ -f "$cache" ] && [ "$(head -1 "$cache")" = "$key" ]; then
		tail -1 "$cache"
		return
	fi
	# Probe: boot with KVM and wait for the kernel's first console line.
	log=$(mktemp)
	timeout -k 5 30 qemu-system-x86_64 -enable-kvm -cpu host -smp 1 -m 512M \
		-nographic -no-reboot -nodefaults -serial "file:$log" -monitor none \
		-kernel "$kernel" -append "console=ttyS0 panic=-1 init=/nonexistent" \
		>/dev/null 2>&1 || true
	if grep -q 'Linux version' "$log"; then verdict=kvm; else verdict=tcg; fi
	rm -f "$log"
	printf '%s\n%s\n' "$key" "$verdict" > "$cache"
	echo "$verdict"
}
