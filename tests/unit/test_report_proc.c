/*
 * tests/unit/test_report_proc.c - the proc, callers and site pages: exact rows of the
 * fixture (a function cheap from one caller and expensive from another, self-recursion
 * left out, an indirect site with two callees, never-used sites), every grouping,
 * sorting, pagination, contour exclusion and errors; a procedure with 100,000 callers;
 * and properties on generated profiles (callers sums equal the proc page's summary).
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/contour.h"
#include "core/err.h"
#include "deepprof/format.h"
#include "harness.h"
#include "query/query.h"
#include "report/flame_index.h"
#include "report/report_int.h"
#include "test_analysis_gen.h"
#include "test_report_fix.h"

TEST(proc_pages)
{
	struct tf_ctx t;
	struct dp_report *r;
	const struct dp_rep_section *s;

	TF_OPEN(&t, NULL);
	r = tf_page(&t, "page=proc&id=%u&sort=source", TF_CHEAP);
	CHECK(r != NULL);
	if (r) {
		CHECK_STR(r->title, "Procedure 6: cheap");
		CHECK_EQ(r->subject.kind, DP_ENT_PS);
		CHECK_EQ(r->subject.own.samples, 41);
		CHECK_EQ(r->subject.own.calls, 11);
		s = tf_section(r, "callers");
		CHECK_EQ(s->n_rows, 1);
		CHECK_EQ(s->rows[0].kind, DP_ENT_NONE);
		CHECK_EQ(s->rows[0].flags, DP_ROW_SUM);
		CHECK_EQ(s->rows[0].n, 2);
		CHECK_EQ(s->rows[0].own.samples, 41);
		CHECK_EQ(tf_fact(r, "caller_procs"), 2);
		CHECK_EQ(tf_fact(r, "caller_csds"), 2);
		CHECK_EQ(tf_fact(r, "self_csds"), 0);
		CHECK_EQ(tf_fact(r, "pds"), 2);
		CHECK_EQ(tf_section(r, "sites")->n_rows, 0);
		CHECK_EQ(r->n_links, 3);
		CHECK_EQ(r->links[0].q->page, DP_PAGE_CALLERS);
		CHECK_EQ(r->links[0].q->proc, TF_CHEAP);
		CHECK_EQ(r->links[1].q->page, DP_PAGE_MODULE);
		CHECK_EQ(r->links[1].q->id, t.a->ps_module[TF_CHEAP]);
		CHECK_EQ(r->links[2].q->page, DP_PAGE_FLAME_CALLERS);
		dp_report_free(r);
	}
	/* fib by name: the self-recursive call is not a caller */
	r = tf_report(&t, "page=proc&name=fib", NULL, 0);
	CHECK(r != NULL);
	if (r) {
		CHECK_EQ(r->subject.id, TF_FIB);
		CHECK_EQ(tf_fact(r, "caller_procs"), 1);
		CHECK_EQ(tf_fact(r, "caller_csds"), 1);
		CHECK_EQ(tf_fact(r, "self_csds"), 1);
		CHECK_EQ(tf_section(r, "callers")->rows[0].own.samples, 5);
		s = tf_section(r, "sites");
		CHECK_EQ(s->n_rows, 2);
		CHECK_EQ(s->rows[0].id, 7);
		CHECK_STR(s->rows[0].name, "fib");
		CHECK_EQ(s->rows[0].own.samples, 15);
		CHECK_EQ(s->rows[1].id, 12);
		CHECK_EQ(s->rows[1].flags, DP_ROW_INACTIVE);
		dp_report_free(r);
	}
	/* main: the indirect site lists its two callee procedures */
	r = tf_page(&t, "page=proc&id=%u&sort=source", TF_MAIN);
	CHECK(r != NULL);
	if (r) {
		static const uint32_t kind[] = {DP_ENT_CSS, DP_ENT_CSS, DP_ENT_CSS, DP_ENT_PS,
						DP_ENT_PS,  DP_ENT_CSS, DP_ENT_CSS};
		static const uint32_t id[] = {3, 4, 5, TF_CB1, TF_CB2, 6, 11};
		static const uint64_t samples[] = {20, 41, 7, 3, 4, 10, 1};

		s = tf_section(r, "sites");
		CHECK_EQ(s->n_rows, 7);
		for (uint32_t i = 0; i < 7 && i < s->n_rows; i++) {
			CHECK_EQ(s->rows[i].kind, kind[i]);
			CHECK_EQ(s->rows[i].id, id[i]);
			CHECK_EQ(s->rows[i].own.samples + s->rows[i].desc.samples, samples[i]);
			CHECK_EQ(s->rows[i].depth, kind[i] == DP_ENT_PS);
		}
		CHECK_EQ(s->rows[2].flags, DP_ROW_MULTI);
		CHECK_EQ(s->rows[3].flags, DP_ROW_SUM);
		CHECK_EQ(s->rows[3].css, 5);
		CHECK_STR(s->rows[3].name, "cb.c: cb1");
		CHECK_EQ(tf_fact(r, "caller_procs"), 1);
		dp_report_free(r);
	}
	tf_close(&t);
}

