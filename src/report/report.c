/*
 * report/report.c - dp_report_build(): checks the query against the profile, resolves
 * names, and calls the page's builder (rep_*.c); dp_report_free() and dp_ent_name().
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "report_int.h"

/* A report is at most a page: 1 GiB would mean a bug, not a big profile. */
#define DP_REPORT_ARENA_MAX ((size_t)1 << 30)

typedef int (*dp_rep_builder)(struct dp_report *r, const struct dp_report_ctx *c);

static dp_rep_builder dp_rep_builder_of(enum dp_page page)
{
	switch (page) {
	case DP_PAGE_MENU:
		return dp_rep_menu;
	case DP_PAGE_ROOT:
		return dp_rep_root;
	case DP_PAGE_ACTION:
		return dp_rep_action;
	case DP_PAGE_CLIQUE:
		return dp_rep_clique;
	case DP_PAGE_PROC:
		return dp_rep_proc;
	case DP_PAGE_CALLERS:
		return dp_rep_callers;
	case DP_PAGE_MODULES:
		return dp_rep_modules;
	case DP_PAGE_MODULE:
		return dp_rep_module;
	case DP_PAGE_TOP:
		return dp_rep_top;
	case DP_PAGE_SITE:
		return dp_rep_site;
	case DP_PAGE_THREADS:
		return dp_rep_threads;
	case DP_PAGE_FLAME:
		return dp_rep_flame;
	case DP_PAGE_FLAME_CALLERS:
		return dp_rep_flame_callers;
	case DP_PAGE_SANDWICH:
		return dp_rep_sandwich;
	case DP_PAGE_SEARCH:
		return dp_rep_search;
	case DP_PAGE_DUMP_PS:
	case DP_PAGE_DUMP_PD:
	case DP_PAGE_DUMP_CSS:
	case DP_PAGE_DUMP_CSD:
	case DP_PAGE_DUMP_CLIQUE:
		return dp_rep_dump;
	case DP_PAGE_COUNT:
		break;
	}
	return NULL;
}

#ifndef NDEBUG
/*
 * report_valid - what report.h and docs/REPORTS.md promise of every report (assert()ed
 * after each page is built, outside release builds): a title; sections with an id whose
 * rows are of a known kind, nested one level at a time (a row is at most one deeper than
 * the row above it, the first at depth 0); facts with a key; links to a query; the bunch
 * shown within the bunches.
 */
static bool report_valid(const struct dp_report *r)
{
	if (!r->title || (r->n_bunches && (r->bunch < 1 || r->bunch > r->n_bunches)))
		return false;
	for (uint32_t s = 0; s < r->n_sections; s++) {
		const struct dp_rep_section *sec = &r->sections[s];

		if (!sec->id)
			return false;
		for (uint32_t i = 0; i < sec->n_rows; i++) {
			const struct dp_rep_row *row = &sec->rows[i];

			if ((unsigned)row->kind >= DP_ENT_COUNT ||
			    row->depth > (i ? sec->rows[i - 1].depth + 1 : 0))
				return false;
		}
	}
	for (uint32_t i = 0; i < r->n_facts; i++)
		if (!r->facts[i].key)
			return false;
	for (uint32_t i = 0; i < r->n_links; i++)
		if (!r->links[i].q)
			return false;
	return true;
}
#endif

/* Whether @row has any cost (calls aside). */
static bool row_has_cost(const struct dp_rep_row *row)
{
	const struct dp_costs *o = &row->own;
	const struct dp_inherit *d = &row->desc;

	return (o->samples | o->callseqs | o->allocs | o->alloc_bytes | d->samples | d->callseqs |
		d->allocs | d->alloc_bytes) != 0;
}

/* A profile without call counts: the rows with some cost are active, whatever their
 * (unmeasured, zero) calls say. */
static void activate_uncounted(struct dp_report *r)
{
	if (r->has_subject && row_has_cost(&r->subject))
		r->subject.flags &= ~DP_ROW_INACTIVE;
	for (uint32_t s = 0; s < r->n_sections; s++)
		for (uint32_t i = 0; i < r->sections[s].n_rows; i++) {
			struct dp_rep_row *row = &r->sections[s].rows[i];

			if (row_has_cost(row))
				row->flags &= ~DP_ROW_INACTIVE;
		}
}

int dp_report_build(const struct dp_report_ctx *ctx, const struct dp_query *q,
		    struct dp_report **out)
{
	dp_rep_builder build = dp_rep_builder_of(q->page);
	struct dp_report *r;
	int rc;

	*out = NULL;
	if (!build)
		return dp_error(DP_EUSAGE, "page=%s has no report", dp_query_page_name(q->page));
	r = calloc(1, sizeof(*r));
	if (!r)
		return dp_error(DP_ENOMEM, "out of memory building a report");
	dp_arena_init(&r->arena, DP_REPORT_ARENA_MAX);
	r->q = *q;
	r->root_total = ctx->a->root_total;
	r->sample_period_ns = ctx->p->sample_period_ns;
	r->imported = ctx->p->origin != 0;
	r->has_libs = ctx->has_libs;
	r->measured = r->imported ? ctx->p->metrics : DP_CSD_FIELDS_KNOWN;
	r->title = "";
	rc = build(r, ctx);
	if (rc == 0 && r->err)
		rc = dp_error(DP_ENOMEM, "out of memory building a report");
	if (rc < 0) {
		dp_report_free(r);
		return rc;
	}
	if (r->imported && !(r->measured & DP_CSD_CALLS))
		activate_uncounted(r);
	assert(report_valid(r));
	*out = r;
	return 0;
}

void dp_report_free(struct dp_report *r)
{
	if (!r)
		return;
	dp_arena_release(&r->arena);
	free(r);
}

const char *dp_ent_name(enum dp_ent k)
{
	static const char *const names[DP_ENT_COUNT] = {
		[DP_ENT_NONE] = "none",	    [DP_ENT_PS] = "ps",
		[DP_ENT_CSS] = "css",	    [DP_ENT_PD] = "pd",
		[DP_ENT_CSD] = "csd",	    [DP_ENT_CLIQUE] = "clique",
		[DP_ENT_MODULE] = "module", [DP_ENT_OBJECT] = "object",
		[DP_ENT_THREAD] = "thread", [DP_ENT_PROGRAM] = "program",
	};

	return (unsigned)k < DP_ENT_COUNT ? names[k] : "none";
}
