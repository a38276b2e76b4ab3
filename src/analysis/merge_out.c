/*
 * analysis/merge_out.c - the output half of dp_profile_merge_threads(): a copy of the
 * static tables (same string, object, PS and CSS ids) and the merged PDs and CSDs, built
 * from the closed union-find of merge.c in a few linear passes (the PDs' on a second
 * thread while the CSDs' run).
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "merge_int.h"

static int nomem(void)
{
	return dp_error(DP_ENOMEM, "out of memory merging threads");
}

/* A copy of @n elements of @size at @src in @a; NULL for nothing to copy (not an error:
 * *@fail is set only when the allocation fails). */
static void *dup_array(struct dp_arena *a, const void *src, size_t n, size_t size, int *fail)
{
	void *dst;

	if (!src || n == 0)
		return NULL;
	dst = dp_arena_array(a, n, size);
	if (!dst) {
		*fail = 1;
		return NULL;
	}
	memcpy(dst, src, n * size);
	return dst;
}

/* The strings of @in interned in order into @out, so that every id means the same. */
static int copy_strings(const struct dp_profile *in, struct dp_profile *out)
{
	int rc = dp_strtab_init(&out->strs);

	for (uint32_t id = 1; rc == 0 && id < in->strs.n; id++) {
		int64_t got = dp_strtab_intern(&out->strs, in->strs.str[id], in->strs.len[id]);

		if (got < 0)
			rc = (int)got;
		else if (got != id)
			rc = dp_error(DP_EFORMAT,
				      "cannot merge threads: string %" PRIu32 " is a duplicate",
				      id);
	}
	return rc;
}

int dp_mg_copy_static(const struct dp_profile *in, struct dp_profile *out)
{
	struct dp_arena *a = &out->arena;
	int fail = 0, rc;

	*out = *in; /* header and INFO scalars; every pointer is replaced below */
	memset(&out->strs, 0, sizeof(out->strs));
	dp_arena_init(a, 0);
	dp_arena_prefault(a, 1); /* the node arrays are filled in full */
	out->pd = NULL;
	out->csd = NULL;
	out->n_pd = out->n_csd = 0;
	out->pcs = NULL; /* sampled PCs name the input's CSDs: not the view's */
	out->n_pcs = 0;
	rc = copy_strings(in, out);
	if (rc < 0)
		goto out_release;
	out->argv = dup_array(a, in->argv, in->argc, sizeof(*in->argv), &fail);
	out->threads =
		dup_array(a, in->threads, (size_t)in->n_threads + 1, sizeof(*in->threads), &fail);
	out->objects =
		dup_array(a, in->objects, (size_t)in->n_objects + 1, sizeof(*in->objects), &fail);
	out->segs = dup_array(a, in->segs, in->n_segs, sizeof(*in->segs), &fail);
	out->ps = dup_array(a, in->ps, (size_t)in->n_ps + 1, sizeof(*in->ps), &fail);
	out->css = dup_array(a, in->css, (size_t)in->n_css + 1, sizeof(*in->css), &fail);
	for (uint32_t i = 1; !fail && out->ps && i <= in->n_ps; i++)
		out->ps[i].cp =
			dup_array(a, in->ps[i].cp, in->ps[i].n_cp, sizeof(*in->ps[i].cp), &fail);
	if (!fail)
		return 0;
	rc = nomem();
out_release:
	dp_profile_release(out);
	return rc;
}

/* Merged PD ids: @newpd[pd] for every PD, classes numbered by their lowest member id
 * (@byrep, zeroed, is scratch indexed by representative). */
static uint32_t number_pds(struct dp_mg *m, uint32_t *byrep, uint32_t *newpd)
{
	uint32_t n = 0;

	for (uint32_t i = 1; i <= m->in->n_pd; i++) {
		uint32_t r = dp_mg_find(m, i);

		if (!byrep[r])
			byrep[r] = ++n;
		newpd[i] = byrep[r];
	}
	return n;
}

/* Coverage counts of the members summed into their merged PD (ps, n_cp already set). */
static int merge_coverage(struct dp_mg *m, const uint32_t *newpd, struct dp_profile *out)
{
	const struct dp_profile *in = m->in;

	for (uint32_t i = 1; i <= out->n_pd; i++) {
		struct dp_pd *o = &out->pd[i];

		if (o->n_cp == 0)
			continue;
		o->cp = dp_arena_array(&out->arena, o->n_cp, sizeof(*o->cp));
		if (!o->cp)
			return nomem();
	}
	for (uint32_t i = 1; i <= in->n_pd; i++) {
		const struct dp_pd *s = &in->pd[i];
		struct dp_pd *o = &out->pd[newpd[i]];

		for (uint32_t k = 0; s->cp && k < s->n_cp; k++)
			o->cp[k] += s->cp[k];
	}
	return 0;
}

/* The merged PDs' fields from their members (out->pd allocated, newpd numbered); run on
 * a second thread while the CSDs are built. */
