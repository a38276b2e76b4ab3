/*
 * tests/unit/test_report_dump.c - the raw dump pages (dump_ps, dump_pd, dump_css,
 * dump_csd, dump_clique) on the sample profile: every fact, the related rows in order,
 * bad ids; and on generated profiles, that a procedure's row is the sum of its contexts'
 * rows and a clique's member rows add up to the clique's total.
 */
#include "test_analysis_gen.h"
#include "test_report2_fix.h"

TEST(dump_ps)
{
	struct fix f;
	struct dp_report *r;

	if (fix_sample(&f, 0) < 0) {
		CHECK(0);
		return;
	}
	r = fix_report(&f, "page=dump_ps&id=4");
	CHECK(r != NULL);
	if (r) {
		CHECK_STR(r->title, "ProcStatic 4: fib");
		CHECK(r->has_subject);
		CHECK_EQ(r->subject.kind, DP_ENT_PS);
		CHECK_EQ(r->subject.id, 4);
		CHECK_EQ(r->subject.own.calls, 1 + 176 + 3 + 4);
		CHECK_EQ(r->subject.own.samples, 1);
		CHECK_EQ(fact_u(r, "id"), 4);
		CHECK_STR(fact_s(r, "kind"), "function");
		CHECK_STR(fact_s(r, "addr"), "0x555500001200");
		CHECK_STR(fact_s(r, "name"), "fib");
		CHECK_STR(fact_s(r, "linkage_name"), "");
		CHECK_STR(fact_s(r, "file"), "src/prog.c");
		CHECK_EQ(fact_u(r, "line"), 10);
		CHECK_STR(fact_s(r, "linkage"), "global");
		CHECK_EQ(fact_u(r, "object"), 1);
		CHECK_STR(fact_s(r, "object_path"), "/usr/bin/prog");
		CHECK_STR(fact_s(r, "module_name"), "src/prog.c");
		CHECK_EQ(fact_u(r, "n_cp"), 0);
		CHECK_EQ(fact_u(r, "n_pds"), 2);
		CHECK_EQ(fact_u(r, "n_csss"), 2);
		CHECK_EQ(fact_u(r, "n_callers"), 4);
		CHECK_IDS(section(r, "pds"), DP_ENT_PD, 5, 9);
		CHECK_IDS(section(r, "csss"), DP_ENT_CSS, 4, 8);
		CHECK_IDS(section(r, "callers"), DP_ENT_CSD, 4, 5, 7, 10);
		CHECK(r->note == NULL);
	}
	dp_report_free(r);
	/* the artificial thread root and a mangled name */
	r = fix_report(&f, "page=dump_ps&id=2");
	CHECK_STR(fact_s(r, "kind"), "thread");
	CHECK_STR(fact_s(r, "addr"), "0x0");
	CHECK_EQ(fact_u(r, "object"), 0);
	CHECK_STR(fact_s(r, "object_path"), "");
	CHECK_IDS(section(r, "pds"), DP_ENT_PD, 2, 3);
	dp_report_free(r);
	r = fix_report(&f, "page=dump_ps&id=7");
	CHECK_STR(fact_s(r, "linkage_name"), "_ZNK2ns6Widget4areaEv");
	CHECK_STR(fact_s(r, "name"), "ns::Widget::area() const");
	dp_report_free(r);
	r = fix_report(&f, "page=dump_ps&id=8");
	CHECK_STR(fact_s(r, "linkage"), "weak");
	CHECK_EQ(fact_u(r, "n_pds"), 0);
	CHECK_EMPTY(section(r, "pds"));
	CHECK(r && (r->subject.flags & DP_ROW_INACTIVE));
	dp_report_free(r);
	fix_release(&f);
}

