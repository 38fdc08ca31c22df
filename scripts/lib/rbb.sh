# SPDX-License-Identifier: GPL-2.0
# ring_buffer_benchmark reports.  Sourced, never run.

# rb_rbb_table RBB_TXT: the Markdown table of the runs in RBB_TXT (lines
# "mode round ns/entry entries/ms hit entries overruns read missed", as
# scripts/guest/rbbench.sh writes them), then min/median/max of ns/entry
# per mode.
rb_rbb_table() {
	local f=$1 mode r ns epm hit ent ovr rd mis _
	echo "| mode | round | ns/entry | entries/ms | hit | entries | overruns | read | missed |"
	echo "|---|---|---|---|---|---|---|---|---|"
	while read -r mode r ns epm hit ent ovr rd mis _; do
		echo "| $mode | $r | $ns | $epm | $hit | $ent | $ovr | $rd | $mis |"
	done < "$f"
	echo
	for mode in reader noreader; do
		awk -v m=$mode '$1 == m { print $3 }' "$f" | sort -n |
			awk -v m=$mode '{ v[++n] = $1 }
			END { if (n) printf "- %s: ns/entry min %d, median %d, max %d over %d runs\n",
				m, v[1], v[int((n + 1) / 2)], v[n], n }'
	done
}
