/*
 * tests/unit/test_display.c - the display step on hand-built reports: human units, name
 * shortening, the columns the preferences ask for, hiding of inactive rows (with their
 * subtrees), row links and header links that keep every preference, toggles, the pager,
 * the flame layout, and error pages.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/err.h"
#include "../../src/display/display_int.h"
#include "harness.h"
#include "test_display_rep.h"

static const char *fc(double v)
{
	static char s[DP_UNIT_MAX];

	dp_fmt_count(s, sizeof(s), v);
	return s;
}

static const char *fb(double v)
{
	static char s[DP_UNIT_MAX];

	dp_fmt_bytes(s, sizeof(s), v);
	return s;
}

static const char *fs(double v, enum dp_time_unit u)
{
	static char s[DP_UNIT_MAX];

	dp_fmt_seconds(s, sizeof(s), v, u);
	return s;
}

static const char *fp(double a, double b)
{
	static char s[DP_UNIT_MAX];

	dp_fmt_pct(s, sizeof(s), a, b);
	return s;
}

TEST(units)
{
	CHECK_STR(fc(0), "0");
	CHECK_STR(fc(1234), "1234");
	CHECK_STR(fc(9999), "9999");
	CHECK_STR(fc(12345), "12.3k");
	CHECK_STR(fc(123456), "123k");
	CHECK_STR(fc(999999), "1.0M");
	CHECK_STR(fc(1500000), "1.5M");
	CHECK_STR(fc(2.5), "2.50");
	CHECK_STR(fc(12.25), "12.3");
	CHECK_STR(fb(512), "512 B");
	CHECK_STR(fb(1023), "1023 B");
	CHECK_STR(fb(1536), "1.5 KiB");
	CHECK_STR(fb(4.5 * 1024 * 1024), "4.5 MiB");
	CHECK_STR(fb(200.0 * 1024 * 1024 * 1024), "200 GiB");
	CHECK_STR(fs(1.2, DP_TIME_AUTO), "1.2 s");
	CHECK_STR(fs(0.34, DP_TIME_AUTO), "340 ms");
	CHECK_STR(fs(0.0123, DP_TIME_AUTO), "12.3 ms");
	CHECK_STR(fs(5e-6, DP_TIME_AUTO), "5.0 us");
	CHECK_STR(fs(0.9999, DP_TIME_AUTO), "1.0 s");
	CHECK_STR(fs(250, DP_TIME_AUTO), "250 s");
	CHECK_STR(fs(0, DP_TIME_AUTO), "0");
	CHECK_STR(fs(0.34, DP_TIME_S), "0.340");
	CHECK_STR(fs(0.34, DP_TIME_MS), "340.0");
	CHECK_STR(fs(0.34, DP_TIME_US), "340000");
	CHECK_STR(fp(1, 3), "33.3%");
	CHECK_STR(fp(5, 5), "100%");
	CHECK_STR(fp(1, 10000), "<0.1%");
	CHECK_STR(fp(0, 5), "0%");
	CHECK_STR(fp(1, 0), "-");
}

static const char *shorten(const char *name, size_t w)
{
	static struct dp_buf b;

	if (!b.max)
		dp_buf_init(&b, 1 << 16);
	CHECK_EQ(dp_shorten_name(&b, name, w), 0);
	return dp_buf_cstr(&b);
}

TEST(shorten_names)
{
	CHECK_STR(shorten("main", 10), "main");
	CHECK_STR(shorten("std::map<int, std::string>::find", 20), "std::map<...>::find");
	CHECK_STR(shorten("std::map<int, std::string>::find", 40),
		  "std::map<int, std::string>::find");
	CHECK_STR(shorten("ns::operator<<(std::ostream&, ns::Thing<long long> const&)", 30),
		  "ns::operator<<(...)");
	CHECK_STR(shorten("ns::operator<<(std::ostream&, ns::Thing<long long> const&)", 52),
		  "ns::operator<<(std::ostream&, ns::Thing<...> const&)");
	CHECK_STR(shorten("bool operator< <int>(A<int> const&)", 25), "bool operator< <...>(...)");
	CHECK_STR(shorten("abcdefghijklmnopqrstuvwxyz", 10), "abcd...xyz");
	CHECK_STR(shorten("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 6),
		  "\xc3\xa9\xc3\xa9...\xc3\xa9");
	CHECK_EQ(dp_text_width("\xc3\xa9t\xc3\xa9", 5), 3);
	/* unbalanced brackets: no elision, a middle cut */
	CHECK_STR(shorten("a<b<c<d<e<f<g<h>", 10), "a<b<...<h>");
	CHECK_STR(shorten("abcdef", 2), "ab");
}

