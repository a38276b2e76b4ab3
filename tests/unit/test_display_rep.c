/*
 * tests/unit/test_display_rep.c - the hand-built reports of the display tests (see
 * test_display_rep.h): every page kind's shape (subject, sections, depths, flags, ids,
 * facts, links, pager) without a profile or the report builders.
 */
#include "test_display_rep.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/err.h"

static void *tr_alloc(struct dp_report *r, size_t n)
{
	void *p = dp_arena_alloc(&r->arena, n);

	if (!p)
		abort();
	return p;
}

struct dp_report *tr_new(const char *qs)
{
	struct dp_report *r = calloc(1, sizeof(*r));

	if (!r)
		abort();
	dp_arena_init(&r->arena, 0);
	if (dp_query_parse(qs, true, &r->q) < 0) {
		fprintf(stderr, "bad test query %s: %s\n", qs, dp_errmsg());
		abort();
	}
	r->title = "";
	r->root_total.samples = 1000;
	r->root_total.callseqs = 50000;
	r->root_total.allocs = 100;
	r->root_total.alloc_bytes = 1 << 20;
	r->sample_period_ns = 1000000;
	r->sections = tr_alloc(r, 8 * sizeof(*r->sections));
	return r;
}

void tr_free(struct dp_report *r)
{
	if (!r)
		return;
	dp_arena_release(&r->arena);
	free(r);
}

struct dp_rep_section *tr_section(struct dp_report *r, const char *id, const char *title,
				  uint32_t cap)
{
	struct dp_rep_section *s = &r->sections[r->n_sections++];

	s->id = id;
	s->title = title;
	s->rows = tr_alloc(r, (cap ? cap : 1) * sizeof(*s->rows));
	return s;
}

/* Zero @row, then set what every row has. */
static struct dp_rep_row *tr_fill(struct dp_rep_row *row, enum dp_ent kind, uint32_t id,
				  uint32_t depth, unsigned flags, const char *name,
				  const char *file, uint32_t line)
{
	memset(row, 0, sizeof(*row));
	row->kind = kind;
	row->id = id;
	row->depth = depth;
	row->flags = flags;
	row->name = name;
	row->file = file;
	row->line = line;
	return row;
}

struct dp_rep_row *tr_row(struct dp_rep_section *s, enum dp_ent kind, uint32_t id, uint32_t depth,
			  unsigned flags, const char *name, const char *file, uint32_t line)
{
	return tr_fill(&s->rows[s->n_rows++], kind, id, depth, flags, name, file, line);
}

struct dp_rep_row *tr_subject(struct dp_report *r, enum dp_ent kind, uint32_t id, const char *name,
			      const char *file, uint32_t line)
{
	r->has_subject = true;
	return tr_fill(&r->subject, kind, id, 0, 0, name, file, line);
}

void tr_ids(struct dp_rep_row *row, uint32_t ps, uint32_t clique, uint32_t css, uint32_t module)
{
	row->ps = ps;
	row->clique = clique;
	row->css = css;
	row->module = module;
}

void tr_costs(struct dp_rep_row *row, uint64_t calls, uint64_t samples, uint64_t dsamples,
	      uint64_t callseqs, uint64_t dcallseqs, uint64_t bytes)
{
	row->own.calls = calls;
	row->own.exits = calls;
	row->own.samples = samples;
	row->desc.samples = dsamples;
	row->own.callseqs = callseqs;
	row->desc.callseqs = dcallseqs;
	row->own.alloc_bytes = bytes;
}

