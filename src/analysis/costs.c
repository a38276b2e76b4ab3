/*
 * analysis/costs.c - own costs (of CSSs and PSs, in one pass over the CSD records; of a PD
 * on demand)
 * and the bottom-up propagation of inherited ("desc") costs through the cliques
 * (Mercury's scheme, mercury-deep-profiler.md C.3): a PD inherits the own + desc of its
 * CSDs entering child cliques; a clique's entry CSD inherits the clique's total minus
 * its own (minus the own of any other CSD entering the clique, see
 * docs/internals/analysis.md); CSDs inside a clique inherit nothing.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "../core/err.h"
#include "../core/prefetch.h"
#include "analysis_int.h"

void dp_costs_sub(struct dp_costs *dst, const struct dp_costs *src)
{
	dst->calls -= src->calls;
	dst->exits -= src->exits;
	dst->unwinds -= src->unwinds;
	dst->samples -= src->samples;
	dst->callseqs -= src->callseqs;
	dst->allocs -= src->allocs;
	dst->alloc_bytes -= src->alloc_bytes;
}

void dp_inherit_sub(struct dp_inherit *dst, const struct dp_inherit *src)
{
	dp_inh_sub(dst, src);
}

int dp_analysis_own(struct dp_analysis *a, uint32_t *callee, uint32_t *css, uint32_t *callee_ps)
{
	const struct dp_profile *p = a->p;
	struct dp_arena *ar = &a->side_arena;

	a->css_own = dp_arena_array(ar, (size_t)p->n_css + 1, sizeof(*a->css_own));
	a->ps_own = dp_arena_array(ar, (size_t)p->n_ps + 1, sizeof(*a->ps_own));
	a->ps_self_own = dp_arena_array(ar, (size_t)p->n_ps + 1, sizeof(*a->ps_self_own));
	a->ps_self_n = dp_arena_array(ar, (size_t)p->n_ps + 1, sizeof(*a->ps_self_n));
	if (!a->css_own || !a->ps_own || !a->ps_self_own || !a->ps_self_n)
		return dp_error(DP_ENOMEM, "out of memory computing costs");
	for (uint32_t i = 1; i <= p->n_csd; i++) {
		const struct dp_csd *d = &p->csd[i];
		uint32_t ps;

		if (d->callee < 1 || d->callee > p->n_pd || d->css < 1 || d->css > p->n_css)
			return dp_error(DP_EFORMAT,
					"cannot analyse: CSD %" PRIu32 " has callee PD %" PRIu32
					", CSS %" PRIu32 ": out of range",
					i, d->callee, d->css);
		ps = p->pd[d->callee].ps;
		callee[i] = d->callee;
		css[i] = d->css;
		callee_ps[i] = ps;
		dp_costs_add_csd(&a->css_own[d->css], d);
		dp_costs_add_csd(&a->ps_own[ps], d);
		/* the caller's PS is its CSS's (the reader checks it): a small array */
		if (p->css[d->css].ps == ps) {
			dp_costs_add_csd(&a->ps_self_own[ps], d);
			a->ps_self_n[ps]++;
		}
	}
	return 0;
}

struct dp_inherit dp_analysis_pd_own_inherit(const struct dp_analysis *a, uint32_t pd)
{
	return dp_pd_own_inh(a, pd);
}

/* The own of the CSDs entering a clique other than its entry, summed per clique
 * (a->clique_in), and added to their callers' desc. Never in runtime files. */
static int extra_entries(struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;
	uint32_t n = 0;

	if (a->n_extra_entries == 0)
		return 0;
	a->clique_in = dp_arena_array(&a->arena, a->n_extra_entries, sizeof(*a->clique_in));
	if (!a->clique_in)
		return dp_error(DP_ENOMEM, "out of memory computing costs");
	/* extra_csds is sorted by the clique entered */
	for (uint32_t k = 0; k < a->n_extra_entries; k++) {
		uint32_t j = a->extra_csds[k], c = a->csd_child_clique[j];
		struct dp_inherit own = dp_csd_inherit(&p->csd[j]);

		if (n == 0 || a->clique_in[n - 1].clique != c)
			a->clique_in[n++].clique = c;
		dp_inherit_add(&a->clique_in[n - 1].own, &own);
		dp_inherit_add(&a->pd_desc[p->csd[j].caller], &own);
	}
	a->n_clique_in = n;
	return 0;
}

/* Prefetch distance, in cliques, of the members' PD data in the bottom-up pass. */
#define DP_AHEAD 12

