# bench/paired.awk - paired statistics from results.tsv: within each repetition a
# configuration is compared with the plain, hooks and gprof runs of the same repetition
# (seconds apart), and the median over repetitions is taken. This cancels the slow
# drifts of a shared machine that medians of separate runs keep. Each median comes with
# a distribution-free confidence interval (sign-test order statistics, about 95 %), so
# that a difference the pairs do not agree on can be called noise.
# Output (tab-separated; "-" where the base did not run):
#   1 workload  2 config  3 ratio to plain (median)  4 ns over plain (median)
#   5 ns over its method's floor (median): the empty hooks for deepprof-hooks, the
#     empty stubs for the others
#   6-7 ratio to plain CI low, high  8-9 ns over the floor CI low,
#   high  10 ratio to gprof (median)  11-12 its CI low, high  13 pairs with gprof
#   14 CI coverage of the gprof ratio (percent)  15-16 ns over plain CI low, high
#   17 (2 t - t_gprof - t_plain) / t_plain (median): at most 0 when the configuration
#     adds at most half of gprof's overhead  18-19 its CI low, high
# Time is CPU time (column 13 of results.tsv).

function sort_n(a, n,   i, j, t) {
	for (i = 2; i <= n; i++) {           # insertion sort: n is a few dozen at most
		t = a[i]
		for (j = i - 1; j >= 1 && a[j] > t; j--)
			a[j + 1] = a[j]
		a[j + 1] = t
	}
}

function median(a, n) {
	sort_n(a, n)
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}

# ci_k N - the rank k of the lower bound of the confidence interval of a median of N
# values: the largest k with P(Binomial(N, 1/2) <= k - 1) <= 0.025 (two-sided 95 %),
# at least 1 (min to max) when N is too small for 95 %. Sets CI_COVER (percent).
function ci_k(n,   k, p, tail) {
	p = 0.5 ^ n                          # P(X = 0)
	tail = 0
	for (k = 1; k <= n / 2; k++) {
		if (tail + p > 0.025)
			break
		tail += p
		p = p * (n - (k - 1)) / k    # P(X = k)
	}
	if (k > 1)
		k--
	CI_COVER = 100 * (1 - 2 * cdf(n, k - 1))
	return k
}

# cdf N K - P(Binomial(N, 1/2) <= K)
function cdf(n, kk,   i, p, s) {
	p = 0.5 ^ n
	s = 0
	for (i = 0; i <= kk; i++) {
		s += p
		p = p * (n - i) / (i + 1)
	}
	return s
}

# ci A N - "low\thigh" of the confidence interval of the median of A[1..N] (sorted by
# median() first); "-\t-" when N is 0.
function ci(a, n,   k) {
	if (n == 0)
		return "-\t-"
	sort_n(a, n)
	k = ci_k(n)
	return a[k] "\t" a[n + 1 - k]
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
		nr = np = nh = ng = 0
		# each method against its own floor: the hooks' for deepprof-hooks, the stubs'
		# for the default method's configurations
		hb = k[2] == "deepprof-hooks" ? "hooks" : "stubs"
		nx = 0
		delete ratio; delete dp; delete dh; delete rg; delete hx
		for (r = 1; r <= maxrep; r++) {
			if (!((k[1], k[2], r) in t))
				continue
			v = t[k[1], k[2], r]
			if ((k[1], "plain", r) in t && t[k[1], "plain", r] > 0) {
				ratio[++nr] = v / t[k[1], "plain", r]
				dp[++np] = v - t[k[1], "plain", r]
				if ((k[1], "gprof", r) in t)
					hx[++nx] = (2 * v - t[k[1], "gprof", r] - \
						    t[k[1], "plain", r]) / t[k[1], "plain", r]
			}
			if ((k[1], hb, r) in t)
				dh[++nh] = v - t[k[1], hb, r]
			if ((k[1], "gprof", r) in t && t[k[1], "gprof", r] > 0)
				rg[++ng] = v / t[k[1], "gprof", r]
		}
		mr = nr ? median(ratio, nr) : "-"
		cr = ci(ratio, nr)
		mh = nh ? median(dh, nh) : "-"
		ch = ci(dh, nh)
		mg = ng ? median(rg, ng) : "-"
		cg = ci(rg, ng)
		cover = ng ? sprintf("%.1f", CI_COVER) : "-"
		mp = np ? median(dp, np) : "-"
		cp = ci(dp, np)
		mx = nx ? median(hx, nx) : "-"
		cx = ci(hx, nx)
		printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\n", k[1], k[2],
			mr, mp, mh, cr, ch, mg, cg, ng, cover, cp, mx, cx
	}
}
