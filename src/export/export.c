/*
 * export/export.c - the entry point of the exports: options, the exported tree (the
 * calling-context tree below the chosen roots, walked without recursion), the chunked
 * and optionally gzip-compressed output, and the helpers the writers share. The writers
 * themselves are exp_<format>.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "../core/err.h"
#include "../core/vec.h"
#include "../format/dump.h"
#include "deepprof/format.h"
#include "export_int.h"

static const char *const exp_format_names[DP_EXPORT_COUNT] = {
	"callgrind", "pprof", "folded", "speedscope", "dot", "json",
};

void dp_export_opts_init(struct dp_export_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->format = DP_EXPORT_CALLGRIND;
	o->root = DP_EXPORT_ALL;
	o->metric = DP_METRIC_TIME;
	o->min_pct = 0.5;
	o->version = "deepprof";
}

int dp_export_format_parse(const char *name, enum dp_export_format *out)
{
	for (int f = 0; f < DP_EXPORT_COUNT; f++) {
		if (strcmp(name, exp_format_names[f]) == 0) {
			*out = (enum dp_export_format)f;
			return 0;
		}
	}
	return dp_error(DP_EUSAGE,
			"unknown format '%s' (callgrind, pprof, folded, speedscope, dot or json)",
			name);
}

const char *dp_export_format_name(enum dp_export_format f)
{
	return (unsigned)f < DP_EXPORT_COUNT ? exp_format_names[f] : "?";
}

uint64_t dp_exp_value(const struct dp_profile *p, const struct dp_costs *c, enum dp_metric m)
{
	switch (m) {
	case DP_METRIC_TIME:
		return c->samples * p->sample_period_ns;
	case DP_METRIC_CALLS:
		return c->calls;
	case DP_METRIC_CALLSEQS:
		return c->callseqs;
	case DP_METRIC_ALLOCS:
		return c->allocs;
	case DP_METRIC_BYTES:
		return c->alloc_bytes;
	default:
		return 0;
	}
}

enum dp_metric dp_exp_default_metric(const struct dp_exp_tree *t)
{
	return t->total.samples ? DP_METRIC_TIME : DP_METRIC_CALLS;
}

uint32_t dp_exp_frame(const struct dp_exp_tree *t, uint32_t i)
{
	const struct dp_profile *p = t->p;
	const struct dp_pd *d = &p->pd[t->pd[i]];

	if (p->ps[d->ps].kind == DP_PS_THREAD && d->thread >= 1 && d->thread <= p->n_threads)
		return p->n_ps + d->thread;
	return d->ps;
}

uint32_t dp_exp_thread(const struct dp_exp_tree *t, uint32_t i)
{
	return t->threads ? t->p->pd[t->pd[i]].thread : 0;
}

const char *dp_exp_name(const struct dp_exp_tree *t, uint32_t pd, char *buf, size_t len)
{
	const struct dp_profile *p = t->p;
	uint32_t ps = p->pd[pd].ps, th = p->pd[pd].thread;

	if (p->ps[ps].kind == DP_PS_THREAD && th >= 1 && th <= p->n_threads) {
		const char *name = dp_profile_str(p, p->threads[th].name);

		if (*name)
			snprintf(buf, len, "thread %" PRIu64 " (%s)", p->threads[th].tid, name);
		else
			snprintf(buf, len, "thread %" PRIu64, p->threads[th].tid);
		return buf;
	}
	return dp_profile_ps_label(p, ps, buf, len);
}

/* Deflate @len bytes (and finish the stream with @finish) into write(). */
static int exp_deflate(struct dp_exp_out *o, const void *data, size_t len, bool finish)
{
	z_stream *z = o->z;
	int zr;

	z->next_in = (Bytef *)(uintptr_t)data;
	z->avail_in = (uInt)len;
	do {
		z->next_out = o->zbuf;
		z->avail_out = (uInt)DP_EXP_CHUNK;
		zr = deflate(z, finish ? Z_FINISH : Z_NO_FLUSH);
		if (zr == Z_STREAM_ERROR)
			return dp_error(DP_ENOMEM, "gzip compression failed");
		size_t have = DP_EXP_CHUNK - z->avail_out;
		if (have) {
			int rc = o->write(o->arg, o->zbuf, have);
			if (rc < 0)
				return rc;
		}
	} while (z->avail_out == 0 || (finish && zr != Z_STREAM_END));
	return 0;
}

