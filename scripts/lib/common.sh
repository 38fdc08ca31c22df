# SPDX-License-Identifier: GPL-2.0
# Common settings for the project's scripts.  Sourced, never run.
#
# Everything large lives outside the clone, under $RB_CACHE:
#   $RB_CACHE/linux         git tree: base commit (tag "base"), series applied on
#                           branch "series"
#   $RB_CACHE/build/NAME    O= build directories, NAME = <flavour>-<variant>
#   $RB_CACHE/ccache        compiler cache
#   $RB_CACHE/accel         cached verdict of the KVM probe

RB_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
RB_CACHE=${RB_CACHE:-/var/tmp/rb-subbuf}
RB_LINUX=$RB_CACHE/linux
RB_OUT=${RB_OUT:-$RB_TOP/out}
export CCACHE_DIR=${CCACHE_DIR:-$RB_CACHE/ccache}

# Directories the series adds files to, as "repo path:tree path".
RB_TREE_DIRS=(
	"kernel/trace:kernel/trace"
	"include/linux:include/linux"
	"Documentation:Documentation"
	"tools/tracing:tools/tracing"
	"tests/kselftest:tools/testing/selftests"
)

rb_log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
rb_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# rb_base_field KEY: a field of patches/BASE ("key: value" lines).
rb_base_field() {
	sed -n "s/^$1:[[:space:]]*//p" "$RB_TOP/patches/BASE"
}

# rb_series_files [PATCHDIR]: the patch files named by PATCHDIR/series, in order.
rb_series_files() {
	local dir=${1:-$RB_TOP/patches} p
	[ -f "$dir/series" ] || return 0
	while read -r p; do
		case "$p" in ''|'#'*) continue ;; esac
		echo "$dir/$p"
	done < "$dir/series"
}

# rb_series_hash [PATCHDIR]: identifies the series content, to know when a
# tree must be rebuilt from scratch.
rb_series_hash() {
	local dir=${1:-$RB_TOP/patches}
	{ cat "$dir/BASE"; rb_series_files "$dir" | xargs -r cat; } | sha256sum | cut -c1-16
}

rb_elapsed() { echo $(( $(date +%s) - $1 )); }

# rb_model_lines LOG: the check lines ("PASS: model ..." / "FAIL: ...") of
# a scripts/model log, one per case, and a FAIL when it did not finish.
rb_model_lines() {
	local name kind secs verdict
	while read -r name kind secs verdict; do
		case $verdict in
		PASS*) echo "PASS: model $kind $name ($secs)" ;;
		*) echo "FAIL: model $kind $name: $verdict" ;;
		esac
	done < <(grep -E '^[a-z0-9-]+ +(check|probe|seed) ' "$1")
	grep -qE '^model: [0-9]+ of [0-9]+ cases as expected' "$1" ||
		echo "FAIL: model check did not finish: $(tail -1 "$1")"
}

# rb_known_splats BUILD: the list of known kernel warnings for a boot of
# the kernel built in BUILD (scripts/lib/splats -k): a kernel with the
# page-based ring buffer may report those scripts/expect/page-based-
# splats.txt lists, upstream's and traced there; on any other kernel
# none is known.
rb_known_splats() {
	if grep -qx 'CONFIG_RING_BUFFER_PAGE=y' "$1/.config" 2> /dev/null; then
		echo "$RB_TOP/scripts/expect/page-based-splats.txt"
	else
		echo /dev/null
	fi
}

