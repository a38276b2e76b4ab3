/*
 * report/flame_index.c - the flame pages' index of wide cliques (flame_index.h): the
 * children's values of every clique with many children gathered in one array per metric,
 * with the sums of all the children's costs, so the flame walk scans instead of reading
 * each child's CSD at random. Built once per analysis, at load.
 */
#include "flame_index.h"

#include <stdint.h>
#include <stdlib.h>

#include "../core/err.h"

void dp_flame_index_free(struct dp_flame_index *ix)
{
	if (!ix)
		return;
	free(ix->wide);
	free(ix->vals);
	free(ix);
}

/* fx_fill - gather the children of wide clique @w (n_kids, clique set) into @vals */
static void fx_fill(const struct dp_profile *p, const struct dp_analysis *a,
		    struct dp_flame_wide *w, uint64_t *vals)
{
	const uint32_t *ids = dp_csr_items(&a->clique_kids, w->clique);
	uint32_t n = w->n_kids;

	for (uint32_t i = 0; i < n; i++) {
		const struct dp_csd *d = &p->csd[ids[i]];
		struct dp_inherit e;
		struct dp_costs o;

		dp_flame_kid_prefetch(p, a, ids, i, n);
		e = dp_analysis_csd_desc(a, ids[i]);
		o = dp_csd_costs(d);

		vals[i] = o.samples + e.samples;
		vals[n + i] = o.callseqs + e.callseqs;
		vals[2 * (size_t)n + i] = o.allocs + e.allocs;
		vals[3 * (size_t)n + i] = o.alloc_bytes + e.alloc_bytes;
		dp_costs_add(&w->own, &o);
		dp_inherit_add(&w->desc, &e);
	}
	w->val = vals;
}

int dp_flame_index_build(const struct dp_profile *p, const struct dp_analysis *a, uint32_t min_kids,
			 struct dp_flame_index **out)
{
	struct dp_flame_index *ix = calloc(1, sizeof(*ix));
	uint64_t total = 0;
	uint32_t n = 0;

	*out = NULL;
	if (!min_kids)
		min_kids = DP_FLAME_IX_MIN_KIDS;
	if (!ix)
		goto oom;
	for (uint32_t k = 1; k <= a->n_cliques; k++)
		if (dp_csr_count(&a->clique_kids, k) >= min_kids) {
			n++;
			total += dp_csr_count(&a->clique_kids, k);
		}
	ix->wide = calloc(n ? n : 1, sizeof(*ix->wide));
	ix->vals = total <= SIZE_MAX / 32 ? malloc(total ? (size_t)total * 32 : 1) : NULL;
	if (!ix->wide || !ix->vals)
		goto oom;
	total = 0;
	for (uint32_t k = 1; k <= a->n_cliques; k++) {
		uint32_t m = dp_csr_count(&a->clique_kids, k);
		struct dp_flame_wide *w = &ix->wide[ix->n_wide];

		if (m < min_kids)
			continue;
		w->clique = k;
		w->n_kids = m;
		fx_fill(p, a, w, ix->vals + total);
		total += 4 * (uint64_t)m;
		ix->n_wide++;
	}
	*out = ix;
	return 0;
oom:
	dp_flame_index_free(ix);
	return dp_error(DP_ENOMEM, "out of memory building the flame index");
}

const struct dp_flame_wide *dp_flame_index_wide(const struct dp_flame_index *ix, uint32_t k)
{
	uint32_t lo = 0, hi = ix->n_wide;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (ix->wide[mid].clique < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < ix->n_wide && ix->wide[lo].clique == k ? &ix->wide[lo] : NULL;
}