TEST(dump_pd_css_csd)
{
	struct fix f;
	struct dp_report *r;

	if (fix_sample(&f, DP_FEAT_COVERAGE) < 0) {
		CHECK(0);
		return;
	}
	r = fix_report(&f, "page=dump_pd&id=4");
	CHECK_STR(r ? r->title : NULL, "ProcDynamic 4: main");
	CHECK_EQ(fact_u(r, "ps"), 3);
	CHECK_EQ(fact_u(r, "thread"), 1);
	CHECK_EQ(fact_u(r, "clique"), f.a->pd_clique[4]);
	CHECK_EQ(fact_u(r, "n_csds"), 4);
	CHECK_EQ(fact_u(r, "n_callers"), 1);
	CHECK(fact(r, "coverage") == NULL);
	CHECK_IDS(section(r, "csds"), DP_ENT_CSD, 4, 6, 7, 8);
	CHECK_IDS(section(r, "callers"), DP_ENT_CSD, 3);
	dp_report_free(r);

	r = fix_report(&f, "page=dump_pd&id=5");
	CHECK_EQ(fact_u(r, "n_cp"), 3);
	CHECK_STR(fact_s(r, "coverage"), "180 120 60");
	dp_report_free(r);

	r = fix_report(&f, "page=dump_css&id=6");
	CHECK_STR(r ? r->title : NULL, "CallSiteStatic 6: in main");
	CHECK_EQ(fact_u(r, "ps"), 3);
	CHECK_STR(fact_s(r, "caller_name"), "main");
	CHECK_STR(fact_s(r, "addr"), "0x5555000011c0");
	CHECK_STR(fact_s(r, "kind"), "indirect");
	CHECK_STR(fact_s(r, "file"), "src/prog.c");
	CHECK_EQ(fact_u(r, "line"), 106);
	CHECK_EQ(fact_u(r, "callee_ps"), 0);
	CHECK_STR(fact_s(r, "callee_name"), "");
	CHECK_EQ(fact_u(r, "n_csds"), 2);
	CHECK_IDS(section(r, "csds"), DP_ENT_CSD, 7, 8);
	CHECK_STR(r ? r->subject.name : NULL, "(indirect)");
	CHECK_EQ(r ? r->subject.own.calls : 0, 5);
	dp_report_free(r);

	r = fix_report(&f, "page=dump_csd&id=5");
	CHECK_STR(r ? r->title : NULL, "CallSiteDynamic 5: fib -> fib");
	CHECK_EQ(fact_u(r, "caller"), 5);
	CHECK_EQ(fact_u(r, "callee"), 5);
	CHECK_EQ(fact_u(r, "css"), 4);
	CHECK_EQ(fact_u(r, "calls"), 176);
	CHECK_EQ(fact_u(r, "exits"), 170);
	CHECK_EQ(fact_u(r, "unwinds"), 6);
	CHECK_EQ(fact_u(r, "callseqs"), 175);
	CHECK_EQ(fact_u(r, "child_clique"), 0);
	CHECK_EQ(fact_u(r, "clique_entry"), 0);
	CHECK(r && (r->subject.flags & DP_ROW_RECURSIVE));
	CHECK_IDS(section(r, "caller"), DP_ENT_PD, 5);
	CHECK_IDS(section(r, "callee"), DP_ENT_PD, 5);
	dp_report_free(r);

	r = fix_report(&f, "page=dump_csd&id=8");
	CHECK_EQ(fact_u(r, "bytes"), UINT64_MAX);
	CHECK_EQ(fact_u(r, "allocs"), 1);
	CHECK_EQ(fact_u(r, "callee_ps"), 7);
	CHECK_EQ(fact_u(r, "child_clique"), f.a->pd_clique[8]);
	CHECK_EQ(fact_u(r, "clique_entry"), 1);
	dp_report_free(r);
	fix_release(&f);
}