TEST(proc_errors)
{
	struct tf_ctx t;
	int rc;

	TF_OPEN(&t, NULL);
	CHECK(tf_report(&t, "page=proc&name=dup", &rc, 1) == NULL);
	CHECK_EQ(rc, -DP_EUSAGE);
	CHECK(strstr(dp_errmsg(), "id=11") != NULL);
	CHECK(tf_report(&t, "page=proc&name=nope", &rc, 1) == NULL);
	CHECK_EQ(rc, -DP_ENOENT);
	CHECK(tf_report(&t, "page=proc&id=13", &rc, 1) == NULL);
	CHECK_EQ(rc, -DP_ENOENT);
	CHECK(strstr(dp_errmsg(), "1..12") != NULL);
	CHECK(tf_report(&t, "page=site&id=13", &rc, 1) == NULL);
	CHECK_EQ(rc, -DP_ENOENT);
	CHECK(tf_report(&t, "page=callers&proc=99", &rc, 1) == NULL);
	CHECK_EQ(rc, -DP_ENOENT);
	tf_close(&t);
}

/* the ids of the rows of section "callers" */
static void ids_are(const struct dp_report *r, const uint32_t *ids, uint32_t n)
{
	const struct dp_rep_section *s = tf_section(r, "callers");

	CHECK_EQ(s->n_rows, n);
	for (uint32_t i = 0; i < n && i < s->n_rows; i++)
		CHECK_EQ(s->rows[i].id, ids[i]);
}

TEST(callers_groupings)
{
	struct tf_ctx t;
	struct dp_report *r;
	const struct dp_rep_section *s;

	TF_OPEN(&t, NULL);
	r = tf_page(&t, "page=callers&proc=%u&sort=source", TF_CHEAP);
	CHECK(r != NULL);
	if (r) {
		static const uint32_t ids[] = {11, 8};

		CHECK_STR(r->title, "Callers of cheap");
		ids_are(r, ids, 2);
		s = tf_section(r, "callers");
		CHECK_EQ(s->rows[0].kind, DP_ENT_CSS);
		CHECK_STR(s->rows[0].name, "main.c: main");
		CHECK_STR(s->rows[0].callee, "cheap");
		CHECK_EQ(s->rows[0].ps, TF_MAIN);
		CHECK_EQ(s->rows[0].clique, tf_clique_of(&t, 3));
		CHECK_EQ(s->rows[0].thread, 1);
		CHECK_EQ(s->rows[0].line, 15);
		CHECK_EQ(s->rows[0].flags, DP_ROW_SUM);
		CHECK_EQ(s->rows[0].n, 1);
		CHECK_EQ(s->rows[0].own.samples, 1);
		CHECK_EQ(s->rows[1].own.samples, 40);
		CHECK_EQ(r->n_items, 2);
		CHECK_EQ(r->n_bunches, 1);
		CHECK_EQ(r->bunch, 1);
		CHECK_EQ(tf_fact(r, "caller_csds"), 2);
		CHECK_EQ(tf_fact(r, "moved"), UINT64_MAX); /* only with contour exclusion */
		dp_report_free(r);
	}
	r = tf_page(&t, "page=callers&proc=%u&group=proc&sort=source", TF_CHEAP);
	if (r) {
		static const uint32_t ids[] = {TF_MAIN, TF_WORK};

		ids_are(r, ids, 2);
		CHECK_EQ(tf_section(r, "callers")->rows[1].kind, DP_ENT_PS);
		dp_report_free(r);
	}
	r = tf_page(&t, "page=callers&proc=%u&group=module&sort=source", TF_CHEAP);
	if (r) {
		const uint32_t ids[] = {t.a->ps_module[TF_MAIN], t.a->ps_module[TF_WORK]};

		ids_are(r, ids, 2);
		CHECK_STR(tf_section(r, "callers")->rows[0].name, "src/main.c");
		dp_report_free(r);
	}
	r = tf_page(&t, "page=callers&proc=%u&group=clique&sort=cost", TF_CHEAP);
	if (r) {
		const uint32_t ids[] = {tf_clique_of(&t, 5), tf_clique_of(&t, 3)};

		ids_are(r, ids, 2);
		CHECK_EQ(tf_section(r, "callers")->rows[0].kind, DP_ENT_CLIQUE);
		dp_report_free(r);
	}
	tf_close(&t);
}

