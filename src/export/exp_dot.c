/*
 * export/exp_dot.c - the call graph for Graphviz, drawn as gprof2dot and mlprof
 * -call-graph draw it: one node per procedure with its self and total cost of the
 * chosen metric, one edge per caller -> callee with its call count and the cost that
 * flows along it; nodes and edges under --min percent of the total are left out, and the
 * procedures of each recursive clique are drawn inside one cluster.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "export_int.h"

/* Graphviz lays out a few hundred nodes in seconds, thousands in minutes or never. */
#define DOT_MAX_NODES 300

struct dot_edge {
	uint32_t from, to; /* procedures */
	uint64_t calls, value;
};

struct dot_ctx {
	const struct dp_exp_tree *t;
	enum dp_metric m;
	uint64_t *self, *total; /* [frame]: procedures, then thread roots */
	uint64_t *incl;		/* [node] */
	uint32_t *cluster;	/* [frame] the clique drawn around it, 0 none */
	struct dot_edge *edges;
	size_t n_edges;
	uint64_t root, cut;
	bool capped; /* the cut was raised to keep DOT_MAX_NODES nodes */
};

static int dot_edge_cmp(const void *x, const void *y)
{
	const struct dot_edge *a = x, *b = y;

	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	if (a->to != b->to)
		return a->to < b->to ? -1 : 1;
	return 0;
}

static uint32_t dot_ps(const struct dp_exp_tree *t, uint32_t i)
{
	return dp_exp_frame(t, i);
}

/* Self and total per procedure, edges (sorted and merged), the threshold. */
static int dot_collect(struct dot_ctx *g)
{
	const struct dp_exp_tree *t = g->t;
	size_t n = 0, k = 0;

	for (uint32_t i = 0; i < t->n; i++) {
		struct dp_costs own = dp_exp_own(t, i);

		g->incl[i] = dp_exp_value(t->p, &own, g->m);
		g->self[dot_ps(t, i)] += g->incl[i];
		g->root += g->incl[i];
	}
	for (uint32_t i = t->n; i-- > 0;)
		if (t->parent[i] != DP_EXP_NONE)
			g->incl[t->parent[i]] += g->incl[i];
	g->edges = malloc(((size_t)t->n + t->n_extra + 1) * sizeof(*g->edges));
	if (!g->edges)
		return dp_error(DP_ENOMEM, "out of memory exporting dot");
	for (uint32_t i = 0; i < t->n; i++) {
		g->total[dot_ps(t, i)] += g->incl[i];
		if (t->parent[i] != DP_EXP_NONE)
			g->edges[n++] =
				(struct dot_edge){dot_ps(t, t->parent[i]), dot_ps(t, i),
						  t->p->csd[t->in_csd[i]].calls, g->incl[i]};
	}
	for (uint32_t e = 0; e < t->n_extra; e++)
		g->edges[n++] =
			(struct dot_edge){dot_ps(t, t->extra_from[e]),
					  dot_ps(t, t->pd_node[t->p->csd[t->extra_csd[e]].callee]),
					  t->p->csd[t->extra_csd[e]].calls, 0};
	qsort(g->edges, n, sizeof(*g->edges), dot_edge_cmp);
	for (size_t e = 0; e < n; e++) {
		if (k && dot_edge_cmp(&g->edges[k - 1], &g->edges[e]) == 0) {
			g->edges[k - 1].calls += g->edges[e].calls;
			g->edges[k - 1].value += g->edges[e].value;
		} else {
			g->edges[k++] = g->edges[e];
		}
	}
	g->n_edges = k;
	return 0;
}

/* The value @v in the metric's unit, and its share of the total. */
static void dot_value(const struct dot_ctx *g, struct dp_buf *b, uint64_t v)
{
	if (g->m == DP_METRIC_TIME)
		dp_buf_addf(b, "%.6f s", (double)v / 1e9);
	else
		dp_buf_addu(b, v);
	if (g->root)
		dp_buf_addf(b, " (%.2f%%)", 100.0 * (double)v / (double)g->root);
}

