/*
 * analysis/diff.c - dp_diff_procs(): per-procedure self costs of two profiles matched by
 * name and source file, in one pass over each profile's CSDs, then sorted by change.
 */
#include "diff.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/strtab.h"
#include "deepprof/format.h"
#include "diff_int.h"

static int nomem(void)
{
	return dp_error(DP_ENOMEM, "out of memory comparing profiles");
}

int dp_diff_metric_parse(const char *s, enum dp_diff_metric *m)
{
	static const char *const names[] = {"time", "calls", "callseqs", "allocs", "bytes"};

	for (int i = 0; i < 5; i++)
		if (strcmp(s, names[i]) == 0) {
			*m = (enum dp_diff_metric)i;
			return 0;
		}
	return -1;
}

static uint64_t counter(const struct dp_csd *c, int m)
{
	switch ((enum dp_diff_metric)m) {
	case DP_DIFF_TIME:
		return c->samples;
	case DP_DIFF_CALLS:
		return c->calls;
	case DP_DIFF_CALLSEQS:
		return c->callseqs;
	case DP_DIFF_ALLOCS:
		return c->allocs;
	case DP_DIFF_BYTES:
		return c->alloc_bytes;
	}
	return 0;
}

/* The matching key of PS @s of @p into @b: "name\0file", or its address if unnamed. */
static size_t ps_key(const struct dp_profile *p, uint32_t s, char *b, size_t len)
{
	const struct dp_ps *ps = &p->ps[s];
	int n;

	if (ps->name)
		n = snprintf(b, len, "%s%c%s", dp_profile_str(p, ps->name), 0,
			     dp_profile_str(p, ps->file));
	else
		n = snprintf(b, len, "%s", dp_profile_ps_label(p, s, b, len));
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

struct side {
	uint64_t *raw; /* by key id */
	uint8_t *seen;
	uint32_t *ps; /* a PS of the key in this profile */
};

/* Sum @metric per procedure of @p into @s (keys interned into @keys). */
static int collect(const struct dp_profile *p, enum dp_diff_metric metric, struct dp_strtab *keys,
		   uint32_t *ps_key_id, struct side *s, uint64_t *total)
{
	char buf[1024];

	for (uint32_t i = 1; i <= p->n_ps; i++) {
		int64_t id;

		ps_key_id[i] = 0;
		if (p->ps[i].kind == DP_PS_PROGRAM) { /* a context, not a procedure */
			int n = snprintf(buf, sizeof(buf), "%c%s", 1,
					 dp_profile_str(p, p->ps[i].name));

			id = dp_strtab_intern(keys, buf,
					      n < 0			? 0
					      : (size_t)n < sizeof(buf) ? (size_t)n
									: sizeof(buf) - 1);
			ps_key_id[i] = id < 0 ? 0 : (uint32_t)id;
		}
		if (p->ps[i].kind != DP_PS_FUNCTION && p->ps[i].kind != DP_PS_LIBRARY)
			continue;
		id = dp_strtab_intern(keys, buf, ps_key(p, i, buf, sizeof(buf)));
		if (id < 0)
			return (int)id;
		ps_key_id[i] = (uint32_t)id;
		s->seen[id] = 1;
		s->ps[id] = i;
	}
	for (uint32_t d = 1; d <= p->n_csd; d++) {
		const struct dp_csd *c = &p->csd[d];
		uint32_t ps = c->callee <= p->n_pd ? p->pd[c->callee].ps : 0;
		uint64_t v = counter(c, metric);

		*total += v;
		if (ps && ps <= p->n_ps && ps_key_id[ps] &&
		    (p->ps[ps].kind == DP_PS_FUNCTION || p->ps[ps].kind == DP_PS_LIBRARY))
			s->raw[ps_key_id[ps]] += v;
	}
	return 0;
}

static int cmp_row(const void *a, const void *b)
{
	const struct dp_diff_row *x = a, *y = b;
	double cx = fabs(x->change), cy = fabs(y->change);
	int c;

	if (cx != cy)
		return cx > cy ? -1 : 1;
	if ((c = strcmp(x->name, y->name)))
		return c;
	return strcmp(x->file, y->file);
}

/* The value compared for @raw of a run whose counter sums to @total. */
static double value(uint64_t raw, uint64_t total, double period, enum dp_diff_metric m,
		    int absolute)
{
	if (m != DP_DIFF_TIME)
		return (double)raw;
	if (absolute)
		return (double)raw * period;
	return total ? (double)raw / (double)total : 0.0;
}

/* Fill row @r for key @k from the two sides (an unnamed procedure's address label is
 * copied into d->arena). Returns 0 or -DP_ENOMEM. */
static int fill_row(struct dp_diff_row *r, const struct dp_profile *base,
		    const struct dp_profile *new_, const struct side *s, uint32_t k,
		    enum dp_diff_metric m, int absolute, struct dp_diff *d)
{
	const struct dp_profile *p = s[1].seen[k] ? new_ : base;
	const struct dp_ps *ps = &p->ps[s[1].seen[k] ? s[1].ps[k] : s[0].ps[k]];
	char buf[32];

	r->name = ps->name ? dp_profile_str(p, ps->name) : "";
	if (!ps->name) {
		const char *l = dp_profile_ps_label(p, (uint32_t)(ps - p->ps), buf, sizeof(buf));

		if (!(r->name = dp_arena_strndup(&d->arena, l, strlen(l))))
			return nomem();
	}
	r->file = dp_profile_str(p, ps->file);
	r->line = ps->line;
	r->side = s[0].seen[k] && s[1].seen[k] ? DP_DIFF_BOTH
		  : s[0].seen[k]	       ? DP_DIFF_ONLY_BASE
					       : DP_DIFF_ONLY_NEW;
	r->base_raw = s[0].raw[k];
	r->new_raw = s[1].raw[k];
	r->base = value(r->base_raw, d->base_total, d->base_period_ns, m, absolute);
	r->new_ = value(r->new_raw, d->new_total, d->new_period_ns, m, absolute);
	r->change = r->new_ - r->base;
	r->rel = r->base != 0.0 ? r->change / r->base : (double)NAN;
	return 0;
}

/* The context rows: every context with a cost in either profile. */
static int ctx_rows(struct dp_diff *d, enum dp_diff_metric m, int absolute)
{
	const struct dp_diff_ctx *c = d->ctx;
	uint32_t n = c->n;

	if (!(d->ctx_rows = dp_arena_array(&d->arena, n, sizeof(*d->ctx_rows))))
		return nomem();
	for (uint32_t k = 1; k < n; k++) {
		struct dp_diff_row *r = &d->ctx_rows[d->n_ctx_rows];
		const char *key = d->keys->str[c->proc[k]];

		if (!c->raw[0][k] && !c->raw[1][k])
			continue;
		r->name = key[0] == 1 ? key + 1 : key;
		r->file = key[0] == 1 ? "" : key + strlen(key) + 1;
		r->ctx = k;
		r->side = c->seen[0][k] && c->seen[1][k] ? DP_DIFF_BOTH
			  : c->seen[0][k]		 ? DP_DIFF_ONLY_BASE
							 : DP_DIFF_ONLY_NEW;
		r->base_raw = c->raw[0][k];
		r->new_raw = c->raw[1][k];
		r->base = value(r->base_raw, d->base_total, d->base_period_ns, m, absolute);
		r->new_ = value(r->new_raw, d->new_total, d->new_period_ns, m, absolute);
		r->change = r->new_ - r->base;
		r->rel = r->base != 0.0 ? r->change / r->base : (double)NAN;
		d->n_ctx_rows++;
	}
	return 0;
}

/* Procedures of both sides into d->rows. */
static int proc_rows(struct dp_diff *d, const struct dp_profile *base,
		     const struct dp_profile *new_, const struct side *s, enum dp_diff_metric m,
		     int absolute)
{
	int rc = 0;

	if (!(d->rows = dp_arena_array(&d->arena, d->keys->n, sizeof(*d->rows))))
		return nomem();
	for (uint32_t k = 1; rc == 0 && k < d->keys->n; k++) {
		if (!s[0].raw[k] && !s[1].raw[k])
			continue;
		rc = fill_row(&d->rows[d->n_rows], base, new_, s, k, m, absolute, d);
		d->n_rows++;
	}
	return rc;
}

/* Sift @r[i] down the heap @r[0..n) whose top is the row that sorts last. */
static void sift(struct dp_diff_row *r, uint32_t n, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, big = i;
		struct dp_diff_row t;

		if (l < n && cmp_row(&r[l], &r[big]) > 0)
			big = l;
		if (l + 1 < n && cmp_row(&r[l + 1], &r[big]) > 0)
			big = l + 1;
		if (big == i)
			return;
		t = r[i];
		r[i] = r[big];
		r[big] = t;
		i = big;
	}
}

