/*
 * analysis/index.c - the node indexes of an analysis, as CSR arrays built by counting
 * sort: PD -> CSDs made (with the callee of each: the PD graph's arcs) and received,
 * PS -> PDs, PS -> calling CSDs, CSS -> CSDs and PS -> CSSs. Linear time.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "../core/err.h"
#include "analysis_int.h"

static uint32_t key_at(const void *key0, size_t stride, uint32_t item)
{
	return *(const uint32_t *)(const void *)((const char *)key0 + (size_t)item * stride);
}

int dp_csr_build(struct dp_arena *arena, struct dp_csr *c, uint32_t n_keys, uint32_t n_items,
		 const void *key0, size_t stride)
{
	uint32_t *fill, i;

	c->n = n_keys;
	c->start = dp_arena_array(arena, (size_t)n_keys + 2, sizeof(*c->start));
	c->ids = dp_arena_array(arena, (size_t)n_items + 1, sizeof(*c->ids));
	if (!c->start || !c->ids)
		return dp_error(DP_ENOMEM, "out of memory indexing the profile");
	/* count into start[k + 1], prefix-sum, then place using start[k + 1] as the cursor
	 * of key k, which leaves start[k + 1] at the end of key k: shift back by one key */
	for (i = 1; i <= n_items; i++)
		c->start[key_at(key0, stride, i) + 1]++;
	for (i = 1; i <= n_keys; i++)
		c->start[i + 1] += c->start[i];
	fill = c->start + 1;
	for (i = 1; i <= n_items; i++)
		c->ids[fill[key_at(key0, stride, i) - 1]++] = i;
	/* fill[k - 1] = start[k] now holds the end of key k, i.e. the start of key k + 1 */
	for (i = n_keys + 1; i > 1; i--)
		c->start[i] = c->start[i - 1];
	c->start[1] = 0;
	return 0;
}

/* The callers and callees of the CSDs, read in one pass over the records; checks every id
 * of a CSD (dp_analysis_own() does too, for its own use, but this message is the one
 * reported). */
static int arc_keys(const struct dp_profile *p, uint32_t *caller, uint32_t *callee)
{
	for (uint32_t i = 1; i <= p->n_csd; i++) {
		const struct dp_csd *d = &p->csd[i];

		if (d->caller < 1 || d->caller > p->n_pd || d->callee < 1 || d->callee > p->n_pd ||
		    d->css < 1 || d->css > p->n_css)
			return dp_error(DP_EFORMAT,
					"cannot analyse: CSD %" PRIu32 " has caller PD %" PRIu32
					", callee PD %" PRIu32 ", CSS %" PRIu32 ": out of range",
					i, d->caller, d->callee, d->css);
		caller[i] = d->caller;
		callee[i] = d->callee;
	}
	return 0;
}

int dp_analysis_graph(struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;
	size_t n = (size_t)p->n_csd + 1;
	uint32_t *k = dp_big_malloc(2 * n, sizeof(*k)), *caller = k, *callee = k + n;
	int rc;

	if (!k)
		return dp_error(DP_ENOMEM, "out of memory indexing the profile");
	rc = arc_keys(p, caller, callee);
	if (rc == 0)
		rc = dp_csr_build(&a->arena, &a->pd_csds, p->n_pd, p->n_csd, caller, sizeof(*k));
	if (rc == 0) {
		a->pd_succ = dp_arena_array(&a->arena, n, sizeof(*a->pd_succ));
		if (!a->pd_succ)
			rc = dp_error(DP_ENOMEM, "out of memory indexing the profile");
	}
	for (uint32_t j = 0; rc == 0 && j < p->n_csd; j++)
		a->pd_succ[j] = callee[a->pd_csds.ids[j]];
	free(k);
	return rc;
}

int dp_analysis_side_index(struct dp_analysis *a, const uint32_t *css, const uint32_t *callee_ps)
{
	const struct dp_profile *p = a->p;
	struct dp_arena *ar = &a->side_arena;
	int rc;

	rc = dp_csr_build(ar, &a->ps_callers, p->n_ps, p->n_csd, callee_ps, sizeof(*callee_ps));
	if (rc == 0)
		rc = dp_csr_build(ar, &a->css_csds, p->n_css, p->n_csd, css, sizeof(*css));
	if (rc == 0)
		rc = dp_csr_build(ar, &a->ps_pds, p->n_ps, p->n_pd, &p->pd[0].ps, sizeof(*p->pd));
	if (rc == 0)
		rc = dp_csr_build(ar, &a->ps_csss, p->n_ps, p->n_css, p->css ? &p->css[0].ps : NULL,
				  sizeof(*p->css));
	return rc;
}
