# SPDX-License-Identifier: GPL-2.0
# Helpers of the ring_buffer selftests, sourced by them.

# rb_kconfig OPTION: y, m or n for CONFIG_OPTION of the running kernel,
# from /proc/config.gz (the config fragment of this directory asks for
# it) or /boot/config-<release>; nothing when neither can be read.
rb_kconfig() {
	local config

	config=$( { zcat /proc/config.gz || cat "/boot/config-$(uname -r)"; } 2> /dev/null)
	[ -n "$config" ] || return 0
	case $(printf '%s\n' "$config" | grep -E "^CONFIG_$1=[ym]$") in
	*=y) echo y ;;
	*=m) echo m ;;
	*) echo n ;;
	esac
}