/* The display of @r (aborts on failure). */
static struct dp_display *build(const struct dp_report *r)
{
	struct dp_display *d = NULL;

	if (dp_display_build(r, &d) < 0)
		abort();
	return d;
}

/* The first block of @kind with id @id (any id if NULL); aborts if there is none. */
static const struct dp_dblock *block(const struct dp_display *d, enum dp_dblock_kind kind,
				     const char *id)
{
	for (uint32_t i = 0; i < d->n_blocks; i++)
		if (d->blocks[i].kind == kind &&
		    (!id || (d->blocks[i].id && strcmp(d->blocks[i].id, id) == 0)))
			return &d->blocks[i];
	fprintf(stderr, "no block %d %s\n", (int)kind, id ? id : "");
	abort();
}

/* The table with id @id. */
static const struct dp_dtable *table(const struct dp_display *d, const char *id)
{
	return &block(d, DP_DB_TABLE, id)->table;
}

TEST(inactive_rows_hidden)
{
	struct dp_report *r = tr_clique("page=clique&id=3");
	struct dp_display *d = build(r);
	const struct dp_dtable *t = table(d, "procs");

	CHECK_EQ(t->n_rows, 5);
	CHECK_EQ(t->n_hidden, 3); /* the inactive site, the inactive callback and its child */
	CHECK_STR(t->rows[4].name, "<script>alert(1)</script>");
	CHECK_STR(t->show_href, "page=clique&id=3&inactive=sss");
	dp_display_free(d);
	tr_free(r);
	/* sites shown: every row, in order, with its depth */
	r = tr_clique("page=clique&id=3&inactive=shh");
	d = build(r);
	t = table(d, "procs");
	CHECK_EQ(t->n_rows, 8);
	CHECK_EQ(t->n_hidden, 0);
	CHECK_STR(t->rows[2].name, "log_it");
	CHECK_EQ(t->rows[2].flags & DP_ROW_INACTIVE, DP_ROW_INACTIVE);
	CHECK_EQ(t->rows[7].depth, 2);
	CHECK(t->show_href == NULL);
	dp_display_free(d);
	tr_free(r);
	/* procedures shown does not show sites */
	r = tr_clique("page=clique&id=3&inactive=hsh");
	d = build(r);
	CHECK_EQ(table(d, "procs")->n_rows, 5);
	dp_display_free(d);
	tr_free(r);
}

TEST(columns_follow_fields)
{
	struct dp_report *r = tr_clique("page=clique&id=3&fields=pTq");
	struct dp_display *d = build(r);
	const struct dp_dtable *t = table(d, "ancestors");
	static const char *const labels[] = {"Calls", "Exits",	   "Unwinds",	"Self",
					     "Total", "Self",	   "%",		"Total",
					     "%",     "Self/call", "Total/call"};
	static const char *const cells[] = {"1",    "1",      "0",     "1",	 "500",	  "1.0 ms",
					    "0.1%", "500 ms", "50.0%", "1.0 ms", "500 ms"};

	CHECK_EQ(t->n_num, 11);
	CHECK_EQ(t->n_cols, 14);
	for (uint32_t i = 0; i < 11 && i < t->n_num; i++) {
		CHECK_STR(t->cols[2 + i].label, labels[i]);
		CHECK_STR(t->rows[0].num[i].text, cells[i]);
	}
	CHECK_STR(t->cols[5].group, "ticks");
	CHECK_STR(t->cols[7].group, "time");
	/* header links re-sort and keep every other preference */
	CHECK_STR(t->cols[2].href, "page=clique&id=3&fields=pqT&sort=cost:calls:self");
	CHECK(t->cols[3].href == NULL); /* exits: no such sort */
	/* the column sorted by (total time, the default) sorts the other way; sorted by
	 * another, every column sorts its natural way, and says so */
	CHECK(t->cols[9].sorted && !t->cols[9].rev && !t->cols[2].sorted);
	CHECK_STR(t->cols[9].href, "page=clique&id=3&fields=pqT&sort=cost:asc");
	CHECK_STR(t->cols[11].href, "page=clique&id=3&fields=pqT&sort=cost:self:call");
	CHECK_STR(t->cols[1].href, "page=clique&id=3&fields=pqT&sort=name");
	{
		char tip[DP_UNIT_MAX];

		dp_cell_tip(&t->rows[0].num[7], tip);
		CHECK_STR(tip, "500 samples");
		CHECK_EQ(t->rows[0].num[7].raw, 500);
		CHECK_EQ(t->rows[0].num[7].len, 6);
		dp_cell_tip(&t->rows[0].num[0], tip); /* 1 call: shown exactly, no tooltip */
		CHECK_STR(tip, "");
	}
	dp_display_free(d);
	tr_free(r);
}

