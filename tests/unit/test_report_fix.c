/*
 * tests/unit/test_report_fix.c - the fixture profile of the report tests and helpers
 * that build reports from query strings (see test_report_fix.h).
 */
#include "test_report_fix.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/err.h"
#include "deepprof/format.h"
#include "query/query.h"

static uint32_t str(struct dp_profile *p, const char *s)
{
	int64_t id = dp_strtab_intern_cstr(&p->strs, s);

	return id < 0 ? 0 : (uint32_t)id;
}

/* name, file, line of each PS */
static const struct {
	const char *name, *file;
	uint32_t line;
} tf_ps[TF_N_PS + 1] = {
	[TF_MAIN] = {"main", "src/main.c", 10},	 [TF_FIB] = {"fib", "src/fib.c", 5},
	[TF_WORK] = {"work", "src/work.c", 20},	 [TF_CHEAP] = {"cheap", "src/util.c", 3},
	[TF_CB1] = {"cb1", "src/cb.c", 1},	 [TF_CB2] = {"cb2", "src/cb.c", 9},
	[TF_EVEN] = {"is_even", "src/mut.c", 1}, [TF_ODD] = {"is_odd", "src/mut.c", 8},
	[TF_DUP_A] = {"dup", "src/a.c", 1},	 [TF_DUP_B] = {"dup", "src/b.c", 1},
};

/* PS of each PD */
static const uint32_t tf_pd_ps[] = {0,	      TF_ROOT, TF_THREAD, TF_MAIN, TF_FIB, TF_WORK,
				    TF_CHEAP, TF_CB1,  TF_CB2,	  TF_EVEN, TF_ODD, TF_CHEAP};
#define TF_N_PD 11u

/* CSS: caller PS, kind, line, static callee (files are the caller's) */
static const struct {
	uint32_t ps, kind, line, callee;
} tf_css[] = {
	{0, 0, 0, 0},
	{TF_ROOT, DP_CSS_THREAD, 0, TF_THREAD}, /* 1 */
	{TF_THREAD, DP_CSS_ENTRY, 0, TF_MAIN},	/* 2 */
	{TF_MAIN, DP_CSS_DIRECT, 11, TF_FIB},	/* 3 */
	{TF_MAIN, DP_CSS_DIRECT, 12, TF_WORK},	/* 4 */
	{TF_MAIN, DP_CSS_INDIRECT, 13, 0},	/* 5 */
	{TF_MAIN, DP_CSS_DIRECT, 14, TF_EVEN},	/* 6 */
	{TF_FIB, DP_CSS_DIRECT, 6, TF_FIB},	/* 7 */
	{TF_WORK, DP_CSS_DIRECT, 21, TF_CHEAP}, /* 8 */
	{TF_EVEN, DP_CSS_DIRECT, 2, TF_ODD},	/* 9 */
	{TF_ODD, DP_CSS_DIRECT, 9, TF_EVEN},	/* 10 */
	{TF_MAIN, DP_CSS_DIRECT, 15, TF_CHEAP}, /* 11 */
	{TF_FIB, DP_CSS_DIRECT, 7, TF_CHEAP},	/* 12: never used */
};
#define TF_N_CSS 12u

/* CSD: caller PD, css, callee PD, calls, samples */
static const uint32_t tf_csd[][5] = {
	{0, 0, 0, 0, 0},  {1, 1, 2, 1, 0},   {2, 2, 3, 1, 2},	{3, 3, 4, 1, 5}, {4, 7, 4, 20, 15},
	{3, 4, 5, 1, 1},  {5, 8, 6, 10, 40}, {3, 5, 7, 3, 3},	{3, 5, 8, 2, 4}, {3, 6, 9, 1, 1},
	{9, 9, 10, 5, 5}, {10, 10, 9, 4, 4}, {3, 11, 11, 1, 1},
};
#define TF_N_CSD 12u