TEST(callers_pages)
{
	struct tf_ctx t;
	struct dp_report *r;
	int rc;

	TF_OPEN(&t, NULL);
	/* pagination: one row per page */
	r = tf_page(&t, "page=callers&proc=%u&size=1&bunch=2&sort=source", TF_CHEAP);
	CHECK(r != NULL);
	if (r) {
		static const uint32_t ids[] = {8};
		bool prev = false, next = false;

		ids_are(r, ids, 1);
		CHECK_EQ(r->n_items, 2);
		CHECK_EQ(r->n_bunches, 2);
		CHECK_EQ(r->bunch, 2);
		for (uint32_t i = 0; i < r->n_links; i++) {
			prev |= strcmp(r->links[i].label, "previous") == 0 &&
				r->links[i].q->bunch == 1;
			next |= strcmp(r->links[i].label, "next") == 0;
		}
		CHECK(prev && !next);
		dp_report_free(r);
	}
	CHECK(tf_report(&t, "page=callers&proc=6&size=1&bunch=3", &rc, 1) == NULL);
	CHECK_EQ(rc, -DP_ENOENT);
	CHECK(strstr(dp_errmsg(), "2 pages") != NULL);
	/* is_even: is_odd is a caller (another procedure), is_even -> is_even never happens */
	r = tf_page(&t, "page=callers&proc=%u&group=proc&sort=source", TF_EVEN);
	if (r) {
		static const uint32_t ids[] = {TF_MAIN, TF_ODD};

		ids_are(r, ids, 2);
		dp_report_free(r);
	}
	r = tf_page(&t, "page=callers&proc=%u&sort=source", TF_FIB);
	if (r) {
		static const uint32_t ids[] = {3};

		ids_are(r, ids, 1);
		CHECK_EQ(tf_fact(r, "self_csds"), 1);
		dp_report_free(r);
	}
	tf_close(&t);
}

