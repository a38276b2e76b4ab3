/*
 * analysis/clique.c - cliques: the strongly connected components of the PD graph (an
 * arc caller -> callee per CSD), found with an iterative Tarjan (explicit stacks, so a
 * 100,000-deep chain is fine), numbered in the order Tarjan completes them, which is
 * bottom-up; the members of each clique as Tarjan pops them, its entry CSD, each CSD's
 * child clique and the clique tree index.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "analysis_int.h"

/* A vertex being explored: its next arc (position in pd_csds.ids), its DFS number, its
 * low link and the first clique completed after its discovery. */
struct tj_frame {
	uint32_t v, e, idx, low, first;
};

/* pd_clique doubles as Tarjan's state: 0 = not visited, DP_TJ_OPEN | DFS number = on the
 * component stack, else the vertex's clique. */
#define DP_TJ_OPEN 0x80000000u

struct tarjan {
	struct tj_frame *frame; /* explicit call stack */
	uint32_t *scc;		/* Tarjan's component stack */
	uint32_t depth, n_scc;	/* heights of the two stacks */
	uint32_t counter;
	uint32_t n_out; /* members written to clique_pds.ids so far */
};

static void tj_push(struct tarjan *t, struct dp_analysis *a, uint32_t v)
{
	uint32_t i = ++t->counter;

	a->pd_clique[v] = DP_TJ_OPEN | i;
	t->scc[t->n_scc++] = v;
	t->frame[t->depth++] = (struct tj_frame){v, a->pd_csds.start[v], i, i, a->n_cliques + 1};
}

/* The top frame's vertex is finished: if it roots a component, pop the component as the
 * next clique, its members straight into clique_pds. */
static void tj_finish(struct tarjan *t, struct dp_analysis *a)
{
	struct tj_frame *f = &t->frame[--t->depth];
	uint32_t v = f->v, w;

	if (f->low == f->idx) {
		uint32_t c = ++a->n_cliques;

		a->clique_pds.start[c] = t->n_out;
		a->clique_first[c] = f->first;
		do {
			w = t->scc[--t->n_scc];
			a->pd_clique[w] = c;
			a->clique_pds.ids[t->n_out++] = w;
		} while (w != v);
	}
	if (t->depth > 0 && f->low < t->frame[t->depth - 1].low)
		t->frame[t->depth - 1].low = f->low;
}

/* One DFS tree from @s. */
static void tj_visit(struct tarjan *t, struct dp_analysis *a, uint32_t s)
{
	const uint32_t *start = a->pd_csds.start, *succ = a->pd_succ;

	tj_push(t, a, s);
	while (t->depth > 0) {
		struct tj_frame *f = &t->frame[t->depth - 1];
		uint32_t st;

		if (f->e == start[f->v + 1]) {
			tj_finish(t, a);
			continue;
		}
		st = a->pd_clique[succ[f->e]];
		if (st == 0)
			tj_push(t, a, succ[f->e]);
		else if ((st & DP_TJ_OPEN) && (st & ~DP_TJ_OPEN) < f->low)
			f->low = st & ~DP_TJ_OPEN;
		f->e++;
	}
}

static int tarjan(struct dp_analysis *a)
{
	uint32_t n = a->p->n_pd;
	struct tarjan t = {0};
	int rc = 0;

	if (n >= DP_TJ_OPEN)
		return dp_error(DP_ENOMEM, "too many PDs to find cliques (%" PRIu32 ")", n);
	t.frame = dp_big_malloc((size_t)n + 1, sizeof(*t.frame));
	t.scc = dp_big_malloc((size_t)n + 1, sizeof(*t.scc));
	if (!t.frame || !t.scc) {
		rc = dp_error(DP_ENOMEM, "out of memory finding cliques");
		goto out;
	}
	tj_visit(&t, a, a->p->root_pd);
	for (uint32_t v = 1; v <= n; v++)
		if (a->pd_clique[v] == 0)
			tj_visit(&t, a, v);
	a->clique_pds.n = a->n_cliques;
	a->clique_pds.start[a->n_cliques + 1] = t.n_out;
out:
	free(t.frame);
	free(t.scc);
	return rc;
}

/* Whether crossing CSD @i, made by a PD of clique @pc, replaces @cc's entry so far. */
static int better_entry(const struct dp_analysis *a, uint32_t cc, uint32_t pc, uint32_t i)
{
	uint32_t root = a->root_clique, e = a->clique_entry[cc];
	int e_reach = a->pd_clique[a->clique_entry_caller[cc]] <= root;

	return pc <= root ? !e_reach || i < e : !e_reach && i < e;
}