TEST(row_links_keep_prefs)
{
	struct dp_report *r = tr_clique("page=clique&id=3&inactive=shh&mq=always&anc=all&sum=1");
	struct dp_display *d = build(r);
	const struct dp_dtable *t = table(d, "procs");

	CHECK_STR(t->rows[0].href, "page=proc&id=2&anc=all&sum=1&inactive=shh&mq=always");
	CHECK_STR(t->rows[0].ref, "p2");
	CHECK_STR(t->rows[1].href, "page=clique&id=3&anc=all&sum=1&inactive=shh&mq=always");
	CHECK_STR(t->rows[2].href, "page=site&id=10&anc=all&sum=1&inactive=shh&mq=always");
	CHECK_STR(t->rows[2].ref, "s10");
	CHECK_STR(t->rows[4].ref, "c6");
	CHECK_STR(t->rows[4].where, "fib.c:9");
	CHECK_STR(table(d, "ancestors")->rows[0].ref, "c1");
	dp_display_free(d);
	tr_free(r);
}

/* The toggle group labelled @label. */
static const struct dp_dtoggles *toggles(const struct dp_display *d, const char *label)
{
	for (uint32_t i = 0; i < d->n_toggles; i++)
		if (strcmp(d->toggles[i].label, label) == 0)
			return &d->toggles[i];
	fprintf(stderr, "no toggles %s\n", label);
	abort();
}

/* Whether @d has a toggle group labelled @label. */
static bool has_toggles(const struct dp_display *d, const char *label)
{
	for (uint32_t i = 0; i < d->n_toggles; i++)
		if (strcmp(d->toggles[i].label, label) == 0)
			return true;
	return false;
}

TEST(toggles_keep_prefs)
{
	struct dp_report *r = tr_clique("page=clique&id=3&sort=name&unit=ms");
	struct dp_display *d = build(r);
	const struct dp_dtoggles *t = toggles(d, "fields");

	CHECK_EQ(t->n_links, 10);
	CHECK_STR(t->links[0].label, "ports");
	CHECK(t->on[0]);
	CHECK_STR(t->links[0].href, "page=clique&id=3&fields=tsb&sort=name&unit=ms");
	CHECK(!t->on[4]);
	CHECK_STR(t->links[4].href, "page=clique&id=3&fields=ptsab&sort=name&unit=ms");
	t = toggles(d, "sort");
	CHECK(t->links[1].href == NULL); /* name: the current choice */
	CHECK_STR(t->links[0].href, "page=clique&id=3&sort=cost&unit=ms");
	CHECK_STR(t->links[2].href, "page=clique&id=3&sort=source&unit=ms");
	CHECK_STR(t->label, "sort");
	CHECK_STR(t->links[2].label, "source order");
	t = toggles(d, "ancestors");
	CHECK_STR(t->links[3].href, "page=clique&id=3&sort=name&anc=all&unit=ms");
	t = toggles(d, "summarise indirect calls");
	CHECK_STR(t->links[0].href, "page=clique&id=3&sort=name&sum=1&unit=ms");
	CHECK(!has_toggles(d, "contour exclusion")); /* only on callers pages */
	t = toggles(d, "threads");
	CHECK_STR(t->links[1].href, "page=clique&id=3&sort=name&unit=ms&view=threads");
	dp_display_free(d);
	tr_free(r);
}

TEST(nav_links)
{
	struct dp_report *r = tr_callers("page=callers&proc=6&bunch=2&contour=1");
	struct dp_display *d = build(r);

	CHECK_EQ(d->n_nav_general, 7);
	CHECK_EQ(d->n_nav, 12);
	CHECK_STR(d->nav[0].href, "page=menu&contour=1");
	CHECK_STR(d->nav[7].href, "page=proc&id=6&contour=1");
	CHECK(d->nav[8].href == NULL); /* callers of 6: this page */
	CHECK_STR(d->nav[9].href, "page=flame_callers&proc=6&contour=1");
	CHECK_STR(d->nav[10].href, "page=sandwich&proc=6&contour=1");
	CHECK_STR(d->nav[11].href, "page=module&id=2&contour=1");
	CHECK(has_toggles(d, "contour exclusion"));
	dp_display_free(d);
	tr_free(r);
}

