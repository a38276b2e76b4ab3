/*
 * display/display_flame.c - the flame graph of a flame or flame_callers report: each
 * preorder row of the report's first section becomes a node with its horizontal extent
 * (width proportional to its total of the query's metric, or of callseqs for calls;
 * children laid left to right inside their parent), formatted values, link, and whether
 * it is its parent's last child (for the text tree's guides). Iterative arrays.
 */
#include <stdio.h>
#include <string.h>

#include "../core/err.h"
#include "display_int.h"

/* The node's width: its total of @m, or of callseqs for calls (calls are not inherited:
 * the calls made in a subtree, its callseqs, are what nests; see rep_flame.c). */
static uint64_t dp_flame_weight(const struct dp_rep_row *row, enum dp_metric m)
{
	return dp_disp_row_raw(row, m == DP_METRIC_CALLS ? DP_METRIC_CALLSEQS : m, DP_SCOPE_TOTAL);
}

/* The denominator of the percentages of @m: the root total, or the graph's root node
 * (@root) for calls, which are not inherited. */
static double dp_flame_den(const struct dp_report *r, enum dp_metric m, uint64_t root)
{
	return (double)(m == DP_METRIC_CALLS ? root : dp_disp_inh(&r->root_total, m));
}

/* Value @v of @m as shown. */
static const char *dp_flame_value(struct dp_display *d, const struct dp_report *r, enum dp_metric m,
				  uint64_t v)
{
	char s[DP_UNIT_MAX];

	if (m == DP_METRIC_TIME && r->sample_period_ns && r->q.prefs.time_unit != DP_TIME_TICKS)
		dp_fmt_seconds(s, sizeof(s), (double)v * (double)r->sample_period_ns * 1e-9,
			       r->q.prefs.time_unit);
	else if (m == DP_METRIC_BYTES)
		dp_fmt_bytes(s, sizeof(s), (double)v);
	else
		dp_fmt_count(s, sizeof(s), (double)v);
	return dp_disp_strdup(d, s);
}

/* The link of flame node @row: its clique; in a callers graph the caller's procedure. */
static const char *dp_flame_href(struct dp_display *d, const struct dp_report *r,
				 const struct dp_rep_row *row)
{
	bool callers = r->q.page == DP_PAGE_FLAME_CALLERS;

	if (!callers && row->clique)
		return dp_disp_link_to(d, &r->q, DP_PAGE_CLIQUE, row->clique);
	if (row->ps)
		return dp_disp_link_to(d, &r->q, DP_PAGE_PROC, row->ps);
	if (row->clique)
		return dp_disp_link_to(d, &r->q, DP_PAGE_CLIQUE, row->clique);
	return NULL;
}

/* Fill node @n from @row (values, texts, link); x and w are the caller's. */
static int dp_flame_node(struct dp_display *d, const struct dp_report *r,
			 const struct dp_rep_row *row, double den, struct dp_dflame_node *n)
{
	enum dp_metric m = r->q.metric;
	uint64_t tot = dp_disp_row_raw(row, m, DP_SCOPE_TOTAL),
		 self = dp_disp_row_raw(row, m, DP_SCOPE_SELF);
	char s[DP_UNIT_MAX];

	n->depth = row->depth;
	n->flags = row->flags;
	n->name = dp_disp_strdup(d, row->name);
	n->where = dp_disp_where(d, row->file, row->line);
	n->total = dp_flame_value(d, r, m, tot);
	n->self = dp_flame_value(d, r, m, self);
	dp_fmt_pct(s, sizeof(s), (double)tot, den);
	n->total_pct = dp_disp_strdup(d, s);
	dp_fmt_pct(s, sizeof(s), (double)self, den);
	n->self_pct = dp_disp_strdup(d, s);
	dp_fmt_count(s, sizeof(s), (double)row->own.calls);
	n->calls = dp_disp_strdup(d, s);
	if (!n->name || !n->where || !n->total || !n->self || !n->total_pct || !n->self_pct ||
	    !n->calls)
		return dp_error(DP_ENOMEM, "out of memory building a flame graph");
	if ((row->ps || row->clique) && !(n->href = dp_flame_href(d, r, row)))
		return -DP_ENOMEM;
	return 0;
}

/* Mark each node that is the last child of its parent (a backward pass). */
static int dp_flame_last(struct dp_display *d, struct dp_dflame *f)
{
	bool *seen = dp_arena_array(&d->arena, (size_t)f->max_depth + 2, sizeof(*seen));
	uint32_t hi = 0; /* deepest depth with a mark set */

	if (!seen)
		return dp_error(DP_ENOMEM, "out of memory building a flame graph");
	for (uint32_t i = f->n_nodes; i-- > 0;) {
		uint32_t dep = f->nodes[i].depth;

		for (uint32_t k = dep + 1; k <= hi; k++)
			seen[k] = false;
		f->nodes[i].last = !seen[dep];
		seen[dep] = true;
		hi = dep;
	}
	return 0;
}

int dp_disp_flame(struct dp_display *d, const struct dp_report *r)
{
	const struct dp_rep_section *sec = r->n_sections ? &r->sections[0] : NULL;
	struct dp_dblock *b = dp_disp_block(d, DP_DB_FLAME);
	struct dp_dflame *f;
	double *cursor, den, root;
	uint32_t n = sec ? sec->n_rows : 0;

	if (!b)
		return -DP_ENOMEM;
	f = &b->flame;
	b->id = sec && sec->id ? dp_disp_strdup(d, sec->id) : "flame";
	b->title = sec && sec->title ? dp_disp_strdup(d, sec->title) : NULL;
	f->metric = dp_metric_name(r->q.metric);
	f->inverted = r->q.page == DP_PAGE_FLAME_CALLERS;
	f->nodes = dp_arena_array(&d->arena, n ? n : 1, sizeof(*f->nodes));
	cursor = dp_arena_array(&d->arena, (size_t)n + 2, sizeof(*cursor));
	if (!f->nodes || !cursor || !b->id)
		return dp_error(DP_ENOMEM, "out of memory building a flame graph");
	root = n ? (double)dp_flame_weight(&sec->rows[0], r->q.metric) : 0.0;
	den = dp_flame_den(r, r->q.metric,
			   n ? dp_disp_row_raw(&sec->rows[0], r->q.metric, DP_SCOPE_TOTAL) : 0);
	for (uint32_t i = 0; i < n; i++) {
		const struct dp_rep_row *row = &sec->rows[i];
		struct dp_dflame_node *nd = &f->nodes[f->n_nodes];
		uint32_t dep = row->depth;

		if (i > 0 && (dep == 0 || dep > f->nodes[f->n_nodes - 1].depth + 1))
			continue; /* not a tree in preorder: skip the malformed row */
		if (i == 0 && dep != 0)
			break;
		if (dp_flame_node(d, r, row, den, nd) < 0)
			return -DP_ENOMEM;
		nd->x = dep ? cursor[dep] : 0.0;
		nd->w = root > 0 ? (double)dp_flame_weight(row, r->q.metric) / root : 1.0;
		if (dep && nd->x + nd->w > 1.0)
			nd->w = nd->x < 1.0 ? 1.0 - nd->x : 0.0;
		cursor[dep] = nd->x + nd->w;
		cursor[dep + 1] = nd->x;
		if (dep > f->max_depth)
			f->max_depth = dep;
		f->n_nodes++;
	}
	return dp_flame_last(d, f);
}
