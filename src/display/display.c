/*
 * display/display.c - dp_display_build(): lays out a report as a page (navigation,
 * toggles, note, facts, links, subject, one table per section or the flame graph, pager,
 * the text legend), and dp_display_error(), the page of a query that could not be
 * answered.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../core/err.h"
#include "display_int.h"

/* The menu's summary facts, said first (the others are details). */
static bool dp_summary_fact(const char *key)
{
	static const char *const keys[] = {"origin",	    "origin_input", "program",
					   "command_line",  "run_seconds",  "cpu_seconds",
					   "runtime_share", "n_threads",    "exit_status"};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}

/* A fact's value as text: seconds and shares in their units, the rest as they are. */
static const char *dp_fact_value(struct dp_display *d, const struct dp_rep_fact *f)
{
	if (f->type == DP_FACT_U64)
		return dp_disp_printf(d, "%" PRIu64, f->u);
	if (f->type == DP_FACT_F64 && strstr(f->key, "_seconds"))
		return dp_disp_printf(d, "%.3f s", f->f);
	if (f->type == DP_FACT_F64 && strstr(f->key, "_share"))
		return dp_disp_printf(d, "%.1f%%", 100.0 * f->f);
	if (f->type == DP_FACT_F64)
		return dp_disp_printf(d, "%.6g", f->f);
	return dp_disp_strdup(d, f->s ? f->s : "");
}

/* Facts as label/value strings: all of them (@which 0), the menu's summary (1) or the
 * rest (2), in a block titled @title. */
static int dp_disp_facts_of(struct dp_display *d, const struct dp_report *r, int which,
			    const char *title)
{
	struct dp_dblock *b;

	if (!r->n_facts)
		return 0;
	b = dp_disp_block(d, DP_DB_FACTS);
	if (!b)
		return -DP_ENOMEM;
	b->id = which == 1 ? "summary" : "facts";
	b->title = title;
	b->facts = dp_arena_array(&d->arena, r->n_facts, sizeof(*b->facts));
	if (!b->facts)
		return dp_error(DP_ENOMEM, "out of memory building a page");
	for (uint32_t i = 0; i < r->n_facts; i++) {
		const struct dp_rep_fact *f = &r->facts[i];
		struct dp_dfact *o;

		if (which && dp_summary_fact(f->key) != (which == 1))
			continue;
		o = &b->facts[b->n_facts++];
		o->label = dp_disp_strdup(d, f->label ? f->label : f->key);
		o->value = dp_fact_value(d, f);
		if (!o->label || !o->value)
			return -DP_ENOMEM;
	}
	return 0;
}

static int dp_disp_facts(struct dp_display *d, const struct dp_report *r)
{
	return dp_disp_facts_of(d, r, 0, NULL);
}

/* The report's links (menu's starting points, the action path). */
static int dp_disp_links(struct dp_display *d, const struct dp_report *r)
{
	struct dp_dblock *b;

	if (!r->n_links)
		return 0;
	b = dp_disp_link_block(d, DP_DB_LINKS, "links", r->n_links);
	if (!b)
		return -DP_ENOMEM;
	b->title = r->q.page == DP_PAGE_MENU ? "Starting points" : "Links";
	for (uint32_t i = 0; i < r->n_links; i++) {
		struct dp_dlink *l = &b->links[b->n_links++];

		l->label = dp_disp_strdup(d, r->links[i].label);
		l->href = r->links[i].q ? dp_disp_href(d, r->links[i].q) : NULL;
		if (!l->label || (r->links[i].q && !l->href))
			return -DP_ENOMEM;
	}
	return 0;
}

/* A text block of @kind. */
static int dp_disp_text(struct dp_display *d, enum dp_dblock_kind kind, const char *id,
			const char *text)
{
	struct dp_dblock *b = dp_disp_block(d, kind);

	if (!b)
		return -DP_ENOMEM;
	b->id = id;
	b->text = dp_disp_strdup_lines(d, text);
	return b->text ? 0 : -DP_ENOMEM;
}

bool dp_is_flame(const struct dp_report *r)
{
	return r->q.page == DP_PAGE_FLAME || r->q.page == DP_PAGE_FLAME_CALLERS ||
	       r->q.page == DP_PAGE_SANDWICH;
}

