/*
 * analysis/grouptotal.c - inclusive ("total") costs of groups of procedures (modules and
 * objects) without double counting: a PD's own cost belongs to group G's total when the
 * PD is in G or a call on its chain of ancestor contexts was made by a PD in G. Summing
 * each procedure's total instead (mdprof's way) counts a module calling itself through
 * another module twice, and gives module totals above 100%. In the same walk, each
 * procedure's total (ps_total): the totals of the cliques holding a PD of it, each
 * counted unless a clique above it on the path holds one too. Runtime files are swept in
 * clique order, in two halves on two threads; other profiles walk the clique tree.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "analysis_int.h"
#include "deepprof/format.h"

enum { DP_NGROUPINGS = 2 }; /* modules, objects */

#define DP_GAHEAD 12 /* prefetch distance of the sweep, in cliques */

/* What the walk needs of a PS, packed (the PS records are large): its group in each
 * grouping and whether it is a function (not the artificial root or a thread). */
struct dp_gps {
	uint32_t group[DP_NGROUPINGS];
	uint32_t fn;
};

/* The groupings: per PS, and per group the open calls on the current path and totals;
 * per procedure, the cliques holding a PD of it on the current path (open) and its
 * total. */
struct dp_groups {
	struct dp_gps *ps; /* [0..n_ps] */
	uint32_t *active[DP_NGROUPINGS];
	struct dp_inherit *total[DP_NGROUPINGS];
	uint32_t n_groups[DP_NGROUPINGS];
	uint32_t *ps_open;	     /* [0..n_ps] */
	struct dp_inherit *ps_total; /* [0..n_ps] (the first part's: the analysis's) */
};

/* A clique being walked: its next child in clique_kids (in the sweep: the lowest clique
 * of its subtree), the groups its entry opened (0 = none, else group + 1) and the
 * procedures it opened: the clique's members (0 = none), or its one member's (one - 1). */
struct dp_gframe {
	uint32_t clique, kid;
	uint32_t opened[DP_NGROUPINGS];
	uint32_t members, one;
};

/* Counts clique @c's members that are outermost in their group, and @c's total for each
 * procedure with a PD in it and none above. Return: the first member's procedure. */
static uint32_t dp_gvisit(const struct dp_analysis *a, struct dp_groups *g, uint32_t c)
{
	const struct dp_profile *p = a->p;
	const uint32_t *m = dp_csr_items(&a->clique_pds, c);
	uint32_t n = dp_csr_count(&a->clique_pds, c);

	for (uint32_t k = 0; k < n; k++) {
		uint32_t x = p->pd[m[k]].ps;
		const struct dp_gps *ps = &g->ps[x];
		struct dp_inherit t;

		if (!g->ps_open[x])
			dp_inherit_add(&g->ps_total[x], &a->clique_total[c]);
		if (n > 1) /* counted once in this clique too (undone below) */
			g->ps_open[x]++;
		/* an artificial procedure's own cost is its group's; what it calls is not.
		 * The total of a clique of one function is its member's own + desc. */
		if (!ps->fn) {
			t = dp_pd_own_inh(a, m[k]);
		} else if (n == 1) {
			t = a->clique_total[c];
		} else {
			t = dp_pd_own_inh(a, m[k]);
			dp_inherit_add(&t, &a->pd_desc[m[k]]);
		}
		for (int i = 0; i < DP_NGROUPINGS; i++)
			if (!g->active[i][ps->group[i]])
				dp_inherit_add(&g->total[i][ps->group[i]], &t);
	}
	for (uint32_t k = 0; n > 1 && k < n; k++)
		g->ps_open[p->pd[m[k]].ps]--;
	return n ? p->pd[m[0]].ps : 0;
}

/* Entering a clique through a call made by a PD of PS @ps: opens its groups in @f. */
static void dp_gopen(struct dp_groups *g, uint32_t ps, struct dp_gframe *f)
{
	for (int i = 0; i < DP_NGROUPINGS; i++) {
		f->opened[i] = g->ps[ps].fn ? g->ps[ps].group[i] + 1 : 0;
		if (f->opened[i])
			g->active[i][f->opened[i] - 1]++;
	}
}