TEST(callers_contour)
{
	static const char text[] = "# the work layer is a library\nall work.c\n";
	struct tf_ctx t;
	struct dp_contour *ct = NULL;
	struct dp_report_index *ix = NULL;
	struct dp_report *r;
	int rc;

	TF_OPEN(&t, NULL);
	CHECK(tf_report(&t, "page=callers&proc=6&contour=1", &rc, 1) == NULL);
	CHECK_EQ(rc, -DP_EUSAGE);
	CHECK(strstr(dp_errmsg(), "no contour file") != NULL);
	t.c.contour_error = "prog.contour:3: expected 'all MODULE'";
	CHECK(tf_report(&t, "page=callers&proc=6&contour=1", &rc, 1) == NULL);
	CHECK(strstr(dp_errmsg(), "prog.contour:3") != NULL);
	CHECK_EQ(dp_contour_parse("prog.contour", text, sizeof(text) - 1, t.a, &ct), 0);
	t.c.contour = ct;
	t.c.contour_error = NULL;
	/* work -> cheap is regrouped under main -> work */
	r = tf_page(&t, "page=callers&proc=%u&group=proc&contour=1&sort=source", TF_CHEAP);
	CHECK(r != NULL);
	if (r) {
		const struct dp_rep_section *s = tf_section(r, "callers");
		static const uint32_t ids[] = {TF_MAIN};

		ids_are(r, ids, 1);
		CHECK_EQ(s->rows[0].flags, DP_ROW_SUM | DP_ROW_CONTOUR);
		CHECK_EQ(s->rows[0].n, 2);
		CHECK_EQ(s->rows[0].own.samples, 41);
		CHECK_EQ(tf_fact(r, "moved"), 1);
		dp_report_free(r);
	}
	r = tf_page(&t, "page=callers&proc=%u&contour=1&sort=source", TF_CHEAP);
	if (r) {
		const struct dp_rep_section *s = tf_section(r, "callers");
		static const uint32_t ids[] = {4, 11};

		ids_are(r, ids, 2);
		CHECK_EQ(s->rows[0].flags, DP_ROW_SUM | DP_ROW_CONTOUR);
		CHECK_EQ(s->rows[0].own.samples, 40); /* the original CSD's costs */
		CHECK_EQ(s->rows[1].flags, DP_ROW_SUM);
		dp_report_free(r);
	}
	/* the flame index, here with every procedure's callers, has no moves: the page with
	 * contour exclusion does not read it */
	CHECK_EQ(dp_report_index_build(&t.p, t.a, &(struct dp_report_index_opts){0, 1, 0}, &ix), 0);
	CHECK(ix && dp_flame_index_proc(ix, TF_CHEAP) != NULL);
	t.c.flame_ix = ix;
	r = tf_page(&t, "page=callers&proc=%u&group=proc&contour=1&sort=source", TF_CHEAP);
	if (r) {
		static const uint32_t ids[] = {TF_MAIN};

		ids_are(r, ids, 1);
		CHECK_EQ(tf_fact(r, "moved"), 1);
		dp_report_free(r);
	}
	/* without contour=1 the file changes nothing, read with the index or not */
	for (int with = 0; with < 2; with++) {
		t.c.flame_ix = with ? ix : NULL;
		r = tf_page(&t, "page=callers&proc=%u&group=proc&sort=source", TF_CHEAP);
		if (r) {
			static const uint32_t ids[] = {TF_MAIN, TF_WORK};

			ids_are(r, ids, 2);
			dp_report_free(r);
		}
	}
	t.c.flame_ix = NULL;
	dp_report_index_free(ix);
	dp_contour_free(ct);
	tf_close(&t);
}

/* the fixture with main's call of cheap (site 11, line 15) made a second call of work on
 * line 12, as site 4 is: two sites of one line and callee, as an unrolled loop makes */
static int two_sites_one_line(struct dp_profile *p)
{
	if (tf_build(p) < 0)
		return -1;
	p->css[11].line = 12;
	p->css[11].callee_ps = TF_WORK;
	p->pd[11].ps = TF_WORK;
	return 0;
}

TEST(sites_of_one_line_merged)
{
	struct tf_ctx t;
	struct dp_report *r;
	const struct dp_rep_section *s;
	uint32_t merged = 0, apart = 0;

	TF_OPEN(&t, two_sites_one_line);
	r = tf_page(&t, "page=proc&id=%u", TF_MAIN);
	s = r ? tf_section(r, "sites") : NULL;
	for (uint32_t i = 0; s && i < s->n_rows; i++) {
		if (s->rows[i].ps != TF_WORK)
			continue;
		merged++;
		CHECK_EQ(s->rows[i].id, 4); /* the first site, its links */
		CHECK_EQ(s->rows[i].flags & DP_ROW_SUM, DP_ROW_SUM);
		CHECK_EQ(s->rows[i].n, 2);
		CHECK_EQ(s->rows[i].own.calls, 2);     /* 1 + 1 */
		CHECK_EQ(s->rows[i].own.samples, 2);   /* 1 + 1 */
		CHECK_EQ(s->rows[i].desc.samples, 40); /* work's call of cheap */
	}
	CHECK_EQ(merged, 1);
	dp_report_free(r);
	r = tf_page(&t, "page=proc&id=%u&split=1", TF_MAIN);
	s = r ? tf_section(r, "sites") : NULL;
	for (uint32_t i = 0; s && i < s->n_rows; i++)
		apart += s->rows[i].ps == TF_WORK;
	CHECK_EQ(apart, 2);
	dp_report_free(r);
	/* the clique page of main's context: its two calls of work on line 12, one row */
	r = tf_page(&t, "page=clique&id=%u", tf_clique_of(&t, 3));
	s = r ? tf_section(r, "procs") : NULL;
	merged = 0;
	for (uint32_t i = 0; s && i < s->n_rows; i++)
		if (s->rows[i].kind == DP_ENT_CSD && s->rows[i].ps == TF_WORK) {
			merged++;
			CHECK_EQ(s->rows[i].n, 2);
		}
	CHECK_EQ(merged, 1);
	dp_report_free(r);
	tf_close(&t);
}

