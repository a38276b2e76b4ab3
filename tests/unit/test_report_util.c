/*
 * tests/unit/test_report_util.c - the report layer's shared helpers (report_util.c):
 * row lists, sections, facts and links; names and module qualification; the row maker
 * of each kind of node on the fixture; metrics; the stable sort of row groups; resolving
 * procedure names and checking ids.
 */
#include <stdlib.h>

#include "core/err.h"
#include "harness.h"
#include "query/query.h"
#include "report/report_int.h"
#include "test_report_fix.h"

/* a bare report for the helpers, answering @qs */
static struct dp_report *bare(const char *qs)
{
	struct dp_report *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	dp_arena_init(&r->arena, 0);
	if (dp_query_parse(qs, true, &r->q) < 0) {
		fprintf(stderr, "%s: %s\n", qs, dp_errmsg());
		CHECK(0);
	}
	return r;
}

TEST(rows_sections_facts_links)
{
	struct dp_report *r = bare("page=menu");
	struct dp_rep_rows l;
	struct dp_query t;
	char big[600];

	if (!r)
		return;
	dp_rep_rows_init(&l, r);
	for (uint32_t i = 0; i < 1000; i++) {
		struct dp_rep_row *row = dp_rep_rows_add(&l);

		CHECK(row != NULL);
		if (!row)
			break;
		CHECK_STR(row->name, "");
		CHECK_EQ(row->n, 0);
		row->id = i;
	}
	CHECK_EQ(l.n, 1000);
	for (uint32_t i = 0; i < l.n; i++)
		CHECK_EQ(l.rows[i].id, i);
	CHECK_EQ(dp_rep_section(r, "a", "A", &l), 0);
	CHECK_EQ(dp_rep_section(r, "b", NULL, NULL), 0);
	CHECK_EQ(r->n_sections, 2);
	CHECK_STR(r->sections[0].id, "a");
	CHECK_EQ(r->sections[0].n_rows, 1000);
	CHECK_EQ(r->sections[0].rows[999].id, 999);
	CHECK(r->sections[1].title == NULL);
	CHECK_EQ(r->sections[1].n_rows, 0);
	for (uint32_t i = 0; i < 40; i++)
		CHECK_EQ(dp_rep_fact_u64(r, "k", "label", i), 0);
	CHECK_EQ(dp_rep_fact_str(r, "s", "S", "text"), 0);
	CHECK_EQ(dp_rep_fact_f64(r, "f", "F", 2.5), 0);
	CHECK_EQ(r->n_facts, 42);
	CHECK_EQ(r->facts[39].u, 39);
	CHECK_EQ(r->facts[40].type, DP_FACT_STR);
	CHECK_STR(r->facts[40].s, "text");
	CHECK(r->facts[41].f == 2.5);
	CHECK_EQ(dp_query_parse("page=clique&id=7", true, &t), 0);
	CHECK_EQ(dp_rep_link(r, "seven", &t), 0);
	t.id = 8; /* the link holds a copy */
	CHECK_EQ(r->n_links, 1);
	CHECK_EQ(r->links[0].q->id, 7);
	CHECK_EQ(r->links[0].q->page, DP_PAGE_CLIQUE);
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = 0;
	CHECK_STR(dp_rep_printf(r, "%s-%d", "ab", 12), "ab-12");
	CHECK_EQ(strlen(dp_rep_printf(r, "%s%s", big, big)), 2 * (sizeof(big) - 1));
	CHECK_STR(dp_rep_strdup(r, "copy"), "copy");
	dp_report_free(r);
}

TEST(names_and_qualification)
{
	struct tf_ctx t;
	struct dp_report *r;
	uint32_t util, work;

	TF_OPEN(&t, NULL);
	util = t.a->ps_module[TF_CHEAP];
	work = t.a->ps_module[TF_WORK];
	CHECK(util != work);
	r = bare("page=menu"); /* default: qualified when the module differs */
	CHECK_STR(dp_rep_ps_name(r, &t.c, TF_CHEAP, 0), "cheap");
	CHECK_STR(dp_rep_ps_name(r, &t.c, TF_CHEAP, util), "cheap");
	CHECK_STR(dp_rep_ps_name(r, &t.c, TF_CHEAP, work), "util.c: cheap");
	CHECK_STR(dp_rep_ps_name(r, &t.c, TF_ROOT, work), "<program>");
	CHECK_STR(dp_rep_ps_name(r, &t.c, TF_THREAD, 0), "<thread>");
	dp_report_free(r);
	r = bare("page=menu&mq=always");
	CHECK_EQ(r->q.prefs.mq, DP_MQ_ALWAYS);
	CHECK_STR(dp_rep_ps_name(r, &t.c, TF_CHEAP, util), "util.c: cheap");
	CHECK_STR(dp_rep_ps_name(r, &t.c, TF_CHEAP, 0), "util.c: cheap");
	CHECK_STR(dp_rep_ps_name(r, &t.c, TF_ROOT, 0), "<program>");
	dp_report_free(r);
	r = bare("page=menu&mq=never");
	CHECK_STR(dp_rep_ps_name(r, &t.c, TF_CHEAP, work), "cheap");
	dp_report_free(r);
	tf_close(&t);
}

