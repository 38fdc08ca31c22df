# SPDX-License-Identifier: GPL-2.0
# Applying, exporting and checking the patch series.  Sourced after common.sh.

# rb_am TREE PATCHDIR: apply the series of PATCHDIR with git am on TREE's
# current HEAD.  Fails (and aborts the am) when a patch does not apply.
rb_am() {
	local tree=$1 dir=$2 p n=0
	while read -r p; do
		n=$((n + 1))
		if ! git -C "$tree" am -q --whitespace=nowarn "$p" >"$tree/.rb-am.log" 2>&1; then
			cat "$tree/.rb-am.log" >&2
			rm -f "$tree/.rb-am.log"
			git -C "$tree" am --abort >/dev/null 2>&1 || true
			echo "series: patch $n (${p##*/}) does not apply with git am" >&2
			return 1
		fi
	done < <(rb_series_files "$dir")
	rm -f "$tree/.rb-am.log"
}

# rb_map_to_repo PATH: the repo path of a tree path the series adds, or
# nothing when the path is outside the tree-shaped directories.
rb_map_to_repo() {
	local m repo tree
	for m in "${RB_TREE_DIRS[@]}"; do
		repo=${m%%:*} tree=${m#*:}
		case "$1" in "$tree"/*) echo "$repo/${1#"$tree"/}"; return ;; esac
	done
}

# rb_added_files TREE: "tree-path repo-path" for each file the series adds
# under the tree-shaped directories.
rb_added_files() {
	local f r
	git -C "$1" diff --name-only --diff-filter=A base HEAD | while read -r f; do
		r=$(rb_map_to_repo "$f")
		[ -n "$r" ] && echo "$f $r"
	done
	return 0
}

# rb_repo_tree_files REPODIR: the files under the repo's tree-shaped
# directories (placeholders .gitkeep excluded).
rb_repo_tree_files() {
	local m
	for m in "${RB_TREE_DIRS[@]}"; do
		[ -d "$1/${m%%:*}" ] || continue
		(cd "$1" && find "${m%%:*}" -type f ! -name .gitkeep)
	done | sort
}

# rb_compare TREE REPODIR: 0 when the repo's tree-shaped directories hold
# exactly the files the series adds, with the same content.
rb_compare() {
	local tree=$1 repo=$2 bad=0 t r
	while read -r t r; do
		if [ ! -f "$repo/$r" ]; then
			echo "series adds $t, but $r is missing from the repo" >&2; bad=1
		elif ! cmp -s "$tree/$t" "$repo/$r"; then
			echo "$r differs from what the series adds ($t)" >&2; bad=1
		fi
	done < <(rb_added_files "$tree")
	comm -13 <(rb_added_files "$tree" | cut -d' ' -f2 | sort) \
		<(rb_repo_tree_files "$repo") | while read -r r; do
		echo "$r is in the repo, but the series does not add it" >&2
		echo x
	done | grep -q x && bad=1
	return $bad
}

# rb_check_tree: the scratch work tree of check-series and bisect-build
# ($RB_CACHE/check, kept between runs: resetting it to the base rewrites
# only what the last check changed), locked for this shell (fd 9) and
# reset to the base.  Prints nothing; the tree is $RB_CACHE/check.
rb_check_tree() {
	local wt=$RB_CACHE/check
	exec 9> "$RB_CACHE/check.lock"
	flock 9
	if ! git -C "$wt" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		rm -rf "$wt"
		git -C "$RB_LINUX" worktree prune
		git -C "$RB_LINUX" worktree add -q --detach "$wt" base
	fi
	git -C "$wt" am --abort >/dev/null 2>&1 || true
	git -C "$wt" checkout -q -f --detach base
	git -C "$wt" clean -q -f -d -x
}
