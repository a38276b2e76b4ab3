/*
 * analysis/costs.c - own costs of PDs and the bottom-up propagation of inherited
 * ("desc") costs through the cliques (Mercury's scheme, mercury-deep-profiler.md C.3):
 * a PD inherits the own + desc of its CSDs entering child cliques; a clique's entry CSD
 * inherits the clique's total minus its own (minus the own of any other CSD entering
 * the clique, see docs/internals/analysis.md); CSDs inside a clique inherit nothing.
 */
#include <stdlib.h>

#include "../core/err.h"
#include "analysis_int.h"

void dp_costs_add(struct dp_costs *dst, const struct dp_costs *src)
{
	dst->calls += src->calls;
	dst->exits += src->exits;
	dst->unwinds += src->unwinds;
	dst->samples += src->samples;
	dst->callseqs += src->callseqs;
	dst->allocs += src->allocs;
	dst->alloc_bytes += src->alloc_bytes;
}

void dp_inherit_add(struct dp_inherit *dst, const struct dp_inherit *src)
{
	dst->samples += src->samples;
	dst->callseqs += src->callseqs;
	dst->allocs += src->allocs;
	dst->alloc_bytes += src->alloc_bytes;
}

/*
 * One pass over the CSDs: PD own (the sum of the CSDs whose callee it is), CSS own (the
 * sum of its CSDs); the own of each CSD crossing cliques goes to its caller's desc, and
 * is taken off in advance from the entry desc of the clique it enters (or, for the root
 * clique, from *@root_in). Notes the caller of each clique's entry in @entry_caller
 * (read here in CSD order, it would be a cache miss per clique in propagate_clique()).
 */
static void own_costs(struct dp_analysis *a, struct dp_inherit *root_in, uint32_t *entry_caller)
{
	const struct dp_profile *p = a->p;

	for (uint32_t i = 1; i <= p->n_csd; i++) {
		const struct dp_csd *d = &p->csd[i];
		struct dp_costs *o = &a->pd_own[d->callee], *so = &a->css_own[d->css];
		uint32_t cc = a->csd_child_clique[i];

		o->calls += d->calls;
		o->exits += d->exits;
		o->unwinds += d->unwinds;
		o->samples += d->samples;
		o->callseqs += d->callseqs;
		o->allocs += d->allocs;
		o->alloc_bytes += d->alloc_bytes;
		so->calls += d->calls;
		so->exits += d->exits;
		so->unwinds += d->unwinds;
		so->samples += d->samples;
		so->callseqs += d->callseqs;
		so->allocs += d->allocs;
		so->alloc_bytes += d->alloc_bytes;
		if (cc) {
			uint32_t e = a->clique_entry[cc];
			struct dp_inherit *in = e ? &a->csd_desc[e] : root_in;
			struct dp_inherit *cd = &a->pd_desc[d->caller];

			if (e == i)
				entry_caller[cc] = d->caller;

			cd->samples += d->samples;
			cd->callseqs += d->callseqs;
			cd->allocs += d->allocs;
			cd->alloc_bytes += d->alloc_bytes;
			in->samples -= d->samples;
			in->callseqs -= d->callseqs;
			in->allocs -= d->allocs;
			in->alloc_bytes -= d->alloc_bytes;
		}
	}
}

/*
 * Clique @c, whose child cliques are all done (their entries' desc is in the members'
 * desc already): the clique's total, then its entry's desc, passed on to the entry's
 * caller.
 */
static void propagate_clique(struct dp_analysis *a, uint32_t c, const uint32_t *entry_caller)
{
	const uint32_t *m = dp_csr_items(&a->clique_pds, c);
	uint32_t n = dp_csr_count(&a->clique_pds, c), e = a->clique_entry[c];
	struct dp_inherit sum = {0};

	for (uint32_t k = 0; k < n; k++) {
		const struct dp_costs *o = &a->pd_own[m[k]];
		const struct dp_inherit *d = &a->pd_desc[m[k]];

		sum.samples += o->samples + d->samples;
		sum.callseqs += o->callseqs + d->callseqs;
		sum.allocs += o->allocs + d->allocs;
		sum.alloc_bytes += o->alloc_bytes + d->alloc_bytes;
	}
	a->clique_total[c] = sum;
	if (e) { /* csd_desc[e] holds minus the own of the CSDs entering c */
		dp_inherit_add(&a->csd_desc[e], &sum);
		dp_inherit_add(&a->pd_desc[entry_caller[c]], &a->csd_desc[e]);
	}
}

int dp_analysis_costs(struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;
	struct dp_arena *ar = &a->arena;
	struct dp_inherit root_in = {0};
	uint32_t *entry_caller;

	a->pd_own = dp_arena_array(ar, (size_t)p->n_pd + 1, sizeof(*a->pd_own));
	a->pd_desc = dp_arena_array(ar, (size_t)p->n_pd + 1, sizeof(*a->pd_desc));
	a->csd_desc = dp_arena_array(ar, (size_t)p->n_csd + 1, sizeof(*a->csd_desc));
	a->css_own = dp_arena_array(ar, (size_t)p->n_css + 1, sizeof(*a->css_own));
	a->clique_total = dp_arena_array(ar, (size_t)a->n_cliques + 1, sizeof(*a->clique_total));
	if (!a->pd_own || !a->pd_desc || !a->csd_desc || !a->css_own || !a->clique_total)
		return dp_error(DP_ENOMEM, "out of memory computing costs");
	entry_caller = calloc((size_t)a->n_cliques + 1, sizeof(*entry_caller));
	if (!entry_caller)
		return dp_error(DP_ENOMEM, "out of memory computing costs");
	own_costs(a, &root_in, entry_caller);
	/* bottom-up: every CSD leaving clique c enters a clique with a lower id */
	for (uint32_t c = 1; c <= a->n_cliques; c++)
		propagate_clique(a, c, entry_caller);
	free(entry_caller);
	/* the root clique has no entry: leave out what other cliques (unreachable from the
	 * root, so never in a file the runtime writes) put into it */
	a->root_total = a->clique_total[a->root_clique];
	dp_inherit_add(&a->root_total, &root_in);
	return 0;
}
