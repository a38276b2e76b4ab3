/*
 * analysis/analysis.c - dp_analysis_new(): checks the ids the analysis follows, then runs
 * the build steps in order (indexes, cliques, costs, summaries) into one arena; and the
 * small accessors that belong to no step.
 */
#include <inttypes.h>
#include <stdlib.h>

#include "../core/err.h"
#include "analysis_int.h"

static int bad(const char *what, uint32_t id, const char *field, uint32_t val)
{
	return dp_error(DP_EFORMAT,
			"cannot analyse: %s %" PRIu32 " has %s %" PRIu32 " out of range", what, id,
			field, val);
}

/* The reader guarantees all this for files; profiles built in memory may not. */
static int check_ids(const struct dp_profile *p)
{
	if (!p->ps || !p->pd || (p->n_css && !p->css) || (p->n_csd && !p->csd) ||
	    (p->n_objects && !p->objects))
		return dp_error(DP_EFORMAT, "cannot analyse: node arrays missing");
	if (p->root_pd < 1 || p->root_pd > p->n_pd)
		return bad("profile", 0, "root PD", p->root_pd);
	for (uint32_t i = 1; i <= p->n_ps; i++)
		if (p->ps[i].object > p->n_objects)
			return bad("PS", i, "object", p->ps[i].object);
	for (uint32_t i = 1; i <= p->n_css; i++)
		if (p->css[i].ps < 1 || p->css[i].ps > p->n_ps)
			return bad("CSS", i, "PS", p->css[i].ps);
	for (uint32_t i = 1; i <= p->n_pd; i++)
		if (p->pd[i].ps < 1 || p->pd[i].ps > p->n_ps)
			return bad("PD", i, "PS", p->pd[i].ps);
	/* CSD ids are checked by dp_analysis_index(), in its one pass over the CSDs */
	return 0;
}

struct dp_analysis *dp_analysis_new(const struct dp_profile *p, int *err)
{
	struct dp_analysis *a;
	int rc = check_ids(p);

	if (rc < 0) {
		*err = rc;
		return NULL;
	}
	a = calloc(1, sizeof(*a));
	if (!a) {
		*err = dp_error(DP_ENOMEM, "out of memory analysing the profile");
		return NULL;
	}
	a->p = p;
	dp_arena_init(&a->arena, 0);
	rc = dp_analysis_index(a);
	if (rc == 0)
		rc = dp_analysis_cliques(a);
	if (rc == 0)
		rc = dp_analysis_costs(a);
	if (rc == 0)
		rc = dp_analysis_summaries(a);
	if (rc < 0) {
		dp_analysis_free(a);
		*err = rc;
		return NULL;
	}
	*err = 0;
	return a;
}

void dp_analysis_free(struct dp_analysis *a)
{
	if (!a)
		return;
	dp_arena_release(&a->arena);
	free(a);
}

const char *dp_analysis_module_name(const struct dp_analysis *a, uint32_t m)
{
	if (m < 1 || m > a->n_modules || a->module_file[m] == 0)
		return "<unknown>";
	return dp_profile_str(a->p, a->module_file[m]);
}
