/*
 * tests/unit/test_report_list.c - the modules, module and top pages on the sample
 * profile (exact rows, order, flags, names, errors) and on generated profiles (module
 * rows are the sums of their procedures; top's order and limits against a brute force).
 */
#include "test_analysis_gen.h"
#include "test_report2_fix.h"

TEST(modules)
{
	struct fix f;
	struct dp_report *r;
	const struct dp_rep_section *s;

	if (fix_sample(&f, 0) < 0) {
		CHECK(0);
		return;
	}
	r = fix_report(&f, "page=modules&sort=source");
	CHECK(r && !r->has_subject);
	s = section(r, "modules");
	CHECK_EQ(s ? s->n_rows : 0, 3);
	if (s && s->n_rows == 3) {
		/* by context: no file, so by name */
		CHECK_STR(s->rows[0].name, "<unknown>");
		CHECK_STR(s->rows[1].name, "src/prog.c");
		CHECK_STR(s->rows[2].name, "src/w\xff\xfeidget.cc");
		CHECK_EQ(s->rows[1].kind, DP_ENT_MODULE);
		CHECK_EQ(s->rows[1].own.calls, 1 + 184 + 1 + 12345678901u);
		CHECK_EQ(s->rows[2].own.calls, 2);
		CHECK_EQ(s->rows[0].own.calls, 2); /* the thread roots */
		for (uint32_t i = 0; i < 3; i++)
			CHECK_EQ(s->rows[i].flags, 0);
	}
	s = section(r, "objects");
	CHECK_EQ(s ? s->n_rows : 0, 3);
	if (s && s->n_rows == 3) {
		CHECK_STR(s->rows[0].name, "/lib/x86_64-linux-gnu/libc.so.6");
		CHECK_STR(s->rows[1].name, "/usr/bin/prog");
		CHECK_STR(s->rows[2].name, "<unknown>");
		CHECK_EQ(s->rows[0].id, 2);
		CHECK_EQ(s->rows[0].kind, DP_ENT_OBJECT);
		CHECK_EQ(s->rows[0].flags, DP_ROW_INACTIVE);
		CHECK_EQ(s->rows[1].own.calls, 1 + 184 + 1 + 12345678901u + 2);
		CHECK_EQ(s->rows[2].id, 0);
	}
	dp_report_free(r);
	/* by calls: the module of cmp first */
	r = fix_report(&f, "page=modules&sort=cost:calls:self");
	s = section(r, "modules");
	CHECK_STR(s && s->n_rows == 3 ? s->rows[0].name : NULL, "src/prog.c");
	CHECK_STR(s && s->n_rows == 3 ? s->rows[1].name : NULL, "<unknown>"); /* 2 calls, */
	CHECK_STR(s && s->n_rows == 3 ? s->rows[2].name : NULL, "src/w\xff\xfeidget.cc"); /* 2 */
	dp_report_free(r);
	fix_release(&f);
}

