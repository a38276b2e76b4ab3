/*
 * tests/unit/test_report_sort.c - every column header sorts both ways on every page kind
 * with tables: for each page, each header link of each table is followed (the report of
 * its query is built) and every run of sibling rows of every sorted section must be in
 * that column's order; the same header on the page reached must then sort the other way,
 * and its rows must be in the reverse order. On the fixture and on simulated profiles.
 * Also: the default order is by total cost, and the top page honours sort= (its rows
 * follow a cost sort's ranking, a name sort's order).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/err.h"
#include "../../src/display/display_int.h"
#include "../../src/report/report_int.h"
#include "harness.h"
#include "test_report_fix.h"

static const struct dp_gen_sim sim = {
	.n_fn = 12, .n_threads = 3, .n_steps = 4000, .max_depth = 20, .pct_call = 55};

/* bare - a row's name without the module qualification ("util.c: cheap" -> "cheap") */
static const char *bare(const struct dp_rep_row *r)
{
	const char *c = strstr(r->name, ": ");

	return c && r->kind != DP_ENT_MODULE && r->kind != DP_ENT_OBJECT ? c + 2 : r->name;
}

/* cmp_source - the source order of two rows: file (none last), line, name */
static int cmp_source(const struct dp_rep_row *a, const struct dp_rep_row *b)
{
	int c;

	if (a->file != b->file) {
		if (!a->file || !b->file)
			return a->file ? -1 : 1;
		if ((c = strcmp(a->file, b->file)) != 0)
			return c;
	}
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return strcmp(bare(a), bare(b));
}

/* key_cmp - @a against @b in the order @p names, its natural direction */
static int key_cmp(const struct dp_prefs *p, const struct dp_rep_row *a, const struct dp_rep_row *b)
{
	double x, y;

	switch (p->sort) {
	case DP_SORT_NAME:
		return strcmp(bare(a), bare(b));
	case DP_SORT_SOURCE:
		return cmp_source(a, b);
	case DP_SORT_COST:
	default:
		x = dp_rep_row_metric(a, p->sort_metric, p->sort_scope, p->sort_per);
		y = dp_rep_row_metric(b, p->sort_metric, p->sort_scope, p->sort_per);
		return x > y ? -1 : x < y; /* descending */
	}
}

/* whether section @s of @r is in the order of its preferences: sections in a fixed order
 * are skipped, so is the pinned first procedure of a clique page */
static bool section_sorted(const struct dp_report *r, const struct dp_rep_section *s,
			   const struct dp_prefs *p)
{
	const struct dp_rep_row *last[64];
	uint32_t first = 0;

	if (!strcmp(s->id, "ancestors") || !strcmp(s->id, "path") || !strcmp(s->id, "hot_path") ||
	    (r->q.page == DP_PAGE_PROC && !strcmp(s->id, "callers")))
		return true;
	/* the threads page's source order is the threads' order, the site page's contexts
	 * share one name and position (it falls back to costs) */
	if ((r->q.page == DP_PAGE_THREADS || r->q.page == DP_PAGE_SITE) && p->sort != DP_SORT_COST)
		return true;
	if (!strcmp(s->id, "procs") && (r->q.page == DP_PAGE_CLIQUE || r->q.page == DP_PAGE_ROOT ||
					r->q.page == DP_PAGE_ACTION))
		first = 1; /* the entry's procedure comes first */
	memset(last, 0, sizeof(last));
	for (uint32_t i = 0; i < s->n_rows; i++) {
		const struct dp_rep_row *row = &s->rows[i];
		uint32_t d = row->depth < 63 ? row->depth : 63;

		if (last[d] && !(d == 0 && i <= first)) {
			int c = key_cmp(p, last[d], row);

			if (p->sort_rev ? c < 0 : c > 0) {
				fprintf(stderr,
					"page %s section %s rows %u '%s' and '%s' out of "
					"order (sort %d rev %d)\n",
					dp_query_page_name(r->q.page), s->id, i, last[d]->name,
					row->name, p->sort, p->sort_rev);
				return false;
			}
		}
		last[d] = row;
		for (uint32_t k = d + 1; k < 64; k++) /* a new parent: new sibling runs */
			last[k] = NULL;
		if (d == 0 && i < first)
			last[0] = NULL;
	}
	return true;
}