/* Start loading what clique @c's first member will need (nothing if @c is past the end). */
DP_PREFETCHER void prefetch_clique(const struct dp_analysis *a, uint32_t c, int level)
{
	uint32_t m;

	if (c > a->n_cliques)
		return;
	m = a->clique_pds.ids[a->clique_pds.start[c]];
	if (level == 0) {
		__builtin_prefetch(&a->pd_desc[m]);
		__builtin_prefetch(&a->pd_callers.start[m]);
		__builtin_prefetch(&a->p->pd[m].ps);
		__builtin_prefetch(&a->pd_desc[a->clique_entry_caller[c]], 1);
	} else {
		const struct dp_csd *d = &a->p->csd[a->pd_callers.ids[a->pd_callers.start[m]]];

		__builtin_prefetch(&d->samples);
		__builtin_prefetch(&d->alloc_bytes);
	}
}

/*
 * Clique @c, whose child cliques are all done (their entries' desc is in the members'
 * desc already): its total; its members' desc into their PSs'; its entry's desc (the
 * total, less what other entering CSDs carry, less its own) into its CSS's, and own +
 * desc into its caller's desc.
 */
static void propagate(struct dp_analysis *a, uint32_t c, uint32_t *next_in)
{
	const struct dp_profile *p = a->p;
	const uint32_t *m = dp_csr_items(&a->clique_pds, c);
	uint32_t n = dp_csr_count(&a->clique_pds, c), e = a->clique_entry[c];
	struct dp_inherit sum = {0}, own;

	for (uint32_t k = 0; k < n; k++) {
		const struct dp_inherit *d = &a->pd_desc[m[k]];

		own = dp_pd_own_inh(a, m[k]);
		dp_inherit_add(&sum, &own);
		dp_inherit_add(&sum, d);
		dp_inherit_add(&a->ps_desc[p->pd[m[k]].ps], d);
	}
	a->clique_total[c] = sum;
	if (*next_in < a->n_clique_in && a->clique_in[*next_in].clique == c)
		dp_inh_sub(&sum, &a->clique_in[(*next_in)++].own);
	if (e) {
		uint32_t ps = p->pd[m[0]].ps; /* the entry, the callee of e */

		dp_inherit_add(&a->pd_desc[a->clique_entry_caller[c]], &sum);
		own = dp_csd_inherit(&p->csd[e]);
		dp_inh_sub(&sum, &own);
		dp_inherit_add(&a->css_desc[p->csd[e].css], &sum);
		if (p->css[p->csd[e].css].ps != ps)
			dp_inherit_add(&a->ps_in_desc[ps], &sum);
	} else if (c == a->root_clique) {
		a->root_total = sum;
	}
}

int dp_analysis_costs(struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;
	struct dp_arena *ar = &a->arena;
	uint32_t next_in = 0;
	int rc;

	a->pd_desc = dp_arena_array(ar, (size_t)p->n_pd + 1, sizeof(*a->pd_desc));
	a->clique_total = dp_arena_array(ar, (size_t)a->n_cliques + 1, sizeof(*a->clique_total));
	a->ps_desc = dp_arena_array(ar, (size_t)p->n_ps + 1, sizeof(*a->ps_desc));
	a->css_desc = dp_arena_array(ar, (size_t)p->n_css + 1, sizeof(*a->css_desc));
	a->ps_in_desc = dp_arena_array(ar, (size_t)p->n_ps + 1, sizeof(*a->ps_in_desc));
	if (!a->pd_desc || !a->clique_total || !a->ps_desc || !a->css_desc || !a->ps_in_desc)
		return dp_error(DP_ENOMEM, "out of memory computing costs");
	rc = extra_entries(a);
	if (rc < 0)
		return rc;
	/* bottom-up: every CSD leaving clique c enters a clique with a lower id, so the
	 * members' desc is complete when c is reached */
	for (uint32_t c = 1; c <= a->n_cliques; c++) {
		prefetch_clique(a, c + DP_AHEAD, 0);
		prefetch_clique(a, c + DP_AHEAD / 2, 1);
		propagate(a, c, &next_in);
	}
	return 0;
}

/* dp_analysis_clique_in - the own of the CSDs entering clique @c other than its entry. */
static struct dp_inherit clique_in(const struct dp_analysis *a, uint32_t c)
{
	uint32_t lo = 0, hi = a->n_clique_in;
	struct dp_inherit none = {0};

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (a->clique_in[mid].clique < c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < a->n_clique_in && a->clique_in[lo].clique == c ? a->clique_in[lo].own : none;
}

struct dp_inherit dp_analysis_csd_desc(const struct dp_analysis *a, uint32_t csd)
{
	struct dp_inherit d = {0}, in;
	uint32_t c = a->csd_child_clique[csd];

	if (c == 0 || a->clique_entry[c] != csd)
		return d;
	d = a->clique_total[c];
	in = dp_csd_inherit(&a->p->csd[csd]);
	dp_inh_sub(&d, &in);
	if (a->n_clique_in) {
		in = clique_in(a, c);
		dp_inh_sub(&d, &in);
	}
	return d;
}