TEST(site_page)
{
	struct tf_ctx t;
	struct dp_report *r;

	TF_OPEN(&t, NULL);
	r = tf_report(&t, "page=site&id=5&sort=source", NULL, 0);
	CHECK(r != NULL);
	if (r) {
		const struct dp_rep_section *s = tf_section(r, "contexts");

		CHECK_STR(r->title, "Call site 5: main -> (indirect)");
		CHECK_EQ(r->subject.kind, DP_ENT_CSS);
		CHECK_EQ(r->subject.own.samples, 7);
		CHECK_EQ(s->n_rows, 2);
		CHECK_EQ(s->rows[0].id, 8); /* by cost: cb2 (4) before cb1 (3) */
		CHECK_EQ(s->rows[1].id, 7);
		CHECK_EQ(s->rows[0].n, tf_clique_of(&t, 3)); /* the caller's clique */
		CHECK_EQ(s->rows[0].clique, tf_clique_of(&t, 8));
		CHECK_EQ(tf_fact(r, "contexts"), 2);
		CHECK_EQ(r->n_links, 1);
		CHECK_EQ(r->links[0].q->id, TF_MAIN);
		dp_report_free(r);
	}
	r = tf_report(&t, "page=site&id=12&sort=source", NULL, 0);
	if (r) {
		CHECK_EQ(tf_section(r, "contexts")->n_rows, 0);
		CHECK_EQ(r->subject.flags, DP_ROW_INACTIVE);
		CHECK_EQ(r->n_links, 2); /* caller fib, callee cheap */
		dp_report_free(r);
	}
	tf_close(&t);
}

#define MANY 100000u

/* root -> thread -> main -> f_i (i < MANY) -> target, f_i with samples i % 1000 */
static int gen_many(struct dp_profile *p)
{
	uint32_t n_ps = MANY + 4, n_pd = MANY + 4, n_cs = 2 * MANY + 3;

	if (dp_profile_init(p) < 0)
		return -1;
	p->root_pd = 1;
	p->n_ps = n_ps;
	p->n_pd = n_pd;
	p->n_css = p->n_csd = n_cs;
	p->ps = dp_arena_array(&p->arena, n_ps + 1, sizeof(*p->ps));
	p->pd = dp_arena_array(&p->arena, n_pd + 1, sizeof(*p->pd));
	p->css = dp_arena_array(&p->arena, n_cs + 1, sizeof(*p->css));
	p->csd = dp_arena_array(&p->arena, n_cs + 1, sizeof(*p->csd));
	if (!p->ps || !p->pd || !p->css || !p->csd)
		return -1;
	p->ps[1].kind = DP_PS_ROOT;
	p->ps[2].kind = DP_PS_THREAD;
	for (uint32_t i = 1; i <= n_pd; i++)
		p->pd[i].ps = i;
	for (uint32_t i = 1; i <= n_cs; i++) {
		uint32_t caller = i <= 2 ? i : i <= MANY + 2 ? 3 : i - MANY - 2 + 3;
		uint32_t callee = i <= 2 ? i + 1 : i <= MANY + 2 ? i + 1 : n_pd;

		p->css[i].ps = caller;
		p->css[i].line = i;
		p->csd[i] = (struct dp_csd){.caller = caller,
					    .css = i,
					    .callee = callee,
					    .calls = 1,
					    .samples = i > MANY + 2 ? i % 1000 : 0};
	}
	return 0;
}

