/*
 * analysis/merge_out.c - the output half of dp_profile_merge_threads(): a copy of the
 * static tables (same string, object, PS and CSS ids) and the merged PDs and CSDs, built
 * from the closed union-find of merge.c in a few linear passes.
 */
#include <inttypes.h>
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
	out->pd = NULL;
	out->csd = NULL;
	out->n_pd = out->n_csd = 0;
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

/* Merged PD ids: @newpd[rep] for each class, numbered by lowest member id. */
static uint32_t number_pds(struct dp_mg *m, uint32_t *newpd)
{
	uint32_t n = 0;

	for (uint32_t i = 1; i <= m->in->n_pd; i++) {
		uint32_t r = dp_mg_find(m, i);

		if (!newpd[r])
			newpd[r] = ++n;
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
		struct dp_pd *o = &out->pd[newpd[dp_mg_find(m, i)]];

		for (uint32_t k = 0; s->cp && k < s->n_cp; k++)
			o->cp[k] += s->cp[k];
	}
	return 0;
}

static int build_pds(struct dp_mg *m, uint32_t *newpd, struct dp_profile *out)
{
	const struct dp_profile *in = m->in;
	int any_cp = 0;

	out->n_pd = number_pds(m, newpd);
	out->pd = dp_arena_array(&out->arena, (size_t)out->n_pd + 1, sizeof(*out->pd));
	if (!out->pd)
		return nomem();
	for (uint32_t i = 1; i <= in->n_pd; i++) {
		const struct dp_pd *s = &in->pd[i];
		struct dp_pd *o = &out->pd[newpd[dp_mg_find(m, i)]];

		if (o->ps == 0) {
			o->ps = s->ps;
			o->thread = s->thread;
		} else if (o->thread != s->thread) {
			o->thread = 0;
		}
		if (s->cp && s->n_cp > o->n_cp)
			o->n_cp = s->n_cp;
		any_cp |= s->cp && s->n_cp;
	}
	return any_cp ? merge_coverage(m, newpd, out) : 0;
}

/* Merged CSD ids into @map[d], numbered by the lowest CSD id of each group (a group
 * is one CSD when its caller's class is not indexed). */
static int number_csds(struct dp_mg *m, uint32_t *map, uint32_t *n_out)
{
	const struct dp_profile *in = m->in;

	*n_out = 0;
	for (uint32_t d = 1; d <= in->n_csd; d++) {
		const struct dp_csd *c = &in->csd[d];
		uint32_t rep = dp_mg_find(m, c->caller);
		struct dp_mg_ent *e;

		if (!m->indexed[rep]) { /* a lone PD whose CSDs all differ */
			map[d] = ++*n_out;
			continue;
		}
		e = dp_mg_slot(m, rep, c->css, dp_mg_csd_key(m, d));
		if (!e->csd) /* cannot happen: the closure entered every CSD of every class */
			return dp_error(DP_EFORMAT, "merging threads: CSD %" PRIu32 " lost", d);
		if (!e->out)
			e->out = ++*n_out;
		map[d] = e->out;
	}
	return 0;
}

static int build_csds(struct dp_mg *m, const uint32_t *newpd, uint32_t *map, struct dp_profile *out)
{
	const struct dp_profile *in = m->in;
	int rc = number_csds(m, map, &out->n_csd);

	if (rc < 0)
		return rc;
	out->csd = dp_arena_array(&out->arena, (size_t)out->n_csd + 1, sizeof(*out->csd));
	if (!out->csd)
		return nomem();
	for (uint32_t d = 1; d <= in->n_csd; d++) {
		const struct dp_csd *s = &in->csd[d];
		struct dp_csd *o = &out->csd[map[d]];

		if (o->css == 0) {
			o->caller = newpd[dp_mg_find(m, s->caller)];
			o->css = s->css;
			o->callee = newpd[dp_mg_find(m, s->callee)];
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

int dp_mg_build_nodes(struct dp_mg *m, struct dp_profile *out)
{
	const struct dp_profile *in = m->in;
	uint32_t *newpd, *map;
	int rc;

	if (m->n_indexed == 0) /* root and thread root ids stay as they are */
		return copy_nodes(in, out);
	newpd = calloc((size_t)in->n_pd + 1, sizeof(*newpd));
	map = calloc((size_t)in->n_csd + 1, sizeof(*map));
	rc = newpd && map ? 0 : nomem();

	if (rc == 0)
		rc = build_pds(m, newpd, out);
	if (rc == 0)
		rc = build_csds(m, newpd, map, out);
	if (rc == 0) {
		out->root_pd = newpd[dp_mg_find(m, in->root_pd)];
		for (uint32_t t = 1; out->threads && t <= out->n_threads; t++)
			if (out->threads[t].root_pd)
				out->threads[t].root_pd =
					newpd[dp_mg_find(m, out->threads[t].root_pd)];
	}
	free(newpd);
	free(map);
	return rc;
}