/* The legend of the Id column (text). */
static const char dp_legend[] =
	"Ids: cN = clique (page=clique&id=N), pN = procedure (page=proc&id=N), sN = call site "
	"(page=site&id=N), mN = module (page=module&id=N).";

/* The menu: the answers first (what ran, the runtime's share, the top procedures, the
 * hot path), then where to go, then the raw facts. */
static int dp_disp_menu(struct dp_display *d, const struct dp_report *r)
{
	if (dp_disp_facts_of(d, r, 1, NULL) < 0)
		return -DP_ENOMEM;
	if (r->note && dp_disp_text(d, DP_DB_NOTE, "note", r->note) < 0)
		return -DP_ENOMEM;
	if (r->cmp && dp_disp_cmp_note(d, r) < 0)
		return -DP_ENOMEM;
	if (r->has_subject && dp_disp_table(d, r, NULL, "subject", &r->subject, 1, true,
					    r->cmp ? &r->cmp->subject : NULL) < 0)
		return -DP_ENOMEM;
	for (uint32_t i = 0; i < r->n_sections; i++) {
		const struct dp_rep_section *s = &r->sections[i];

		if (dp_disp_table(d, r, s->title, s->id, s->rows, s->n_rows, false,
				  r->cmp ? r->cmp->rows[i] : NULL) < 0)
			return -DP_ENOMEM;
	}
	if (dp_disp_links(d, r) < 0 || dp_disp_facts_of(d, r, 2, "Details") < 0)
		return -DP_ENOMEM;
	if (r->n_sections || r->has_subject)
		d->legend = dp_legend;
	return 0;
}

/* The content blocks of @r. */
static int dp_disp_content(struct dp_display *d, const struct dp_report *r)
{
	if (r->q.page == DP_PAGE_MENU)
		return dp_disp_menu(d, r);
	if (r->note && dp_disp_text(d, DP_DB_NOTE, "note", r->note) < 0)
		return -DP_ENOMEM;
	if (r->cmp && dp_disp_cmp_note(d, r) < 0)
		return -DP_ENOMEM;
	if (dp_disp_facts(d, r) < 0 || dp_disp_links(d, r) < 0)
		return -DP_ENOMEM;
	if (r->has_subject && !dp_is_flame(r) &&
	    dp_disp_table(d, r, NULL, "subject", &r->subject, 1, true,
			  r->cmp ? &r->cmp->subject : NULL) < 0)
		return -DP_ENOMEM;
	if (dp_is_flame(r)) {
		if (dp_disp_flame(d, r) < 0)
			return -DP_ENOMEM;
		return r->cmp ? dp_disp_flame_cmp(d, r, &d->blocks[d->n_blocks - 1]) : 0;
	}
	for (uint32_t i = 0; i < r->n_sections; i++) {
		const struct dp_rep_section *s = &r->sections[i];

		if (dp_disp_table(d, r, s->title, s->id, s->rows, s->n_rows, false,
				  r->cmp ? r->cmp->rows[i] : NULL) < 0)
			return -DP_ENOMEM;
	}
	if (dp_disp_pager(d, r) < 0)
		return -DP_ENOMEM;
	if (r->n_sections || r->has_subject)
		d->legend = dp_legend;
	return 0;
}

/* Hand page @d to *@out when @rc is 0, else free it. Return: @rc (-DP_ENOMEM if none). */
static int dp_disp_done(struct dp_display *d, int rc, struct dp_display **out)
{
	if (rc == 0 && d) {
		*out = d;
		return 0;
	}
	dp_display_free(d);
	return rc < 0 ? rc : -DP_ENOMEM;
}

/* d->download: the subtree of @r's page (a clique, a procedure, else the whole profile),
 * in the page's view (threads, library leaves). */
static int dp_disp_download(struct dp_display *d, const struct dp_report *r)
{
	const char *view = r->q.prefs.view == DP_VIEW_THREADS ? "view=threads&" : "";
	const char *libs = r->q.prefs.libs == DP_LIBS_FOLD ? "libs=fold&" : "";

	if ((r->q.page == DP_PAGE_CLIQUE || r->q.page == DP_PAGE_PROC) && r->q.id)
		d->download = dp_disp_printf(d, "page=%s&id=%u&%s%s", dp_query_page_name(r->q.page),
					     r->q.id, view, libs);
	else if (r->q.page == DP_PAGE_FLAME && r->q.root) /* the zoomed graph's clique */
		d->download = dp_disp_printf(d, "page=clique&id=%u&%s%s", r->q.root, view, libs);
	else
		d->download = dp_disp_printf(d, "%s%s", view, libs);
	return d->download ? 0 : -DP_ENOMEM;
}