/* Append @s quoted for a dot string. */
static void dot_quoted(struct dp_buf *b, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			dp_buf_addc(b, '\\');
		if (*s != '\n' && *s != '\r')
			dp_buf_addc(b, (uint8_t)*s);
	}
}

static bool dot_kept(const struct dot_ctx *g, uint32_t ps)
{
	return g->total[ps] >= g->cut && (g->total[ps] || g->self[ps] || g->cut == 0);
}

static void dot_node(const struct dot_ctx *g, uint32_t ps, uint32_t node, struct dp_buf *b)
{
	const struct dp_exp_tree *t = g->t;
	const struct dp_ps *s = &t->p->ps[dp_exp_frame_ps(t, ps)];
	const char *file = dp_profile_str(t->p, s->file);
	double share = g->root ? (double)g->total[ps] / (double)g->root : 0;
	char name[256];

	dp_buf_addf(b, "  p%" PRIu32 " [label=\"", ps);
	dot_quoted(b, dp_exp_name(t, t->pd[node], name, sizeof(name)));
	if (*file) {
		const char *base = strrchr(file, '/');

		dp_buf_adds(b, "\\n");
		dot_quoted(b, base ? base + 1 : file);
		dp_buf_addf(b, ":%" PRIu32, s->line);
	}
	dp_buf_adds(b, "\\nself ");
	dot_value(g, b, g->self[ps]);
	dp_buf_adds(b, "\\ntotal ");
	dot_value(g, b, g->total[ps]);
	dp_buf_addf(b, "\", fillcolor=\"0.0 %.3f 1.0\"];\n", share > 1 ? 1.0 : share);
}

static int dot_u64_desc(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a > b ? -1 : a < b;
}

/* Raise the cut so that at most DOT_MAX_NODES procedures are kept (ties may keep a few
 * more); @tmp has room for every frame. */
static void dot_cap(struct dot_ctx *g, const uint32_t *ps_node, uint32_t n_frames, uint64_t *tmp)
{
	uint32_t n = 0;

	for (uint32_t ps = 1; ps <= n_frames; ps++)
		if (ps_node[ps] != DP_EXP_NONE && dot_kept(g, ps))
			tmp[n++] = g->total[ps];
	if (n <= DOT_MAX_NODES)
		return;
	qsort(tmp, n, sizeof(*tmp), dot_u64_desc);
	if (tmp[DOT_MAX_NODES - 1] > g->cut) {
		g->cut = tmp[DOT_MAX_NODES - 1];
		g->capped = true;
	}
}

static const uint32_t *dot_sort_cluster;

static int dot_cluster_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
	uint32_t ca = dot_sort_cluster[a], cb = dot_sort_cluster[b];

	if (ca != cb)
		return ca < cb ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Nodes (those of a clique inside its cluster) and edges over the threshold. @order has
 * room for every procedure. */
static void dot_write(const struct dot_ctx *g, const uint32_t *ps_node, uint32_t *order,
		      struct dp_buf *b)
{
	const struct dp_exp_tree *t = g->t;
	uint32_t n = 0, open = 0;