TEST(row_makers)
{
	struct tf_ctx t;
	struct dp_report *r;
	struct dp_rep_row row;

	TF_OPEN(&t, NULL);
	r = bare("page=menu");
	/* CSD 6: work -> cheap, the expensive context */
	memset(&row, 0, sizeof(row));
	dp_rep_row_csd(r, &t.c, 6, &row);
	CHECK_EQ(row.kind, DP_ENT_CSD);
	CHECK_EQ(row.id, 6);
	CHECK_STR(row.name, "util.c: cheap"); /* the site is in work.c */
	CHECK_STR(row.callee, row.name);
	CHECK_STR(row.file, "src/work.c");
	CHECK_EQ(row.line, 21);
	CHECK_EQ(row.ps, TF_CHEAP);
	CHECK_EQ(row.css, 8);
	CHECK_EQ(row.clique, tf_clique_of(&t, 6));
	CHECK_EQ(row.thread, 1);
	CHECK_EQ(row.own.calls, 10);
	CHECK_EQ(row.own.samples, 40);
	CHECK_EQ(row.desc.samples, 0);
	CHECK_EQ(row.flags, 0);
	/* CSD 4: fib -> fib stays in its clique */
	memset(&row, 0, sizeof(row));
	dp_rep_row_csd(r, &t.c, 4, &row);
	CHECK_EQ(row.flags, DP_ROW_RECURSIVE);
	/* CSD 3: main -> fib enters fib's clique: desc = the recursion's 15 */
	memset(&row, 0, sizeof(row));
	dp_rep_row_csd(r, &t.c, 3, &row);
	CHECK_EQ(row.own.samples, 5);
	CHECK_EQ(row.desc.samples, 15);
	CHECK_EQ(row.desc.callseqs, 150);
	dp_report_free(r);
	tf_close(&t);
}

TEST(row_makers_nodes)
{
	struct tf_ctx t;
	struct dp_report *r;
	struct dp_rep_row row;

	TF_OPEN(&t, NULL);
	r = bare("page=menu");
	/* PD 9 is_even: own = CSDs 9 and 11 */
	memset(&row, 0, sizeof(row));
	dp_rep_row_pd(r, &t.c, 9, &row);
	CHECK_EQ(row.kind, DP_ENT_PD);
	CHECK_EQ(row.own.samples, 5);
	CHECK_EQ(row.own.calls, 5);
	CHECK_STR(row.file, "src/mut.c");
	CHECK_EQ(row.line, 1);
	/* PS cheap: both contexts */
	memset(&row, 0, sizeof(row));
	dp_rep_row_ps(r, &t.c, TF_CHEAP, &row);
	CHECK_EQ(row.own.samples, 41);
	CHECK_EQ(row.own.calls, 11);
	CHECK_EQ(row.clique, 0); /* two contexts: no single clique */
	memset(&row, 0, sizeof(row));
	dp_rep_row_ps(r, &t.c, TF_WORK, &row);
	CHECK_EQ(row.clique, tf_clique_of(&t, 5));
	memset(&row, 0, sizeof(row));
	dp_rep_row_ps(r, &t.c, TF_DUP_A, &row);
	CHECK_EQ(row.flags, DP_ROW_INACTIVE);
	/* CSS 5: indirect, two callees */
	memset(&row, 0, sizeof(row));
	dp_rep_row_css(r, &t.c, 5, &row);
	CHECK_STR(row.name, "(indirect)");
	CHECK(row.callee == NULL);
	CHECK_EQ(row.ps, 0);
	CHECK_EQ(row.own.samples, 7);
	CHECK_EQ(row.own.calls, 5);
	CHECK_EQ(row.line, 13);
	/* CSS 12: never used, statically calls cheap */
	memset(&row, 0, sizeof(row));
	dp_rep_row_css(r, &t.c, 12, &row);
	CHECK_STR(row.name, "util.c: cheap");
	CHECK_EQ(row.ps, TF_CHEAP);
	CHECK_EQ(row.flags, DP_ROW_INACTIVE);
	/* the clique {is_even, is_odd}: entry is_even */
	memset(&row, 0, sizeof(row));
	dp_rep_row_clique(r, &t.c, tf_clique_of(&t, 9), &row);
	CHECK_EQ(tf_clique_of(&t, 9), tf_clique_of(&t, 10));
	CHECK_STR(row.name, "is_even");
	CHECK_EQ(row.own.samples, 5);
	CHECK_EQ(row.desc.samples, 5);
	/* the root clique: total = all own costs */
	memset(&row, 0, sizeof(row));
	dp_rep_row_clique(r, &t.c, t.a->root_clique, &row);
	CHECK_EQ(row.own.samples + row.desc.samples, TF_TOTAL_SAMPLES);
	memset(&row, 0, sizeof(row));
	dp_rep_row_module(r, &t.c, t.a->ps_module[TF_CHEAP], &row);
	CHECK_EQ(row.kind, DP_ENT_MODULE);
	CHECK_STR(row.name, "src/util.c");
	CHECK_EQ(row.own.samples, 41);
	dp_report_free(r);
	tf_close(&t);
}

