/*
 * export/exp_callgrind.c - the Callgrind format (version 1), for callgrind_annotate and
 * KCachegrind: one function per procedure (or, with --context=N, per procedure and its
 * N nearest callers, named "f'caller'caller2" as valgrind --separate-callers=N names
 * them), self costs at the procedure's line, and one call arc per (caller, call site,
 * callee) with its call count and inclusive cost. Events: Time (ns), Calls (calls of the
 * function, a self cost), Callseqs, Allocs, Bytes.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/hash.h"
#include "export_int.h"

#define CG_EVENTS 5

/* One call arc before merging: tree arcs carry their callee's subtree cost; recursive
 * arcs back to an ancestor carry only their count (the cost is the ancestor's). */
struct cg_arc {
	uint32_t from, css, to;
	uint64_t calls;
	uint64_t incl[CG_EVENTS];
};

struct cg_ctx {
	const struct dp_exp_tree *t;
	uint32_t width;	   /* key length: 1 + context */
	uint32_t n_fn;	   /* functions 1..n_fn */
	uint32_t *keys;	   /* [n_fn + 1][width] procedure ids */
	uint32_t *fn_node; /* [n_fn + 1] a node of the function (names) */
	uint64_t (*self)[CG_EVENTS];
	uint32_t *node_fn; /* [n] */
	uint32_t *slots;   /* function ids by key (0: empty), open addressing; the keys are
			      in @keys */
	size_t mask;
};

static void cg_values(const struct dp_profile *p, const struct dp_costs *c, uint64_t *v)
{
	v[0] = c->samples * p->sample_period_ns;
	v[1] = c->calls;
	v[2] = c->callseqs;
	v[3] = c->allocs;
	v[4] = c->alloc_bytes;
}

/* The key of node @i: its frame and those of its ancestors (0 past the root). */
static void cg_key(const struct cg_ctx *g, uint32_t i, uint32_t *key)
{
	const struct dp_exp_tree *t = g->t;

	for (uint32_t k = 0; k < g->width; k++) {
		key[k] = i == DP_EXP_NONE ? 0 : dp_exp_frame(t, i);
		if (i != DP_EXP_NONE)
			i = t->parent[i];
	}
}

static uint32_t cg_hash(const uint32_t *key, uint32_t w)
{
	uint64_t h = 0;

	for (uint32_t k = 0; k < w; k++)
		h = dp_hash_add(h, key[k]);
	return dp_hash_end(h);
}

/* The function id of node @i, made on first sight. */
static uint32_t cg_intern(struct cg_ctx *g, uint32_t i)
{
	uint32_t key[DP_EXPORT_MAX_CONTEXT + 1];
	size_t s;

	cg_key(g, i, key);
	for (s = cg_hash(key, g->width) & g->mask; g->slots[s]; s = (s + 1) & g->mask)
		if (memcmp(g->keys + (size_t)g->slots[s] * g->width, key, g->width * 4) == 0)
			return g->slots[s];
	g->slots[s] = ++g->n_fn;
	memcpy(g->keys + (size_t)g->n_fn * g->width, key, g->width * 4);
	g->fn_node[g->n_fn] = i;
	return g->n_fn;
}

static int cg_arc_cmp(const void *x, const void *y)
{
	const struct cg_arc *a = x, *b = y;

	if (a->from != b->from)
		return a->from < b->from ? -1 : 1;
	if (a->css != b->css)
		return a->css < b->css ? -1 : 1;
	if (a->to != b->to)
		return a->to < b->to ? -1 : 1;
	return 0;
}

/* Function name of @fn: the node's name, then "'caller" per context level. */
static void cg_fn_name(const struct cg_ctx *g, uint32_t fn, struct dp_buf *b)
{
	const struct dp_exp_tree *t = g->t;
	uint32_t i = g->fn_node[fn];
	char name[256];

	for (uint32_t k = 0; k < g->width && i != DP_EXP_NONE; k++, i = t->parent[i]) {
		if (k)
			dp_buf_addc(b, '\'');
		dp_buf_adds(b, dp_exp_name(t, t->pd[i], name, sizeof(name)));
	}
}

static const char *cg_file(const struct dp_exp_tree *t, uint32_t ps)
{
	const char *f = dp_profile_str(t->p, t->p->ps[ps].file);

	return *f ? f : "???";
}