TEST(many_callers)
{
	struct tf_ctx t;
	struct dp_report *r, *r2;

	TF_OPEN(&t, gen_many);
	r = tf_page(&t, "page=callers&proc=%u&size=1000&bunch=7&sort=source", MANY + 4);
	CHECK(r != NULL);
	if (r) {
		const struct dp_rep_section *s = tf_section(r, "callers");

		CHECK_EQ(r->n_items, MANY);
		CHECK_EQ(r->n_bunches, MANY / 1000);
		CHECK_EQ(s->n_rows, 1000);
		/* by context: the call sites' lines, MANY + 3 onwards */
		for (uint32_t i = 0; i < s->n_rows; i++)
			CHECK_EQ(s->rows[i].id, MANY + 3 + 6000 + i);
		dp_report_free(r);
	}
	r = tf_page(&t, "page=callers&proc=%u&size=1000&bunch=1&sort=cost:time:self&group=proc",
		    MANY + 4);
	r2 = tf_page(&t, "page=callers&proc=%u&size=1000&bunch=2&sort=cost:time:self&group=proc",
		     MANY + 4);
	CHECK(r != NULL && r2 != NULL);
	if (r && r2) {
		const struct dp_rep_section *s = tf_section(r, "callers");
		const struct dp_rep_section *s2 = tf_section(r2, "callers");

		CHECK_EQ(s->rows[0].own.samples, 999);
		for (uint32_t i = 1; i < s->n_rows; i++)
			CHECK(s->rows[i - 1].own.samples >= s->rows[i].own.samples);
		CHECK_EQ(s2->rows[0].own.samples, 999 - 10); /* 100 callers of each value */
		CHECK(s->rows[999].own.samples >= s2->rows[0].own.samples);
	}
	dp_report_free(r);
	dp_report_free(r2);
	tf_close(&t);
}

/* the profiles of the property tests, seeds 3..6 */
static const struct dp_gen_sim sim = {
	.n_fn = 15, .n_threads = 3, .n_steps = 4000, .max_depth = 30, .pct_call = 55};

/* whether a context of @ps is in a clique of several PDs */
static bool in_recursion(const struct tf_ctx *t, uint32_t ps)
{
	const uint32_t *pd = dp_csr_items(&t->a->ps_pds, ps);

	for (uint32_t i = 0; i < dp_csr_count(&t->a->ps_pds, ps); i++)
		if (dp_csr_count(&t->a->clique_pds, t->a->pd_clique[pd[i]]) > 1)
			return true;
	return false;
}

/* every procedure: callers (all groupings) sum to the proc page's summary; site rows sum
 * to the procedure's call sites */
static void proc_props(struct tf_ctx *t)
{
	for (uint32_t ps = 1; ps <= t->p.n_ps; ps++) {
		struct dp_report *r = tf_page(t, "page=proc&id=%u&sort=source", ps), *c;
		const struct dp_rep_row *sum;
		const struct dp_rep_section *s;

		if (!r) {
			CHECK(0);
			return;
		}
		sum = &tf_section(r, "callers")->rows[0];
		for (int g = 0; g < 4; g++) {
			static const char *const gn[] = {"site", "proc", "module", "clique"};
			uint64_t n = 0, samples = 0, callseqs = 0;

			uint64_t rows = 0;
			uint32_t bunches = 1;

			for (uint32_t b = 1; b <= bunches; b++) {
				c = tf_page(t, "page=callers&proc=%u&group=%s&size=7&bunch=%u", ps,
					    gn[g], b);
				if (!c) {
					CHECK(0);
					break;
				}
				bunches = c->n_bunches;
				s = tf_section(c, "callers");
				rows += s->n_rows;
				for (uint32_t i = 0; i < s->n_rows; i++) {
					n += s->rows[i].n;
					samples += s->rows[i].own.samples + s->rows[i].desc.samples;
					callseqs += s->rows[i].own.callseqs;
				}
				dp_report_free(c);
			}
			CHECK_EQ(n, sum->n);
			/* the calls carry the procedure's total, but in a recursion of several
			 * procedures (whose calls inside it inherit nothing) */
			if (in_recursion(t, ps))
				CHECK(samples <= sum->own.samples + sum->desc.samples);
			else
				CHECK_EQ(samples, sum->own.samples + sum->desc.samples);
			CHECK_EQ(callseqs, sum->own.callseqs);
			if (g == 1)
				CHECK_EQ(rows, tf_fact(r, "caller_procs"));
		}
		s = tf_section(r, "sites");
		for (uint32_t i = 0, top = 0; i <= s->n_rows; i++) {
			uint64_t below = 0;

			if (i < s->n_rows && s->rows[i].depth == 1)
				continue;
			for (uint32_t j = top + 1; j < i; j++)
				below += s->rows[j].own.samples;
			if (i > top + 1)
				CHECK_EQ(below, s->rows[top].own.samples);
			top = i;
		}
		dp_report_free(r);
	}
}