int dp_display_build(const struct dp_report *r, struct dp_display **out)
{
	struct dp_display *d = dp_disp_new();
	int rc = -DP_ENOMEM;

	*out = NULL;
	if (d) {
		struct dp_prefs def;

		dp_prefs_default(&def, r->q.has_time);
		d->fields_default = r->q.time_default && r->q.prefs.fields == def.fields;
		dp_disp_link_base(d, &r->q);
		d->title = dp_disp_strdup(
			d, r->title && r->title[0] ? r->title : dp_query_page_name(r->q.page));
		struct dp_query sq = r->q;

		dp_query_reset_params(&sq, DP_PAGE_SEARCH); /* the search box: prefs kept */
		sq.format = -1;
		d->search = dp_disp_href(d, &sq);
		d->search_text = r->q.page == DP_PAGE_SEARCH ? dp_disp_strdup(d, r->q.text) : NULL;
		if (r->q.page == DP_PAGE_FLAME) /* text shows the tree, not a graph */
			d->text_title = r->q.thread ? dp_disp_printf(d, "Call tree of thread %u",
								     r->q.thread)
						    : "Call tree";
		else if (r->q.page == DP_PAGE_FLAME_CALLERS)
			d->text_title = dp_disp_printf(d, "Callers of %s (inverted call tree)",
						       r->subject.name);
	}
	if (d && d->title && d->search && (r->q.page != DP_PAGE_SEARCH || d->search_text))
		rc = dp_disp_nav(d, r);
	if (!rc)
		rc = dp_disp_toggles(d, r);
	if (!rc)
		rc = dp_disp_download(d, r);
	if (!rc)
		rc = dp_disp_content(d, r);
	if (d)
		dp_disp_link_base(d, NULL); /* @r is only borrowed */
	return dp_disp_done(d, rc, out);
}

int dp_display_attach_data(struct dp_display *d, const struct dp_report *r)
{
	if (!dp_is_flame(r))
		return 0;
	dp_buf_reset(&d->data);
	return dp_report_json(r, false, &d->data);
}

/* The title of an error page for @status. */
static const char *dp_status_title(int status)
{
	switch (status) {
	case 400:
		return "Bad query";
	case 403:
		return "Forbidden";
	case 404:
		return "Not found";
	default:
		return "Internal error";
	}
}

/* The links of an error page: the starting pages, keeping @q's preferences. */
static int dp_error_links(struct dp_display *d, const struct dp_query *q)
{
	static const struct {
		const char *label;
		enum dp_page page;
	} to[] = {{"menu", DP_PAGE_MENU},
		  {"root", DP_PAGE_ROOT},
		  {"top procedures", DP_PAGE_TOP},
		  {"modules", DP_PAGE_MODULES},
		  {"flame graph", DP_PAGE_FLAME}};
	size_t n = sizeof(to) / sizeof(to[0]);
	struct dp_dblock *b = dp_disp_link_block(d, DP_DB_LINKS, "choices", n);

	if (!b)
		return -DP_ENOMEM;
	b->title = "Where to go from here";
	for (size_t i = 0; i < n; i++) {
		struct dp_dlink *l = &b->links[b->n_links++];

		l->label = to[i].label;
		if (q)
			l->href = dp_disp_link_to(d, q, to[i].page, 0);
		else
			l->href = dp_disp_printf(d, "page=%s", dp_query_page_name(to[i].page));
		if (!l->href)
			return -DP_ENOMEM;
	}
	d->nav = b->links;
	d->n_nav = d->n_nav_general = 1;
	return 0;
}

int dp_display_error(int status, const char *message, const struct dp_query *q,
		     struct dp_display **out)
{
	struct dp_display *d = dp_disp_new();
	int rc = -DP_ENOMEM;

	*out = NULL;
	if (d) {
		d->status = status;
		d->title = dp_disp_printf(d, "Error %d: %s", status, dp_status_title(status));
	}
	if (d && d->title)
		rc = dp_disp_text(d, DP_DB_ERROR, "error",
				  message && message[0] ? message
							: "the query could not be answered");
	if (!rc)
		rc = dp_error_links(d, q);
	return dp_disp_done(d, rc, out);
}
