/*
 * analysis/grouptotal.c - inclusive ("total") costs of groups of procedures (modules,
 * objects) without double counting: a PD's own cost belongs to group G's total when the
 * PD is in G or a call on its chain of ancestor contexts was made by a PD in G. Summing
 * each procedure's total instead (mdprof's way) counts a module calling itself through
 * another module twice, and gives module totals above 100%. The artificial root and
 * thread procedures' own costs count for their group, but their calls open none.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "analysis_int.h"
#include "deepprof/format.h"

/* A clique being walked: its members and their crossing calls are scanned in order. */
struct dp_gframe {
	uint32_t clique;
	uint32_t member; /* index into its members */
	uint32_t call;	 /* index into the current member's CSDs */
	uint32_t opened; /* group + 1 whose counter this frame raised, 0 = none */
};

/* The group of PD @pd; UINT32_MAX for the artificial procedures (root, threads) when
 * @opening: their calls open no group (else every group would hold everything). */
static uint32_t dp_pd_group(const struct dp_analysis *a, const uint32_t *ps_group, uint32_t pd,
			    bool opening)
{
	uint32_t ps = a->p->pd[pd].ps;

	return a->p->ps[ps].kind == DP_PS_FUNCTION || !opening ? ps_group[ps] : UINT32_MAX;
}

/* Counts clique @c's members that are outermost in their group into @total. */
static void dp_gvisit(const struct dp_analysis *a, const uint32_t *ps_group, uint32_t c,
		      const uint32_t *active, struct dp_inherit *total)
{
	const uint32_t *m = dp_csr_items(&a->clique_pds, c);

	for (uint32_t k = 0; k < dp_csr_count(&a->clique_pds, c); k++) {
		uint32_t g = dp_pd_group(a, ps_group, m[k], false);
		struct dp_inherit own = dp_costs_inherit(&a->pd_own[m[k]]);

		if (active[g])
			continue;
		dp_inherit_add(&total[g], &own);
		/* an artificial procedure's own cost is its group's; what it calls is not */
		if (dp_pd_group(a, ps_group, m[k], true) != UINT32_MAX)
			dp_inherit_add(&total[g], &a->pd_desc[m[k]]);
	}
}

/* The next clique entered from the top frame (advancing it), or 0 when it is done;
 * *@opened is the group + 1 of the member making the call (0 = artificial). */
static uint32_t dp_gnext(const struct dp_analysis *a, const uint32_t *ps_group, struct dp_gframe *f,
			 uint32_t *opened)
{
	const uint32_t *m = dp_csr_items(&a->clique_pds, f->clique);
	uint32_t n = dp_csr_count(&a->clique_pds, f->clique);

	for (; f->member < n; f->member++, f->call = 0) {
		uint32_t pd = m[f->member];
		const uint32_t *csds = dp_csr_items(&a->pd_csds, pd);

		while (f->call < dp_csr_count(&a->pd_csds, pd)) {
			uint32_t csd = csds[f->call++];

			if (dp_analysis_is_entry(a, csd)) {
				uint32_t g = dp_pd_group(a, ps_group, pd, true);

				*opened = g == UINT32_MAX ? 0 : g + 1;
				return a->csd_child_clique[csd];
			}
		}
	}
	return 0;
}

/* Walks the clique tree from @start (iteratively: @stack has room for every clique). */
static void dp_gwalk(const struct dp_analysis *a, const uint32_t *ps_group, uint32_t start,
		     struct dp_gframe *stack, uint32_t *active, struct dp_inherit *total)
{
	uint32_t top = 0;

	dp_gvisit(a, ps_group, start, active, total);
	stack[0] = (struct dp_gframe){start, 0, 0, 0};
	while (1) {
		uint32_t opened = 0, child = dp_gnext(a, ps_group, &stack[top], &opened);

		if (!child) {
			if (stack[top].opened)
				active[stack[top].opened - 1]--;
			if (top == 0)
				return;
			top--;
			continue;
		}
		if (opened)
			active[opened - 1]++;
		dp_gvisit(a, ps_group, child, active, total);
		stack[++top] = (struct dp_gframe){child, 0, 0, opened};
	}
}

int dp_analysis_group_totals(struct dp_analysis *a, const uint32_t *ps_group, uint32_t n_groups,
			     const struct dp_costs *group_own, struct dp_inherit *group_desc)
{
	struct dp_inherit *total = calloc((size_t)n_groups + 1, sizeof(*total));
	uint32_t *active = calloc((size_t)n_groups + 1, sizeof(*active));
	struct dp_gframe *stack = malloc(((size_t)a->n_cliques + 1) * sizeof(*stack));

	if (!total || !active || !stack) {
		free(total);
		free(active);
		free(stack);
		return dp_error(DP_ENOMEM, "out of memory summarizing modules");
	}
	/* every clique nothing enters starts a tree: the root's, and unreachable ones */
	for (uint32_t c = 1; c <= a->n_cliques; c++)
		if (a->clique_entry[c] == 0)
			dp_gwalk(a, ps_group, c, stack, active, total);
	for (uint32_t g = 0; g <= n_groups; g++) {
		const struct dp_costs *o = &group_own[g];

		group_desc[g].samples = total[g].samples - o->samples;
		group_desc[g].callseqs = total[g].callseqs - o->callseqs;
		group_desc[g].allocs = total[g].allocs - o->allocs;
		group_desc[g].alloc_bytes = total[g].alloc_bytes - o->alloc_bytes;
	}
	free(total);
	free(active);
	free(stack);
	return 0;
}