/* Keep the first @limit of the @n rows @r in sorted order (all when @limit is 0): a heap
 * of the best @limit, O(n log limit), then sorted. Returns the rows kept. */
static uint32_t top(struct dp_diff_row *r, uint32_t n, uint32_t limit)
{
	if (limit && limit < n) {
		for (uint32_t i = limit / 2 + 1; i-- > 0;)
			sift(r, limit, i);
		for (uint32_t i = limit; i < n; i++)
			if (cmp_row(&r[i], &r[0]) < 0) {
				r[0] = r[i];
				sift(r, limit, 0);
			}
		n = limit;
	}
	qsort(r, n, sizeof(*r), cmp_row);
	return n;
}

int dp_diff_procs(const struct dp_profile *base, const struct dp_profile *new_,
		  enum dp_diff_metric metric, int absolute, uint32_t limit, struct dp_diff *d)
{
	size_t n_keys = (size_t)base->n_ps + new_->n_ps + 2;
	struct side s[2];
	uint32_t *kid;
	int rc = 0;

	memset(d, 0, sizeof(*d));
	dp_arena_init(&d->arena, 0);
	d->base_period_ns = (double)base->sample_period_ns;
	d->new_period_ns = (double)new_->sample_period_ns;
	d->keys = calloc(1, sizeof(*d->keys));
	d->ctx = calloc(1, sizeof(*d->ctx));
	if (!d->keys || !d->ctx || dp_strtab_init(d->keys) < 0 ||
	    dp_diff_ctx_init(d->ctx, (size_t)base->n_pd + new_->n_pd) < 0)
		rc = nomem();
	for (int i = 0; i < 2; i++) {
		s[i].raw = dp_arena_array(&d->arena, n_keys, sizeof(uint64_t));
		s[i].seen = dp_arena_array(&d->arena, n_keys, 1);
		s[i].ps = dp_arena_array(&d->arena, n_keys, sizeof(uint32_t));
	}
	kid = dp_arena_array(&d->arena, n_keys, sizeof(uint32_t));
	if (!s[0].raw || !s[0].seen || !s[0].ps || !s[1].raw || !s[1].seen || !s[1].ps || !kid)
		rc = nomem();
	if (rc == 0 && (rc = collect(base, metric, d->keys, kid, &s[0], &d->base_total)) == 0)
		rc = dp_diff_ctx_collect(d->ctx, base, 0, kid, counter, (int)metric);
	if (rc == 0 && (rc = collect(new_, metric, d->keys, kid, &s[1], &d->new_total)) == 0)
		rc = dp_diff_ctx_collect(d->ctx, new_, 1, kid, counter, (int)metric);
	if (rc == 0 && (rc = proc_rows(d, base, new_, s, metric, absolute)) == 0)
		rc = ctx_rows(d, metric, absolute);
	if (rc < 0) {
		dp_diff_release(d);
		return rc;
	}
	d->n_rows_all = d->n_rows;
	d->n_ctx_rows_all = d->n_ctx_rows;
	d->n_rows = top(d->rows, d->n_rows, limit);
	d->n_ctx_rows = top(d->ctx_rows, d->n_ctx_rows, limit);
	return 0;
}

const char *dp_diff_ctx_path(const struct dp_diff *d, uint32_t ctx, struct dp_buf *b)
{
	uint32_t chain[256], n = 0;

	dp_buf_reset(b);
	for (uint32_t k = ctx; k && k < d->ctx->cap; k = d->ctx->parent[k])
		if (n < 256)
			chain[n++] = k;
		else
			chain[255] = k; /* deeper than 256: the root end is kept */
	for (uint32_t i = n; i-- > 0;) {
		const char *key = d->keys->str[d->ctx->proc[chain[i]]];

		if (i + 1 < n)
			dp_buf_adds(b, i == 254 && n == 256 ? " > ... > " : " > ");
		dp_buf_adds(b, key[0] == 1 ? key + 1 : key);
	}
	return dp_buf_cstr(b);
}

void dp_diff_release(struct dp_diff *d)
{
	if (d->keys)
		dp_strtab_release(d->keys);
	if (d->ctx)
		dp_diff_ctx_release(d->ctx);
	free(d->keys);
	free(d->ctx);
	dp_arena_release(&d->arena);
	memset(d, 0, sizeof(*d));
}