struct pd_job {
	const struct dp_profile *in;
	const uint32_t *newpd;
	struct dp_pd *out;
	int any_cp; /* some PD has coverage counts */
};

static void *fill_pds(void *arg)
{
	struct pd_job *j = arg;

	for (uint32_t i = 1; i <= j->in->n_pd; i++) {
		const struct dp_pd *s = &j->in->pd[i];
		struct dp_pd *o = &j->out[j->newpd[i]];

		if (o->ps == 0) {
			o->ps = s->ps;
			o->thread = s->thread;
		} else if (o->thread != s->thread) {
			o->thread = 0;
		}
		if (s->cp && s->n_cp > o->n_cp)
			o->n_cp = s->n_cp;
		j->any_cp |= s->cp && s->n_cp;
	}
	return NULL;
}

/* Merged CSD ids into @map[d] (zeroed), numbered by the lowest CSD id of each group: the
 * CSDs that the closure recorded as merging into one (m->grp). */
static uint32_t number_csds(const struct dp_mg *m, uint32_t *map)
{
	uint32_t n = 0;

	for (uint32_t d = 1; d <= m->in->n_csd; d++) {
		uint32_t g = m->grp[d] ? m->grp[d] : d;

		if (!map[g])
			map[g] = ++n;
		map[d] = map[g];
	}
	return n;
}

static int build_csds(struct dp_mg *m, const uint32_t *newpd, uint32_t *map, struct dp_profile *out)
{
	const struct dp_profile *in = m->in;

	out->n_csd = number_csds(m, map);
	out->csd = dp_arena_array(&out->arena, (size_t)out->n_csd + 1, sizeof(*out->csd));
	if (!out->csd)
		return nomem();
	for (uint32_t d = 1; d <= in->n_csd; d++) {
		const struct dp_csd *s = &in->csd[d];
		struct dp_csd *o = &out->csd[map[d]];

		if (o->css == 0) {
			o->caller = newpd[s->caller];
			o->css = s->css;
			o->callee = newpd[s->callee];
		}
		o->calls += s->calls;
		o->exits += s->exits;
		o->unwinds += s->unwinds;
		o->samples += s->samples;
		o->callseqs += s->callseqs;
		o->allocs += s->allocs;
		o->alloc_bytes += s->alloc_bytes;
	}
	return 0;
}

/* Nothing merges: the nodes are copied as they are (coverage counts too). */
static int copy_nodes(const struct dp_profile *in, struct dp_profile *out)
{
	int fail = 0;

	out->n_pd = in->n_pd;
	out->n_csd = in->n_csd;
	out->pd = dup_array(&out->arena, in->pd, (size_t)in->n_pd + 1, sizeof(*in->pd), &fail);
	out->csd = dup_array(&out->arena, in->csd, (size_t)in->n_csd + 1, sizeof(*in->csd), &fail);
	for (uint32_t i = 1; !fail && i <= in->n_pd; i++)
		out->pd[i].cp = dup_array(&out->arena, in->pd[i].cp, in->pd[i].n_cp,
					  sizeof(*in->pd[i].cp), &fail);
	return fail ? nomem() : 0;
}

/*
 * The merged PDs are filled on a second thread (fill_pds(), which allocates nothing)
 * while this one numbers and builds the CSDs; coverage counts, which allocate, once it is
 * joined.
 */
int dp_mg_build_nodes(struct dp_mg *m, struct dp_profile *out)
{
	const struct dp_profile *in = m->in;
	uint32_t *byrep, *newpd, *map;
	struct pd_job job = {.in = in};
	pthread_t th = {0};
	bool par = false;
	int rc;

	if (m->n_unions == 0) /* root and thread root ids stay as they are */
		return copy_nodes(in, out);
	byrep = calloc((size_t)in->n_pd + 1, sizeof(*byrep));
	newpd = calloc((size_t)in->n_pd + 1, sizeof(*newpd));
	map = calloc((size_t)in->n_csd + 1, sizeof(*map));
	rc = byrep && newpd && map ? 0 : nomem();
	if (rc == 0) {
		out->n_pd = number_pds(m, byrep, newpd);
		out->pd = dp_arena_array(&out->arena, (size_t)out->n_pd + 1, sizeof(*out->pd));
		rc = out->pd ? 0 : nomem();
	}
	free(byrep);
	if (rc == 0) {
		job.newpd = newpd;
		job.out = out->pd;
		par = in->n_pd >= DP_MG_PAR_MIN && pthread_create(&th, NULL, fill_pds, &job) == 0;
		if (!par)
			fill_pds(&job);
		rc = build_csds(m, newpd, map, out);
		if (par)
			pthread_join(th, NULL);
	}
	if (rc == 0 && job.any_cp)
		rc = merge_coverage(m, newpd, out);
	if (rc == 0) {
		out->root_pd = newpd[in->root_pd];
		for (uint32_t t = 1; out->threads && t <= out->n_threads; t++)
			if (out->threads[t].root_pd)
				out->threads[t].root_pd = newpd[out->threads[t].root_pd];
	}
	free(newpd);
	free(map);
	return rc;
}