TEST(module)
{
	struct fix f;
	struct dp_report *r;
	const struct dp_rep_section *s;

	if (fix_sample(&f, 0) < 0) {
		CHECK(0);
		return;
	}
	r = fix_report(&f, "page=module&name=src/prog.c&sort=source");
	CHECK_STR(r ? r->title : NULL, "Module src/prog.c");
	CHECK_EQ(r ? r->q.id : 0, 2); /* the name resolved */
	CHECK_STR(r ? r->q.name : NULL, "");
	CHECK_EQ(r ? r->subject.kind : 0, DP_ENT_MODULE);
	s = section(r, "procs");
	/* by context: line 10 fib, 20 cmp, 30 worker, 40 main, 50 never_called */
	CHECK_IDS(s, DP_ENT_PS, 4, 6, 5, 3, 8);
	if (s && s->n_rows == 5) {
		CHECK_STR(s->rows[0].name, "fib");
		CHECK_EQ(s->rows[0].own.calls, 184);
		CHECK_EQ(s->rows[4].flags, DP_ROW_INACTIVE);
		CHECK_EQ(s->rows[3].flags, 0);
		CHECK_EQ(r->subject.id, s->rows[0].module);
	}
	dp_report_free(r);
	/* a unique path suffix, by id, qualified names */
	r = fix_report(&f, "page=module&name=prog.c&mq=always&sort=name");
	s = section(r, "procs");
	CHECK_IDS(s, DP_ENT_PS, 6, 4, 3, 8, 5);
	CHECK_STR(s && s->n_rows == 5 ? s->rows[0].name : NULL, "prog.c: cmp");
	dp_report_free(r);
	r = fix_report(&f, "page=module&id=3&sort=source");
	CHECK_IDS(section(r, "procs"), DP_ENT_PS, 7);
	dp_report_free(r);
	/* errors */
	CHECK_EQ(fix_try(&f, "page=module&name=lib/prog.c", &r), -DP_ENOENT);
	CHECK_STR(dp_errmsg(), "no module 'lib/prog.c'; did you mean 'src/prog.c' (id=2)?");
	CHECK_EQ(fix_try(&f, "page=module&name=zzz.c", &r), -DP_ENOENT);
	CHECK_STR(dp_errmsg(), "no module 'zzz.c' (the profile has 3 modules; see page=modules)");
	CHECK_EQ(fix_try(&f, "page=module&id=4", &r), -DP_ENOENT);
	CHECK_STR(dp_errmsg(), "unknown module id=4 (valid: 1..3)");
	CHECK_EQ(fix_try(&f, "page=module", &r), -DP_EUSAGE);
	CHECK(r == NULL);
	fix_release(&f);
}

TEST(top_sample)
{
	struct fix f;
	struct dp_report *r;
	struct dp_query q;

	if (fix_sample(&f, 0) < 0) {
		CHECK(0);
		return;
	}
	/* time self: cmp 7, main 5, fib 1 */
	r = fix_report(&f, "page=top");
	CHECK_IDS(section(r, "procs"), DP_ENT_PS, 6, 3, 4);
	CHECK_EQ(r ? r->n_items : 0, 3);
	CHECK_EQ(fact_u(r, "n_candidates"), 3);
	CHECK_EQ(fact_u(r, "first_rank"), 1);
	CHECK_STR(r ? r->title : NULL, "Top procedures 1-100 by time, self");
	dp_report_free(r);
	/* time total: main 12, cmp 7, then fib 1 and worker 1 by name */
	r = fix_report(&f, "page=top&scope=total");
	CHECK_IDS(section(r, "procs"), DP_ENT_PS, 3, 6, 4, 5);
	dp_report_free(r);
	/* calls: cmp, fib 184, area 2, then main and worker (1 each) by total time */
	r = fix_report(&f, "page=top&metric=calls");
	CHECK_IDS(section(r, "procs"), DP_ENT_PS, 6, 4, 7, 3, 5);
	dp_report_free(r);
	r = fix_report(&f, "page=top&metric=calls&limit=2-3");
	CHECK_IDS(section(r, "procs"), DP_ENT_PS, 4, 7);
	CHECK_EQ(fact_u(r, "first_rank"), 2);
	CHECK_EQ(r ? r->n_items : 0, 5);
	dp_report_free(r);
	r = fix_report(&f, "page=top&metric=calls&limit=9-20");
	CHECK_EMPTY(section(r, "procs"));
	dp_report_free(r);
	/* 50% of 13 samples = 6.5 */
	r = fix_report(&f, "page=top&limit=pct:50");
	CHECK_IDS(section(r, "procs"), DP_ENT_PS, 6);
	dp_report_free(r);
	/* 5 ms at a period of 1000123 ns = 4.9994 samples */
	r = fix_report(&f, "page=top&limit=val:0.005");
	CHECK_IDS(section(r, "procs"), DP_ENT_PS, 6, 3);
	CHECK_STR(r ? r->title : NULL, "Procedures with time, self >= 0.005 s");
	dp_report_free(r);
	r = fix_report(&f, "page=top&metric=calls&limit=val:100");
	CHECK_IDS(section(r, "procs"), DP_ENT_PS, 6, 4);
	dp_report_free(r);
	/* per call: main 5/1, fib 1/184, cmp 7/12345678901 */
	r = fix_report(&f, "page=top&per=call");
	CHECK_IDS(section(r, "procs"), DP_ENT_PS, 3, 4, 6);
	dp_report_free(r);
	/* bytes: area's UINT64_MAX first */
	r = fix_report(&f, "page=top&metric=bytes");
	CHECK_IDS(section(r, "procs"), DP_ENT_PS, 7, 3);
	dp_report_free(r);
	/* the parser refuses these; the builder checks them too */
	CHECK_EQ(dp_query_parse("page=top&metric=calls", true, &q), 0);
	q.scope = DP_SCOPE_TOTAL;
	CHECK_EQ(dp_report_build(&f.c, &q, &r), -DP_EUSAGE);
	CHECK(strstr(dp_errmsg(), "scope=self and per=overall") != NULL);
	q.scope = DP_SCOPE_SELF;
	q.limit_kind = DP_LIMIT_PCT;
	CHECK_EQ(dp_report_build(&f.c, &q, &r), -DP_EUSAGE);
	CHECK(strstr(dp_errmsg(), "does not apply to metric=calls") != NULL);
	q.metric = DP_METRIC_TIME;
	q.per = DP_PER_CALL;
	CHECK_EQ(dp_report_build(&f.c, &q, &r), -DP_EUSAGE);
	CHECK(strstr(dp_errmsg(), "needs per=overall") != NULL);
	CHECK(r == NULL);
	fix_release(&f);
}