# rb_vm_lines LABEL DIR RC: the check lines of a scripts/vm boot whose
# results are in DIR and whose exit status was RC: the guest's own
# PASS/FAIL lines, then one for the boot and its kernel log.
rb_vm_lines() {
	local label=${1:+$1 } dir=$2 rc=$3 known
	grep -E '^(PASS|FAIL): ' "$dir/guest.log" 2> /dev/null
	# Known warnings of the page-based ring buffer (scripts/vm): named,
	# not counted
	known=$(sed -n 's/^known: //p' "$dir/splats.txt" 2> /dev/null)
	[ -z "$known" ] || echo "$known" | while read -r l; do
		echo "NOTE: ${label}kernel log: known page-based ring buffer warning" \
		     "(scripts/expect/page-based-splats.txt): $l"
	done
	case $rc in
	0) if [ -z "$known" ]; then
		echo "PASS: ${label}kernel log clean (no WARN/BUG/KASAN/lockdep/RCU report)"
	   else
		echo "PASS: ${label}kernel log: no WARN/BUG/KASAN/lockdep/RCU report but the known ones above"
	   fi ;;
	1) echo "FAIL: ${label}the guest command failed (see $dir/guest.log)" ;;
	2) echo "FAIL: ${label}kernel log: $(grep -v '^known: ' "$dir/splats.txt" | head -1)" ;;
	3) echo "FAIL: ${label}guest crashed or panicked (see $dir/console.log)" ;;
	*) echo "FAIL: ${label}guest hung: watchdog fired (see $dir/console.log)" ;;
	esac
}

# rb_ft_in_tier TIER TAGS: whether an ftracetest case whose expectation
# carries TAGS (the words after its result, comment removed) runs in TIER.
# ci: untagged cases; extended: "extended" ones; single: "single" ones,
# which need TCG's vCPUs in one host thread (RB_TCG_THREAD=single; the
# function tracer on every function livelocks MTTCG guests); all: all.
rb_ft_in_tier() {
	case "$1: $2 " in
	all:*) return 0 ;;
	ci:*" extended "*|ci:*" single "*) return 1 ;;
	ci:*) return 0 ;;
	extended:*" extended "*) return 0 ;;
	single:*" single "*) return 0 ;;
	esac
	return 1
}
RB_FT_TIERS="ci|extended|single|all"

# The differential probe's page-based reference: scripts/guest/difftest.sh's
# output on the page-based test kernel, under a first line that names the
# probe it came from.  scripts/test compares the sub-buffer kernel's
# output with it (scripts/lib/rbdiff); scripts/extended (part pagebased)
# boots the page-based kernel, and fails when its output is not the
# reference, which it then writes out anew.
RB_DIFFREF=$RB_TOP/scripts/expect/diff-page-based.txt
# rb_diffref_stamp [PROBE]: that first line for PROBE (default: difftest.sh)
rb_diffref_stamp() {
	local probe=${1:-$RB_TOP/scripts/guest/difftest.sh}
	echo "# made by difftest.sh sha256 $(sha256sum < "$probe" | cut -d' ' -f1)"
}
# rb_diffref_lines REF OUTPUT FLAVOUR [PROBE [DOC]]: check lines for a
# test boot's probe OUTPUT against REF.  A REF made by another probe
# fails; a sub-buffer OUTPUT goes to rbdiff with DOC (default: the
# series' ring-buffer-subbuf.rst), a page-based one must equal REF.
rb_diffref_lines() {
	local ref=$1 new=$2 flavour=$3 probe=${4:-}
	local doc=${5:-$RB_TOP/Documentation/trace/ring-buffer-subbuf.rst}
	if [ "$(head -1 "$ref" 2> /dev/null)" != "$(rb_diffref_stamp ${probe:+"$probe"})" ]; then
		echo "FAIL: differential probe: ${ref##*/} was not made by this difftest.sh" \
			"(scripts/extended --only pagebased writes a new one to its results)"
	elif [ "$flavour" = legacy ]; then
		if diff -u <(tail -n +2 "$ref") "$new" > "${new%.txt}-ref.diff"; then
			echo "PASS: differential probe: the page-based output is ${ref##*/}"
		else
			echo "FAIL: differential probe: the page-based output is not ${ref##*/}" \
				"(see ${new%.txt}-ref.diff)"
		fi
	else
		"$RB_TOP/scripts/lib/rbdiff" "$ref" "$new" "$doc"
	fi
}