TEST(dump_clique)
{
	struct fix f;
	struct dp_report *r;
	char qs[64];
	uint32_t k;

	if (fix_sample(&f, 0) < 0) {
		CHECK(0);
		return;
	}
	k = f.a->pd_clique[5]; /* fib's clique in thread 1, entered by CSDs 4 and 7 */
	snprintf(qs, sizeof(qs), "page=dump_clique&id=%u", k);
	r = fix_report(&f, qs);
	CHECK(r != NULL);
	if (r) {
		char want[32];

		snprintf(want, sizeof(want), "Clique %u: fib", k);
		CHECK_STR(r->title, want);
	}
	CHECK_EQ(fact_u(r, "entry_pd"), 5);
	CHECK_EQ(fact_u(r, "entry_ps"), 4);
	CHECK_EQ(fact_u(r, "entry_csd"), f.a->clique_entry[k]);
	CHECK(fact_u(r, "entry_csd") == 4 || fact_u(r, "entry_csd") == 7);
	CHECK_EQ(fact_u(r, "parent_clique"), f.a->pd_clique[4]);
	CHECK_EQ(fact_u(r, "reachable"), 1);
	CHECK_EQ(fact_u(r, "n_members"), 1);
	CHECK_EQ(fact_u(r, "total_callseqs"), f.a->clique_total[k].callseqs);
	CHECK_IDS(section(r, "members"), DP_ENT_PD, 5);
	CHECK_IDS(section(r, "entry"), DP_ENT_CSD, f.a->clique_entry[k]);
	dp_report_free(r);
	/* the root clique has no entry */
	snprintf(qs, sizeof(qs), "page=dump_clique&id=%u", f.a->root_clique);
	r = fix_report(&f, qs);
	CHECK_EQ(fact_u(r, "entry_csd"), 0);
	CHECK_EQ(fact_u(r, "parent_clique"), 0);
	CHECK_EMPTY(section(r, "entry"));
	dp_report_free(r);
	fix_release(&f);
}

TEST(bad_ids)
{
	static const char *const qs[] = {"page=dump_ps&id=9", "page=dump_pd&id=10",
					 "page=dump_css&id=9", "page=dump_csd&id=11",
					 "page=dump_clique&id=1000"};
	struct fix f;
	struct dp_report *r;
	struct dp_query q;

	if (fix_sample(&f, 0) < 0) {
		CHECK(0);
		return;
	}
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		CHECK_EQ(fix_try(&f, qs[i], &r), -DP_ENOENT);
		CHECK(r == NULL);
		CHECK(strstr(dp_errmsg(), "valid: 1..") != NULL);
	}
	CHECK_EQ(fix_try(&f, "page=dump_ps&id=9", &r), -DP_ENOENT);
	CHECK_STR(dp_errmsg(), "unknown procedure (PS) id=9 (valid: 1..8)");
	/* the parser insists on id=; the builder checks it too */
	CHECK_EQ(dp_query_parse("page=dump_csd&id=1", true, &q), 0);
	q.id = 0;
	CHECK_EQ(dp_report_build(&f.c, &q, &r), -DP_EUSAGE);
	CHECK_STR(dp_errmsg(), "page dump_csd needs id=N");
	fix_release(&f);
}

/* On a simulated profile: each procedure's row is the sum of its contexts (PD rows),
 * and each clique's member rows' own costs plus the own and desc of the CSDs leaving the
 * clique make the clique's total. */
TEST(sums_on_generated)
{
	struct dp_gen_sim g = {.seed = 77,
			       .n_fn = 40,
			       .n_threads = 3,
			       .n_steps = 4000,
			       .max_depth = 30,
			       .pct_call = 55};
	struct fix f;
	char qs[64];

	if (dp_gen_simulate(&f.p, &g) < 0 || fix_analyse(&f) < 0) {
		CHECK(0);
		return;
	}
	for (uint32_t ps = 1; ps <= f.p.n_ps; ps++) {
		struct dp_report *r;
		const struct dp_rep_section *s;
		struct dp_costs own = {0};
		struct dp_inherit desc = {0};

		snprintf(qs, sizeof(qs), "page=dump_ps&id=%u", ps);
		r = fix_report(&f, qs);
		s = section(r, "pds");
		if (!s)
			break;
		CHECK_EQ(s->n_rows, dp_csr_count(&f.a->ps_pds, ps));
		for (uint32_t i = 0; i < s->n_rows; i++) {
			dp_costs_add(&own, &s->rows[i].own);
			dp_inherit_add(&desc, &s->rows[i].desc);
		}
		CHECK_MEM(&own, &r->subject.own, sizeof(own));
		CHECK_MEM(&desc, &r->subject.desc, sizeof(desc));
		dp_report_free(r);
	}
	for (uint32_t k = 1; k <= f.a->n_cliques; k++) {
		struct dp_report *r;
		const struct dp_rep_section *s;
		uint64_t samples = 0;

		snprintf(qs, sizeof(qs), "page=dump_clique&id=%u", k);
		r = fix_report(&f, qs);
		s = section(r, "members");
		if (!s)
			break;
		CHECK_EQ(s->n_rows, fact_u(r, "n_members"));
		for (uint32_t i = 0; i < s->n_rows; i++) {
			uint32_t pd = s->rows[i].id;
			uint32_t n = dp_csr_count(&f.a->pd_csds, pd);
			const uint32_t *csd = dp_csr_items(&f.a->pd_csds, pd);

			CHECK_EQ(f.a->pd_clique[pd], k);
			samples += s->rows[i].own.samples;
			for (uint32_t j = 0; j < n; j++)
				if (f.a->csd_child_clique[csd[j]])
					samples += f.p.csd[csd[j]].samples +
						   dp_analysis_csd_desc(f.a, csd[j]).samples;
		}
		CHECK_EQ(samples, fact_u(r, "total_samples"));
		dp_report_free(r);
	}
	fix_release(&f);
}