/* whether a clique above clique @c (along the entry CSDs' callers) holds a PD of @ps */
static bool ps_above(const struct fix *f, uint32_t c, uint32_t ps)
{
	const struct dp_analysis *a = f->a;

	for (uint32_t e; (e = a->clique_entry[c]) != 0;) {
		c = a->pd_clique[f->p.csd[e].caller];
		for (uint32_t j = 0; j < dp_csr_count(&a->clique_pds, c); j++)
			if (f->p.pd[dp_csr_items(&a->clique_pds, c)[j]].ps == ps)
				return true;
	}
	return false;
}

/* the value of @ps for metric @m, scope @s, per @per, computed from the PDs' CSDs; its
 * total: the total of each clique holding a PD of it, unless a clique above holds one */
static double brute_value(const struct fix *f, uint32_t ps, enum dp_metric m, enum dp_scope s,
			  enum dp_per per)
{
	const struct dp_analysis *a = f->a;
	uint64_t own = 0, total = 0, calls = 0;

	for (uint32_t i = 0; i < dp_csr_count(&a->ps_pds, ps); i++) {
		uint32_t pd = dp_csr_items(&a->ps_pds, ps)[i], c = a->pd_clique[pd];

		for (uint32_t j = 0; j < dp_csr_count(&a->pd_callers, pd); j++) {
			const struct dp_csd *d = &f->p.csd[dp_csr_items(&a->pd_callers, pd)[j]];

			calls += d->calls;
			own += m == DP_METRIC_CALLS	 ? d->calls
			       : m == DP_METRIC_CALLSEQS ? d->callseqs
			       : m == DP_METRIC_BYTES	 ? d->alloc_bytes
							 : d->samples;
		}
		bool again = false;

		for (uint32_t j = 0; j < i && !again; j++) /* a clique counts once */
			again = a->pd_clique[dp_csr_items(&a->ps_pds, ps)[j]] == c;
		if (again || ps_above(f, c, ps))
			continue;
		total += m == DP_METRIC_CALLSEQS ? a->clique_total[c].callseqs
			 : m == DP_METRIC_BYTES	 ? a->clique_total[c].alloc_bytes
						 : a->clique_total[c].samples;
	}
	double v = s == DP_SCOPE_TOTAL && m != DP_METRIC_CALLS ? (double)total : (double)own;

	return per == DP_PER_CALL ? (calls ? v / (double)calls : 0) : v;
}

