/*
 * tests/unit/test_analysis_gen.c - the profile generators of test_analysis_gen.h. The
 * simulation mirrors runtime/rt_graph.c: a CSD per (caller PD, call site, callee
 * function), created on the first such call with the callee PD of the innermost active
 * activation of that function, else a new PD; counters as the hooks count them.
 */
#include "test_analysis_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "deepprof/format.h"

#define GEN_MAX_CALLEES 3

uint64_t dp_gen_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545F4914F6CDD1Du;
}

static uint32_t rnd(uint64_t *s, uint32_t n)
{
	return (uint32_t)((dp_gen_rand(s) >> 33) % n);
}

struct sim_site {
	uint32_t n_callees;
	uint32_t callee[GEN_MAX_CALLEES]; /* PS ids */
};

struct sim {
	const struct dp_gen_sim *g;
	uint64_t rng;
	struct dp_profile *p;
	uint32_t *first_site, *n_sites; /* per PS: CSS ids of its sites */
	struct sim_site *site;		/* per CSS */
	struct dp_pd *pd;
	struct dp_csd *csd;
	uint32_t n_pd, cap_pd, n_csd, cap_csd;
	uint32_t *tab; /* open addressing: CSD ids, 0 = empty */
	uint32_t n_tab;
	uint32_t *fpd, *fcsd, depth; /* shadow stack */
	uint32_t thread;
	uint32_t n_starts; /* distinct thread start functions; 0 = one per thread */
};

static uint32_t str(struct dp_profile *p, const char *s)
{
	int64_t id = dp_strtab_intern_cstr(&p->strs, s);

	return id < 0 ? 0 : (uint32_t)id;
}

static uint32_t hash3(uint32_t a, uint32_t b, uint32_t c)
{
	uint64_t h =
		(a * 0x9E3779B97F4A7C15u) ^ (b * 0xC2B2AE3D27D4EB4Fu) ^ (c * 0x165667B19E3779F9u);

	return (uint32_t)(h ^ (h >> 29));
}

static int tab_insert(struct sim *s, uint32_t id);

static int tab_grow(struct sim *s)
{
	uint32_t *old = s->tab, n_old = s->n_tab;

	s->n_tab = n_old ? n_old * 2 : 1024;
	s->tab = calloc(s->n_tab, sizeof(*s->tab));
	if (!s->tab)
		return -1;
	for (uint32_t i = 0; i < n_old; i++)
		if (old[i])
			tab_insert(s, old[i]);
	free(old);
	return 0;
}

static int tab_insert(struct sim *s, uint32_t id)
{
	const struct dp_csd *d = &s->csd[id];
	uint32_t h = hash3(d->caller, d->css, s->pd[d->callee].ps) & (s->n_tab - 1);

	while (s->tab[h])
		h = (h + 1) & (s->n_tab - 1);
	s->tab[h] = id;
	return 0;
}

static uint32_t tab_find(const struct sim *s, uint32_t caller, uint32_t css, uint32_t fn)
{
	uint32_t h = hash3(caller, css, fn) & (s->n_tab - 1);

	for (; s->tab[h]; h = (h + 1) & (s->n_tab - 1)) {
		const struct dp_csd *d = &s->csd[s->tab[h]];

		if (d->caller == caller && d->css == css && s->pd[d->callee].ps == fn)
			return s->tab[h];
	}
	return 0;
}

static uint32_t new_pd(struct sim *s, uint32_t ps, uint32_t thread)
{
	if (s->n_pd + 1 >= s->cap_pd) {
		struct dp_pd *n = realloc(s->pd, (size_t)s->cap_pd * 2 * sizeof(*n));

		if (!n)
			return 0;
		s->pd = n;
		s->cap_pd *= 2;
	}
	s->n_pd++;
	memset(&s->pd[s->n_pd], 0, sizeof(s->pd[0]));
	s->pd[s->n_pd].ps = ps;
	s->pd[s->n_pd].thread = thread;
	return s->n_pd;
}