TEST(metrics_and_sums)
{
	struct dp_rep_row a = {.name = ""}, s = {.name = ""};

	a.own = (struct dp_costs){
		.calls = 4, .samples = 10, .callseqs = 3, .allocs = 2, .alloc_bytes = 64};
	a.desc = (struct dp_inherit){.samples = 6, .callseqs = 5, .allocs = 1, .alloc_bytes = 8};
	CHECK(dp_rep_row_metric(&a, DP_METRIC_TIME, DP_SCOPE_SELF, DP_PER_OVERALL) == 10.0);
	CHECK(dp_rep_row_metric(&a, DP_METRIC_TIME, DP_SCOPE_TOTAL, DP_PER_OVERALL) == 16.0);
	CHECK(dp_rep_row_metric(&a, DP_METRIC_TIME, DP_SCOPE_TOTAL, DP_PER_CALL) == 4.0);
	CHECK(dp_rep_row_metric(&a, DP_METRIC_CALLS, DP_SCOPE_TOTAL, DP_PER_OVERALL) == 4.0);
	CHECK(dp_rep_row_metric(&a, DP_METRIC_CALLSEQS, DP_SCOPE_TOTAL, DP_PER_OVERALL) == 8.0);
	CHECK(dp_rep_row_metric(&a, DP_METRIC_ALLOCS, DP_SCOPE_SELF, DP_PER_OVERALL) == 2.0);
	CHECK(dp_rep_row_metric(&a, DP_METRIC_BYTES, DP_SCOPE_TOTAL, DP_PER_CALL) == 18.0);
	CHECK(dp_rep_row_metric(&s, DP_METRIC_TIME, DP_SCOPE_SELF, DP_PER_CALL) == 0.0);
	dp_rep_row_add_costs(&s, &a);
	dp_rep_row_add_costs(&s, &a);
	CHECK_EQ(s.n, 2);
	CHECK_EQ(s.flags, DP_ROW_SUM);
	CHECK_EQ(s.own.samples, 20);
	CHECK_EQ(s.own.calls, 8);
	CHECK_EQ(s.desc.alloc_bytes, 16);
}

/* rows: name, file, line, samples, depth */
static void mk(struct dp_rep_row *row, const char *name, const char *file, uint32_t line,
	       uint64_t samples, uint32_t depth)
{
	memset(row, 0, sizeof(*row));
	row->name = name;
	row->file = file;
	row->line = line;
	row->own.samples = samples;
	row->depth = depth;
}

TEST(sort_groups)
{
	struct dp_report *r = bare("page=menu");
	struct dp_rep_row v[8];
	struct dp_prefs pr = r->q.prefs;
	static const char *const by_ctx[] = {"d", "d.1", "d.2", "a", "c", "b", "b.1", "e"};
	static const char *const by_name[] = {"a", "b", "b.1", "c", "d", "d.1", "d.2", "e"};
	static const char *const by_cost[] = {"e", "b", "b.1", "d", "d.1", "d.2", "a", "c"};

	mk(&v[0], "b", "x.c", 9, 5, 0);
	mk(&v[1], "b.1", "x.c", 1, 99, 1);
	mk(&v[2], "e", NULL, 0, 7, 0);
	mk(&v[3], "d", "a.c", 3, 5, 0);
	mk(&v[4], "d.1", "z.c", 1, 0, 1);
	mk(&v[5], "d.2", "z.c", 1, 0, 2);
	mk(&v[6], "a", "x.c", 2, 1, 0);
	mk(&v[7], "c", "x.c", 2, 1, 0);
	pr.sort = DP_SORT_SOURCE;
	CHECK_EQ(dp_rep_sort(r, v, 8, &pr), 0);
	for (int i = 0; i < 8; i++)
		CHECK_STR(v[i].name, by_ctx[i]);
	pr.sort = DP_SORT_NAME;
	CHECK_EQ(dp_rep_sort(r, v, 8, &pr), 0);
	for (int i = 0; i < 8; i++)
		CHECK_STR(v[i].name, by_name[i]);
	pr.sort = DP_SORT_COST;
	pr.sort_metric = DP_METRIC_TIME;
	pr.sort_scope = DP_SCOPE_SELF;
	pr.sort_per = DP_PER_OVERALL;
	CHECK_EQ(dp_rep_sort(r, v, 8, &pr), 0); /* ties (5, 5) and (1, 1) by name */
	for (int i = 0; i < 8; i++)
		CHECK_STR(v[i].name, by_cost[i]);
	/* a run of deeper rows only (starting at depth 1) sorts the same way */
	CHECK_EQ(dp_rep_sort(r, v + 4, 2, &pr), 0);
	CHECK_STR(v[4].name, "d.1");
	dp_report_free(r);
}