/* report_sorted - every section of @r in @r's order */
static bool report_sorted(const struct dp_report *r)
{
	struct dp_prefs p = r->q.prefs;
	bool ok = true;

	if (r->q.page == DP_PAGE_TOP && r->q.sort_default) { /* its ranking */
		p.sort = DP_SORT_COST;
		p.sort_metric = r->q.metric;
		p.sort_scope = r->q.scope;
		p.sort_per = r->q.per;
		p.sort_rev = false;
	}
	for (uint32_t s = 0; s < r->n_sections; s++) {
		const char *id = r->sections[s].id;

		if (r->q.page == DP_PAGE_MENU && r->q.sort_default) { /* the top 5 rankings */
			p.sort = DP_SORT_COST;
			p.sort_metric = r->q.has_time ? DP_METRIC_TIME : DP_METRIC_CALLSEQS;
			p.sort_scope = strcmp(id, "top_self") ? DP_SCOPE_TOTAL : DP_SCOPE_SELF;
			p.sort_per = DP_PER_OVERALL;
			p.sort_rev = false;
		}
		ok = section_sorted(r, &r->sections[s], &p) && ok;
	}
	return ok;
}

/* the display of report @r, or NULL */
static struct dp_display *display_of(const struct dp_report *r)
{
	struct dp_display *d = NULL;

	CHECK_EQ(dp_display_build(r, &d), 0);
	return d;
}

/* follow header @col of table @tab of @d twice: each page sorted, the second the other
 * way round. Return: how many header links were followed. */
static unsigned follow_header(struct tf_ctx *t, const struct dp_display *d, uint32_t tab,
			      uint32_t col)
{
	const struct dp_dblock *b = &d->blocks[tab];
	const char *href = b->table.cols[col].href;
	struct dp_report *r1, *r2 = NULL;
	struct dp_display *d1;
	unsigned n = 0;

	if (!href)
		return 0;
	r1 = tf_report(t, href, NULL, 0);
	CHECK(r1 != NULL);
	if (!r1)
		return 0;
	n++;
	CHECK(report_sorted(r1));
	d1 = display_of(r1);
	/* the same table and column on the page reached: sorted, the link goes back */
	for (uint32_t i = 0; d1 && i < d1->n_blocks; i++) {
		const struct dp_dblock *b1 = &d1->blocks[i];

		if (b1->kind != DP_DB_TABLE || col >= b1->table.n_cols ||
		    (b->id && (!b1->id || strcmp(b->id, b1->id))) || !b1->table.cols[col].href)
			continue;
		CHECK(b1->table.cols[col].sorted);
		r2 = tf_report(t, b1->table.cols[col].href, NULL, 0);
		break;
	}
	if (r2) {
		n++;
		CHECK_EQ(r2->q.prefs.sort, r1->q.prefs.sort);
		CHECK(r2->q.prefs.sort_rev != r1->q.prefs.sort_rev);
		CHECK(report_sorted(r2));
	}
	dp_report_free(r2);
	dp_display_free(d1);
	dp_report_free(r1);
	return n;
}

/* page_sorts - every header of every table of page @qs, both ways; @min_links: at least
 * that many pages followed (the test must not pass by having nothing to follow) */
static void page_sorts(struct tf_ctx *t, const char *qs, unsigned min_links)
{
	struct dp_report *r = tf_report(t, qs, NULL, 0);
	struct dp_display *d;
	unsigned n = 0;

	CHECK(r != NULL);
	if (!r)
		return;
	CHECK(report_sorted(r)); /* the default order */
	d = display_of(r);
	for (uint32_t i = 0; d && i < d->n_blocks; i++)
		if (d->blocks[i].kind == DP_DB_TABLE)
			for (uint32_t c = 0; c < d->blocks[i].table.n_cols; c++)
				n += follow_header(t, d, i, c);
	if (n < min_links)
		fprintf(stderr, "%s: %u header links followed, want %u\n", qs, n, min_links);
	CHECK(n >= min_links);
	dp_display_free(d);
	dp_report_free(r);
}