static uint32_t new_csd(struct sim *s, uint32_t caller, uint32_t css, uint32_t callee)
{
	if (s->n_csd + 1 >= s->cap_csd) {
		struct dp_csd *n = realloc(s->csd, (size_t)s->cap_csd * 2 * sizeof(*n));

		if (!n)
			return 0;
		s->csd = n;
		s->cap_csd *= 2;
	}
	if ((s->n_csd + 1) * 2 > s->n_tab && tab_grow(s) < 0)
		return 0;
	s->n_csd++;
	memset(&s->csd[s->n_csd], 0, sizeof(s->csd[0]));
	s->csd[s->n_csd].caller = caller;
	s->csd[s->n_csd].css = css;
	s->csd[s->n_csd].callee = callee;
	tab_insert(s, s->n_csd);
	return s->n_csd;
}

/* A call from the top frame through @css to function @fn (the runtime's call port). */
static int sim_call(struct sim *s, uint32_t css, uint32_t fn)
{
	uint32_t caller = s->fpd[s->depth - 1], id = tab_find(s, caller, css, fn);

	if (!id) {
		uint32_t callee = 0;

		for (uint32_t k = s->depth; k-- > 1 && !callee;)
			if (s->pd[s->fpd[k]].ps == fn)
				callee = s->fpd[k];
		if (!callee)
			callee = new_pd(s, fn, s->thread);
		if (!callee)
			return -1;
		id = new_csd(s, caller, css, callee);
		if (!id)
			return -1;
	}
	s->csd[id].calls++;
	s->csd[s->fcsd[s->depth - 1]].callseqs++;
	s->fpd[s->depth] = s->csd[id].callee;
	s->fcsd[s->depth] = id;
	s->depth++;
	return 0;
}

static int sim_step(struct sim *s)
{
	const struct dp_gen_sim *g = s->g;
	uint32_t r = rnd(&s->rng, 100), top = s->fcsd[s->depth - 1];
	uint32_t ps = s->pd[s->fpd[s->depth - 1]].ps;

	if (rnd(&s->rng, 4) == 0)
		s->csd[top].samples++;
	if (rnd(&s->rng, 8) == 0) {
		s->csd[top].allocs++;
		s->csd[top].alloc_bytes += rnd(&s->rng, 1000);
	}
	if (s->depth == 1)
		return sim_call(s, 2, 3 + (s->thread - 1) % (s->n_starts ? s->n_starts : g->n_fn));
	if (r < g->pct_call && s->depth < g->max_depth && s->n_sites[ps]) {
		uint32_t css = s->first_site[ps] + rnd(&s->rng, s->n_sites[ps]);
		const struct sim_site *site = &s->site[css];

		return sim_call(s, css, site->callee[rnd(&s->rng, site->n_callees)]);
	}
	if (r >= 98 && s->depth > 2) { /* longjmp over a few frames */
		uint32_t k = 1 + rnd(&s->rng, s->depth - 2);

		while (k--)
			s->csd[s->fcsd[--s->depth]].unwinds++;
		return 0;
	}
	s->csd[s->fcsd[--s->depth]].exits++;
	return 0;
}

