/*
 * analysis/analysis.c - dp_analysis_new(): checks the ids the analysis follows, then runs
 * the build steps (the side indexes and own sums on a second thread while this one finds
 * the cliques; then propagation and summaries); and the accessors that belong to no step.
 */
#include <assert.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
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
	/* CSD ids are checked by dp_analysis_graph(), in its one pass over the CSDs */
	return 0;
}

/* The side work: its CSD keys, the first part's result (0 = not yet) and error. */
struct side_job {
	struct dp_analysis *a;
	uint32_t *keys; /* callee, css, callee_ps: n_csd + 1 each */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int rc1, done1, rc2;
	enum dp_err code;
	char msg[256];
};

/* Part 1 of the side work, which the costs need: own sums, pd_callers, modules. */
static int side1(struct side_job *j)
{
	struct dp_analysis *a = j->a;
	size_t n = (size_t)a->p->n_csd + 1;
	int rc;

	j->keys = dp_big_malloc(3 * n, sizeof(*j->keys));
	if (!j->keys)
		return dp_error(DP_ENOMEM, "out of memory indexing the profile");
	rc = dp_analysis_own(a, j->keys, j->keys + n, j->keys + 2 * n);
	if (rc == 0)
		rc = dp_csr_build(&a->side_arena, &a->pd_callers, a->p->n_pd, a->p->n_csd, j->keys,
				  sizeof(*j->keys));
	return rc < 0 ? rc : dp_analysis_side_summaries(a);
}

/* Part 2, which only the reports need: the other indexes. */
static int side2(struct side_job *j)
{
	size_t n = (size_t)j->a->p->n_csd + 1;

	return dp_analysis_side_index(j->a, j->keys + n, j->keys + 2 * n);
}

static void side_fail(struct side_job *j)
{
	j->code = dp_errcode();
	snprintf(j->msg, sizeof(j->msg), "%s", dp_errmsg());
}

static void *side_main(void *arg)
{
	struct side_job *j = arg;
	int rc = side1(j);

	if (rc < 0)
		side_fail(j);
	pthread_mutex_lock(&j->lock);
	j->rc1 = rc;
	j->done1 = 1;
	pthread_cond_signal(&j->cond);
	pthread_mutex_unlock(&j->lock);
	if (rc == 0) {
		j->rc2 = side2(j);
		if (j->rc2 < 0)
			side_fail(j);
	}
	free(j->keys);
	j->keys = NULL;
	return NULL;
}

int dp_analysis_side(struct dp_analysis *a)
{
	struct side_job job = {.a = a};
	int rc = side1(&job);

	if (rc == 0)
		rc = side2(&job);
	free(job.keys);
	return rc;
}

/* Waits for part 1 of the side work; its result, the error re-raised on this thread. */
static int side_wait1(struct side_job *j)
{
	pthread_mutex_lock(&j->lock);
	while (!j->done1)
		pthread_cond_wait(&j->cond, &j->lock);
	pthread_mutex_unlock(&j->lock);
	return j->rc1 < 0 ? dp_error(j->code, "%s", j->msg) : 0;
}

/*
 * The steps: the side work on a second thread (when one can be made) while this one
 * finds the cliques, then the propagation and summaries (which need the side work's
 * first part) while it builds the indexes only reports use.
 */
static int build(struct dp_analysis *a)
{
	struct side_job job = {.a = a};
	pthread_t th;
	int rc, spawned;

	pthread_mutex_init(&job.lock, NULL);
	pthread_cond_init(&job.cond, NULL);
	spawned = pthread_create(&th, NULL, side_main, &job) == 0;
	if (!spawned)
		side_main(&job);
	rc = dp_analysis_graph(a);
	if (rc == 0)
		rc = dp_analysis_cliques(a);
	if (rc == 0)
		rc = side_wait1(&job);
	if (rc == 0)
		rc = dp_analysis_costs(a);
	if (rc == 0)
		rc = dp_analysis_summaries(a);
	if (spawned)
		pthread_join(th, NULL);
	if (rc == 0 && job.rc2 < 0)
		rc = dp_error(job.code, "%s", job.msg);
	pthread_cond_destroy(&job.cond);
	pthread_mutex_destroy(&job.lock);
	return rc;
}

#ifndef NDEBUG
/*
 * analysis_valid - what analysis.h says of the cliques holds of @a (assert()ed after each
 * analysis outside release builds): every PD is in a clique 1..n_cliques, the cliques'
 * members are every PD once, and a CSD crossing cliques goes into its callee's clique,
 * from a higher clique id to a lower one (bottom-up order).
 */
static bool analysis_valid(const struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;
	uint64_t members = 0;

	if (p->n_pd && (a->root_clique < 1 || a->root_clique > a->n_cliques))
		return false;
	for (uint32_t pd = 1; pd <= p->n_pd; pd++)
		if (a->pd_clique[pd] < 1 || a->pd_clique[pd] > a->n_cliques)
			return false;
	for (uint32_t k = 1; k <= a->n_cliques; k++)
		members += dp_csr_count(&a->clique_pds, k);
	if (members != p->n_pd)
		return false;
	for (uint32_t c = 1; c <= p->n_csd; c++) {
		uint32_t child = a->csd_child_clique[c];

		if (child && (child != a->pd_clique[p->csd[c].callee] ||
			      a->pd_clique[p->csd[c].caller] <= child))
			return false;
	}
	return true;
}
#endif

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
	dp_arena_init(&a->side_arena, 0);
	rc = build(a);
	if (rc < 0) {
		dp_analysis_free(a);
		*err = rc;
		return NULL;
	}
	assert(analysis_valid(a));
	*err = 0;
	return a;
}

void dp_analysis_free(struct dp_analysis *a)
{
	if (!a)
		return;
	dp_arena_release(&a->arena);
	dp_arena_release(&a->side_arena);
	free(a);
}

uint32_t dp_analysis_widest_ps(const struct dp_analysis *a)
{
	uint32_t best = 1;

	for (uint32_t ps = 1; ps <= a->p->n_ps; ps++)
		if (dp_csr_count(&a->ps_pds, ps) > dp_csr_count(&a->ps_pds, best))
			best = ps;
	return best;
}

const char *dp_analysis_module_name(const struct dp_analysis *a, uint32_t m)
{
	if (m < 1 || m > a->n_modules || a->module_file[m] == 0)
		return "<unknown>";
	return dp_profile_str(a->p, a->module_file[m]);
}