/* The procs section of the clique page: every row kind a clique page has. */
static void tr_clique_procs(struct dp_report *r)
{
	struct dp_rep_section *s = tr_section(r, "procs", "Procedures", 8);
	struct dp_rep_row *w;

	w = tr_row(s, DP_ENT_PS, 2, 0, 0, "fib", "fib.c", 3);
	tr_ids(w, 2, 3, 0, 1);
	tr_costs(w, 100, 400, 100, 20000, 5000, 0);
	w = tr_row(s, DP_ENT_CSD, 21, 1, DP_ROW_RECURSIVE, "fib", "fib.c", 5);
	tr_ids(w, 2, 3, 9, 0);
	tr_costs(w, 99, 390, 0, 19800, 0, 0);
	w = tr_row(s, DP_ENT_CSS, 10, 1, DP_ROW_INACTIVE, "log_it", "fib.c", 7);
	tr_ids(w, 9, 0, 10, 0);
	w = tr_row(s, DP_ENT_CSS, 11, 1, DP_ROW_MULTI, "(indirect)", "fib.c", 9);
	w->css = 11;
	tr_costs(w, 30, 60, 40, 300, 200, 4608);
	w = tr_row(s, DP_ENT_CSD, 22, 2, 0, "cb_a", "fib.c", 9);
	tr_ids(w, 4, 6, 11, 0);
	tr_costs(w, 20, 50, 40, 200, 200, 4096);
	w = tr_row(s, DP_ENT_CSD, 23, 2, 0, "<script>alert(1)</script>", "fib.c", 9);
	tr_ids(w, 5, 7, 11, 0);
	tr_costs(w, 10, 10, 0, 100, 0, 512);
	w = tr_row(s, DP_ENT_CSS, 12, 1, DP_ROW_INACTIVE | DP_ROW_MULTI, "(callback)", "fib.c", 11);
	w->css = 12;
	w = tr_row(s, DP_ENT_CSD, 24, 2, DP_ROW_INACTIVE, "never", "fib.c", 11);
	tr_ids(w, 8, 9, 12, 0);
}

struct dp_report *tr_clique(const char *qs)
{
	struct dp_report *r = tr_new(qs);
	struct dp_rep_section *s;
	struct dp_rep_row *w;

	r->title = "Clique 3: fib";
	w = tr_subject(r, DP_ENT_CLIQUE, 3, "fib", "fib.c", 3);
	tr_ids(w, 2, 3, 0, 1);
	tr_costs(w, 100, 400, 100, 20000, 5000, 0);
	s = tr_section(r, "ancestors", "Ancestors", 1);
	w = tr_row(s, DP_ENT_CSD, 7, 0, 0, "main -> fib", "main.c", 12);
	tr_ids(w, 2, 1, 4, 0);
	tr_costs(w, 1, 1, 499, 10, 24990, 0);
	tr_clique_procs(r);
	return r;
}

struct dp_report *tr_flame(const char *qs)
{
	struct dp_report *r = tr_new(qs);
	struct dp_rep_section *s = tr_section(r, "flame", NULL, 6);
	struct dp_rep_row *w;

	r->title = "Flame graph";
	w = tr_row(s, DP_ENT_CLIQUE, 1, 0, 0, "main", "main.c", 10);
	tr_ids(w, 1, 1, 0, 0);
	tr_costs(w, 1, 0, 1000, 0, 0, 0);
	w = tr_row(s, DP_ENT_CSD, 5, 1, 0, "a", "a.c", 2);
	tr_ids(w, 2, 2, 0, 0);
	tr_costs(w, 3, 100, 500, 0, 0, 0);
	w = tr_row(s, DP_ENT_CSD, 6, 2, 0, "c<int>", "c.cc", 8);
	tr_ids(w, 4, 4, 0, 0);
	tr_costs(w, 1200, 500, 0, 0, 0, 0);
	w = tr_row(s, DP_ENT_CSD, 7, 1, 0, "b & co", "b.c", 4);
	tr_ids(w, 3, 3, 0, 0);
	tr_costs(w, 2, 300, 0, 0, 0, 0);
	w = tr_row(s, DP_ENT_NONE, 0, 1, DP_ROW_SUM, "other", NULL, 0);
	w->n = 4;
	tr_costs(w, 0, 100, 0, 0, 0, 0);
	return r;
}

struct dp_report *tr_callers(const char *qs)
{
	struct dp_report *r = tr_new(qs);
	struct dp_rep_section *s = tr_section(r, "callers", "Callers", 2);
	struct dp_rep_row *w;

