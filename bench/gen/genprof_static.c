/*
 * bench/gen/genprof_static.c - the static half of a synthetic profile: objects, modules
 * (source files), functions in layers with names, lines and addresses, and their call
 * sites (direct, indirect with several callees, self and mutual recursion), with callee
 * popularity skewed as in real programs (a few helpers called from everywhere).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "deepprof/format.h"
#include "genprof.h"

#define GEN_N_OBJ 6 /* the executable, four libraries, libc */

static const char *const gen_dirs[] = {"core", "net", "io", "db", "ui", "util", "parse", "gfx"};
static const char *const gen_pre[] = {"buf",   "hash", "list", "tree",	"conn", "req", "page",
				      "cache", "lex",  "ast",  "vm",	"mem",	"str", "file",
				      "sock",  "tbl",  "img",  "sched", "log",	"cfg"};
static const char *const gen_verb[] = {
	"init", "free",	 "get",	  "set",   "parse", "emit",  "find",  "add",   "del",	 "grow",
	"read", "write", "flush", "check", "merge", "split", "visit", "apply", "encode", "decode"};
static const char *const gen_noun[] = {"node", "entry", "item",	 "key",	  "block", "header",
				       "slot", "range", "token", "frame", "chunk", "state",
				       "ctx",  "attr",	"field", "index", "value", "list"};

#define GEN_NELEM(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

/* dp_gen_next - contract in genprof.h. */
uint64_t dp_gen_next(struct dp_gen *g)
{
	uint64_t x = g->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	g->rng = x;
	return x * 0x2545F4914F6CDD1Du;
}

/* dp_gen_below - contract in genprof.h. */
uint32_t dp_gen_below(struct dp_gen *g, uint32_t n)
{
	return (uint32_t)((dp_gen_next(g) >> 32) % n);
}

/* dp_gen_unit - contract in genprof.h. */
double dp_gen_unit(struct dp_gen *g)
{
	return (double)(dp_gen_next(g) >> 11) * (1.0 / 9007199254740992.0);
}

/* An exponentially distributed value of mean @mean. */
static double gen_exp(struct dp_gen *g, double mean)
{
	return -log(1.0 - dp_gen_unit(g)) * mean;
}

static uint32_t gen_str(struct dp_gen *g, const char *s)
{
	int64_t id = dp_strtab_intern_cstr(&g->p->strs, s);

	return id < 0 ? 0 : (uint32_t)id;
}

/* The objects: paths, load biases and one text segment each (sized at the end). */
static int gen_objects(struct dp_gen *g)
{
	struct dp_profile *p = g->p;
	char path[96];

	p->n_objects = GEN_N_OBJ;
	p->n_segs = GEN_N_OBJ;
	p->objects = dp_arena_array(&p->arena, GEN_N_OBJ + 1, sizeof(*p->objects));
	p->segs = dp_arena_array(&p->arena, GEN_N_OBJ, sizeof(*p->segs));
	if (!p->objects || !p->segs)
		return dp_error(DP_ENOMEM, "out of memory generating objects");
	for (uint32_t i = 1; i <= GEN_N_OBJ; i++) {
		struct dp_object *o = &p->objects[i];

		if (i == 1)
			snprintf(path, sizeof(path), "/usr/bin/synthprog");
		else if (i < GEN_N_OBJ)
			snprintf(path, sizeof(path), "/usr/lib/x86_64-linux-gnu/libsynth%u.so.1",
				 i - 1);
		else
			snprintf(path, sizeof(path), "/lib/x86_64-linux-gnu/libc.so.6");
		o->path = gen_str(g, path);
		o->bias = i == 1 ? 0x555555554000u : 0x7f0000000000u + ((uint64_t)i << 32);
		o->build_id_len = 20;
		for (uint32_t k = 0; k < 20; k++)
			o->build_id[k] = (uint8_t)dp_gen_next(g);
		o->first_seg = i - 1;
		o->n_segs = 1;
		p->segs[i - 1].start = o->bias + 0x1000u;
		p->segs[i - 1].size = 0x1000u;
		p->segs[i - 1].flags = 5; /* r-x */
	}
	return 0;
}

