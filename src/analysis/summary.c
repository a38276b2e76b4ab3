/*
 * analysis/summary.c - the summaries of an analysis: own and desc costs per PS (sum over
 * its PDs), per CSS (sum over its CSDs), per module (source file of the PS; one
 * "<unknown>" bucket for PSs without one) and per object (executable or library).
 */
#include <stdlib.h>

#include "../core/err.h"
#include "analysis_int.h"

static void sum_ps_css(struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;

	for (uint32_t pd = 1; pd <= p->n_pd; pd++) {
		uint32_t ps = p->pd[pd].ps;

		dp_costs_add(&a->ps_own[ps], &a->pd_own[pd]);
		dp_inherit_add(&a->ps_desc[ps], &a->pd_desc[pd]);
	}
	/* CSS own is made by dp_analysis_costs(); only entry CSDs have a desc */
	for (uint32_t c = 1; c <= a->n_cliques; c++) {
		uint32_t e = a->clique_entry[c];

		if (e)
			dp_inherit_add(&a->css_desc[p->csd[e].css], &a->csd_desc[e]);
	}
}

/* Number the modules in order of first appearance in PS id order. */
static int number_modules(struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;
	uint32_t n_str = p->strs.n, *of_file;

	of_file = calloc((size_t)n_str + 1, sizeof(*of_file));
	a->module_file = dp_arena_array(&a->arena, (size_t)p->n_ps + 1, sizeof(uint32_t));
	if (!of_file || !a->module_file) {
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

static void sum_modules_objects(struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;

	for (uint32_t ps = 1; ps <= p->n_ps; ps++) {
		uint32_t m = a->ps_module[ps], o = p->ps[ps].object;

		dp_costs_add(&a->module_own[m], &a->ps_own[ps]);
		dp_costs_add(&a->object_own[o], &a->ps_own[ps]);
	}
}

/* Object of each PS, as a grouping for dp_analysis_group_totals(). */
static int object_totals(struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;
	uint32_t *of = malloc(((size_t)p->n_ps + 1) * sizeof(*of));
	int rc;

	if (!of)
		return dp_error(DP_ENOMEM, "out of memory summarizing objects");
	of[0] = 0;
	for (uint32_t ps = 1; ps <= p->n_ps; ps++)
		of[ps] = p->ps[ps].object <= p->n_objects ? p->ps[ps].object : 0;
	rc = dp_analysis_group_totals(a, of, p->n_objects, a->object_own, a->object_desc);
	free(of);
	return rc;
}

int dp_analysis_summaries(struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;
	struct dp_arena *ar = &a->arena;
	int rc;

	a->ps_own = dp_arena_array(ar, (size_t)p->n_ps + 1, sizeof(*a->ps_own));
	a->ps_desc = dp_arena_array(ar, (size_t)p->n_ps + 1, sizeof(*a->ps_desc));
	a->css_desc = dp_arena_array(ar, (size_t)p->n_css + 1, sizeof(*a->css_desc));
	a->ps_module = dp_arena_array(ar, (size_t)p->n_ps + 1, sizeof(*a->ps_module));
	a->object_own = dp_arena_array(ar, (size_t)p->n_objects + 1, sizeof(*a->object_own));
	a->object_desc = dp_arena_array(ar, (size_t)p->n_objects + 1, sizeof(*a->object_desc));
	if (!a->ps_own || !a->ps_desc || !a->css_desc || !a->ps_module || !a->object_own ||
	    !a->object_desc)
		return dp_error(DP_ENOMEM, "out of memory summarizing the profile");
	sum_ps_css(a);
	rc = number_modules(a);
	if (rc < 0)
		return rc;
	a->module_own = dp_arena_array(ar, (size_t)a->n_modules + 1, sizeof(*a->module_own));
	a->module_desc = dp_arena_array(ar, (size_t)a->n_modules + 1, sizeof(*a->module_desc));
	if (!a->module_own || !a->module_desc)
		return dp_error(DP_ENOMEM, "out of memory summarizing modules");
	rc = dp_csr_build(ar, &a->module_pss, a->n_modules, p->n_ps, a->ps_module,
			  sizeof(uint32_t));
	if (rc < 0)
		return rc;
	sum_modules_objects(a);
	rc = dp_analysis_group_totals(a, a->ps_module, a->n_modules, a->module_own, a->module_desc);
	return rc < 0 ? rc : object_totals(a);
}
