/*
 * analysis/summary.c - the summaries of an analysis: own and desc costs per PS (sum over
 * its PDs), per CSS (sum over its CSDs), per module (source file of the PS; one
 * "<unknown>" bucket for PSs without one) and per object (executable or library).
 * The own sums are made beside the cliques (dp_analysis_side_summaries); PS and CSS desc
 * during the propagation (costs.c); module and object desc by grouptotal.c.
 */
#include <stdlib.h>

#include "../core/err.h"
#include "analysis_int.h"

/* Number the modules in order of first appearance in PS id order. */
static int number_modules(struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;
	uint32_t n_str = p->strs.n, *of_file;

	of_file = calloc((size_t)n_str + 1, sizeof(*of_file));
	a->module_file = dp_arena_array(&a->side_arena, (size_t)p->n_ps + 1, sizeof(uint32_t));
	a->ps_module = dp_arena_array(&a->side_arena, (size_t)p->n_ps + 1, sizeof(uint32_t));
	if (!of_file || !a->module_file || !a->ps_module) {
		free(of_file);
		return dp_error(DP_ENOMEM, "out of memory summarizing modules");
	}
	for (uint32_t ps = 1; ps <= p->n_ps; ps++) {
		uint32_t f = p->ps[ps].file < n_str ? p->ps[ps].file : 0;

		if (of_file[f] == 0) {
			of_file[f] = ++a->n_modules;
			a->module_file[a->n_modules] = f;
		}
		a->ps_module[ps] = of_file[f];
	}
	free(of_file);
	return 0;
}

int dp_analysis_side_summaries(struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;
	struct dp_arena *ar = &a->side_arena;
	int rc = number_modules(a);

	if (rc < 0)
		return rc;
	a->module_own = dp_arena_array(ar, (size_t)a->n_modules + 1, sizeof(*a->module_own));
	a->object_own = dp_arena_array(ar, (size_t)p->n_objects + 1, sizeof(*a->object_own));
	if (!a->module_own || !a->object_own)
		return dp_error(DP_ENOMEM, "out of memory summarizing modules");
	rc = dp_csr_build(ar, &a->module_pss, a->n_modules, p->n_ps, a->ps_module,
			  sizeof(uint32_t));
	if (rc < 0)
		return rc;
	for (uint32_t ps = 1; ps <= p->n_ps; ps++) {
		uint32_t o = p->ps[ps].object <= p->n_objects ? p->ps[ps].object : 0;

		dp_costs_add(&a->module_own[a->ps_module[ps]], &a->ps_own[ps]);
		dp_costs_add(&a->object_own[o], &a->ps_own[ps]);
	}
	return 0;
}

int dp_analysis_summaries(struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;
	struct dp_arena *ar = &a->arena;

	a->module_desc = dp_arena_array(ar, (size_t)a->n_modules + 1, sizeof(*a->module_desc));
	a->object_desc = dp_arena_array(ar, (size_t)p->n_objects + 1, sizeof(*a->object_desc));
	if (!a->module_desc || !a->object_desc)
		return dp_error(DP_ENOMEM, "out of memory summarizing the profile");
	return dp_analysis_group_totals(a);
}