/* every procedure, grouping and order: bunches of 3 callers (sorted only in part, after
 * selecting their ranks, once there are a dozen groups) are consecutive pieces of the
 * whole order (sorted in full, in one bunch) */
static void callers_bunch_props(struct tf_ctx *t)
{
	static const char *const gn[] = {"site", "proc", "module", "clique"};
	static const char *const sn[] = {"context", "name", "cost", "cost:calls:self:call"};

	for (uint32_t ps = 1; ps <= t->p.n_ps; ps++) {
		for (int g = 0; g < 4; g++) {
			for (int o = 0; o < 4; o++) {
				struct dp_report *all = tf_page(
					t, "page=callers&proc=%u&group=%s&sort=%s&size=1000", ps,
					gn[g], sn[o]);
				const struct dp_rep_section *s =
					all ? tf_section(all, "callers") : NULL;

				CHECK(s != NULL);
				for (uint32_t b = 1; s && (uint64_t)(b - 1) * 3 < s->n_rows; b++) {
					struct dp_report *pb = tf_page(t,
								       "page=callers&proc=%u&group="
								       "%s&sort=%s&size=3&bunch=%u",
								       ps, gn[g], sn[o], b);
					const struct dp_rep_section *sb =
						pb ? tf_section(pb, "callers") : NULL;

					CHECK(sb != NULL);
					for (uint32_t i = 0; sb && i < sb->n_rows; i++) {
						const struct dp_rep_row *x = &sb->rows[i];
						const struct dp_rep_row *y =
							&s->rows[(b - 1) * 3 + i];

						CHECK_EQ(x->id, y->id);
						CHECK_EQ(x->n, y->n);
						CHECK_EQ(x->own.samples, y->own.samples);
					}
					dp_report_free(pb);
				}
				dp_report_free(all);
			}
		}
	}
}

/* every call site: its contexts by total time descending, ties by name then CSD order
 * (the site's CSDs are in increasing id order), every context once; bunches of 3 are
 * consecutive pieces of that order */
static void site_props(struct tf_ctx *t)
{
	for (uint32_t css = 1; css <= t->p.n_css; css++) {
		struct dp_report *r = tf_page(t, "page=site&id=%u&size=1000", css);
		const struct dp_rep_section *s = r ? tf_section(r, "contexts") : NULL;

		CHECK(s != NULL);
		if (!s) {
			dp_report_free(r);
			return;
		}
		CHECK_EQ(s->n_rows, dp_csr_count(&t->a->css_csds, css));
		for (uint32_t i = 1; i < s->n_rows; i++) {
			const struct dp_rep_row *x = &s->rows[i - 1], *y = &s->rows[i];
			bool tm = t->a->root_total.samples != 0; /* else by callseqs */
			uint64_t vx = tm ? x->own.samples + x->desc.samples
					 : x->own.callseqs + x->desc.callseqs;
			uint64_t vy = tm ? y->own.samples + y->desc.samples
					 : y->own.callseqs + y->desc.callseqs;
			int d = strcmp(x->name, y->name);

			CHECK(vx > vy || (vx == vy && (d < 0 || (d == 0 && x->id < y->id))));
		}
		for (uint32_t b = 1; (uint64_t)(b - 1) * 3 < s->n_rows; b++) {
			struct dp_report *pb =
				tf_page(t, "page=site&id=%u&size=3&bunch=%u", css, b);
			const struct dp_rep_section *sb = pb ? tf_section(pb, "contexts") : NULL;

			CHECK(sb != NULL);
			for (uint32_t i = 0; sb && i < sb->n_rows; i++)
				CHECK_EQ(sb->rows[i].id, s->rows[(b - 1) * 3 + i].id);
			if (sb)
				CHECK_EQ(pb->bunch, b);
			dp_report_free(pb);
		}
		dp_report_free(r);
	}
}

TEST(generated_properties)
{
	for (uint64_t seed = 3; seed < 7; seed++) {
		struct tf_ctx t;

		tf_sim = sim;
		tf_sim.seed = seed;
		TF_OPEN(&t, tf_gen_sim);
		proc_props(&t);
		callers_bunch_props(&t);
		site_props(&t);
		tf_close(&t);
	}
}

DP_TEST_MAIN(test_proc_pages, test_proc_errors, test_callers_groupings, test_callers_pages,
	     test_callers_contour, test_sites_of_one_line_merged, test_site_page, test_many_callers,
	     test_generated_properties)