/* PSs, objects and the call sites of every function (0 to 3, each with 1 to 3 callees). */
static int sim_static(struct sim *s)
{
	struct dp_profile *p = s->p;
	uint32_t n_fn = s->g->n_fn, max_css = 3 + 3 * n_fn;
	char name[32];

	p->n_ps = 2 + n_fn;
	p->n_objects = 2;
	p->ps = dp_arena_array(&p->arena, (size_t)p->n_ps + 1, sizeof(*p->ps));
	p->css = dp_arena_array(&p->arena, max_css, sizeof(*p->css));
	p->objects = dp_arena_array(&p->arena, 3, sizeof(*p->objects));
	s->first_site = calloc((size_t)p->n_ps + 1, sizeof(uint32_t));
	s->n_sites = calloc((size_t)p->n_ps + 1, sizeof(uint32_t));
	s->site = calloc(max_css, sizeof(*s->site));
	if (!p->ps || !p->css || !p->objects || !s->first_site || !s->n_sites || !s->site)
		return dp_error(DP_ENOMEM, "out of memory generating a profile");
	p->objects[1].path = str(p, "/usr/bin/prog");
	p->objects[2].path = str(p, "/usr/lib/libx.so");
	p->ps[1].kind = DP_PS_ROOT;
	p->ps[2].kind = DP_PS_THREAD;
	p->css[1] = (struct dp_css){.ps = 1, .kind = DP_CSS_THREAD};
	p->css[2] = (struct dp_css){.ps = 2, .kind = DP_CSS_ENTRY};
	p->n_css = 2;
	for (uint32_t ps = 3; ps <= p->n_ps; ps++) {
		snprintf(name, sizeof(name), "fn%u", ps);
		p->ps[ps].addr = 0x1000u + 16u * ps;
		p->ps[ps].name = str(p, name);
		snprintf(name, sizeof(name), "mod%u.c", ps % 5);
		p->ps[ps].file = ps % 7 == 0 ? 0 : str(p, name);
		p->ps[ps].object = ps % 3;
		s->first_site[ps] = p->n_css + 1;
		s->n_sites[ps] = rnd(&s->rng, 4);
		for (uint32_t k = 0; k < s->n_sites[ps]; k++) {
			struct sim_site *site = &s->site[++p->n_css];
			int direct = rnd(&s->rng, 10) < 7;

			site->n_callees = direct ? 1 : 2 + rnd(&s->rng, 2);
			for (uint32_t j = 0; j < site->n_callees; j++)
				site->callee[j] = 3 + rnd(&s->rng, n_fn);
			p->css[p->n_css].ps = ps;
			p->css[p->n_css].addr = 0x100000u + 8u * p->n_css;
			p->css[p->n_css].kind = direct ? DP_CSS_DIRECT : DP_CSS_INDIRECT;
			p->css[p->n_css].callee_ps = direct ? site->callee[0] : 0;
		}
	}
	return 0;
}

static int sim_thread(struct sim *s, uint32_t t)
{
	struct dp_profile *p = s->p;
	uint32_t tpd = new_pd(s, 2, t), rcsd = tpd ? new_csd(s, 1, 1, tpd) : 0;
	char name[32];

	if (!rcsd)
		return dp_error(DP_ENOMEM, "out of memory generating a profile");
	s->csd[rcsd].calls = 1;
	snprintf(name, sizeof(name), "thread-%u", t);
	p->threads[t] = (struct dp_thread){.tid = 1000u + t, .name = str(p, name), .root_pd = tpd};
	s->thread = t;
	s->fpd[0] = tpd;
	s->fcsd[0] = rcsd;
	s->depth = 1;
	for (uint32_t i = 0; i < s->g->n_steps; i++)
		if (sim_step(s) < 0)
			return dp_error(DP_ENOMEM, "out of memory generating a profile");
	return 0;
}

static int sim_copy(struct sim *s)
{
	struct dp_profile *p = s->p;

	p->n_pd = s->n_pd;
	p->n_csd = s->n_csd;
	p->pd = dp_arena_array(&p->arena, (size_t)p->n_pd + 1, sizeof(*p->pd));
	p->csd = dp_arena_array(&p->arena, (size_t)p->n_csd + 1, sizeof(*p->csd));
	if (!p->pd || !p->csd)
		return dp_error(DP_ENOMEM, "out of memory generating a profile");
	memcpy(p->pd + 1, s->pd + 1, p->n_pd * sizeof(*p->pd));
	memcpy(p->csd + 1, s->csd + 1, p->n_csd * sizeof(*p->csd));
	return 0;
}

int dp_gen_simulate(struct dp_profile *p, const struct dp_gen_sim *g)
{
	return dp_gen_simulate_starts(p, g, 0);
}