	r->title = "Callers of work";
	w = tr_subject(r, DP_ENT_PS, 6, "work", "work.c", 20);
	tr_ids(w, 6, 0, 0, 2);
	tr_costs(w, 5000, 600, 0, 0, 0, 0);
	w = tr_row(s, DP_ENT_CSS, 40, 0, 0, "caller21", "c.c", 21);
	tr_ids(w, 6, 0, 40, 0);
	tr_costs(w, 50, 6, 0, 0, 0, 0);
	w = tr_row(s, DP_ENT_CSS, 41, 0, DP_ROW_CONTOUR, "caller22", "c.c", 22);
	tr_ids(w, 6, 0, 41, 0);
	tr_costs(w, 40, 5, 0, 0, 0, 0);
	r->n_items = 93;
	r->bunch = 2;
	r->n_bunches = 5;
	return r;
}

struct dp_report *tr_menu(void)
{
	struct dp_report *r = tr_new("");
	struct dp_query *q;

	r->title = "Profile of ./prog <a&b>";
	r->facts = dp_arena_array(&r->arena, 3, sizeof(*r->facts));
	r->links = dp_arena_array(&r->arena, 2, sizeof(*r->links));
	q = dp_arena_array(&r->arena, 2, sizeof(*q));
	if (!r->facts || !r->links || !q)
		abort();
	r->facts[0] = (struct dp_rep_fact){"program", "program", DP_FACT_STR, 0, 0, "./prog"};
	r->facts[1] = (struct dp_rep_fact){"n_cliques", "cliques", DP_FACT_U64, 42, 0, NULL};
	r->facts[2] = (struct dp_rep_fact){"hz", "sample rate (Hz)", DP_FACT_F64, 0, 999.5, NULL};
	r->n_facts = 3;
	q[0] = r->q;
	dp_query_reset_params(&q[0], DP_PAGE_ROOT);
	q[1] = r->q;
	dp_query_reset_params(&q[1], DP_PAGE_TOP);
	q[1].scope = DP_SCOPE_TOTAL;
	r->links[0] = (struct dp_rep_link){"The root clique", &q[0]};
	r->links[1] = (struct dp_rep_link){"Top 100 procedures by total time", &q[1]};
	r->n_links = 2;
	return r;
}

/* @d (freed here) rendered as text or HTML with @o; a malloc'd string. */
static char *tr_render_display(struct dp_display *d, bool html, const struct dp_render_opts *o)
{
	struct dp_buf b;
	char *s;

	dp_buf_init(&b, (size_t)1 << 28);
	if ((html ? dp_render_html(d, o, &b) : dp_render_text(d, o, &b)) < 0) {
		fprintf(stderr, "render failed: %s\n", dp_errmsg());
		abort();
	}
	s = malloc(b.len + 1);
	if (s)
		memcpy(s, dp_buf_cstr(&b), b.len + 1);
	dp_buf_release(&b);
	dp_display_free(d);
	if (!s)
		abort();
	return s;
}

char *tr_render(const struct dp_report *r, bool html, unsigned width)
{
	struct dp_render_opts o = {.link_prefix = "/?file=0&", .width = width};
	struct dp_display *d = NULL;

	if (dp_display_build(r, &d) < 0) {
		fprintf(stderr, "display failed: %s\n", dp_errmsg());
		abort();
	}
	return tr_render_display(d, html, &o);
}

char *tr_render_error(int status, const char *message, bool html)
{
	struct dp_display *d = NULL;

	if (dp_display_error(status, message, NULL, &d) < 0) {
		fprintf(stderr, "error page failed: %s\n", dp_errmsg());
		abort();
	}
	return tr_render_display(d, html, NULL);
}

int tr_contains(const char *s, const char *frag)
{
	if (strstr(s, frag))
		return 1;
	fprintf(stderr, "--- missing:\n%s\n--- in:\n%s---\n", frag, s);
	return 0;
}
