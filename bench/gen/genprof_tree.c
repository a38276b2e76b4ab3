/*
 * bench/gen/genprof_tree.c - the dynamic half of a synthetic profile: per thread, a
 * calling-context tree grown depth-first from the thread's entry function with an
 * explicit stack and a node budget split unevenly among the callees (so the tree is wide
 * at the top, deep along a few paths). A call to a function active on the stack goes to
 * that activation's PD, as the runtime folds recursion, so every clique has one entry.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "deepprof/format.h"
#include "genprof.h"

#define GEN_BACK      UINT64_MAX /* budget mark: a recursive call to a PD on the stack */
#define GEN_MAX_CALLS (1ull << 28)

/* Random values for counters, from their own generator g->crng. */
static uint32_t cnt_below(struct dp_gen *g, uint32_t n)
{
	uint64_t s = g->rng;
	uint32_t v;

	g->rng = g->crng;
	v = dp_gen_below(g, n);
	g->crng = g->rng;
	g->rng = s;
	return v;
}

static double cnt_unit(struct dp_gen *g)
{
	return cnt_below(g, 1u << 30) * (1.0 / (1u << 30));
}

static uint32_t gen_new_pd(struct dp_gen *g, uint32_t ps, uint32_t creator)
{
	struct dp_profile *p = g->p;

	if (p->n_pd + 2 > g->cap_pd) {
		uint32_t cap = g->cap_pd ? g->cap_pd + g->cap_pd / 2 : 1u << 16;
		struct dp_pd *n = realloc(g->pd, (size_t)cap * sizeof(*n));
		uint32_t *c = realloc(g->creator, (size_t)cap * sizeof(*c));

		if (n)
			g->pd = n;
		if (c)
			g->creator = c;
		if (!n || !c)
			return 0;
		g->cap_pd = cap;
	}
	p->n_pd++;
	memset(&g->pd[p->n_pd], 0, sizeof(g->pd[0]));
	g->pd[p->n_pd].ps = ps;
	g->pd[p->n_pd].thread = g->thread;
	g->creator[p->n_pd] = creator;
	return p->n_pd;
}

/* A CSD with the counters of @calls calls of @callee (PD), its own work charged. */
static uint32_t gen_new_csd(struct dp_gen *g, uint32_t caller, uint32_t css, uint32_t callee,
			    uint64_t calls)
{
	struct dp_profile *p = g->p;
	struct dp_csd *d;
	uint32_t ps = g->pd[callee].ps;
	double e;

	if (p->n_csd + 2 > g->cap_csd) {
		uint32_t cap = g->cap_csd ? g->cap_csd + g->cap_csd / 2 : 1u << 16;
		struct dp_csd *n = realloc(g->csd, (size_t)cap * sizeof(*n));

		if (!n)
			return 0;
		g->csd = n;
		g->cap_csd = cap;
	}
	d = &g->csd[++p->n_csd];
	memset(d, 0, sizeof(*d));
	d->caller = caller;
	d->css = css;
	d->callee = callee;
	d->calls = calls;
	if (calls > 1 && cnt_unit(g) < 0.005)
		d->unwinds = calls / 20 + 1; /* longjmp or exceptions */
	d->exits = calls - d->unwinds;
	if (ps >= 3) {
		const struct dp_gen_fn *f = &g->fn[ps - 3];

		e = (double)calls * f->work_ns / 1e6; /* expected samples at 1000 Hz */
		d->samples = (uint64_t)e + (cnt_unit(g) < e - (double)(uint64_t)e);
		if (f->alloc_size) {
			d->allocs = calls * (1 + cnt_below(g, 2));
			d->alloc_bytes = d->allocs * f->alloc_size;
		}
	}
	return p->n_csd;
}

/* How many times a callee is called, given its caller's @act activations: a random walk
 * in log scale with a slight downward drift (deep contexts neither explode nor all run
 * once). */
static uint64_t gen_calls(struct dp_gen *g, uint64_t act)
{
	uint32_t r = cnt_below(g, 20);
	uint64_t c;

	if (r < 13)
		c = act / (1 + cnt_below(g, 8)); /* called conditionally */
	else if (r < 16)
		c = act * (1 + cnt_below(g, 3));
	else if (r < 19)
		c = act * (2 + cnt_below(g, 30)); /* a loop */
	else
		c = act * (20 + cnt_below(g, 500)); /* a hot loop */
	c = c ? c : 1;
	return c > GEN_MAX_CALLS ? GEN_MAX_CALLS : c;
}

/* Room for @n more budget entries. */
static int gen_budget_reserve(struct dp_gen *g, uint32_t n)
{
	if (g->n_budget + n > g->cap_budget) {
		uint32_t cap = (g->n_budget + n) * 2;
		uint64_t *b = realloc(g->budget, (size_t)cap * sizeof(*b));

		if (!b)
			return -1;
		g->budget = b;
		g->cap_budget = cap;
	}
	return 0;
}

