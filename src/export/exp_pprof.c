/*
 * export/exp_pprof.c - pprof's profile.proto (package perftools.profiles), gzip-compressed
 * by export.c: one Sample per calling context with a non-zero cost, its stack of
 * Locations leaf first (the leaf at its function's line, each caller at the line of its
 * call site), values calls, time (ns, with the sampling period), callseqs, allocs,
 * bytes; a "thread" label per sample in the per-thread view. The protobuf encoding is
 * written here (varints and length-delimited fields; no library).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/strtab.h"
#include "deepprof/format.h"
#include "export_int.h"

#define PB_VARINT 0
#define PB_LEN	  2
#define PP_VALUES 5

/* Field numbers of profile.proto. */
enum {
	PP_SAMPLE_TYPE = 1,
	PP_SAMPLE = 2,
	PP_MAPPING = 3,
	PP_LOCATION = 4,
	PP_FUNCTION = 5,
	PP_STRING = 6,
	PP_TIME_NANOS = 9,
	PP_DURATION = 10,
	PP_PERIOD_TYPE = 11,
	PP_PERIOD = 12,
	PP_COMMENT = 13,
	PP_DEFAULT_TYPE = 14
};

struct pp_ctx {
	const struct dp_exp_tree *t;
	struct dp_strtab strs;
	uint32_t n_frames; /* frame keys: procedures 1..n_ps, then one per thread root */
	uint32_t *fn_name; /* [frame] string id of the function's name, 0 = unused */
	uint8_t *loc_used; /* [location id] */
	uint32_t *locs;	   /* [depth] the call location of the arc into the current path's
			      node at that depth (depth 1 and up) */
	size_t *lsum;	   /* [depth] the varint bytes of locs[1..depth] */
	int err;
};

