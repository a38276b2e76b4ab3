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

/* Value @v of @m as shown, into @s (DP_UNIT_MAX bytes). Return: its length. */
static size_t dp_flame_value(const struct dp_report *r, enum dp_metric m, uint64_t v, char *s)
{
	if (m == DP_METRIC_TIME && r->sample_period_ns && r->q.prefs.time_unit != DP_TIME_TICKS)
		return dp_fmt_seconds(s, DP_UNIT_MAX,
				      (double)v * (double)r->sample_period_ns * 1e-9,
				      r->q.prefs.time_unit);
	if (m == DP_METRIC_BYTES)
		return dp_fmt_bytes(s, DP_UNIT_MAX, (double)v);
	return dp_fmt_count(s, DP_UNIT_MAX, (double)v);
}

/* The link of flame node @row: its clique; in a callers graph the caller's procedure. */
static const char *dp_flame_href(struct dp_display *d, const struct dp_report *r,
				 const struct dp_rep_row *row, bool callers)
{
	if (!callers && row->clique)
		return dp_disp_link_to(d, &r->q, DP_PAGE_CLIQUE, row->clique);
	if (row->ps)
		return dp_disp_link_to(d, &r->q, DP_PAGE_PROC, row->ps);
	if (row->clique)
		return dp_disp_link_to(d, &r->q, DP_PAGE_CLIQUE, row->clique);
	return NULL;
}

/* The texts of a node, in the order of one arena block. */
enum {
	DP_FT_NAME,
	DP_FT_WHERE,
	DP_FT_TOTAL,
	DP_FT_SELF,
	DP_FT_TPCT,
	DP_FT_SPCT,
	DP_FT_CALLS,
	DP_FT_N
};

/* Fill node @n from @row (values, texts, link); x and w are the caller's. The texts go
 * into one arena block (a flame graph has thousands of nodes). */
static int dp_flame_node(struct dp_display *d, const struct dp_report *r,
			 const struct dp_rep_row *row, double den, bool callers,
			 struct dp_dflame_node *n)
{
	enum dp_metric m = r->q.metric;
	uint64_t tot = dp_disp_row_raw(row, m, DP_SCOPE_TOTAL),
		 self = dp_disp_row_raw(row, m, DP_SCOPE_SELF);
	char v[DP_FT_N][DP_UNIT_MAX];
	const char *t[DP_FT_N];
	size_t len[DP_FT_N];
	char *block[DP_FT_N];

	n->depth = row->depth;
	n->flags = row->flags;
	t[DP_FT_NAME] = row->name ? row->name : "";
	len[DP_FT_NAME] = strlen(t[DP_FT_NAME]);
	t[DP_FT_WHERE] = row->file ? row->file : "";
	len[DP_FT_WHERE] = strlen(t[DP_FT_WHERE]);
	len[DP_FT_TOTAL] = dp_flame_value(r, m, tot, v[DP_FT_TOTAL]);
	len[DP_FT_SELF] = dp_flame_value(r, m, self, v[DP_FT_SELF]);
	len[DP_FT_TPCT] = dp_fmt_pct(v[DP_FT_TPCT], DP_UNIT_MAX, (double)tot, den);
	len[DP_FT_SPCT] = dp_fmt_pct(v[DP_FT_SPCT], DP_UNIT_MAX, (double)self, den);
	len[DP_FT_CALLS] = dp_fmt_count(v[DP_FT_CALLS], DP_UNIT_MAX, (double)row->own.calls);
	for (int i = DP_FT_TOTAL; i < DP_FT_N; i++)
		t[i] = v[i];
	if (dp_disp_pack(d, DP_FT_N, DP_FT_TOTAL, t, len, row->file ? DP_FT_WHERE : DP_FT_N,
			 row->line, block) < 0)
		return -DP_ENOMEM;
	n->name = block[DP_FT_NAME];
	n->where = block[DP_FT_WHERE];
	n->total = block[DP_FT_TOTAL];
	n->self = block[DP_FT_SELF];
	n->total_pct = block[DP_FT_TPCT];
	n->self_pct = block[DP_FT_SPCT];
	n->calls = block[DP_FT_CALLS];
	if ((row->ps || row->clique) && !(n->href = dp_flame_href(d, r, row, callers)))
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

/* The flame block of section @sec of @r, of @kind, drawn with the root at the top when
 * @down; titled @title (NULL: the section's). */
static int dp_disp_flame_sec(struct dp_display *d, const struct dp_report *r,
			     const struct dp_rep_section *sec, enum dp_dflame_kind kind, bool down,
			     const char *title)
{
	struct dp_dblock *b = dp_disp_block(d, DP_DB_FLAME);
	struct dp_dflame *f;
	double *cursor, den, root;
	uint32_t n = sec ? sec->n_rows : 0;
	bool callers = kind == DP_DFLAME_CALLERS;

	if (!b)
		return -DP_ENOMEM;
	f = &b->flame;
	b->id = sec && sec->id ? dp_disp_strdup(d, sec->id) : "flame";
	b->title = title ? title : sec && sec->title ? dp_disp_strdup(d, sec->title) : NULL;
	f->metric = dp_metric_name(r->q.metric);
	f->inverted = callers;
	f->down = down;
	f->kind = kind;
	f->sec = b->id;
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
		if (dp_flame_node(d, r, row, den, callers, nd) < 0)
			return -DP_ENOMEM;
		nd->row = i;
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

/* The section of @r with id @id, or NULL. */
static const struct dp_rep_section *dp_flame_section(const struct dp_report *r, const char *id)
{
	for (uint32_t i = 0; i < r->n_sections; i++)
		if (r->sections[i].id && strcmp(r->sections[i].id, id) == 0)
			return &r->sections[i];
	return NULL;
}

int dp_disp_flame(struct dp_display *d, const struct dp_report *r)
{
	const struct dp_rep_section *first = r->n_sections ? &r->sections[0] : NULL;

	switch (r->q.page) {
	case DP_PAGE_FLAME_CALLERS:
		return dp_disp_flame_sec(d, r, first, DP_DFLAME_CALLERS, true, NULL);
	case DP_PAGE_SANDWICH: /* callers above the procedure, callees below it */
		if (dp_disp_flame_sec(d, r, dp_flame_section(r, "callers"), DP_DFLAME_CALLERS,
				      false, "Callers") < 0)
			return -DP_ENOMEM;
		return dp_disp_flame_sec(d, r, dp_flame_section(r, "callees"), DP_DFLAME_CALLEES,
					 true, "Callees");
	default:
		return dp_disp_flame_sec(
			d, r, first, r->q.proc || r->q.name[0] ? DP_DFLAME_CALLEES : DP_DFLAME_TREE,
			false, NULL);
	}
}
