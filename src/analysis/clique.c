/*
 * analysis/clique.c - cliques: the strongly connected components of the PD graph (an
 * arc caller -> callee per CSD), found with an iterative Tarjan (explicit stacks, so a
 * 100,000-deep chain is fine), numbered in the order Tarjan completes them, which is
 * bottom-up; then the members of each clique, its entry CSD and each CSD's child clique.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "analysis_int.h"

struct tarjan {
	uint32_t *idx;	       /* DFS number, 0 = not visited */
	uint32_t *low;	       /* lowest DFS number reachable through the subtree + 1 arc */
	uint32_t *call_v;      /* explicit call stack: vertex ... */
	uint32_t *call_e;      /* ... and its next position in pd_csds.ids */
	uint32_t *scc;	       /* Tarjan's component stack */
	uint32_t depth, n_scc; /* heights of the two stacks */
	uint32_t counter;
};

static void tj_push(struct tarjan *t, const struct dp_analysis *a, uint32_t v)
{
	t->idx[v] = t->low[v] = ++t->counter;
	t->scc[t->n_scc++] = v;
	t->call_v[t->depth] = v;
	t->call_e[t->depth] = a->pd_csds.start[v];
	t->depth++;
}

/* v finished: if it is the root of a component, pop the component as the next clique. */
static void tj_finish(struct tarjan *t, struct dp_analysis *a, uint32_t v)
{
	uint32_t w;

	if (t->low[v] == t->idx[v]) {
		a->n_cliques++;
		do {
			w = t->scc[--t->n_scc];
			a->pd_clique[w] = a->n_cliques;
		} while (w != v);
	}
	if (--t->depth > 0) {
		uint32_t u = t->call_v[t->depth - 1];

		if (t->low[v] < t->low[u])
			t->low[u] = t->low[v];
	}
}

/* One DFS tree from @s. A visited vertex without a clique yet is on the component stack. */
static void tj_visit(struct tarjan *t, struct dp_analysis *a, uint32_t s)
{
	tj_push(t, a, s);
	while (t->depth > 0) {
		uint32_t top = t->depth - 1, v = t->call_v[top], e = t->call_e[top], w;

		if (e == a->pd_csds.start[v + 1]) {
			tj_finish(t, a, v);
			continue;
		}
		t->call_e[top] = e + 1;
		w = a->pd_succ[e];
		if (t->idx[w] == 0)
			tj_push(t, a, w);
		else if (a->pd_clique[w] == 0 && t->idx[w] < t->low[v])
			t->low[v] = t->idx[w];
	}
}

static int tarjan(struct dp_analysis *a)
{
	uint32_t n = a->p->n_pd;
	size_t sz = ((size_t)n + 1) * sizeof(uint32_t);
	struct tarjan t = {0};
	int rc = 0;

	t.idx = calloc(1, sz);
	t.low = malloc(sz);
	t.call_v = malloc(sz);
	t.call_e = malloc(sz);
	t.scc = malloc(sz);
	if (!t.idx || !t.low || !t.call_v || !t.call_e || !t.scc) {
		rc = dp_error(DP_ENOMEM, "out of memory finding cliques");
		goto out;
	}
	tj_visit(&t, a, a->p->root_pd);
	for (uint32_t v = 1; v <= n; v++)
		if (t.idx[v] == 0)
			tj_visit(&t, a, v);
out:
	free(t.idx);
	free(t.low);
	free(t.call_v);
	free(t.call_e);
	free(t.scc);
	return rc;
}

/*
 * Entry CSD of each clique: the lowest-numbered CSD entering it from a clique reachable
 * from the root, or if none (the clique is not reachable) from any other clique. The
 * first DFS starts at the root PD, so the reachable cliques are 1..root_clique. Walks
 * the arcs PD by PD (pd_succ), not the CSD records.
 */