/* "fl=(id) name" or "fl=(id)" when already defined (name compression). */
static void cg_named(struct dp_buf *b, const char *tag, uint32_t id, uint8_t *seen,
		     const char *name, const struct cg_ctx *g, uint32_t fn)
{
	dp_buf_adds(b, tag);
	dp_buf_addc(b, '(');
	dp_buf_addu(b, id);
	dp_buf_addc(b, ')');
	if (!seen[id]) {
		seen[id] = 1;
		dp_buf_addc(b, ' ');
		if (name)
			dp_buf_adds(b, name);
		else
			cg_fn_name(g, fn, b);
	}
	dp_buf_addc(b, '\n');
}

static void cg_costs(struct dp_buf *b, uint32_t line, const uint64_t *v)
{
	dp_buf_addu(b, line);
	for (int e = 0; e < CG_EVENTS; e++) {
		dp_buf_addc(b, ' ');
		dp_buf_addu(b, v[e]);
	}
	dp_buf_addc(b, '\n');
}

static void cg_header(const struct dp_exp_tree *t, const struct dp_export_opts *o, struct dp_buf *b)
{
	const struct dp_profile *p = t->p;

	dp_buf_addf(b, "# callgrind format\nversion: 1\ncreator: %s\n", o->version);
	dp_buf_adds(b, "cmd:");
	for (uint32_t k = 0; k < p->argc; k++) {
		dp_buf_addc(b, ' ');
		dp_buf_adds(b, dp_profile_str(p, p->argv[k]));
	}
	if (!p->argc)
		dp_buf_addf(b, " %s", dp_profile_str(p, p->program));
	dp_buf_addf(b, "\npid: %" PRIu64 "\npositions: line\n", p->pid);
	dp_buf_adds(b, "event: Time : time in nanoseconds (samples x period)\n"
		       "event: Calls : calls of the function\n"
		       "event: Callseqs : call sequences\n"
		       "event: Allocs : allocations\n"
		       "event: Bytes : bytes allocated\n"
		       "events: Time Calls Callseqs Allocs Bytes\n");
	if (o->context)
		dp_buf_addf(b, "# function names carry %u caller level(s): f'caller'...\n",
			    o->context);
}

/* The arcs: every tree arc (cost = the callee's subtree) and every other arc between
 * two nodes (count only). Sorted and merged by (caller, call site, callee). */
static struct cg_arc *cg_arcs(const struct cg_ctx *g, uint64_t (*incl)[CG_EVENTS], size_t *n_out)
{
	const struct dp_exp_tree *t = g->t;
	struct cg_arc *arcs = malloc(((size_t)t->n + t->n_extra + 1) * sizeof(*arcs));
	size_t n = 0, m = 0;

	if (!arcs)
		return NULL;
	for (uint32_t i = 0; i < t->n; i++) {
		const struct dp_csd *d = &t->p->csd[t->in_csd[i]];

		if (t->parent[i] == DP_EXP_NONE || d->calls == 0)
			continue;
		arcs[n] = (struct cg_arc){
			g->node_fn[t->parent[i]], d->css, g->node_fn[i], d->calls, {0}};
		memcpy(arcs[n++].incl, incl[i], sizeof(incl[i]));
	}
	for (uint32_t k = 0; k < t->n_extra; k++) {
		const struct dp_csd *d = &t->p->csd[t->extra_csd[k]];
		uint32_t to = t->pd_node[d->callee];

		if (d->calls)
			arcs[n++] = (struct cg_arc){g->node_fn[t->extra_from[k]],
						    d->css,
						    g->node_fn[to],
						    d->calls,
						    {0}};
	}
	qsort(arcs, n, sizeof(*arcs), cg_arc_cmp);
	for (size_t k = 0; k < n; k++) {
		if (m && cg_arc_cmp(&arcs[m - 1], &arcs[k]) == 0) {
			arcs[m - 1].calls += arcs[k].calls;
			for (int e = 0; e < CG_EVENTS; e++)
				arcs[m - 1].incl[e] += arcs[k].incl[e];
		} else {
			arcs[m++] = arcs[k];
		}
	}
	*n_out = m;
	return arcs;
}