/*
 * The budgets of frame @fr's pairs: recursive calls marked GEN_BACK (most are taken);
 * of the other pairs a random subset fitting the budget, each given one PD, and the rest
 * of the budget split very unevenly (weights u^20) among those whose callee calls
 * further: a few callees get nearly all of it, which makes some paths 100 to 200 deep.
 */
static void gen_split(struct dp_gen *g, struct dp_gen_frame *fr, const struct dp_gen_fn *f)
{
	uint64_t *b = g->budget + fr->bud, left = fr->budget - 1, taken = 0;
	double w[512], wsum = 0, p_take;
	uint32_t n = f->n_pairs, k = 0, best = UINT32_MAX;

	if (g->depth >= DP_GEN_MAX_DEPTH)
		left = 0;
	p_take = n ? (double)left / n : 0;
	p_take = p_take > 0.9 ? 0.9 : p_take < 0.05 ? 0.05 : p_take;
	for (uint32_t s = 0; s < f->n_sites; s++) {
		const struct dp_gen_site *site = &g->site[f->first_site + s];

		for (uint32_t j = 0; j < site->n; j++, k++) {
			uint32_t c = g->callee[site->first + j];

			b[k] = 0;
			w[k % 512] = 0;
			if (g->ps_top[c])
				b[k] = dp_gen_unit(g) < 0.85 ? GEN_BACK : 0;
			else if (taken < left && dp_gen_unit(g) < p_take) {
				b[k] = 1;
				taken++;
				if (g->fn[c - 3].n_pairs && k < 512) {
					double u = dp_gen_unit(g);

					w[k] = pow(u, 20.0) + 1e-300;
					wsum += w[k];
					if (best == UINT32_MAX || w[k] > w[best])
						best = k;
				}
			}
		}
	}
	left -= taken;
	if (best == UINT32_MAX) {
		fr->spare += left; /* nothing below can use it: handed up at the pop */
		return;
	}
	taken = 0;
	for (uint32_t i = 0; i < n && i < 512; i++) {
		uint64_t share = (uint64_t)((double)left * (w[i] / wsum));

		if (w[i] > 0 && share <= left - taken) {
			b[i] += share;
			taken += share;
		}
	}
	b[best] += left - taken;
}

/* Pushes a frame for the new PD @pd (of PS @ps) created by CSD @csd. */
static int gen_push(struct dp_gen *g, uint32_t pd, uint32_t csd, uint64_t act, uint64_t budget)
{
	uint32_t ps = g->pd[pd].ps;
	const struct dp_gen_fn *f = &g->fn[ps - 3];
	struct dp_gen_frame *fr = &g->stack[g->depth];

	if (gen_budget_reserve(g, f->n_pairs) < 0)
		return dp_error(DP_ENOMEM, "out of memory growing a context tree");
	*fr = (struct dp_gen_frame){.pd = pd,
				    .ps = ps,
				    .csd = csd,
				    .saved_top = g->ps_top[ps],
				    .bud = g->n_budget,
				    .pd_base = g->p->n_pd - 1,
				    .act = act,
				    .budget = budget};
	g->ps_top[ps] = pd;
	g->n_budget += f->n_pairs;
	g->depth++;
	g->depth_sum += g->depth;
	if (g->depth > g->max_depth_seen)
		g->max_depth_seen = g->depth;
	gen_split(g, fr, f);
	return 0;
}

/* Pops the top frame, handing its unused budget to its parent. */
static void gen_pop(struct dp_gen *g)
{
	struct dp_gen_frame *fr = &g->stack[--g->depth];
	uint64_t made = g->p->n_pd - fr->pd_base;

	g->ps_top[fr->ps] = fr->saved_top;
	g->n_budget = fr->bud;
	/* the unused budget, spare included (the subtree made fewer PDs than it could) */
	if (g->depth > 0 && fr->budget > made)
		g->stack[g->depth - 1].spare += fr->budget - made;
}

/* Visits pair @k of the top frame: site @css, callee PS @c. */
static int gen_visit(struct dp_gen *g, uint32_t css, uint32_t c, uint32_t k)
{
	struct dp_gen_frame *fr = &g->stack[g->depth - 1];
	uint64_t b = g->budget[fr->bud + k];
	uint32_t pd, csd;

	if (b == 0)
		return 0;
	if (b == GEN_BACK) {
		uint64_t calls = fr->act * (1 + cnt_below(g, 20));

		calls = calls > GEN_MAX_CALLS ? GEN_MAX_CALLS : calls;
		return gen_new_csd(g, fr->pd, css, g->ps_top[c], calls) ? 0 : -DP_ENOMEM;
	}
	if (g->fn[c - 3].n_pairs) {
		b += fr->spare;
		fr->spare = 0;
	}
	pd = gen_new_pd(g, c, g->p->n_csd + 1);
	csd = pd ? gen_new_csd(g, fr->pd, css, pd, gen_calls(g, fr->act)) : 0;
	if (!csd)
		return dp_error(DP_ENOMEM, "out of memory growing a context tree");
	return gen_push(g, pd, csd, g->csd[csd].calls, b);
}