int tf_build(struct dp_profile *p)
{
	if (dp_profile_init(p) < 0)
		return -1;
	p->root_pd = 1;
	p->sample_period_ns = 1000000;
	p->n_ps = TF_N_PS;
	p->n_pd = TF_N_PD;
	p->n_css = TF_N_CSS;
	p->n_csd = TF_N_CSD;
	p->n_threads = 1;
	p->ps = dp_arena_array(&p->arena, p->n_ps + 1, sizeof(*p->ps));
	p->pd = dp_arena_array(&p->arena, p->n_pd + 1, sizeof(*p->pd));
	p->css = dp_arena_array(&p->arena, p->n_css + 1, sizeof(*p->css));
	p->csd = dp_arena_array(&p->arena, p->n_csd + 1, sizeof(*p->csd));
	p->threads = dp_arena_array(&p->arena, 2, sizeof(*p->threads));
	if (!p->ps || !p->pd || !p->css || !p->csd || !p->threads)
		return -1;
	p->threads[1].tid = 7;
	p->threads[1].name = str(p, "main");
	p->threads[1].root_pd = 2;
	p->ps[TF_ROOT].kind = DP_PS_ROOT;
	p->ps[TF_THREAD].kind = DP_PS_THREAD;
	for (uint32_t i = TF_MAIN; i <= TF_N_PS; i++) {
		p->ps[i].kind = DP_PS_FUNCTION;
		p->ps[i].addr = 0x1000 + 16 * i;
		p->ps[i].name = str(p, tf_ps[i].name);
		p->ps[i].file = str(p, tf_ps[i].file);
		p->ps[i].line = tf_ps[i].line;
		p->ps[i].linkage = DP_LINK_GLOBAL;
	}
	for (uint32_t i = 1; i <= TF_N_PD; i++) {
		p->pd[i].ps = tf_pd_ps[i];
		p->pd[i].thread = i == 1 ? 0 : 1;
	}
	for (uint32_t i = 1; i <= TF_N_CSS; i++) {
		p->css[i].ps = tf_css[i].ps;
		p->css[i].kind = tf_css[i].kind;
		p->css[i].addr = 0x2000 + 4 * i;
		p->css[i].line = tf_css[i].line;
		p->css[i].callee_ps = tf_css[i].callee;
		if (tf_css[i].line)
			p->css[i].file = p->ps[tf_css[i].ps].file;
	}
	for (uint32_t i = 1; i <= TF_N_CSD; i++) {
		uint64_t s = tf_csd[i][4];

		p->csd[i] = (struct dp_csd){.caller = tf_csd[i][0],
					    .css = tf_csd[i][1],
					    .callee = tf_csd[i][2],
					    .calls = tf_csd[i][3],
					    .exits = tf_csd[i][3],
					    .samples = s,
					    .callseqs = 10 * s,
					    .allocs = s,
					    .alloc_bytes = 8 * s};
	}
	return 0;
}

int tf_open(struct tf_ctx *t, int (*gen)(struct dp_profile *p))
{
	int err = 0;

	memset(t, 0, sizeof(*t));
	if ((gen ? gen : tf_build)(&t->p) < 0)
		return -1;
	t->a = dp_analysis_new(&t->p, &err);
	if (!t->a) {
		fprintf(stderr, "dp_analysis_new: %s\n", dp_errmsg());
		return -1;
	}
	t->c.p = &t->p;
	t->c.a = t->a;
	return 0;
}

void tf_close(struct tf_ctx *t)
{
	dp_analysis_free(t->a);
	dp_profile_release(&t->p);
}

struct dp_report *tf_report(struct tf_ctx *t, const char *qs, int *rc, int quiet)
{
	struct dp_query q;
	struct dp_report *r = NULL;
	int e = dp_query_parse(qs, t->a->root_total.samples > 10, &q);

	if (e == 0)
		e = dp_report_build(&t->c, &q, &r);
	if (rc)
		*rc = e;
	if (e < 0 && !quiet)
		fprintf(stderr, "query '%s': %s\n", qs, dp_errmsg());
	return e < 0 ? NULL : r;
}

struct dp_report *tf_page(struct tf_ctx *t, const char *fmt, ...)
{
	char qs[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(qs, sizeof(qs), fmt, ap);
	va_end(ap);
	return tf_report(t, qs, NULL, 0);
}

const struct dp_rep_section *tf_section(const struct dp_report *r, const char *id)
{
	for (uint32_t i = 0; i < r->n_sections; i++)
		if (strcmp(r->sections[i].id, id) == 0)
			return &r->sections[i];
	return NULL;
}

uint64_t tf_fact(const struct dp_report *r, const char *key)
{
	for (uint32_t i = 0; i < r->n_facts; i++)
		if (strcmp(r->facts[i].key, key) == 0)
			return r->facts[i].u;
	return UINT64_MAX;
}

uint32_t tf_clique_of(const struct tf_ctx *t, uint32_t pd)
{
	return t->a->pd_clique[pd];
}

struct dp_gen_sim tf_sim;

int tf_gen_sim(struct dp_profile *p)
{
	return dp_gen_simulate(p, &tf_sim);
}