/* Number the functions, sum self costs and subtree (inclusive) costs. */
static int cg_collect(struct cg_ctx *g, uint64_t (*incl)[CG_EVENTS])
{
	const struct dp_exp_tree *t = g->t;
	size_t cap = dp_hash_room(t->n);

	g->mask = cap - 1;
	g->slots = calloc(cap, sizeof(uint32_t));
	g->keys = malloc(((size_t)t->n + 1) * g->width * sizeof(uint32_t));
	g->fn_node = malloc(((size_t)t->n + 1) * sizeof(uint32_t));
	g->node_fn = malloc(((size_t)t->n + 1) * sizeof(uint32_t));
	g->self = calloc((size_t)t->n + 1, sizeof(*g->self));
	if (!g->slots || !g->keys || !g->fn_node || !g->node_fn || !g->self)
		return dp_error(DP_ENOMEM, "out of memory exporting callgrind");
	for (uint32_t i = 0; i < t->n; i++) {
		struct dp_costs own = dp_exp_own(t, i);
		uint32_t fn = cg_intern(g, i);

		g->node_fn[i] = fn;
		cg_values(t->p, &own, incl[i]);
		for (int e = 0; e < CG_EVENTS; e++)
			g->self[fn][e] += incl[i][e];
	}
	for (uint32_t i = t->n; i-- > 0;)
		if (t->parent[i] != DP_EXP_NONE)
			for (int e = 0; e < CG_EVENTS; e++)
				incl[t->parent[i]][e] += incl[i][e];
	return 0;
}

/* Write function @fn's block: its self costs, then its arcs arcs[*k..]. */
static void cg_function(const struct cg_ctx *g, uint32_t fn, const struct cg_arc *arcs, size_t n,
			size_t *k, uint8_t *fl_seen, uint8_t *fn_seen, struct dp_buf *b)
{
	const struct dp_exp_tree *t = g->t;
	uint32_t ps = dp_exp_frame_ps(t, g->keys[(size_t)fn * g->width]);
	const struct dp_ps *s = &t->p->ps[ps];

	cg_named(b, "fl=", s->file + 1, fl_seen, cg_file(t, ps), g, fn);
	cg_named(b, "fn=", fn, fn_seen, NULL, g, fn);
	cg_costs(b, s->line, g->self[fn]);
	for (; *k < n && arcs[*k].from == fn; (*k)++) {
		const struct cg_arc *c = &arcs[*k];
		uint32_t cps = dp_exp_frame_ps(t, g->keys[(size_t)c->to * g->width]);

		cg_named(b, "cfi=", t->p->ps[cps].file + 1, fl_seen, cg_file(t, cps), g, c->to);
		cg_named(b, "cfn=", c->to, fn_seen, NULL, g, c->to);
		dp_buf_adds(b, "calls=");
		dp_buf_addu(b, c->calls);
		dp_buf_addc(b, ' ');
		dp_buf_addu(b, t->p->ps[cps].line);
		dp_buf_addc(b, '\n');
		cg_costs(b, c->css ? t->p->css[c->css].line : s->line, c->incl);
	}
}

int dp_exp_callgrind(const struct dp_exp_tree *t, const struct dp_export_opts *o,
		     struct dp_exp_out *out)
{
	struct cg_ctx g = {.t = t, .width = o->context + 1};
	uint64_t(*incl)[CG_EVENTS] = malloc(((size_t)t->n + 1) * sizeof(*incl));
	uint64_t totals[CG_EVENTS] = {0};
	uint8_t *fl_seen = calloc((size_t)t->p->strs.n + 2, 1);
	uint8_t *fn_seen = calloc((size_t)t->n + 1, 1);
	struct cg_arc *arcs = NULL;
	size_t n_arcs = 0, k = 0;
	int rc = 0;

	if (!incl || !fl_seen || !fn_seen) {
		rc = dp_error(DP_ENOMEM, "out of memory exporting callgrind");
		goto out_free;
	}
	rc = cg_collect(&g, incl);
	if (rc < 0)
		goto out_free;
	arcs = cg_arcs(&g, incl, &n_arcs);
	rc = arcs ? 0 : dp_error(DP_ENOMEM, "out of memory exporting callgrind");
	if (rc < 0)
		goto out_free;
	cg_header(t, o, &out->buf);
	for (uint32_t fn = 1; fn <= g.n_fn && rc == 0; fn++) {
		dp_buf_addc(&out->buf, '\n');
		cg_function(&g, fn, arcs, n_arcs, &k, fl_seen, fn_seen, &out->buf);
		for (int e = 0; e < CG_EVENTS; e++)
			totals[e] += g.self[fn][e];
		rc = dp_exp_flush(out, false);
	}
	dp_buf_adds(&out->buf, "\ntotals:");
	for (int e = 0; e < CG_EVENTS; e++)
		dp_buf_addf(&out->buf, " %" PRIu64, totals[e]);
	dp_buf_addc(&out->buf, '\n');
out_free:
	free(arcs);
	free(g.slots);
	free(g.keys);
	free(g.fn_node);
	free(g.node_fn);
	free(g.self);
	free(incl);
	free(fl_seen);
	free(fn_seen);
	return rc;
}