/* Grows the tree below the entry PD @pd (created by @csd) within @budget PDs. */
static int gen_grow(struct dp_gen *g, uint32_t pd, uint32_t csd, uint64_t budget)
{
	int rc = gen_push(g, pd, csd, 1, budget);

	while (rc == 0 && g->depth > 0) {
		struct dp_gen_frame *fr = &g->stack[g->depth - 1];
		const struct dp_gen_fn *f = &g->fn[fr->ps - 3];
		uint32_t k = fr->next, css = f->first_site, j = k;

		if (k >= f->n_pairs) {
			gen_pop(g);
			continue;
		}
		fr->next++;
		while (j >= g->site[css].n) { /* the site holding pair k */
			j -= g->site[css].n;
			css++;
		}
		rc = gen_visit(g, css, g->callee[g->site[css].first + j], k);
	}
	return rc;
}

/* Thread @t: its root PD under the program root, its entry function and tree. */
static int gen_thread(struct dp_gen *g, uint32_t t, uint64_t budget)
{
	struct dp_thread *th = &g->p->threads[t];
	uint32_t root, entry, csd;

	g->thread = t;
	/* workers 1, 3, 5... run the same code (so the merged view merges them), as do
	 * workers 2, 4, 6...; their counters differ */
	if (t >= 2)
		g->rng = g->worker_rng[t % 2];
	root = gen_new_pd(g, 2, g->p->n_csd + 1);
	csd = root ? gen_new_csd(g, 1, 1, root, 1) : 0;
	if (!csd)
		return dp_error(DP_ENOMEM, "out of memory growing a context tree");
	g->csd[csd].exits = 0; /* the program root's calls never return */
	th->tid = 4000 + t;
	th->root_pd = root;
	th->start_ns = 1795306558000000000ull + t * 1000000ull;
	th->end_ns = t == 1 ? 0 : th->start_ns + 900000000ull;
	th->flags = t == 1 ? DP_THREAD_MAIN : DP_THREAD_ENDED;
	budget += g->p->n_pd;
	/* main (or worker_main), then, while budget is left, more top-level functions
	 * entered from the thread root (constructors, atexit handlers: a few of layer 1) */
	for (uint32_t i = 0; i < 64 && g->p->n_pd + 1 < budget; i++) {
		uint32_t fn = i == 0 ? (t == 1 ? 3 : 4) : g->lvl_first[1] + i - 1;
		int rc;

		if (fn >= g->lvl_first[2])
			break;
		entry = gen_new_pd(g, fn, g->p->n_csd + 1);
		csd = entry ? gen_new_csd(g, root, t == 1 ? 2 : 3, entry, 1) : 0;
		if (!csd)
			return dp_error(DP_ENOMEM, "out of memory growing a context tree");
		rc = gen_grow(g, entry, csd, budget - g->p->n_pd + 1);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* dp_gen_threads - contract in genprof.h. */
int dp_gen_threads(struct dp_gen *g)
{
	struct dp_profile *p = g->p;
	uint32_t nt = g->o.n_threads;
	uint64_t n = g->o.n_contexts, main_share = nt > 1 ? n * 2 / 5 : n;
	char name[32];
	int rc = 0;

	p->n_threads = nt;
	p->threads = dp_arena_array(&p->arena, (size_t)nt + 1, sizeof(*p->threads));
	g->ps_top = calloc((size_t)p->n_ps + 1, sizeof(*g->ps_top));
	if (!p->threads || !g->ps_top || !gen_new_pd(g, 1, 0))
		return dp_error(DP_ENOMEM, "out of memory growing a context tree");
	g->pd[1].thread = 0;
	p->root_pd = 1;
	g->crng = (dp_gen_next(g) ^ g->o.run * 0xD6E8FEB86659FD93u) | 1; /* --run: counters */
	g->worker_rng[0] = dp_gen_next(g) | 1;
	g->worker_rng[1] = dp_gen_next(g) | 1;
	for (uint32_t t = 1; t <= nt && rc == 0; t++) {
		uint64_t b = t == 1 ? main_share : (n - main_share) / (nt - 1);
		int64_t id;

		snprintf(name, sizeof(name), t == 1 ? "synthprog" : "worker-%u", t - 1);
		id = dp_strtab_intern_cstr(&p->strs, name);
		p->threads[t].name = id < 0 ? 0 : (uint32_t)id;
		rc = gen_thread(g, t, b > 3 ? b - 2 : 1);
	}
	return rc;
}