int dp_exp_flush(struct dp_exp_out *o, bool force)
{
	int rc = dp_buf_error(&o->buf);

	if (rc < 0)
		return rc;
	if (o->buf.len < DP_EXP_CHUNK && !force)
		return 0;
	if (o->z)
		rc = exp_deflate(o, o->buf.data, o->buf.len, force);
	else if (o->buf.len)
		rc = o->write(o->arg, o->buf.data, o->buf.len);
	dp_buf_reset(&o->buf);
	return rc;
}

/* Whether the walk passes through PD @pd without making it a node. */
static bool exp_hidden(const struct dp_exp_tree *t, uint32_t pd)
{
	uint32_t kind = t->p->ps[t->p->pd[pd].ps].kind;

	return kind == DP_PS_ROOT || (kind == DP_PS_THREAD && !t->threads);
}

struct exp_frame {
	uint32_t pd, node, k;
};

/* Make PD @pd node number t->n, child of @parent through @csd. */
static void exp_add_node(struct dp_exp_tree *t, uint32_t pd, uint32_t parent, uint32_t csd)
{
	uint32_t i = t->n++;
	struct dp_costs own = dp_analysis_pd_own(t->a, pd);

	t->pd[i] = pd;
	t->parent[i] = parent;
	t->depth[i] = parent == DP_EXP_NONE ? 0 : t->depth[parent] + 1;
	t->in_csd[i] = csd;
	t->pd_node[pd] = i;
	if (t->depth[i] > t->max_depth)
		t->max_depth = t->depth[i];
	dp_costs_add(&t->total, &own);
}

static int exp_add_extra(struct dp_exp_tree *t, uint32_t from, uint32_t csd)
{
	if (DP_VEC_GROW(t->extra_csd, t->cap_extra_csd, t->n_extra + 1) < 0 ||
	    DP_VEC_GROW(t->extra_from, t->cap_extra_from, t->n_extra + 1) < 0)
		return dp_error(DP_ENOMEM, "out of memory exporting the profile");
	t->extra_csd[t->n_extra] = csd;
	t->extra_from[t->n_extra++] = from;
	return 0;
}

/* Walk from root PD @root (depth first, an explicit stack of @stack). */
static int exp_walk(struct dp_exp_tree *t, uint32_t root, struct exp_frame *stack)
{
	const struct dp_analysis *a = t->a;
	uint32_t sp = 0;

	if (t->pd_node[root] != DP_EXP_NONE)
		return 0;
	if (exp_hidden(t, root)) {
		t->pd_node[root] = DP_EXP_NONE - 1;
		stack[sp++] = (struct exp_frame){root, DP_EXP_NONE, 0};
	} else {
		exp_add_node(t, root, DP_EXP_NONE, 0);
		stack[sp++] = (struct exp_frame){root, t->n - 1, 0};
	}
	while (sp) {
		struct exp_frame *f = &stack[sp - 1];
		uint32_t n = dp_csr_count(&a->pd_csds, f->pd);

		if (f->k == n) {
			sp--;
			continue;
		}
		uint32_t csd = dp_csr_items(&a->pd_csds, f->pd)[f->k];
		uint32_t q = a->pd_succ[a->pd_csds.start[f->pd] + f->k];

		f->k++;
		if (t->pd_node[q] != DP_EXP_NONE) {
			if (f->node != DP_EXP_NONE && t->pd_node[q] < t->n &&
			    exp_add_extra(t, f->node, csd) < 0)
				return -DP_ENOMEM;
			continue;
		}
		if (exp_hidden(t, q)) {
			t->pd_node[q] = DP_EXP_NONE - 1;
			stack[sp++] = (struct exp_frame){q, DP_EXP_NONE, 0};
			continue;
		}
		exp_add_node(t, q, f->node, csd);
		stack[sp++] = (struct exp_frame){q, t->n - 1, 0};
	}
	return 0;
}

static void exp_tree_release(struct dp_exp_tree *t)
{
	free(t->pd);
	free(t->parent);
	free(t->depth);
	free(t->in_csd);
	free(t->pd_node);
	free(t->extra_csd);
	free(t->extra_from);
}

/* The root PDs the options choose; checks the id. */
static int exp_roots(const struct dp_analysis *a, const struct dp_export_opts *o,
		     const uint32_t **roots, uint32_t *n)
{
	switch (o->root) {
	case DP_EXPORT_ALL:
		*roots = &a->p->root_pd;
		*n = 1;
		return 0;
	case DP_EXPORT_CLIQUE:
		if (o->id < 1 || o->id > a->n_cliques)
			return dp_error(DP_EUSAGE,
					"no clique %" PRIu32 " (the profile has 1..%" PRIu32 ")",
					o->id, a->n_cliques);
		*roots = dp_csr_items(&a->clique_pds, o->id);
		*n = 1; /* the entry PD: the other members are below it */
		return 0;
	case DP_EXPORT_PROC:
		if (o->id < 1 || o->id > a->p->n_ps)
			return dp_error(DP_EUSAGE,
					"no procedure %" PRIu32 " (the profile has 1..%" PRIu32 ")",
					o->id, a->p->n_ps);
		*roots = dp_csr_items(&a->ps_pds, o->id);
		*n = dp_csr_count(&a->ps_pds, o->id);
		return 0;
	}
	return dp_error(DP_EUSAGE, "bad export root");
}