/* Below clique @c (visited; @ps1 its first member's procedure, @leaf: nothing is below
 * it): its procedures are on the path, recorded in @f. A clique of one member keeps its
 * procedure in the frame (no second read of its PD); a leaf opens nothing. */
static void dp_gopen_members(const struct dp_analysis *a, struct dp_groups *g, uint32_t c,
			     uint32_t ps1, bool leaf, struct dp_gframe *f)
{
	const uint32_t *m = dp_csr_items(&a->clique_pds, c);
	uint32_t n = dp_csr_count(&a->clique_pds, c);

	f->members = f->one = 0;
	if (leaf || n == 0)
		return;
	if (n == 1) {
		f->one = ps1 + 1;
		g->ps_open[ps1]++;
		return;
	}
	f->members = c;
	for (uint32_t k = 0; k < n; k++)
		g->ps_open[a->p->pd[m[k]].ps]++;
}

/* Leaving the subtree of frame @f: closes what it opened. */
static void dp_gclose(const struct dp_analysis *a, struct dp_groups *g, const struct dp_gframe *f)
{
	for (int i = 0; i < DP_NGROUPINGS; i++)
		if (f->opened[i])
			g->active[i][f->opened[i] - 1]--;
	if (f->one)
		g->ps_open[f->one - 1]--;
	if (f->members) {
		const uint32_t *m = dp_csr_items(&a->clique_pds, f->members);
		uint32_t n = dp_csr_count(&a->clique_pds, f->members);

		for (uint32_t k = 0; k < n; k++)
			g->ps_open[a->p->pd[m[k]].ps]--;
	}
}

/* Walks the clique tree from @start (iteratively: @stack has room for every clique). */
static void dp_gwalk(const struct dp_analysis *a, struct dp_groups *g, uint32_t start,
		     struct dp_gframe *stack)
{
	const struct dp_csr *kids = &a->clique_kids;
	uint32_t top = 0;

	uint32_t ps1 = dp_gvisit(a, g, start);

	stack[0] = (struct dp_gframe){start, kids->start[start], {0}, 0, 0};
	dp_gopen_members(a, g, start, ps1, kids->start[start] == kids->start[start + 1], &stack[0]);
	while (1) {
		struct dp_gframe *f = &stack[top];
		uint32_t child;

		if (f->kid == kids->start[f->clique + 1]) {
			dp_gclose(a, g, f);
			if (top == 0)
				return;
			top--;
			continue;
		}
		child = a->csd_child_clique[kids->ids[f->kid++]];
		f = &stack[++top];
		*f = (struct dp_gframe){child, kids->start[child], {0}, 0, 0};
		dp_gopen(g, a->p->pd[a->clique_entry_caller[child]].ps, f);
		ps1 = dp_gvisit(a, g, child);
		dp_gopen_members(a, g, child, ps1, kids->start[child] == kids->start[child + 1], f);
	}
}

/* A part of the work: the groups' counters and totals, a stack, and for the sweep the
 * cliques hi down to lo. The PS table is shared. */
struct dp_gpart {
	const struct dp_analysis *a;
	struct dp_groups g;
	struct dp_gframe *stack; /* room for every clique */
	uint32_t hi, lo;
	bool own_total; /* g.ps_total is the part's own (else the analysis's) */
};

