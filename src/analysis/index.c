/*
 * analysis/index.c - the node indexes of an analysis, as CSR arrays built by counting
 * sort: PD -> CSDs made and received, PS -> PDs, PS -> calling CSDs, CSS -> CSDs and
 * PS -> CSSs. Linear time, two passes over the items per index.
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

/* The keys of the CSD indexes, read in one pass over the (large) CSD records and checked. */
static int csd_keys(const struct dp_profile *p, uint32_t *caller, uint32_t *callee, uint32_t *css,
		    uint32_t *callee_ps)
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
		css[i] = d->css;
		callee_ps[i] = p->pd[d->callee].ps;
	}
	return 0;
}

/* pd_succ: the PD graph's arcs in CSR order, so walks need not touch the CSD records. */
static int succ(struct dp_analysis *a, const uint32_t *callee)
{
	uint32_t n = a->p->n_csd;

	a->pd_succ = dp_arena_array(&a->arena, (size_t)n + 1, sizeof(*a->pd_succ));
	if (!a->pd_succ)
		return dp_error(DP_ENOMEM, "out of memory indexing the profile");
	for (uint32_t j = 0; j < n; j++)
		a->pd_succ[j] = callee[a->pd_csds.ids[j]];
	return 0;
}

int dp_analysis_index(struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;
	struct dp_arena *ar = &a->arena;
	size_t n = (size_t)p->n_csd + 1;
	uint32_t *k = malloc(4 * n * sizeof(*k)), *caller = k, *callee = k + n, *css = k + 2 * n;
	uint32_t *callee_ps = k + 3 * n;
	int rc;

	if (!k)
		return dp_error(DP_ENOMEM, "out of memory indexing the profile");
	rc = csd_keys(p, caller, callee, css, callee_ps);
	if (rc == 0)
		rc = dp_csr_build(ar, &a->pd_csds, p->n_pd, p->n_csd, caller, sizeof(*k));
	if (rc == 0)
		rc = succ(a, callee);
	if (rc == 0)
		rc = dp_csr_build(ar, &a->pd_callers, p->n_pd, p->n_csd, callee, sizeof(*k));
	if (rc == 0)
		rc = dp_csr_build(ar, &a->ps_callers, p->n_ps, p->n_csd, callee_ps, sizeof(*k));
	if (rc == 0)
		rc = dp_csr_build(ar, &a->css_csds, p->n_css, p->n_csd, css, sizeof(*k));
	if (rc == 0)
		rc = dp_csr_build(ar, &a->ps_pds, p->n_ps, p->n_pd, &p->pd[0].ps, sizeof(*p->pd));
	if (rc == 0)
		rc = dp_csr_build(ar, &a->ps_csss, p->n_ps, p->n_css, p->css ? &p->css[0].ps : NULL,
				  sizeof(*p->css));
	free(k);
	return rc;
}