TEST(pager)
{
	struct dp_report *r = tr_callers("page=callers&proc=6&bunch=2&size=20");
	struct dp_display *d = build(r);
	const struct dp_dblock *b = block(d, DP_DB_PAGER, NULL);

	CHECK_STR(b->title, "Page 2 of 5 (93 items)");
	CHECK_EQ(b->n_links, 9); /* first prev 1..5 next last */
	CHECK_STR(b->links[1].href, "page=callers&proc=6");
	CHECK(b->links[3].href == NULL);
	CHECK_STR(b->links[3].label, "2");
	CHECK_STR(b->links[7].label, "next");
	CHECK_STR(b->links[7].href, "page=callers&proc=6&bunch=3");
	CHECK_STR(b->links[8].href, "page=callers&proc=6&bunch=5");
	dp_display_free(d);
	tr_free(r);
	/* top: pages of ranks */
	r = tr_new("page=top&limit=101-200");
	r->n_items = 250;
	tr_section(r, "procs", NULL, 0);
	d = build(r);
	b = block(d, DP_DB_PAGER, NULL);
	CHECK_STR(b->title, "Page 2 of 3 (250 items)");
	CHECK_STR(b->links[1].href, "page=top");
	CHECK_STR(b->links[b->n_links - 1].href, "page=top&limit=201-300");
	dp_display_free(d);
	tr_free(r);
}

TEST(flame_layout)
{
	struct dp_report *r = tr_flame("page=flame");
	struct dp_display *d = build(r);
	const struct dp_dflame *f = &block(d, DP_DB_FLAME, NULL)->flame;

	CHECK_EQ(f->n_nodes, 5);
	CHECK_EQ(f->max_depth, 2);
	CHECK(f->nodes[1].x == 0.0 && f->nodes[1].w == 0.6);
	CHECK(f->nodes[2].x == 0.0 && f->nodes[2].w == 0.5);
	CHECK(f->nodes[3].x == 0.6 && f->nodes[3].w > 0.2999 && f->nodes[3].w < 0.3001);
	CHECK(f->nodes[4].x > 0.8999 && f->nodes[4].x < 0.9001);
	CHECK(!f->nodes[1].last && f->nodes[2].last && !f->nodes[3].last && f->nodes[4].last);
	CHECK_STR(f->nodes[1].href, "page=clique&id=2");
	CHECK(f->nodes[4].href == NULL);
	CHECK_STR(f->nodes[1].total, "600 ms");
	CHECK_STR(f->nodes[1].total_pct, "60.0%");
	CHECK_STR(f->nodes[1].self_pct, "10.0%");
	CHECK_STR(f->nodes[2].calls, "1200");
	/* the width toggles change the metric and keep the page */
	CHECK_STR(toggles(d, "width")->links[1].href, "page=flame&metric=calls");
	CHECK(toggles(d, "width")->links[0].href == NULL);
	CHECK(!has_toggles(d, "fields"));
	dp_display_free(d);
	tr_free(r);
	/* callers graph: links to the procedures */
	r = tr_flame("page=flame_callers&proc=1&metric=calls");
	d = build(r);
	f = &block(d, DP_DB_FLAME, NULL)->flame;
	CHECK(f->inverted);
	CHECK_STR(f->nodes[1].href, "page=proc&id=2"); /* proc takes no metric */
	CHECK(f->nodes[2].w == 1.0); /* 1200 calls under a root of 1: clamped to the parent */
	dp_display_free(d);
	tr_free(r);
}

