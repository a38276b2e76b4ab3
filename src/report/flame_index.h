/*
 * report/flame_index.h - the flame pages' index of wide cliques: for every clique with
 * many children in the clique tree, its children's totals of each inheritable metric in
 * one contiguous array, the sums of all its children's own and desc costs (the "(other)"
 * row by subtraction), and, for each metric, which children are among the widest
 * DP_FLAME_MAX_NODES (a capped page reads those only). Built once per analysis by whoever
 * owns the analysis (the session) and handed to the flame pages in struct dp_report_ctx.
 */
#ifndef DP_REPORT_FLAME_INDEX_H
#define DP_REPORT_FLAME_INDEX_H

#include <stdint.h>

#include "../analysis/analysis.h"
#include "../format/profile.h"
#include "report_int.h"

/* Cliques with fewer children than this are scanned directly (default of min_kids). */
#define DP_FLAME_IX_MIN_KIDS 256

/* One wide clique. */
struct dp_flame_wide {
	uint32_t clique, n_kids; /* n_kids = dp_csr_count(&a->clique_kids, clique) */
	const uint64_t *val;	 /* [4 * n_kids]: val[s * n_kids + i] = own + desc of the
				    i-th child CSD (clique_kids order) for inheritable
				    slot s: 0 samples, 1 callseqs, 2 allocs, 3 alloc_bytes */
	struct dp_costs own;	 /* sum of the own costs of all the children CSDs */
	struct dp_inherit desc;	 /* sum of their desc costs */
	/* for each slot s, when the clique has more children than the index's top (k) and
	   the k-th largest value is not 0: cut[s] = that value, and top[s][0..n_top[s]) =
	   the children (their i, increasing) of a value of at least cut[s], k or more of
	   them; else cut[s] = n_top[s] = 0 */
	uint64_t cut[4];
	uint32_t n_top[4];
	const uint32_t *top[4];
};

struct dp_flame_index {
	uint32_t k; /* the top size (DP_FLAME_MAX_NODES by default) */
	uint32_t n_wide;
	struct dp_flame_wide *wide; /* by increasing clique id */
	uint64_t *vals;		    /* the storage of every wide clique's val */
	uint32_t *tops;		    /* and of their top */
};

/*
 * dp_flame_index_build - the flame index of analysis @a of profile @p (both borrowed: the
 * index reads them only while it is built, but describes them, so free it with them).
 * @min_kids: the smallest number of children indexed (0: DP_FLAME_IX_MIN_KIDS); @k: the
 * top size (0: DP_FLAME_MAX_NODES, the flame pages' node cap).
 * Return: 0 with *@out set (owned by the caller, free with dp_flame_index_free()), or
 * -DP_ENOMEM (message set; the flame pages still answer without an index, more slowly).
 */
int dp_flame_index_build(const struct dp_profile *p, const struct dp_analysis *a, uint32_t min_kids,
			 uint32_t k, struct dp_flame_index **out);

/* dp_flame_kth_largest - the @k-th largest (1-based, 1 <= @k <= @n) of @v[0..@n), which
 * it reorders so that the @k largest come first: quickselect, iterative. */
uint64_t dp_flame_kth_largest(uint64_t *v, uint32_t n, uint32_t k);

/* dp_flame_index_free - free @ix (NULL is fine). */
void dp_flame_index_free(struct dp_flame_index *ix);

/* dp_flame_index_wide - the entry of clique @k in @ix, or NULL when @k is not indexed. */
const struct dp_flame_wide *dp_flame_index_wide(const struct dp_flame_index *ix, uint32_t k);

/* dp_flame_kid_prefetch - in a scan of the @m children @ids, at child @i: stage 0 of
 * dp_rep_csd_prefetch() DP_REP_AHEAD children ahead, stage 1 half as far. */
DP_PREFETCHER void dp_flame_kid_prefetch(const struct dp_profile *p, const struct dp_analysis *a,
					 const uint32_t *ids, uint32_t i, uint32_t m)
{
	if (i + DP_REP_AHEAD < m)
		dp_rep_csd_prefetch(p, a, ids[i + DP_REP_AHEAD], 0);
	if (i + DP_REP_AHEAD / 2 < m)
		dp_rep_csd_prefetch(p, a, ids[i + DP_REP_AHEAD / 2], 1);
}

/*
 * dp_flame_kids_prime - before a scan of the @m children @ids with
 * dp_flame_kid_prefetch(), prefetch what that one would have fetched ahead for the first
 * ones, so that a short list (most cliques have a few children) has its loads in flight
 * together instead of one dependent chain after another.
 */
DP_PREFETCHER void dp_flame_kids_prime(const struct dp_profile *p, const struct dp_analysis *a,
				       const uint32_t *ids, uint32_t m)
{
	uint32_t n = m < DP_REP_AHEAD ? m : DP_REP_AHEAD;

	for (uint32_t i = 0; i < n; i++)
		dp_rep_csd_prefetch(p, a, ids[i], 0);
	for (uint32_t i = 0; i < n && i < DP_REP_AHEAD / 2; i++)
		dp_rep_csd_prefetch(p, a, ids[i], 1);
}

#endif /* DP_REPORT_FLAME_INDEX_H */
