# SPDX-License-Identifier: GPL-2.0
# Statistics for the benchmark reports (scripts/bench).  Sourced; the
# harness tests call it on made-up numbers.

# min_median_max: "min median max" of the numbers on standard input,
# nothing when there are none.  With an even count the median is the mean
# of the two middle numbers (to ten significant digits, so that a rate of
# millions keeps its units).
min_median_max() {
	sort -g | awk '{ v[++n] = $1 }
		END {
			if (!n)
				exit
			h = int((n + 1) / 2)
			if (n % 2)
				m = v[h]
			else
				m = sprintf("%.10g", (v[h] + v[h + 1]) / 2)
			print v[1], m, v[n]
		}'
}

# median_interval: "low high", a distribution-free 95% interval of the
# median of the numbers on standard input (order statistics k and n-k+1,
# k the largest with P(Binomial(n, 1/2) < k) <= 0.025); nothing for fewer
# than 6 numbers, where no such k exists.
median_interval() {
	sort -g | awk '{ v[++n] = $1 }
		END {
			k = 0; p = 0.5 ^ n; t = p
			for (i = 1; i <= n && t <= 0.025; i++) {
				k = i; p = p * (n - i + 1) / i; t += p
			}
			if (k >= 1) printf "%.3f %.3f\n", v[k], v[n - k + 1]
		}'
}

# ratio_file FILE P M [M2 F]: "round ratio" for every round of platform P
# in FILE (a scripts/bench metrics.txt) that has both figures:
# subbuf/legacy of metric M; with M2 and F, M/M2 within flavour F.
ratio_file() {
	local file=$1
	shift
	awk -v p="$1" -v m="$2" -v m2="${3:-}" -v f="${4:-}" '
		$1 != p { next }
		m2 == "" && $4 == m { v[$2, $3] = $5; r[$3] = 1 }
		m2 != "" && $2 == f && $4 == m { v["a", $3] = $5; r[$3] = 1 }
		m2 != "" && $2 == f && $4 == m2 { v["b", $3] = $5 }
		END {
			for (i in r) {
				a = m2 == "" ? v["subbuf", i] : v["a", i]
				b = m2 == "" ? v["legacy", i] : v["b", i]
				if (b > 0 && a != "")
					printf "%d %.6f\n", i, a / b
			}
		}' "$file"
}