/* Room for @n more CSSs and @m more callee entries. */
static int gen_reserve(struct dp_gen *g, uint32_t n, uint32_t m)
{
	struct dp_profile *p = g->p;

	if (p->n_css + n + 1 > g->cap_css) {
		uint32_t cap = (p->n_css + n + 1) * 2;
		struct dp_css *c = realloc(p->css, (size_t)cap * sizeof(*c));
		struct dp_gen_site *s = realloc(g->site, (size_t)cap * sizeof(*s));

		if (c)
			p->css = c;
		if (s)
			g->site = s;
		if (!c || !s)
			return dp_error(DP_ENOMEM, "out of memory generating call sites");
		g->cap_css = cap;
	}
	if (g->n_callee + m > g->cap_callee) {
		uint32_t cap = (g->n_callee + m) * 2;
		uint32_t *c = realloc(g->callee, (size_t)cap * sizeof(*c));

		if (!c)
			return dp_error(DP_ENOMEM, "out of memory generating call sites");
		g->callee = c;
		g->cap_callee = cap;
	}
	return 0;
}

/* A callee for a site of a function at @level: usually a few layers down, sometimes a
 * popular helper at the bottom; within a layer, low indices are much more popular. */
static uint32_t gen_pick(struct dp_gen *g, uint32_t level)
{
	uint32_t t = level + 1 + (dp_gen_unit(g) < 0.7 ? 0 : (uint32_t)gen_exp(g, 1.5)), n;
	double u = dp_gen_unit(g);

	if (dp_gen_unit(g) < 0.08)
		t = DP_GEN_LEVELS - 1 - dp_gen_below(g, 4);
	if (t >= DP_GEN_LEVELS)
		t = DP_GEN_LEVELS - 1;
	n = g->lvl_first[t + 1] - g->lvl_first[t];
	return g->lvl_first[t] + (uint32_t)((double)n * u * u * u);
}

/* Appends a site of PS @ps with the callees @cs[0..n) (duplicates dropped). */
static int gen_site(struct dp_gen *g, uint32_t ps, const uint32_t *cs, uint32_t n)
{
	struct dp_profile *p = g->p;
	struct dp_gen_fn *f = &g->fn[ps - 3];
	struct dp_gen_site *s;
	uint32_t id;

	if (gen_reserve(g, 1, n) < 0)
		return -DP_ENOMEM;
	id = ++p->n_css;
	s = &g->site[id];
	s->first = g->n_callee;
	s->n = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = 0;

		while (k < s->n && g->callee[s->first + k] != cs[i])
			k++;
		if (k == s->n)
			g->callee[s->first + s->n++] = cs[i];
	}
	g->n_callee += s->n;
	f->n_sites++;
	f->n_pairs += s->n;
	memset(&p->css[id], 0, sizeof(p->css[id]));
	p->css[id].ps = ps;
	p->css[id].kind = s->n > 1 ? DP_CSS_INDIRECT : DP_CSS_DIRECT;
	p->css[id].callee_ps = s->n > 1 ? 0 : cs[0];
	return 0;
}

/* The call sites of function @ps; @back[ps - 3] is a function to call back (mutual
 * recursion), @back2 the back edges handed down to make three-function cycles. */