static void find_entries(struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;
	uint32_t n_cross = 0, n_entries = 0, root = a->root_clique;

	for (uint32_t v = 1; v <= p->n_pd; v++) {
		uint32_t pc = a->pd_clique[v], reach = pc <= root;

		for (uint32_t j = a->pd_csds.start[v]; j < a->pd_csds.start[v + 1]; j++) {
			uint32_t i = a->pd_csds.ids[j], cc = a->pd_clique[a->pd_succ[j]], e;

			if (cc == pc)
				continue;
			a->csd_child_clique[i] = cc;
			n_cross++;
			if (cc == root)
				continue;
			e = a->clique_entry[cc];
			if (e == 0) {
				n_entries++;
				a->clique_entry[cc] = i;
			} else if (reach ? a->pd_clique[p->csd[e].caller] > root || i < e
					 : a->pd_clique[p->csd[e].caller] > root && i < e) {
				a->clique_entry[cc] = i;
			}
		}
	}
	a->n_extra_entries = n_cross - n_entries;
}

/* Move each clique's entry PD to the front of its members, keeping the others in order. */
static void entry_first(struct dp_analysis *a)
{
	for (uint32_t c = 1; c <= a->n_cliques; c++) {
		uint32_t *m = a->clique_pds.ids + a->clique_pds.start[c], k = 0, head;

		if (c == a->root_clique)
			head = a->p->root_pd;
		else if (a->clique_entry[c])
			head = a->p->csd[a->clique_entry[c]].callee;
		else
			continue;
		while (m[k] != head)
			k++;
		memmove(m + 1, m, k * sizeof(*m));
		m[0] = head;
	}
}

/* The clique tree as an index: for each clique, the entry CSDs of the cliques entered
 * from its members (in increasing child clique id), so that walking the tree (flame
 * graphs) never scans the members' other calls. Two counting passes over the cliques. */
static int clique_kids(struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;
	struct dp_csr *c = &a->clique_kids;
	uint32_t n = a->n_cliques, k;

	c->n = n;
	c->start = dp_arena_array(&a->arena, (size_t)n + 2, sizeof(uint32_t));
	if (!c->start)
		return dp_error(DP_ENOMEM, "out of memory indexing cliques");
	for (k = 1; k <= n; k++)
		if (a->clique_entry[k])
			c->start[a->pd_clique[p->csd[a->clique_entry[k]].caller] + 1]++;
	for (k = 1; k <= n; k++)
		c->start[k + 1] += c->start[k];
	c->ids = dp_arena_array(&a->arena, (size_t)c->start[n + 1] + 1, sizeof(uint32_t));
	if (!c->ids)
		return dp_error(DP_ENOMEM, "out of memory indexing cliques");
	/* place with start[] as cursors (shifted by one), then restore it */
	for (k = 1; k <= n; k++) {
		uint32_t e = a->clique_entry[k];

		if (e)
			c->ids[c->start[a->pd_clique[p->csd[e].caller]]++] = e;
	}
	for (k = n; k >= 1; k--)
		c->start[k] = c->start[k - 1];
	c->start[0] = c->start[1] = 0;
	return 0;
}

int dp_analysis_cliques(struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;
	int rc;

	a->pd_clique = dp_arena_array(&a->arena, (size_t)p->n_pd + 1, sizeof(uint32_t));
	a->csd_child_clique = dp_arena_array(&a->arena, (size_t)p->n_csd + 1, sizeof(uint32_t));
	if (!a->pd_clique || !a->csd_child_clique)
		return dp_error(DP_ENOMEM, "out of memory finding cliques");
	rc = tarjan(a);
	if (rc < 0)
		return rc;
	a->root_clique = a->pd_clique[p->root_pd];
	a->clique_entry = dp_arena_array(&a->arena, (size_t)a->n_cliques + 1, sizeof(uint32_t));
	if (!a->clique_entry)
		return dp_error(DP_ENOMEM, "out of memory finding cliques");
	find_entries(a);
	rc = dp_csr_build(&a->arena, &a->clique_pds, a->n_cliques, p->n_pd, a->pd_clique,
			  sizeof(uint32_t));
	if (rc < 0)
		return rc;
	entry_first(a);
	return clique_kids(a);
}