static int exp_u32_cmp(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

/* Keep the nodes [i, end) of node @i's subtree whatever their depth, dropping what
 * depth-first order puts between the ranges of @starts (@n sorted node indexes); the
 * arrays are compacted in place (a kept node only moves down). */
static void exp_keep_ranges(struct dp_exp_tree *t, const uint32_t *starts, uint32_t n,
			    uint32_t *map)
{
	uint32_t k = 0, ri = 0, start = DP_EXP_NONE, base = 0;

	memset(&t->total, 0, sizeof(t->total));
	t->max_depth = 0;
	for (uint32_t i = 0; i < t->n; i++) {
		if (start != DP_EXP_NONE && t->depth[i] <= base)
			start = DP_EXP_NONE; /* the range ended (depth[start] may be overwritten) */
		while (ri < n && starts[ri] < i)
			ri++; /* roots inside the current range (or unreachable) */
		if (start == DP_EXP_NONE && ri < n && starts[ri] == i) {
			start = i;
			base = t->depth[i];
		}
		uint32_t pd = t->pd[i];
		if (start == DP_EXP_NONE) {
			map[i] = DP_EXP_NONE;
			t->pd_node[pd] = DP_EXP_NONE;
			continue;
		}
		struct dp_costs own = dp_analysis_pd_own(t->a, pd);
		map[i] = k;
		t->pd_node[pd] = k;
		t->pd[k] = pd;
		t->parent[k] = i == start ? DP_EXP_NONE : map[t->parent[i]];
		t->depth[k] = t->depth[i] - base;
		t->in_csd[k] = t->in_csd[i];
		if (t->depth[k] > t->max_depth)
			t->max_depth = t->depth[k];
		dp_costs_add(&t->total, &own);
		k++;
	}
	t->n = k;
}

/* Restrict the tree to the subtrees of root PDs @roots (@n of them): every node below
 * one of them, re-rooted there; the extra arcs between kept nodes. */
static int exp_select(struct dp_exp_tree *t, const uint32_t *roots, uint32_t n)
{
	uint32_t *starts = malloc(((size_t)n + 1) * sizeof(uint32_t));
	uint32_t *map = malloc(((size_t)t->n + 1) * sizeof(uint32_t));
	uint32_t m = 0, e = 0;

	if (!starts || !map) {
		free(starts);
		free(map);
		return dp_error(DP_ENOMEM, "out of memory exporting the profile");
	}
	for (uint32_t r = 0; r < n; r++)
		if (roots[r] >= 1 && roots[r] <= t->p->n_pd && t->pd_node[roots[r]] < t->n)
			starts[m++] = t->pd_node[roots[r]];
	qsort(starts, m, sizeof(*starts), exp_u32_cmp);
	exp_keep_ranges(t, starts, m, map);
	for (uint32_t k = 0; k < t->n_extra; k++) {
		uint32_t from = map[t->extra_from[k]];
		uint32_t to = t->pd_node[t->p->csd[t->extra_csd[k]].callee];

		if (from != DP_EXP_NONE && to < t->n) {
			t->extra_from[e] = from;
			t->extra_csd[e++] = t->extra_csd[k];
		}
	}
	t->n_extra = e;
	free(starts);
	free(map);
	return 0;
}

static int exp_tree_build(struct dp_exp_tree *t, const struct dp_analysis *a,
			  const struct dp_export_opts *o)
{
	const struct dp_profile *p = a->p;
	size_t n1 = (size_t)p->n_pd + 1;
	const uint32_t *roots = NULL;
	uint32_t n_roots = 0;
	struct exp_frame *stack;
	int rc;

	memset(t, 0, sizeof(*t));
	t->a = a;
	t->p = p;
	t->threads = o->per_thread;
	rc = exp_roots(a, o, &roots, &n_roots);
	if (rc < 0)
		return rc;
	t->pd = malloc(n1 * sizeof(uint32_t));
	t->parent = malloc(n1 * sizeof(uint32_t));
	t->depth = malloc(n1 * sizeof(uint32_t));
	t->in_csd = malloc(n1 * sizeof(uint32_t));
	t->pd_node = malloc(n1 * sizeof(uint32_t));
	stack = malloc(n1 * sizeof(*stack));
	if (!t->pd || !t->parent || !t->depth || !t->in_csd || !t->pd_node || !stack) {
		free(stack);
		return dp_error(DP_ENOMEM, "out of memory exporting the profile");
	}
	memset(t->pd_node, 0xff, n1 * sizeof(uint32_t));
	/* the whole tree first, so that a subtree is the one the whole export shows */
	rc = exp_walk(t, p->root_pd, stack);
	for (uint32_t r = 0; r < n_roots && rc == 0; r++)
		if (roots[r] >= 1 && roots[r] <= p->n_pd)
			rc = exp_walk(t, roots[r], stack);
	free(stack);
	if (rc == 0 && o->root != DP_EXPORT_ALL)
		rc = exp_select(t, roots, n_roots);
	return rc;
}

static int exp_json_flush(struct dp_buf *b, void *arg)
{
	struct dp_exp_out *o = arg;
	int rc;

	(void)b;
	rc = dp_exp_flush(o, true);
	return rc;
}

/* Check what the format takes. */
static int exp_check_opts(const struct dp_export_opts *o)
{
	if (o->context > DP_EXPORT_MAX_CONTEXT)
		return dp_error(DP_EUSAGE, "--context=%u: at most %d caller levels", o->context,
				DP_EXPORT_MAX_CONTEXT);
	if (o->context && o->format != DP_EXPORT_CALLGRIND)
		return dp_error(DP_EUSAGE, "--context applies to the callgrind format only");
	if (o->format == DP_EXPORT_JSON && (o->root != DP_EXPORT_ALL || o->per_thread))
		return dp_error(DP_EUSAGE,
				"the json format exports the whole file; it takes no query");
	if (o->has_metric && (o->format == DP_EXPORT_CALLGRIND || o->format == DP_EXPORT_PPROF ||
			      o->format == DP_EXPORT_JSON))
		return dp_error(DP_EUSAGE,
				"--metric applies to folded, speedscope and dot (%s "
				"carries every metric)",
				dp_export_format_name(o->format));
	if (!(o->min_pct >= 0 && o->min_pct <= 100))
		return dp_error(DP_EUSAGE, "--min must be a percentage from 0 to 100");
	return 0;
}

/* Run the writer of the chosen format over the tree. */
static int exp_run(const struct dp_analysis *a, const struct dp_export_opts *o,
		   struct dp_exp_out *out)
{
	struct dp_exp_tree t;
	int rc;

	if (o->format == DP_EXPORT_JSON)
		return dp_dump_json(a->p, &out->buf, exp_json_flush, out);
	rc = exp_tree_build(&t, a, o);
	if (rc == 0) {
		switch (o->format) {
		case DP_EXPORT_CALLGRIND:
			rc = dp_exp_callgrind(&t, o, out);
			break;
		case DP_EXPORT_PPROF:
			rc = dp_exp_pprof(&t, o, out);
			break;
		case DP_EXPORT_FOLDED:
			rc = dp_exp_folded(&t, o, out);
			break;
		case DP_EXPORT_SPEEDSCOPE:
			rc = dp_exp_speedscope(&t, o, out);
			break;
		case DP_EXPORT_DOT:
			rc = dp_exp_dot(&t, o, out);
			break;
		default:
			rc = dp_error(DP_EUSAGE, "bad export format");
		}
	}
	exp_tree_release(&t);
	return rc;
}

int dp_export(const struct dp_analysis *a, const struct dp_export_opts *o, dp_export_write_fn write,
	      void *arg)
{
	struct dp_exp_out out = {.write = write, .arg = arg};
	z_stream z;
	int rc = exp_check_opts(o);

	if (rc < 0)
		return rc;
	dp_buf_init(&out.buf, (size_t)1 << 40);
	if (o->format == DP_EXPORT_PPROF) {
		memset(&z, 0, sizeof(z));
		out.zbuf = malloc(DP_EXP_CHUNK);
		/* windowBits 15 + 16: a gzip header and trailer, as pprof files have */
		if (!out.zbuf ||
		    deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
			free(out.zbuf);
			return dp_error(DP_ENOMEM, "cannot start gzip compression");
		}
		out.z = &z;
	}
	rc = exp_run(a, o, &out);
	if (rc == 0)
		rc = dp_exp_flush(&out, true);
	if (out.z)
		deflateEnd(&z);
	free(out.zbuf);
	dp_buf_release(&out.buf);
	return rc;
}