static int gen_sites(struct dp_gen *g, uint32_t ps, uint32_t *back)
{
	struct dp_gen_fn *f = &g->fn[ps - 3];
	uint32_t n, cs[8];
	double u = dp_gen_unit(g);

	f->first_site = g->p->n_css + 1;
	if (ps <= 4)
		n = ps == 3 ? 48 : 24; /* main and the worker: dispatchers */
	else if (f->level >= DP_GEN_LEVELS - 2 || u < 0.15)
		n = 0;
	else
		n = 1 + (uint32_t)gen_exp(g, 2.5);
	n = n > 40 && ps > 4 ? 40 : n;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = dp_gen_unit(g) < 0.1 ? 2 + dp_gen_below(g, 6) : 1;

		for (uint32_t j = 0; j < k; j++)
			cs[j] = gen_pick(g, f->level);
		if (gen_site(g, ps, cs, k) < 0)
			return -DP_ENOMEM;
		/* the callee of a direct site may call back: mutual recursion */
		if (k == 1 && ps > 4 && dp_gen_unit(g) < 0.03 && !back[cs[0] - 3])
			back[cs[0] - 3] = ps;
	}
	if (back[ps - 3]) {
		uint32_t to = back[ps - 3];
		uint32_t last = g->p->n_css;

		/* a three-function cycle: hand the back edge to a direct callee instead */
		if (n > 0 && g->site[last].n == 1 && dp_gen_unit(g) < 0.3 &&
		    !back[g->callee[g->site[last].first] - 3])
			back[g->callee[g->site[last].first] - 3] = to;
		else if (gen_site(g, ps, &to, 1) < 0)
			return -DP_ENOMEM;
	}
	if (n > 0 && ps > 4 && dp_gen_unit(g) < 0.04 && gen_site(g, ps, &ps, 1) < 0)
		return -DP_ENOMEM; /* self recursion */
	return 0;
}

/* Names, module, object, address and line of every function; positions of its sites. */
static int gen_symbols(struct dp_gen *g)
{
	struct dp_profile *p = g->p;
	uint32_t n_mod = g->n_fn / 24 < 8 ? 8 : g->n_fn / 24;
	uint32_t *mod_file = calloc(n_mod, sizeof(*mod_file));
	uint32_t *mod_line = calloc(n_mod, sizeof(*mod_line));
	uint64_t cursor[GEN_N_OBJ + 1];
	char buf[128];

	if (!mod_file || !mod_line) {
		free(mod_file);
		free(mod_line);
		return dp_error(DP_ENOMEM, "out of memory generating symbols");
	}
	for (uint32_t m = 0; m < n_mod; m++) {
		snprintf(buf, sizeof(buf), "src/%s/%s_%s%u.c", gen_dirs[m % GEN_NELEM(gen_dirs)],
			 gen_pre[(m / 8) % GEN_NELEM(gen_pre)], gen_noun[m % GEN_NELEM(gen_noun)],
			 m);
		mod_file[m] = gen_str(g, buf);
		mod_line[m] = 10;
	}
	for (uint32_t i = 1; i <= GEN_N_OBJ; i++)
		cursor[i] = p->segs[i - 1].start;
	for (uint32_t ps = 3; ps <= p->n_ps; ps++) {
		struct dp_ps *s = &p->ps[ps];
		const struct dp_gen_fn *f = &g->fn[ps - 3];
		uint32_t m = dp_gen_below(g, n_mod), obj = m * 10 < n_mod * 7 ? 1 : 2 + m % 4;
		uint32_t size = 32 + 16 * f->n_sites + dp_gen_below(g, 1024);

		s->kind = DP_PS_FUNCTION;
		s->linkage = ps > 4 && dp_gen_unit(g) < 0.3 ? DP_LINK_STATIC : DP_LINK_GLOBAL;
		if (ps <= 4)
			snprintf(buf, sizeof(buf), "%s", ps == 3 ? "main" : "worker_main");
		else if (s->linkage == DP_LINK_STATIC)
			snprintf(buf, sizeof(buf), "%s_%s", gen_verb[dp_gen_below(g, 20)],
				 gen_noun[dp_gen_below(g, GEN_NELEM(gen_noun))]);
		else
			snprintf(buf, sizeof(buf), "%s_%s_%s_%u",
				 gen_pre[dp_gen_below(g, GEN_NELEM(gen_pre))],
				 gen_verb[dp_gen_below(g, 20)],
				 gen_noun[dp_gen_below(g, GEN_NELEM(gen_noun))], ps);
		s->name = gen_str(g, buf);
		s->file = mod_file[m];
		s->line = mod_line[m];
		s->object = obj;
		s->addr = cursor[obj];
		cursor[obj] += (size + 15) & ~15u;
		for (uint32_t k = 0; k < f->n_sites; k++) {
			struct dp_css *c = &p->css[f->first_site + k];

			c->addr = s->addr + 8 + 12 * k;
			c->file = s->file;
			c->line = s->line + 2 + 3 * k;
		}
		mod_line[m] += 8 + 3 * f->n_sites;
	}
	for (uint32_t i = 1; i <= GEN_N_OBJ; i++)
		p->segs[i - 1].size = cursor[i] - p->segs[i - 1].start + 0x100;
	free(mod_file);
	free(mod_line);
	return 0;
}