/*
 * Entry CSD of each clique (and its caller): the lowest-numbered CSD entering it from a
 * clique reachable from the root, or if none (the clique is not reachable) from any
 * other clique. The first DFS starts at the root PD, so the reachable cliques are
 * 1..root_clique. Walks the arcs PD by PD (pd_succ), not the CSD records.
 */
static uint32_t find_entries(struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;
	uint32_t n_cross = 0, n_entries = 0, root = a->root_clique;

	for (uint32_t v = 1; v <= p->n_pd; v++) {
		uint32_t pc = a->pd_clique[v];

		for (uint32_t j = a->pd_csds.start[v]; j < a->pd_csds.start[v + 1]; j++) {
			uint32_t i = a->pd_csds.ids[j], cc = a->pd_clique[a->pd_succ[j]];

			if (cc == pc)
				continue;
			a->csd_child_clique[i] = cc;
			n_cross++;
			if (cc == root)
				continue;
			if (a->clique_entry[cc] == 0)
				n_entries++;
			else if (!better_entry(a, cc, pc, i))
				continue;
			a->clique_entry[cc] = i;
			a->clique_entry_caller[cc] = v;
		}
	}
	return n_cross - n_entries;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a > b) - (a < b);
}

/* extra_csds: the crossing CSDs that are not entries, by entered clique then id. */
static int list_extras(struct dp_analysis *a)
{
	uint32_t n = a->n_extra_entries, k = 0;
	uint64_t *key;

	if (n == 0)
		return 0;
	key = malloc((size_t)n * sizeof(*key));
	a->extra_csds = dp_arena_array(&a->arena, n, sizeof(*a->extra_csds));
	if (!key || !a->extra_csds) {
		free(key);
		return dp_error(DP_ENOMEM, "out of memory finding cliques");
	}
	for (uint32_t i = 1; i <= a->p->n_csd && k < n; i++) {
		uint32_t cc = a->csd_child_clique[i];

		if (cc && a->clique_entry[cc] != i)
			key[k++] = (uint64_t)cc << 32 | i;
	}
	qsort(key, n, sizeof(*key), cmp_u64);
	for (k = 0; k < n; k++)
		a->extra_csds[k] = (uint32_t)key[k];
	free(key);
	return 0;
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return (a > b) - (a < b);
}

/* Sorts the @n ids @m: they come from Tarjan's stack in reverse discovery order, often
 * reverse id order, so reversed first; insertion sort for short runs. */
static void sort_members(uint32_t *m, uint32_t n)
{
	for (uint32_t i = 0, j = n - 1; i < j; i++, j--) {
		uint32_t t = m[i];

		m[i] = m[j];
		m[j] = t;
	}
	if (n > 32) {
		uint32_t i = 1;

		while (i < n && m[i - 1] < m[i])
			i++;
		if (i < n)
			qsort(m, n, sizeof(*m), cmp_u32);
		return;
	}
	for (uint32_t i = 1; i < n; i++) {
		uint32_t v = m[i], j = i;

		for (; j > 0 && m[j - 1] > v; j--)
			m[j] = m[j - 1];
		m[j] = v;
	}
}