static size_t pb_vlen(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static void pb_varint(struct dp_buf *b, uint64_t v)
{
	char *s = dp_buf_room(b, 10), *e = s;

	if (!s)
		return;
	while (v >= 0x80) {
		*e++ = (char)(v | 0x80);
		v >>= 7;
	}
	*e++ = (char)v;
	dp_buf_commit(b, e);
}

static void pb_key(struct dp_buf *b, uint32_t field, uint32_t wt)
{
	pb_varint(b, (uint64_t)field << 3 | wt);
}

/* A varint field, left out when 0 (proto3's default). */
static void pb_uint(struct dp_buf *b, uint32_t field, uint64_t v)
{
	if (!v)
		return;
	pb_key(b, field, PB_VARINT);
	pb_varint(b, v);
}

static size_t pb_uint_len(uint32_t field, uint64_t v)
{
	return v ? pb_vlen((uint64_t)field << 3) + pb_vlen(v) : 0;
}

static void pb_lenkey(struct dp_buf *b, uint32_t field, size_t len)
{
	pb_key(b, field, PB_LEN);
	pb_varint(b, len);
}

static uint32_t pp_str(struct pp_ctx *c, const char *s)
{
	int64_t id = dp_strtab_intern_cstr(&c->strs, s);

	if (id < 0) {
		c->err = (int)id;
		return 0;
	}
	return (uint32_t)id;
}

/* Location ids: frame key f (the function's own line) for 1..n_frames; n_frames + css
 * for a call made at call site css. */
static uint32_t pp_leaf_loc(struct pp_ctx *c, uint32_t i)
{
	uint32_t f = dp_exp_frame(c->t, i);
	char name[256];

	if (!c->fn_name[f])
		c->fn_name[f] = pp_str(c, dp_exp_name(c->t, c->t->pd[i], name, sizeof(name)));
	c->loc_used[f] = 1;
	return f;
}

static uint32_t pp_call_loc(struct pp_ctx *c, uint32_t parent, uint32_t csd)
{
	uint32_t css = c->t->p->csd[csd].css, f = pp_leaf_loc(c, parent);

	if (c->t->p->ps[c->t->p->pd[c->t->pd[parent]].ps].kind == DP_PS_THREAD || !css)
		return f;
	c->loc_used[c->n_frames + css] = 1;
	return c->n_frames + css;
}

static void pp_values(const struct dp_profile *p, const struct dp_costs *o, uint64_t *v)
{
	v[0] = o->calls;
	v[1] = o->samples * p->sample_period_ns;
	v[2] = o->callseqs;
	v[3] = o->allocs;
	v[4] = o->alloc_bytes;
}

/* @v as a varint at @s; returns the end. */
static char *pb_put(char *s, uint64_t v)
{
	while (v >= 0x80) {
		*s++ = (char)(v | 0x80);
		v >>= 7;
	}
	*s++ = (char)v;
	return s;
}

/* One Sample: node @i's stack (its own location, then the call locations of the path,
 * deepest first: c->locs[depth..1]) and values, plus its thread label. */
static void pp_sample(struct pp_ctx *c, uint32_t i, const uint64_t *v, uint32_t thread_key,
		      struct dp_buf *b)
{
	const struct dp_exp_tree *t = c->t;
	uint32_t d = t->depth[i], leaf = pp_leaf_loc(c, i), th = dp_exp_thread(t, i), str = 0;
	size_t llen = pb_vlen(leaf) + c->lsum[d], vlen = 0, len, lab = 0;
	char name[256], *s;

	for (int k = 0; k < PP_VALUES; k++)
		vlen += pb_vlen(v[k]);
	len = 1 + pb_vlen(llen) + llen + 1 + pb_vlen(vlen) + vlen;
	if (th) {
		const struct dp_thread *tr = &t->p->threads[th];
		const char *tn = dp_profile_str(t->p, tr->name);

		snprintf(name, sizeof(name), *tn ? "%" PRIu64 " (%s)" : "%" PRIu64, tr->tid, tn);
		str = pp_str(c, name);
		lab = pb_uint_len(1, thread_key) + pb_uint_len(2, str);
		len += 1 + pb_vlen(lab) + lab;
	}
	pb_lenkey(b, PP_SAMPLE, len);
	pb_lenkey(b, 1, llen);
	s = dp_buf_room(b, llen);
	if (!s)
		return; /* the buffer's sticky error stops the export */
	s = pb_put(s, leaf);
	for (uint32_t k = d; k >= 1; k--)
		s = pb_put(s, c->locs[k]);
	dp_buf_commit(b, s);
	pb_lenkey(b, 2, vlen);
	for (int k = 0; k < PP_VALUES; k++)
		pb_varint(b, v[k]);
	if (th) {
		pb_lenkey(b, 3, lab);
		pb_uint(b, 1, thread_key);
		pb_uint(b, 2, str);
	}
}

/* A ValueType message as field @field. */
static void pp_value_type(struct pp_ctx *c, struct dp_buf *b, uint32_t field, const char *type,
			  const char *unit)
{
	uint32_t ti = pp_str(c, type), ui = pp_str(c, unit);

	pb_lenkey(b, field, pb_uint_len(1, ti) + pb_uint_len(2, ui));
	pb_uint(b, 1, ti);
	pb_uint(b, 2, ui);
}

/* Location @id with one Line {function, line}. */
static void pp_location(struct dp_buf *b, uint32_t id, uint32_t fn, uint32_t line)
{
	size_t ll = pb_uint_len(1, fn) + pb_uint_len(2, line);

	pb_lenkey(b, PP_LOCATION, pb_uint_len(1, id) + pb_uint_len(2, 1) + 1 + pb_vlen(ll) + ll);
	pb_uint(b, 1, id);
	pb_uint(b, 2, 1); /* the one mapping */
	pb_lenkey(b, 4, ll);
	pb_uint(b, 1, fn);
	pb_uint(b, 2, line);
}

/* Every used function, location, the mapping. */
static void pp_tables(struct pp_ctx *c, struct dp_buf *b)
{
	const struct dp_profile *p = c->t->p;

	for (uint32_t f = 1; f <= c->n_frames; f++) {
		if (!c->loc_used[f])
			continue;
		bool proc = f <= p->n_ps;
		uint32_t file = pp_str(c, proc ? dp_profile_str(p, p->ps[f].file) : "");
		uint32_t sys = proc && p->ps[f].linkage_name
				       ? pp_str(c, dp_profile_str(p, p->ps[f].linkage_name))
				       : c->fn_name[f];
		uint32_t line = proc ? p->ps[f].line : 0;

		pb_lenkey(b, PP_FUNCTION,
			  pb_uint_len(1, f) + pb_uint_len(2, c->fn_name[f]) + pb_uint_len(3, sys) +
				  pb_uint_len(4, file) + pb_uint_len(5, line));
		pb_uint(b, 1, f);
		pb_uint(b, 2, c->fn_name[f]);
		pb_uint(b, 3, sys);
		pb_uint(b, 4, file);
		pb_uint(b, 5, line);
		pp_location(b, f, f, line);
	}
	for (uint32_t s = 1; s <= p->n_css; s++)
		if (c->loc_used[c->n_frames + s])
			pp_location(b, c->n_frames + s, p->css[s].ps, p->css[s].line);
	uint32_t prog = pp_str(c, dp_profile_str(p, p->program));
	size_t ml = pb_uint_len(1, 1) + pb_uint_len(5, prog) + 3 * 2;
	pb_lenkey(b, PP_MAPPING, ml);
	pb_uint(b, 1, 1);
	pb_uint(b, 5, prog);
	pb_uint(b, 7, 1); /* has_functions, has_filenames, has_line_numbers */
	pb_uint(b, 8, 1);
	pb_uint(b, 9, 1);
}

/* The sample types, period, comment, default type and then the string table. */
static void pp_trailer(struct pp_ctx *c, const struct dp_export_opts *o, struct dp_buf *b)
{
	const struct dp_profile *p = c->t->p;
	static const char *const types[PP_VALUES] = {"calls", "time", "callseqs", "allocs",
						     "bytes"};
	static const char *const units[PP_VALUES] = {"count", "nanoseconds", "count", "count",
						     "bytes"};
	char text[512];

	for (int k = 0; k < PP_VALUES; k++)
		pp_value_type(c, b, PP_SAMPLE_TYPE, types[k], units[k]);
	pp_value_type(c, b, PP_PERIOD_TYPE, "time", "nanoseconds");
	pb_uint(b, PP_PERIOD, p->sample_period_ns);
	pb_uint(b, PP_TIME_NANOS, p->start_ns);
	pb_uint(b, PP_DURATION, p->end_ns > p->start_ns ? p->end_ns - p->start_ns : 0);
	snprintf(text, sizeof(text), "exported by %s from a profile of %s", o->version,
		 dp_profile_str(p, p->program));
	pb_uint(b, PP_COMMENT, pp_str(c, text));
	pb_uint(b, PP_DEFAULT_TYPE, pp_str(c, c->t->total.samples ? "time" : "calls"));
	for (uint32_t s = 0; s < c->strs.n; s++) {
		pb_lenkey(b, PP_STRING, c->strs.len[s]);
		dp_buf_add(b, c->strs.str[s], c->strs.len[s]);
	}
}

int dp_exp_pprof(const struct dp_exp_tree *t, const struct dp_export_opts *o,
		 struct dp_exp_out *out)
{
	struct pp_ctx c = {.t = t};
	uint32_t thread_key;
	int rc;

	c.n_frames = t->p->n_ps + t->p->n_threads;
	c.fn_name = calloc((size_t)c.n_frames + 1, sizeof(uint32_t));
	c.loc_used = calloc((size_t)c.n_frames + t->p->n_css + 1, 1);
	c.locs = malloc(((size_t)t->max_depth + 2) * sizeof(uint32_t));
	c.lsum = calloc((size_t)t->max_depth + 2, sizeof(size_t));
	rc = dp_strtab_init(&c.strs);
	if (!c.fn_name || !c.loc_used || !c.locs || !c.lsum || rc < 0) {
		rc = dp_error(DP_ENOMEM, "out of memory exporting pprof");
		goto out_free;
	}
	thread_key = pp_str(&c, "thread");
	for (uint32_t i = 0; i < t->n && rc == 0 && !c.err; i++) {
		struct dp_costs own = dp_exp_own(t, i);
		uint32_t d = t->depth[i];
		uint64_t v[PP_VALUES];

		if (d) { /* preorder: locs[1..d-1] hold the parent's path */
			c.locs[d] = pp_call_loc(&c, t->parent[i], t->in_csd[i]);
			c.lsum[d] = c.lsum[d - 1] + pb_vlen(c.locs[d]);
		}
		pp_values(t->p, &own, v);
		if (v[0] | v[1] | v[2] | v[3] | v[4])
			pp_sample(&c, i, v, thread_key, &out->buf);
		rc = dp_exp_flush(out, false);
	}
	if (rc == 0 && !c.err)
		pp_tables(&c, &out->buf);
	if (rc == 0 && !c.err)
		pp_trailer(&c, o, &out->buf);
	if (rc == 0 && c.err)
		rc = c.err;
out_free:
	dp_strtab_release(&c.strs);
	free(c.fn_name);
	free(c.loc_used);
	free(c.locs);
	free(c.lsum);
	return rc;
}