/* files sharing long prefixes, and equal files at different addresses */
TEST(sort_context_files)
{
	struct dp_report *r = bare("page=menu&sort=source");
	struct dp_rep_row v[5];
	char f1[] = "src/common/prefix/x.c", f2[] = "src/common/prefix/x.c";
	static const char *const want[] = {"w50", "x1", "x2", "x9", "none"};

	mk(&v[0], "x9", f1, 9, 0, 0);
	mk(&v[1], "none", NULL, 1, 0, 0);
	mk(&v[2], "x2", f2, 2, 0, 0);
	mk(&v[3], "w50", "src/common/prefix/w.c", 50, 0, 0);
	mk(&v[4], "x1", f1, 1, 0, 0);
	CHECK_EQ(dp_rep_sort(r, v, 5, &r->q.prefs), 0);
	for (int i = 0; i < 5; i++)
		CHECK_STR(v[i].name, want[i]);
	dp_report_free(r);
}

TEST(sort_large_stable)
{
	struct dp_report *r = bare("page=menu&sort=cost:time:self:overall");
	uint32_t n = 5000;
	struct dp_rep_row *v = dp_arena_array(&r->arena, n, sizeof(*v));

	for (uint32_t i = 0; i < n; i++) {
		mk(&v[i], "same", NULL, 0, (i * 7919u) % 97u, 0);
		v[i].id = i;
	}
	CHECK_EQ(r->q.prefs.sort, DP_SORT_COST);
	CHECK_EQ(dp_rep_sort(r, v, n, &r->q.prefs), 0);
	for (uint32_t i = 1; i < n; i++) {
		CHECK(v[i - 1].own.samples >= v[i].own.samples);
		if (v[i - 1].own.samples == v[i].own.samples)
			CHECK(v[i - 1].id < v[i].id); /* stable */
	}
	dp_report_free(r);
}

TEST(resolve_and_check)
{
	struct tf_ctx t;
	struct dp_report *r;

	TF_OPEN(&t, NULL);
	r = bare("page=proc&name=work");
	CHECK_EQ(dp_rep_resolve_proc(r, &t.c, 0), TF_WORK);
	CHECK_EQ(dp_rep_resolve_proc(r, &t.c, TF_FIB), TF_FIB);
	CHECK_EQ(dp_rep_resolve_proc(r, &t.c, 99), -DP_ENOENT);
	CHECK(strstr(dp_errmsg(), "1..12") != NULL);
	dp_report_free(r);
	r = bare("page=proc&name=dup");
	CHECK_EQ(dp_rep_resolve_proc(r, &t.c, 0), -DP_EUSAGE);
	CHECK(strstr(dp_errmsg(), "id=11") != NULL);
	CHECK(strstr(dp_errmsg(), "id=12") != NULL);
	CHECK(strstr(dp_errmsg(), "src/b.c") != NULL);
	dp_report_free(r);
	r = bare("page=proc&name=nosuch");
	CHECK_EQ(dp_rep_resolve_proc(r, &t.c, 0), -DP_ENOENT);
	CHECK(strstr(dp_errmsg(), "nosuch") != NULL);
	dp_report_free(r);
	r = bare("page=clique&id=1");
	r->q.id = 0;
	CHECK_EQ(dp_rep_check_id(r, "clique", 0, 5), -DP_EUSAGE);
	CHECK(strstr(dp_errmsg(), "id=N") != NULL);
	CHECK_EQ(dp_rep_check_id(r, "clique", 6, 5), -DP_ENOENT);
	CHECK(strstr(dp_errmsg(), "valid: 1..5") != NULL);
	CHECK_EQ(dp_rep_check_id(r, "clique", 5, 5), 0);
	CHECK_EQ(dp_rep_check_id(r, "clique", 1, 5), 0);
	dp_report_free(r);
	tf_close(&t);
}

DP_TEST_MAIN(test_rows_sections_facts_links, test_names_and_qualification, test_row_makers,
	     test_row_makers_nodes, test_metrics_and_sums, test_sort_groups,
	     test_sort_context_files, test_sort_large_stable, test_resolve_and_check)
