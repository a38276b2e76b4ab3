/*
 * analysis/libfold.c - the folded view of library leaves (libs=fold): a copy of a
 * profile without its library leaves (PDs of PSs of kind library and the CSDs into
 * them), each leaf's counters added to the CSD that entered its caller, so that time
 * outside instrumented code is the caller's own again, as without leaves.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "merge.h"
#include "merge_int.h"

static int nomem(void)
{
	return dp_error(DP_ENOMEM, "out of memory folding library leaves");
}

/* Whether PD @pd of @p is a library leaf. */
static int leaf(const struct dp_profile *p, uint32_t pd)
{
	return p->ps[p->pd[pd].ps].kind == DP_PS_LIBRARY;
}

static void add(struct dp_csd *to, const struct dp_csd *c)
{
	to->calls += c->calls;
	to->exits += c->exits;
	to->unwinds += c->unwinds;
	to->samples += c->samples;
	to->callseqs += c->callseqs;
	to->allocs += c->allocs;
	to->alloc_bytes += c->alloc_bytes;
}

/* The kept PDs and CSDs of @in, renumbered in order (@newpd, @newcsd: 0 = dropped), and
 * the CSD each folded leaf's counters go to (@into, by old CSD id). */
static void number(const struct dp_profile *in, uint32_t *newpd, uint32_t *newcsd, uint32_t *into,
		   uint32_t *n_pd, uint32_t *n_csd)
{
	uint32_t *entry = into; /* first: the lowest CSD entering each PD, by PD id */

	for (uint32_t d = in->n_csd; d >= 1; d--)
		if (in->csd[d].callee <= in->n_pd)
			entry[in->csd[d].callee] = d;
	for (uint32_t i = 1; i <= in->n_pd; i++)
		newpd[i] = leaf(in, i) ? 0 : ++*n_pd;
	for (uint32_t d = 1; d <= in->n_csd; d++) {
		const struct dp_csd *c = &in->csd[d];
		/* a leaf under a PD nothing enters (never in runtime files) stays */
		uint32_t to = leaf(in, c->callee) ? entry[c->caller] : 0;

		newcsd[d] = to ? 0 : ++*n_csd;
		if (!to && !newpd[c->callee])
			newpd[c->callee] = ++*n_pd; /* its kept leaf */
		into[in->n_pd + d] = to;
	}
}

int dp_profile_fold_libs(const struct dp_profile *in, struct dp_profile *out)
{
	uint32_t n_pd = 0, n_csd = 0, *newpd, *newcsd, *into;
	int rc = dp_mg_copy_static(in, out);

	if (rc < 0)
		return rc;
	newpd = calloc((size_t)in->n_pd + 1, sizeof(*newpd));
	newcsd = calloc((size_t)in->n_csd + 1, sizeof(*newcsd));
	into = calloc((size_t)in->n_pd + in->n_csd + 1, sizeof(*into));
	rc = newpd && newcsd && into ? 0 : nomem();
	if (rc == 0)
		number(in, newpd, newcsd, into, &n_pd, &n_csd);
	if (rc == 0) {
		out->pd = dp_arena_array(&out->arena, (size_t)n_pd + 1, sizeof(*out->pd));
		out->csd = dp_arena_array(&out->arena, (size_t)n_csd + 1, sizeof(*out->csd));
		rc = out->pd && out->csd ? 0 : nomem();
	}
	for (uint32_t i = 1; rc == 0 && i <= in->n_pd; i++) {
		if (!newpd[i])
			continue;
		out->pd[newpd[i]] = in->pd[i];
		if (in->pd[i].n_cp && !(out->pd[newpd[i]].cp = dp_arena_array(
						&out->arena, in->pd[i].n_cp, sizeof(uint64_t))))
			rc = nomem();
		else if (in->pd[i].n_cp)
			memcpy(out->pd[newpd[i]].cp, in->pd[i].cp,
			       in->pd[i].n_cp * sizeof(uint64_t));
	}
	for (uint32_t d = 1; rc == 0 && d <= in->n_csd; d++) {
		const struct dp_csd *c = &in->csd[d];
		uint32_t to = into[in->n_pd + d];

		if (to) {
			add(&out->csd[newcsd[to]], c);
			continue;
		}
		add(&out->csd[newcsd[d]], c);
		out->csd[newcsd[d]].caller = newpd[c->caller];
		out->csd[newcsd[d]].css = c->css;
		out->csd[newcsd[d]].callee = newpd[c->callee];
	}
	if (rc == 0) {
		out->n_pd = n_pd;
		out->n_csd = n_csd;
		out->root_pd = newpd[in->root_pd];
		for (uint32_t t = 1; out->threads && t <= out->n_threads; t++)
			out->threads[t].root_pd = newpd[in->threads[t].root_pd];
	} else {
		dp_profile_release(out);
	}
	free(newpd);
	free(newcsd);
	free(into);
	return rc;
}