/* The frames of the ancestors of clique @c (root first) opened, as if swept down to it. */
static uint32_t dp_gancestors(struct dp_gpart *w, uint32_t c)
{
	const struct dp_analysis *a = w->a;
	struct dp_gframe *st = w->stack;
	uint32_t n = 0, top = 0;

	for (uint32_t x = a->clique_entry_caller[c]; x; x = a->clique_entry_caller[c]) {
		c = a->pd_clique[x];
		st[n++].kid = c;
	}
	for (uint32_t i = 0; i < n / 2; i++) {
		uint32_t t = st[i].kid;

		st[i].kid = st[n - 1 - i].kid;
		st[n - 1 - i].kid = t;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t anc = st[i].kid, x = a->clique_entry_caller[anc];
		struct dp_gframe *f = &st[top++]; /* top <= i + 1: entries not read are kept */

		f->clique = a->clique_first[anc];
		f->kid = 0;
		memset(f->opened, 0, sizeof(f->opened));
		if (x)
			dp_gopen(&w->g, a->p->pd[x].ps, f);
		dp_gopen_members(a, &w->g, anc, a->p->pd[dp_csr_items(&a->clique_pds, anc)[0]].ps,
				 false, f);
	}
	return top;
}

/*
 * The same as dp_gwalk() from the root without a walk, when each clique's subtree is the
 * range clique_first[c]..c (no extra entries, every clique reachable: runtime files):
 * cliques from the root down (here hi down to lo), keeping a stack of the subtrees
 * entered by calls that opened a group, left as soon as c falls below their range.
 */
static void dp_gsweep(struct dp_gpart *w)
{
	const struct dp_analysis *a = w->a;
	const struct dp_profile *p = a->p;
	struct dp_gframe *stack = w->stack, *f;
	uint32_t top = w->hi < a->n_cliques ? dp_gancestors(w, w->hi) : 0;

	for (uint32_t c = w->hi; c >= w->lo && c >= 1; c--) {
		uint32_t x = a->clique_entry_caller[c];

		if (c > DP_GAHEAD) {
			uint32_t ahead = c - DP_GAHEAD;

			__builtin_prefetch(&p->pd[a->clique_pds.ids[a->clique_pds.start[ahead]]]);
			__builtin_prefetch(&p->pd[a->clique_entry_caller[ahead]]);
		}
		while (top > 0 && stack[top - 1].clique > c)
			dp_gclose(a, &w->g, &stack[--top]);
		f = &stack[top++];
		f->clique = a->clique_first[c];
		memset(f->opened, 0, sizeof(f->opened));
		if (x)
			dp_gopen(&w->g, p->pd[x].ps, f);
		dp_gopen_members(a, &w->g, c, dp_gvisit(a, &w->g, c), a->clique_first[c] == c, f);
	}
}

static void *dp_gsweep_main(void *arg)
{
	dp_gsweep(arg);
	return NULL;
}

/* Sweeps in two parts, cliques 1..@mid on a second thread (if one can be made), and adds
 * the lower part's totals to @w's. */
static void dp_gsweep2(struct dp_gpart *w, struct dp_gpart *low, uint32_t mid)
{
	pthread_t th;
	int spawned;

	low->lo = 1;
	low->hi = mid;
	w->lo = low->hi + 1;
	w->hi = w->a->n_cliques;
	spawned = pthread_create(&th, NULL, dp_gsweep_main, low) == 0;
	if (!spawned)
		dp_gsweep(low);
	dp_gsweep(w);
	if (spawned)
		pthread_join(th, NULL);
	for (int i = 0; i < DP_NGROUPINGS; i++)
		for (uint32_t k = 0; k <= w->g.n_groups[i]; k++)
			dp_inherit_add(&w->g.total[i][k], &low->g.total[i][k]);
	for (uint32_t k = 0; k <= w->a->p->n_ps; k++)
		dp_inherit_add(&w->g.ps_total[k], &low->g.ps_total[k]);
}

static void group_desc(const struct dp_inherit *total, uint32_t n, const struct dp_costs *own,
		       struct dp_inherit *desc)
{
	for (uint32_t k = 0; k <= n; k++) {
		desc[k].samples = total[k].samples - own[k].samples;
		desc[k].callseqs = total[k].callseqs - own[k].callseqs;
		desc[k].allocs = total[k].allocs - own[k].allocs;
		desc[k].alloc_bytes = total[k].alloc_bytes - own[k].alloc_bytes;
	}
}