/* On generated profiles: module rows are the sums of their procedures' rows; top lists
 * every function with a non-zero value, in non-increasing order, and pct: keeps a
 * prefix exactly of those at or above the threshold. */
TEST(generated)
{
	static const char *const qs[] = {"page=top&limit=1-10000",
					 "page=top&scope=total&limit=1-10000",
					 "page=top&metric=calls&limit=1-10000",
					 "page=top&metric=callseqs&per=call&limit=1-10000",
					 "page=top&metric=bytes&scope=total&limit=1-10000"};
	static const enum dp_metric m[] = {DP_METRIC_TIME, DP_METRIC_TIME, DP_METRIC_CALLS,
					   DP_METRIC_CALLSEQS, DP_METRIC_BYTES};
	static const enum dp_scope sc[] = {0, 1, 0, 0, 1};
	static const enum dp_per pe[] = {0, 0, 0, 1, 0};
	struct dp_gen_sim g = {.seed = 5,
			       .n_fn = 60,
			       .n_threads = 2,
			       .n_steps = 5000,
			       .max_depth = 25,
			       .pct_call = 55};
	struct fix f;
	struct dp_report *r;
	const struct dp_rep_section *s;

	if (dp_gen_simulate(&f.p, &g) < 0 || fix_analyse(&f) < 0) {
		CHECK(0);
		return;
	}
	r = fix_report(&f, "page=modules&sort=source");
	s = section(r, "modules");
	for (uint32_t i = 0; s && i < s->n_rows; i++) {
		uint32_t mod = s->rows[i].id;
		uint64_t calls = 0, samples = 0;

		for (uint32_t j = 0; j < dp_csr_count(&f.a->module_pss, mod); j++) {
			uint32_t ps = dp_csr_items(&f.a->module_pss, mod)[j];

			calls += f.a->ps_own[ps].calls;
			samples += f.a->ps_own[ps].samples;
		}
		CHECK_EQ(s->rows[i].own.calls, calls);
		CHECK_EQ(s->rows[i].own.samples, samples);
		/* the total counts nested calls once (analysis: dp_analysis_group_totals) */
		CHECK_EQ(s->rows[i].desc.samples, f.a->module_desc[mod].samples);
		CHECK(s->rows[i].own.samples + s->rows[i].desc.samples <= f.a->root_total.samples);
	}
	dp_report_free(r);
	for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
		uint32_t want = 0;

		for (uint32_t ps = 1; ps <= f.p.n_ps; ps++)
			want += f.p.ps[ps].kind == DP_PS_FUNCTION &&
				brute_value(&f, ps, m[k], sc[k], pe[k]) != 0;
		r = fix_report(&f, qs[k]);
		s = section(r, "procs");
		CHECK(s != NULL);
		if (!s)
			break;
		CHECK_EQ(s->n_rows, want);
		CHECK_EQ(r->n_items, want);
		for (uint32_t i = 0; i < s->n_rows; i++) {
			double v = brute_value(&f, s->rows[i].id, m[k], sc[k], pe[k]);

			CHECK(v > 0);
			if (i)
				CHECK(v <= brute_value(&f, s->rows[i - 1].id, m[k], sc[k], pe[k]));
		}
		dp_report_free(r);
	}
	r = fix_report(&f, "page=top&scope=total&limit=pct:5");
	s = section(r, "procs");
	for (uint32_t ps = 1; s && ps <= f.p.n_ps; ps++) {
		double v = brute_value(&f, ps, DP_METRIC_TIME, DP_SCOPE_TOTAL, DP_PER_OVERALL);
		bool listed = false;

		for (uint32_t i = 0; i < s->n_rows; i++)
			listed |= s->rows[i].id == ps;
		CHECK(listed == (f.p.ps[ps].kind == DP_PS_FUNCTION && v > 0 &&
				 v >= 0.05 * (double)f.a->root_total.samples));
	}
	dp_report_free(r);
	fix_release(&f);
}

DP_TEST_MAIN(test_modules, test_module, test_top_sample, test_generated)