int dp_gen_simulate_starts(struct dp_profile *p, const struct dp_gen_sim *g, uint32_t n_starts)
{
	struct sim s = {.g = g, .rng = g->seed * 2 + 1, .p = p, .cap_pd = 1024, .cap_csd = 1024};
	int rc = dp_profile_init(p);

	if (rc < 0)
		return rc;
	s.n_starts = n_starts < g->n_fn ? n_starts : 0;
	p->version = DP_FMT_VERSION;
	p->root_pd = 1;
	p->n_threads = g->n_threads;
	p->threads = dp_arena_array(&p->arena, (size_t)g->n_threads + 1, sizeof(*p->threads));
	s.pd = malloc(s.cap_pd * sizeof(*s.pd));
	s.csd = malloc(s.cap_csd * sizeof(*s.csd));
	s.fpd = malloc(((size_t)g->max_depth + 1) * sizeof(uint32_t));
	s.fcsd = malloc(((size_t)g->max_depth + 1) * sizeof(uint32_t));
	if (!p->threads || !s.pd || !s.csd || !s.fpd || !s.fcsd || tab_grow(&s) < 0)
		rc = dp_error(DP_ENOMEM, "out of memory generating a profile");
	if (rc == 0)
		rc = sim_static(&s);
	if (rc == 0 && new_pd(&s, 1, 0) != 1)
		rc = dp_error(DP_ENOMEM, "out of memory generating a profile");
	for (uint32_t t = 1; rc == 0 && t <= g->n_threads; t++)
		rc = sim_thread(&s, t);
	if (rc == 0)
		rc = sim_copy(&s);
	free(s.first_site);
	free(s.n_sites);
	free(s.site);
	free(s.pd);
	free(s.csd);
	free(s.tab);
	free(s.fpd);
	free(s.fcsd);
	if (rc < 0)
		dp_profile_release(p);
	return rc;
}

static void wild_csd(struct dp_profile *p, uint64_t *rng, uint32_t caller, uint32_t callee)
{
	uint32_t id = ++p->n_csd;
	struct dp_csd *d = &p->csd[id];

	p->css[id] = (struct dp_css){.ps = p->pd[caller].ps, .kind = DP_CSS_DIRECT};
	p->n_css = id;
	*d = (struct dp_csd){.caller = caller, .css = id, .callee = callee};
	d->calls = 1 + rnd(rng, 100);
	d->exits = rnd(rng, 100);
	d->unwinds = rnd(rng, 3);
	d->samples = rnd(rng, 1000);
	d->callseqs = rnd(rng, 1000);
	d->allocs = rnd(rng, 10);
	d->alloc_bytes = rnd(rng, 100000);
}

int dp_gen_wild(struct dp_profile *p, uint64_t seed, uint32_t n_pd, uint32_t n_extra, int orphans)
{
	uint64_t rng = seed * 2 + 1;
	uint32_t max_csd = n_pd + n_extra;
	int rc = dp_profile_init(p);

	if (rc < 0)
		return rc;
	p->root_pd = 1;
	p->n_ps = 9;
	p->n_pd = n_pd;
	p->ps = dp_arena_array(&p->arena, (size_t)p->n_ps + 1, sizeof(*p->ps));
	p->pd = dp_arena_array(&p->arena, (size_t)n_pd + 1, sizeof(*p->pd));
	p->css = dp_arena_array(&p->arena, (size_t)max_csd + 1, sizeof(*p->css));
	p->csd = dp_arena_array(&p->arena, (size_t)max_csd + 1, sizeof(*p->csd));
	if (!p->ps || !p->pd || !p->css || !p->csd) {
		dp_profile_release(p);
		return dp_error(DP_ENOMEM, "out of memory generating a profile");
	}
	p->ps[1].kind = DP_PS_ROOT;
	p->pd[1].ps = 1;
	for (uint32_t i = 2; i <= n_pd; i++) {
		p->pd[i].ps = 2 + rnd(&rng, 8);
		p->pd[i].thread = 1;
	}
	for (uint32_t i = 2; i <= n_pd; i++)
		if (!orphans || rnd(&rng, 10) != 0)
			wild_csd(p, &rng, 1 + rnd(&rng, i - 1), i);
	for (uint32_t k = 0; k < n_extra; k++)
		wild_csd(p, &rng, 1 + rnd(&rng, n_pd), 1 + rnd(&rng, n_pd));
	return 0;
}
