/*
 * analysis/diff_ctx.c - the per-context half of `deepprof diff`: a context is the chain of
 * procedures by which the root first reaches a PD (its creating call: recursion's calls
 * back go to ancestors, so a breadth-first search finds it), the same in both profiles
 * whatever their ids; thread roots are skipped, so a context sums over the threads that
 * reached it, as the merged thread view does.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "diff_int.h"

static int nomem(void)
{
	return dp_error(DP_ENOMEM, "out of memory comparing contexts");
}

int dp_diff_ctx_init(struct dp_diff_ctx *c, size_t cap)
{
	memset(c, 0, sizeof(*c));
	c->cap = cap + 2;
	c->n = 1;
	c->parent = calloc(c->cap, sizeof(*c->parent));
	c->proc = calloc(c->cap, sizeof(*c->proc));
	for (int i = 0; i < 2; i++) {
		c->raw[i] = calloc(c->cap, sizeof(*c->raw[i]));
		c->seen[i] = calloc(c->cap, 1);
	}
	if (c->cap > UINT32_MAX || dp_map64_reserve(&c->ids, (uint32_t)c->cap) < 0 || !c->parent ||
	    !c->proc || !c->raw[0] || !c->raw[1] || !c->seen[0] || !c->seen[1])
		return nomem();
	return 0;
}

void dp_diff_ctx_release(struct dp_diff_ctx *c)
{
	dp_map64_free(&c->ids);
	free(c->parent);
	free(c->proc);
	for (int i = 0; i < 2; i++) {
		free(c->raw[i]);
		free(c->seen[i]);
	}
	memset(c, 0, sizeof(*c));
}

/* The context of procedure @proc called in context @parent (added if new). */
static int64_t ctx_of(struct dp_diff_ctx *c, uint32_t parent, uint32_t proc)
{
	uint32_t id = dp_map64_intern(&c->ids, (uint64_t)parent << 32 | proc, c->n);

	if (id == DP_MAP32_NONE)
		return nomem();
	if (id < c->n)
		return id;
	if (c->n >= c->cap) /* the map holds an id past the arrays: the diff ends here */
		return dp_error(DP_EFORMAT, "more contexts than PDs");
	c->parent[c->n] = parent;
	c->proc[c->n] = proc;
	return c->n++;
}

/* CSR of @p's CSDs by caller: *@start (n_pd + 2) and *@ids. */
static int by_caller(const struct dp_profile *p, uint32_t **start, uint32_t **ids)
{
	uint32_t *s = calloc((size_t)p->n_pd + 2, sizeof(*s));
	uint32_t *l = malloc(((size_t)p->n_csd + 1) * sizeof(*l));

	*start = s;
	*ids = l;
	if (!s || !l)
		return nomem();
	for (uint32_t d = 1; d <= p->n_csd; d++)
		s[p->csd[d].caller + 1]++;
	for (uint32_t k = 1; k <= p->n_pd; k++)
		s[k + 1] += s[k];
	for (uint32_t d = 1; d <= p->n_csd; d++)
		l[s[p->csd[d].caller]++] = d;
	for (uint32_t k = p->n_pd + 1; k > 1; k--)
		s[k] = s[k - 1];
	s[1] = 0;
	return 0;
}

int dp_diff_ctx_collect(struct dp_diff_ctx *c, const struct dp_profile *p, int side,
			const uint32_t *kid, uint64_t (*counter)(const struct dp_csd *, int), int m)
{
	uint32_t *start = NULL, *ids = NULL, *ctx = NULL, *queue = NULL, head = 0, tail = 0;
	int rc = by_caller(p, &start, &ids);

	if (rc == 0) {
		ctx = malloc(((size_t)p->n_pd + 1) * sizeof(*ctx));
		queue = malloc(((size_t)p->n_pd + 1) * sizeof(*queue));
		rc = ctx && queue ? 0 : nomem();
	}
	if (rc == 0) {
		memset(ctx, 0xff, ((size_t)p->n_pd + 1) * sizeof(*ctx));
		ctx[p->root_pd] = 0;
		queue[tail++] = p->root_pd;
	}
	while (rc == 0 && head < tail) {
		uint32_t u = queue[head++];

		for (uint32_t i = start[u]; rc == 0 && i < start[u + 1]; i++) {
			uint32_t v = p->csd[ids[i]].callee, ps = p->pd[v].ps, proc = kid[ps];
			int64_t id = ctx[u];

			if (ctx[v] != UINT32_MAX)
				continue;
			if (proc && (id = ctx_of(c, ctx[u], proc)) < 0)
				rc = (int)id;
			ctx[v] = (uint32_t)id; /* a thread root: its caller's context */
			queue[tail++] = v;
		}
	}
	for (uint32_t d = 1; rc == 0 && d <= p->n_csd; d++) {
		uint32_t x = ctx[p->csd[d].callee];

		if (x && x != UINT32_MAX) {
			c->raw[side][x] += counter(&p->csd[d], m);
			c->seen[side][x] = 1;
		}
	}
	free(start);
	free(ids);
	free(ctx);
	free(queue);
	return rc;
}
