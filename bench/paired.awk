# bench/paired.awk - paired statistics from results.tsv: within each repetition a
# configuration is compared with the plain and hooks runs of the same repetition
# (seconds apart), and the median over repetitions is taken. This cancels the slow
# drifts of a shared machine that medians of separate runs keep.
# Output (tab-separated): workload config ratio_to_plain ns_over_plain ns_over_hooks
# ("-" where the base did not run). Time is CPU time (column 13).

function median(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) {           # insertion sort: n is a handful of repetitions
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--)
			a[j + 1] = a[j]
		a[j + 1] = t
	}
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

$8 == 0 {
	t[$1, $2, $3] = $13
	if (!(($1, $2) in seen)) {
		seen[$1, $2] = 1
		order[++n] = $1 SUBSEP $2
	}
	if ($3 > maxrep)
		maxrep = $3
}

END {
	for (i = 1; i <= n; i++) {
		split(order[i], k, SUBSEP)
		nr = np = nh = 0
		for (r = 1; r <= maxrep; r++) {
			if (!((k[1], k[2], r) in t))
				continue
			v = t[k[1], k[2], r]
			if ((k[1], "plain", r) in t) {
				ratio[++nr] = v / t[k[1], "plain", r]
				dp[++np] = v - t[k[1], "plain", r]
			}
			if ((k[1], "hooks", r) in t)
				dh[++nh] = v - t[k[1], "hooks", r]
		}
		printf "%s\t%s\t%s\t%s\t%s\n", k[1], k[2], nr ? median(ratio, nr) : "-",
			np ? median(dp, np) : "-", nh ? median(dh, nh) : "-"
	}
}