TEST(error_pages)
{
	struct dp_display *d = NULL;
	struct dp_query q;

	CHECK_EQ(dp_display_error(400, "unknown page 'foo'; pages: menu, root", NULL, &d), 0);
	CHECK_EQ(d->status, 400);
	CHECK_STR(d->title, "Error 400: Bad query");
	CHECK_EQ(d->blocks[0].kind, DP_DB_ERROR);
	CHECK_STR(d->blocks[0].text, "unknown page 'foo'; pages: menu, root");
	CHECK_STR(d->blocks[1].links[0].href, "page=menu");
	CHECK_STR(d->blocks[1].links[2].href, "page=top");
	dp_display_free(d);
	CHECK_EQ(dp_query_parse("page=clique&id=99&mq=never", true, &q), 0);
	CHECK_EQ(dp_display_error(404, "unknown clique id=99 (valid: 1..12)", &q, &d), 0);
	CHECK_STR(d->title, "Error 404: Not found");
	CHECK_STR(d->blocks[1].links[0].href, "page=menu&mq=never");
	CHECK_STR(d->blocks[1].links[4].href, "page=flame&mq=never");
	dp_display_free(d);
}

/* A small deterministic generator (xorshift). */
static uint32_t rnd(uint64_t *st)
{
	*st ^= *st << 13;
	*st ^= *st >> 7;
	*st ^= *st << 17;
	return (uint32_t)(*st >> 11);
}

/* Whether row @i of @rows is shown under @show: neither it nor an ancestor is hidden
 * (computed the slow way: walk back to each ancestor). */
static bool shown_slow(const struct dp_rep_row *rows, uint32_t i, unsigned show)
{
	uint32_t want = rows[i].depth;

	for (uint32_t k = i + 1; k-- > 0;) {
		unsigned bit;

		if (rows[k].depth > want)
			continue;
		want = rows[k].depth ? rows[k].depth - 1 : 0;
		bit = rows[k].kind == DP_ENT_CSD || rows[k].kind == DP_ENT_CSS
			      ? DP_SHOW_INACTIVE_SITES
			      : DP_SHOW_INACTIVE_PROCS;
		if ((rows[k].flags & DP_ROW_INACTIVE) && !(show & bit))
			return false;
		if (rows[k].depth == 0)
			break;
	}
	return true;
}

TEST(random_reports)
{
	static const char *const names[] = {"<script>alert(1)</script>", "a&b", "f\"g'h",
					    "std::map<int, int>::find", "x"};
	static const char *const qs[] = {"page=clique&id=1", "page=clique&id=1&inactive=shh",
					 "page=proc&id=1&inactive=hsh", "page=flame"};
	uint64_t st = 88172645463325252ull;

	for (int iter = 0; iter < 300; iter++) {
		struct dp_report *r = tr_new(qs[iter % 4]);
		uint32_t n = rnd(&st) % 60, shown = 0;
		struct dp_rep_section *sec = tr_section(r, "rows", NULL, n);
		struct dp_display *d;
		char *text, *html;

		for (uint32_t i = 0; i < n; i++) {
			uint32_t prev = i ? sec->rows[i - 1].depth + 1 : 0;
			struct dp_rep_row *w = tr_row(
				sec, rnd(&st) % 2 ? DP_ENT_CSD : DP_ENT_PS, i + 1,
				i ? rnd(&st) % (prev + 1) : 0,
				(rnd(&st) % 4 == 0 ? DP_ROW_INACTIVE : 0) |
					(rnd(&st) % 5 == 0 ? DP_ROW_RECURSIVE : 0),
				names[rnd(&st) % 5], rnd(&st) % 3 ? "f<&>.c" : NULL, rnd(&st) % 99);

			w->clique = rnd(&st) % 7;
			w->ps = i + 1;
			tr_costs(w, rnd(&st) % 100000, rnd(&st) % 2000, rnd(&st) % 3000, rnd(&st),
				 rnd(&st), rnd(&st));
			shown += shown_slow(sec->rows, i, r->q.prefs.inactive);
		}
		d = build(r);
		if (r->q.page != DP_PAGE_FLAME) {
			const struct dp_dtable *t = table(d, "rows");

			CHECK_EQ(t->n_rows, shown);
			CHECK_EQ(t->n_rows + t->n_hidden, n);
		}
		dp_display_free(d);
		text = tr_render(r, false, 40 + (unsigned)iter % 80);
		html = tr_render(r, true, 0);
		CHECK(strstr(html, "<script>alert") == NULL);
		CHECK(strstr(html, "a&b") == NULL);
		CHECK(strstr(text, "\x1b") == NULL);
		free(text);
		free(html);
		tr_free(r);
	}
}

DP_TEST_MAIN(test_units, test_shorten_names, test_inactive_rows_hidden, test_columns_follow_fields,
	     test_row_links_keep_prefs, test_toggles_keep_prefs, test_nav_links, test_pager,
	     test_flame_layout, test_error_pages, test_random_reports)