/* every page kind with tables */
static void all_pages(struct tf_ctx *t, uint32_t ps, uint32_t css, uint32_t clique)
{
	static const char *const groups[] = {"site", "proc", "module", "clique"};
	char q[256];

	page_sorts(t, "page=menu&fields=pts", 20);
	page_sorts(t, "page=root&fields=psab", 20);
	page_sorts(t, "page=action&percent=30&fields=ptsab", 20);
	snprintf(q, sizeof(q), "page=clique&id=%u&fields=pTs", clique);
	page_sorts(t, q, 20);
	snprintf(q, sizeof(q), "page=proc&id=%u&fields=pTsAb", ps);
	page_sorts(t, q, 20);
	for (unsigned g = 0; g < 4; g++) {
		snprintf(q, sizeof(q), "page=callers&proc=%u&group=%s&fields=ptsab&size=5", ps,
			 groups[g]);
		page_sorts(t, q, 20);
	}
	page_sorts(t, "page=modules&fields=pts", 10);
	page_sorts(t, "page=module&id=1&fields=pts", 10);
	page_sorts(t, "page=top&fields=ptsab", 20);
	page_sorts(t, "page=top&metric=calls&limit=3&fields=pTs", 10);
	snprintf(q, sizeof(q), "page=site&id=%u&fields=pts", css);
	page_sorts(t, q, 10);
	page_sorts(t, "page=threads&fields=pts", 10);
	page_sorts(t, "page=search&q=i&fields=pts", 10);
}

TEST(fixture_every_header)
{
	struct tf_ctx t;

	TF_OPEN(&t, NULL);
	all_pages(&t, TF_CHEAP, 8, tf_clique_of(&t, 3));
	tf_close(&t);
}

TEST(generated_every_header)
{
	for (uint64_t seed = 11; seed < 14; seed++) {
		struct tf_ctx t;

		tf_sim = sim;
		tf_sim.seed = seed;
		TF_OPEN(&t, tf_gen_sim);
		all_pages(&t, 3 + (uint32_t)(seed % 5), 2 + (uint32_t)seed % 7, t.a->root_clique);
		tf_close(&t);
	}
}

/* the top page: sort= reorders its rows (it did not), a cost sort ranks by that cost */
TEST(top_page_sort)
{
	struct tf_ctx t;
	struct dp_report *r;
	const struct dp_rep_section *s;

	TF_OPEN(&t, NULL);
	/* default: by self time; cheap (40 + 1 samples) first, then fib (20) */
	r = tf_report(&t, "page=top&limit=3", NULL, 0);
	s = r ? tf_section(r, "procs") : NULL;
	CHECK(s && s->n_rows == 3);
	if (s && s->n_rows == 3) {
		CHECK_EQ(s->rows[0].id, TF_CHEAP);
		CHECK_EQ(s->rows[1].id, TF_FIB);
	}
	dp_report_free(r);
	/* by name: the same three rows, in name order */
	r = tf_report(&t, "page=top&limit=3&sort=name", NULL, 0);
	s = r ? tf_section(r, "procs") : NULL;
	CHECK(s && s->n_rows == 3);
	if (s && s->n_rows == 3) {
		CHECK_STR(s->rows[0].name, "cheap");
		CHECK_STR(s->rows[1].name, "fib");
	}
	dp_report_free(r);
	/* by total time: main (all of the thread's time) first */
	r = tf_report(&t, "page=top&limit=3&sort=cost:time:total", NULL, 0);
	s = r ? tf_section(r, "procs") : NULL;
	CHECK(s && s->n_rows == 3 && s->rows[0].id == TF_MAIN);
	dp_report_free(r);
	/* by calls, ascending: the least called first (main, called once) */
	r = tf_report(&t, "page=top&limit=2&sort=cost:calls:asc", NULL, 0);
	s = r ? tf_section(r, "procs") : NULL;
	CHECK(s && s->n_rows == 2 && s->rows[0].own.calls == 1);
	CHECK(r && !strncmp(r->title, "Bottom procedures 1-2 by calls", 30));
	dp_report_free(r);
	tf_close(&t);
}

DP_TEST_MAIN(test_fixture_every_header, test_generated_every_header, test_top_page_sort)