/* wide - root PD 1 -> thread PD 2 -> PDs 3..@n+2, all of procedure 3, one call site
 * each */
static int wide(struct dp_profile *p, uint32_t n)
{
	if (dp_profile_init(p) < 0)
		return -1;
	p->root_pd = 1;
	p->n_ps = 3;
	p->n_pd = n + 2;
	p->n_css = p->n_csd = n + 1;
	p->ps = dp_arena_array(&p->arena, 4, sizeof(*p->ps));
	p->pd = dp_arena_array(&p->arena, (size_t)n + 3, sizeof(*p->pd));
	p->css = dp_arena_array(&p->arena, (size_t)n + 2, sizeof(*p->css));
	p->csd = dp_arena_array(&p->arena, (size_t)n + 2, sizeof(*p->csd));
	if (!p->ps || !p->pd || !p->css || !p->csd)
		return -1;
	p->ps[1].kind = DP_PS_ROOT;
	p->ps[2].kind = DP_PS_THREAD;
	p->pd[1].ps = 1;
	p->pd[2] = (struct dp_pd){.ps = 2, .thread = 1};
	for (uint32_t i = 3; i <= n + 2; i++)
		p->pd[i] = (struct dp_pd){.ps = 3, .thread = 1};
	for (uint32_t i = 1; i <= n + 1; i++) {
		p->css[i] = (struct dp_css){.ps = i == 1 ? 1 : 2, .addr = i};
		p->csd[i] = (struct dp_csd){.caller = i == 1 ? 1 : 2,
					    .css = i,
					    .callee = i + 1,
					    .calls = 1,
					    .exits = 1,
					    .samples = 1};
	}
	return 0;
}

/* A procedure with more contexts than a dump section holds: the section is cut at 1000
 * rows, the count fact is exact and the note says so. */
TEST(cut_sections)
{
	struct fix f;
	struct dp_report *r;

	if (wide(&f.p, 1500) < 0 || fix_analyse(&f) < 0) {
		CHECK(0);
		return;
	}
	r = fix_report(&f, "page=dump_ps&id=3");
	CHECK_EQ(fact_u(r, "n_pds"), 1500);
	CHECK_EQ(fact_u(r, "n_callers"), 1500);
	CHECK_EQ(section(r, "pds") ? section(r, "pds")->n_rows : 0, 1000);
	CHECK_EQ(section(r, "callers") ? section(r, "callers")->n_rows : 0, 1000);
	CHECK_EQ(r ? r->subject.own.samples : 0, 1500);
	CHECK_STR(r ? r->note : NULL, "Section pds shows the first 1000 of 1500 rows. Section "
				      "callers shows the first 1000 of 1500 rows.");
	dp_report_free(r);
	r = fix_report(&f, "page=dump_pd&id=2");
	CHECK_EQ(fact_u(r, "n_csds"), 1500);
	CHECK_EQ(section(r, "csds") ? section(r, "csds")->rows[999].id : 0, 1001);
	dp_report_free(r);
	fix_release(&f);
}

DP_TEST_MAIN(test_dump_ps, test_dump_pd_css_csd, test_dump_clique, test_bad_ids,
	     test_sums_on_generated, test_cut_sections)