	/* newrank: Graphviz 2.43's default ranking fails ("trouble in init_rank") on
	 * clusters that edges enter from several sides */
	dp_buf_adds(b, "digraph deepprof {\n  newrank=true;\n");
	if (g->capped) {
		dp_buf_addf(
			b, "  label=\"the %d procedures of largest total; the others (total under ",
			DOT_MAX_NODES);
		dot_value(g, b, g->cut);
		dp_buf_adds(b, ") are left out\";\n");
	}
	dp_buf_adds(b, ""
		       "  node [shape=box, style=filled, fontname=Helvetica];\n");
	for (uint32_t ps = 1; ps <= t->p->n_ps + t->p->n_threads; ps++)
		if (ps_node[ps] != DP_EXP_NONE && dot_kept(g, ps))
			order[n++] = ps;
	dot_sort_cluster = g->cluster;
	qsort(order, n, sizeof(*order), dot_cluster_cmp);
	for (uint32_t k = 0; k < n; k++) {
		uint32_t ps = order[k], c = g->cluster[ps];

		if (open && c != open)
			dp_buf_adds(b, "  }\n");
		if (c && c != open)
			dp_buf_addf(b,
				    "  subgraph cluster_%" PRIu32 " {\n    label=\"clique %" PRIu32
				    "\";\n",
				    c, c);
		open = c;
		dot_node(g, ps, ps_node[ps], b);
	}
	if (open)
		dp_buf_adds(b, "  }\n");
	for (size_t e = 0; e < g->n_edges; e++) {
		const struct dot_edge *d = &g->edges[e];

		if (!dot_kept(g, d->from) || !dot_kept(g, d->to) || (d->value < g->cut && d->value))
			continue;
		dp_buf_addf(b, "  p%" PRIu32 " -> p%" PRIu32 " [label=\"%" PRIu64 " calls\\n",
			    d->from, d->to, d->calls);
		dot_value(g, b, d->value);
		dp_buf_addf(b, "\", penwidth=%.2f];\n",
			    1.0 + 4.0 * (g->root ? (double)d->value / (double)g->root : 0));
	}
	dp_buf_adds(b, "}\n");
}

/* Clusters: the cliques of two procedures or more (each procedure in its first). */
static void dot_clusters(struct dot_ctx *g)
{
	const struct dp_analysis *a = g->t->a;

	for (uint32_t c = 1; c <= a->n_cliques; c++) {
		const uint32_t *m = dp_csr_items(&a->clique_pds, c);
		uint32_t n = dp_csr_count(&a->clique_pds, c), first = a->p->pd[m[0]].ps;
		bool several = false;

		for (uint32_t k = 1; k < n && !several; k++)
			several = a->p->pd[m[k]].ps != first;
		for (uint32_t k = 0; k < n && several; k++)
			if (!g->cluster[a->p->pd[m[k]].ps])
				g->cluster[a->p->pd[m[k]].ps] = c;
	}
}

int dp_exp_dot(const struct dp_exp_tree *t, const struct dp_export_opts *o, struct dp_exp_out *out)
{
	struct dot_ctx g = {.t = t, .m = o->has_metric ? o->metric : dp_exp_default_metric(t)};
	size_t n_ps1 = (size_t)t->p->n_ps + t->p->n_threads + 1;
	uint32_t *ps_node = malloc(n_ps1 * sizeof(uint32_t));
	uint32_t *order = malloc(n_ps1 * sizeof(uint32_t));
	int rc;

	g.self = calloc(n_ps1, sizeof(uint64_t));
	g.total = calloc(n_ps1, sizeof(uint64_t));
	g.cluster = calloc(n_ps1, sizeof(uint32_t));
	g.incl = malloc(((size_t)t->n + 1) * sizeof(uint64_t));
	if (!ps_node || !order || !g.self || !g.total || !g.cluster || !g.incl) {
		rc = dp_error(DP_ENOMEM, "out of memory exporting dot");
		goto out_free;
	}
	memset(ps_node, 0xff, n_ps1 * sizeof(uint32_t));
	for (uint32_t i = t->n; i-- > 0;)
		ps_node[dot_ps(t, i)] = i;
	rc = dot_collect(&g);
	if (rc < 0)
		goto out_free;
	g.cut = (uint64_t)((double)g.root * o->min_pct / 100.0);
	dot_cap(&g, ps_node, (uint32_t)(n_ps1 - 1), g.incl);
	dot_clusters(&g);
	dot_write(&g, ps_node, order, &out->buf);
	rc = dp_exp_flush(out, false);
out_free:
	free(ps_node);
	free(order);
	free(g.self);
	free(g.total);
	free(g.cluster);
	free(g.incl);
	free(g.edges);
	return rc;
}