/* The number of functions for a profile of @n contexts: thousands, growing slowly. */
static uint32_t gen_n_fn(uint64_t n)
{
	uint64_t f = 1500 + n / 160;

	return f > 60000 ? 60000 : (uint32_t)f;
}

/* dp_gen_static - contract in genprof.h. */
int dp_gen_static(struct dp_gen *g)
{
	struct dp_profile *p = g->p;
	uint32_t *back;
	int rc;

	g->n_fn = gen_n_fn(g->o.n_contexts);
	p->n_ps = g->n_fn + 2;
	p->ps = dp_arena_array(&p->arena, (size_t)p->n_ps + 1, sizeof(*p->ps));
	g->fn = calloc(g->n_fn, sizeof(*g->fn));
	back = calloc(g->n_fn, sizeof(*back));
	if (!p->ps || !g->fn || !back || gen_reserve(g, 2, 16) < 0) {
		free(back);
		return dp_error(DP_ENOMEM, "out of memory generating functions");
	}
	p->ps[1].kind = DP_PS_ROOT;
	p->ps[2].kind = DP_PS_THREAD;
	/* CSS 1: root -> thread; 2: thread -> main; 3: thread -> worker (pthread) */
	p->n_css = 3;
	memset(&p->css[1], 0, 3 * sizeof(p->css[1]));
	p->css[1].ps = 1;
	p->css[1].kind = DP_CSS_THREAD;
	p->css[2] = (struct dp_css){.ps = 2, .kind = DP_CSS_ENTRY, .addr = 0x7f060002924a};
	p->css[3] = (struct dp_css){.ps = 2, .kind = DP_CSS_ENTRY, .addr = 0x7f06000931f5};
	/* layers: main and the worker on 0, the others spread evenly over 1..LEVELS-1 */
	g->lvl_first[0] = 3;
	for (uint32_t l = 1; l <= DP_GEN_LEVELS; l++)
		g->lvl_first[l] =
			5 + (uint32_t)((uint64_t)(g->n_fn - 2) * (l - 1) / (DP_GEN_LEVELS - 1));
	for (uint32_t l = 0; l < DP_GEN_LEVELS; l++)
		for (uint32_t ps = g->lvl_first[l]; ps < g->lvl_first[l + 1]; ps++) {
			struct dp_gen_fn *f = &g->fn[ps - 3];

			f->level = l;
			f->work_ns = 5 + (uint32_t)gen_exp(g, 60);
			if (dp_gen_unit(g) < 0.02)
				f->work_ns *= 50;
			if (dp_gen_unit(g) < 0.1)
				f->alloc_size = 16u << dp_gen_below(g, 9);
		}
	rc = 0;
	for (uint32_t ps = 3; ps <= p->n_ps && rc == 0; ps++)
		rc = gen_sites(g, ps, back);
	free(back);
	if (rc == 0)
		rc = gen_objects(g);
	return rc == 0 ? gen_symbols(g) : rc;
}