/* A part's counters, totals and stack (the PS table @ps is shared); @ps_total: where
 * its procedures' totals go (zeroed), NULL to make its own. */
static int gpart_init(struct dp_gpart *w, const struct dp_analysis *a, struct dp_gps *ps,
		      struct dp_inherit *ps_total)
{
	int ok = 1;

	w->a = a;
	w->g.ps = ps;
	w->g.n_groups[0] = a->n_modules;
	w->g.n_groups[1] = a->p->n_objects;
	for (int i = 0; i < DP_NGROUPINGS; i++) {
		w->g.active[i] = calloc((size_t)w->g.n_groups[i] + 1, sizeof(uint32_t));
		w->g.total[i] = calloc((size_t)w->g.n_groups[i] + 1, sizeof(struct dp_inherit));
		ok = ok && w->g.active[i] && w->g.total[i];
	}
	w->g.ps_open = calloc((size_t)a->p->n_ps + 1, sizeof(uint32_t));
	w->own_total = !ps_total;
	w->g.ps_total =
		ps_total ? ps_total : calloc((size_t)a->p->n_ps + 1, sizeof(struct dp_inherit));
	ok = ok && w->g.ps_open && w->g.ps_total;
	w->stack = malloc(((size_t)a->n_cliques + 1) * sizeof(*w->stack));
	return ok && w->stack ? 0 : dp_error(DP_ENOMEM, "out of memory summarizing modules");
}

static void gpart_free(struct dp_gpart *w)
{
	for (int i = 0; i < DP_NGROUPINGS; i++) {
		free(w->g.active[i]);
		free(w->g.total[i]);
	}
	free(w->g.ps_open);
	if (w->own_total)
		free(w->g.ps_total);
	free(w->stack);
}

int dp_analysis_group_totals(struct dp_analysis *a)
{
	return dp_analysis_group_totals_at(a, a->n_cliques / 2);
}

int dp_analysis_group_totals_at(struct dp_analysis *a, uint32_t mid)
{
	const struct dp_profile *p = a->p;
	struct dp_gps *ps = calloc((size_t)p->n_ps + 1, sizeof(*ps));
	struct dp_gpart w[2] = {{0}};
	int sweep = a->n_extra_entries == 0 && a->root_clique == a->n_cliques;
	int rc = ps ? 0 : dp_error(DP_ENOMEM, "out of memory summarizing modules");

	a->ps_total = dp_arena_array(&a->arena, (size_t)p->n_ps + 1, sizeof(*a->ps_total));
	if (!a->ps_total)
		rc = dp_error(DP_ENOMEM, "out of memory summarizing procedures");
	for (int i = 0; i < 1 + sweep && rc == 0; i++)
		rc = gpart_init(&w[i], a, ps, i == 0 ? a->ps_total : NULL);
	if (rc < 0)
		goto out;
	for (uint32_t k = 1; k <= p->n_ps; k++) {
		ps[k].group[0] = a->ps_module[k];
		ps[k].group[1] = p->ps[k].object <= p->n_objects ? p->ps[k].object : 0;
		ps[k].fn = p->ps[k].kind == DP_PS_FUNCTION || p->ps[k].kind == DP_PS_LIBRARY;
	}
	/* every clique nothing enters starts a tree: the root's, and unreachable ones */
	if (sweep)
		dp_gsweep2(&w[0], &w[1], mid < a->n_cliques ? mid : a->n_cliques);
	else
		for (uint32_t c = 1; c <= a->n_cliques; c++)
			if (a->clique_entry[c] == 0)
				dp_gwalk(a, &w[0].g, c, w[0].stack);
	group_desc(w[0].g.total[0], w[0].g.n_groups[0], a->module_own, a->module_desc);
	group_desc(w[0].g.total[1], w[0].g.n_groups[1], a->object_own, a->object_desc);
out:
	gpart_free(&w[0]);
	gpart_free(&w[1]);
	free(ps);
	return rc;
}