/* Members of each clique of several: the entry PD first, then by increasing id. */
static void order_members(struct dp_analysis *a)
{
	const uint32_t *start = a->clique_pds.start;
	/* when every clique is reachable with one entering CSD, that CSD is the arc by which
	 * the search found the clique, so its callee is the clique's first vertex found,
	 * which Tarjan popped last */
	int found_first = a->n_extra_entries == 0 && a->root_clique == a->n_cliques;

	for (uint32_t c = 1; c <= a->n_cliques; c++) {
		uint32_t *m = a->clique_pds.ids + start[c], k = 0, head;
		uint32_t n = start[c + 1] - start[c], last;

		if (n < 2)
			continue;
		last = m[n - 1];
		sort_members(m, n);
		if (found_first || c == a->root_clique)
			head = found_first ? last : a->p->root_pd;
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

/* How many cliques ahead pd_steps_up() prefetches the entry caller's PD. */
#define STEP_AHEAD 16

/* Each PD's step up the clique tree (a->pd_up), with the procedure it reaches: a clique's
 * entry goes to the caller of the clique's entry CSD, the other members to the entry. A
 * pass over the cliques, the entry callers' PDs (all over memory) prefetched. */
static int pd_steps_up(struct dp_analysis *a)
{
	const struct dp_pd *pd = a->p->pd;

	a->pd_up = dp_arena_array(&a->arena, (size_t)a->p->n_pd + 1, sizeof(*a->pd_up));
	if (!a->pd_up)
		return dp_error(DP_ENOMEM, "out of memory finding cliques");
	for (uint32_t k = 1; k <= a->n_cliques; k++) {
		const uint32_t *m = dp_csr_items(&a->clique_pds, k);
		uint32_t n = dp_csr_count(&a->clique_pds, k), up = a->clique_entry_caller[k];

		if (k + STEP_AHEAD <= a->n_cliques)
			__builtin_prefetch(&pd[a->clique_entry_caller[k + STEP_AHEAD]]);
		a->pd_up[m[0]] = (struct dp_pd_step){up, up ? pd[up].ps : 0};
		for (uint32_t j = 1; j < n; j++)
			a->pd_up[m[j]] = (struct dp_pd_step){m[0], pd[m[0]].ps};
	}
	return 0;
}

/* The clique tree as an index: for each clique, the entry CSDs of the cliques entered
 * from its members (in increasing child clique id), so that walking the tree (flame
 * graphs, group totals) never scans the members' other calls. */
static int clique_kids(struct dp_analysis *a)
{
	struct dp_csr *c = &a->clique_kids;
	uint32_t n = a->n_cliques, k;

	c->n = n;
	c->start = dp_arena_array(&a->arena, (size_t)n + 2, sizeof(uint32_t));
	if (!c->start)
		return dp_error(DP_ENOMEM, "out of memory indexing cliques");
	for (k = 1; k <= n; k++)
		if (a->clique_entry[k])
			c->start[a->pd_clique[a->clique_entry_caller[k]] + 1]++;
	for (k = 1; k <= n; k++)
		c->start[k + 1] += c->start[k];
	c->ids = dp_arena_array(&a->arena, (size_t)c->start[n + 1] + 1, sizeof(uint32_t));
	if (!c->ids)
		return dp_error(DP_ENOMEM, "out of memory indexing cliques");
	/* place with start[] as cursors (shifted by one), then restore it */
	for (k = 1; k <= n; k++)
		if (a->clique_entry[k])
			c->ids[c->start[a->pd_clique[a->clique_entry_caller[k]]]++] =
				a->clique_entry[k];
	for (k = n; k >= 1; k--)
		c->start[k] = c->start[k - 1];
	c->start[0] = c->start[1] = 0;
	return 0;
}

int dp_analysis_cliques(struct dp_analysis *a)
{
	const struct dp_profile *p = a->p;
	struct dp_arena *ar = &a->arena;
	size_t n = (size_t)p->n_pd + 1;
	int rc;

	a->pd_clique = dp_arena_array(ar, n, sizeof(uint32_t));
	a->csd_child_clique = dp_arena_array(ar, (size_t)p->n_csd + 1, sizeof(uint32_t));
	/* at most one clique per PD: the ids are n_pd, start is sized for as many cliques */
	a->clique_pds.start = dp_arena_array(ar, n + 1, sizeof(uint32_t));
	a->clique_pds.ids = dp_arena_array(ar, n, sizeof(uint32_t));
	a->clique_first = dp_arena_array(ar, n, sizeof(uint32_t));
	if (!a->pd_clique || !a->csd_child_clique || !a->clique_pds.start || !a->clique_pds.ids ||
	    !a->clique_first)
		return dp_error(DP_ENOMEM, "out of memory finding cliques");
	rc = tarjan(a);
	if (rc < 0)
		return rc;
	a->root_clique = a->pd_clique[p->root_pd];
	a->clique_entry = dp_arena_array(ar, (size_t)a->n_cliques + 1, sizeof(uint32_t));
	a->clique_entry_caller = dp_arena_array(ar, (size_t)a->n_cliques + 1, sizeof(uint32_t));
	if (!a->clique_entry || !a->clique_entry_caller)
		return dp_error(DP_ENOMEM, "out of memory finding cliques");
	a->n_extra_entries = find_entries(a);
	rc = list_extras(a);
	if (rc < 0)
		return rc;
	order_members(a);
	rc = pd_steps_up(a);
	return rc < 0 ? rc : clique_kids(a);
}
