/*
 * report/rep_compare.c - dp_report_compare(): the same page of a base profile beside a
 * report. The page's query is translated into the base's ids (rep_compare_map.c), the
 * base answers it, and each row of the report is matched with the base's row for the same
 * thing: the same kind and name (and callee and source file), under the same chain of
 * rows above it in its section; of several such rows the one at the same line. The base
 * row's costs are kept beside the report's (r->cmp); the base report is freed.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "report_int.h"

/* A base row by the hash of its key, for the search by key. */
struct cmp_key {
	uint64_t h;
	uint32_t i; /* its index in the section */
};

/* FNV-1a of the string @s (NULL as "") and its NUL, continuing @h. */
static uint64_t hash_str(uint64_t h, const char *s)
{
	for (s = s ? s : ""; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
	return (h ^ 0xffu) * 0x100000001b3ull;
}

/* The key of @row under the row whose key is @parent: kind, name (a thread's index, its
 * name holding its id), callee and file. */
static uint64_t row_key(const struct dp_rep_row *row, uint64_t parent)
{
	uint64_t h = (parent ^ (uint64_t)row->kind) * 0x100000001b3ull;

	if (row->kind == DP_ENT_THREAD)
		return (h ^ row->thread) * 0x100000001b3ull;
	h = hash_str(h, row->name);
	h = hash_str(h, row->callee);
	return hash_str(h, row->file);
}

/* The keys of the @n rows at @rows into @keys: each row's under its parent's. Return: 0
 * or -DP_ENOMEM. */
static int section_keys(const struct dp_rep_row *rows, uint32_t n, uint64_t *keys)
{
	uint32_t max = 0;
	uint64_t *stack;

	for (uint32_t i = 0; i < n; i++)
		max = rows[i].depth > max ? rows[i].depth : max;
	stack = malloc(((size_t)max + 2) * sizeof(*stack));
	if (!stack)
		return dp_error(DP_ENOMEM, "out of memory comparing profiles");
	stack[0] = 0xcbf29ce484222325ull;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t d = rows[i].depth;

		keys[i] = row_key(&rows[i], stack[d]);
		stack[d + 1] = keys[i];
	}
	free(stack);
	return 0;
}

static int cmp_key_order(const void *x, const void *y)
{
	const struct cmp_key *a = x, *b = y;

	if (a->h != b->h)
		return a->h < b->h ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

/* Whether base row @b can stand for row @a (beyond the key's hash). */
static bool rows_same(const struct dp_rep_row *a, const struct dp_rep_row *b)
{
	return a->kind == b->kind && a->depth == b->depth &&
	       (a->kind == DP_ENT_THREAD
			? a->thread == b->thread
			: strcmp(a->name ? a->name : "", b->name ? b->name : "") == 0);
}

/* The score of base row @b of @bc as the counterpart of row @row of @nc (signature
 * @sig): the same context and sites 8, the same context 4, the same line 2. Return: the
 * score, or -DP_ENOMEM. */
static int row_score(const struct dp_report_ctx *nc, const struct dp_rep_row *row,
		     const struct dp_cmp_sig *sig, const struct dp_report_ctx *bc,
		     const struct dp_rep_row *b)
{
	struct dp_cmp_sig bs = {0};
	int score = b->line == row->line ? 2 : 0;

	(void)nc;
	if (sig->has && dp_cmp_row_sig(bc, b, &bs) < 0)
		return -DP_ENOMEM;
	if (sig->has && bs.has && sig->weak == bs.weak)
		score += sig->strong == bs.strong ? 12 : 4;
	return score;
}

/* What matching a section needs: per row of each side its parent row (UINT32_MAX for
 * the top level), the new rows' matches so far, and which base rows are taken. */
struct cmp_tree {
	uint32_t *parent, *bparent, *match;
	bool *used;
};

/* Whether base row @k can stand for row @i: not taken, under the match of @i's parent
 * (when it has one), and alike. */
static bool can_pick(const struct cmp_tree *t, const struct dp_rep_section *s, uint32_t i,
		     const struct dp_rep_section *bs, uint32_t k)
{
	uint32_t up = t->parent[i];

	if (t->used[k] ||
	    (up != UINT32_MAX && t->match[up] != UINT32_MAX && t->bparent[k] != t->match[up]))
		return false;
	return rows_same(&s->rows[i], &bs->rows[k]);
}

/* The base row standing for row @i of @s among the candidates bk[lo..] with its key
 * (@key) that can_pick(): the only one, else the best by row_score(). Return: its index
 * in @bs, UINT32_MAX for none, or a negative dp_err as a long. */
static long pick_row(const struct dp_report_ctx *nc, const struct dp_rep_section *s, uint32_t i,
		     uint64_t key, const struct dp_report_ctx *bc, const struct dp_rep_section *bs,
		     const struct cmp_key *bk, uint32_t lo, const struct cmp_tree *t)
{
	const struct dp_rep_row *row = &s->rows[i];
	struct dp_cmp_sig sig = {0};
	uint32_t n = 0, first = UINT32_MAX, pick = UINT32_MAX;
	int best = -1;

	for (uint32_t k = lo; k < bs->n_rows && bk[k].h == key; k++)
		if (can_pick(t, s, i, bs, bk[k].i) && !n++)
			first = bk[k].i;
	if (n <= 1)
		return first;
	if (dp_cmp_row_sig(nc, row, &sig) < 0)
		return -DP_ENOMEM;
	for (uint32_t k = lo; k < bs->n_rows && bk[k].h == key; k++) {
		const struct dp_rep_row *b = &bs->rows[bk[k].i];
		int sc;

		if (!can_pick(t, s, i, bs, bk[k].i))
			continue;
		sc = row_score(nc, row, &sig, bc, b);
		if (sc < 0)
			return sc;
		if (sc > best) {
			best = sc;
			pick = bk[k].i;
		}
	}
	return pick;
}

/* The parent of each of the @n rows at @rows into @parent (UINT32_MAX at the top). */
static void section_parents(const struct dp_rep_row *rows, uint32_t n, uint32_t *parent)
{
	uint32_t last[64]; /* the last row seen at each depth below 64 */

	for (uint32_t i = 0; i < n; i++) {
		uint32_t d = rows[i].depth;

		parent[i] = d && d <= 64 ? last[d - 1] : UINT32_MAX;
		if (d < 64)
			last[d] = i;
	}
}

/* Match the rows of section @s (of a report about @nc) with those of base section @bs
 * (about @bc) into @out (one per row of @s), top down. Return: how many matched, or
 * -DP_ENOMEM. */
static long match_section(const struct dp_report_ctx *nc, const struct dp_rep_section *s,
			  const struct dp_report_ctx *bc, const struct dp_rep_section *bs,
			  struct dp_rep_base *out)
{
	size_t n = s->n_rows, bn = bs->n_rows;
	uint64_t *keys = malloc((n + bn + 1) * sizeof(*keys));
	struct cmp_key *bk = malloc((bn + 1) * sizeof(*bk));
	uint32_t *ids = malloc((2 * n + bn + 1) * sizeof(*ids));
	struct cmp_tree t = {ids, ids + n, ids + n + bn, calloc(bn + 1, sizeof(bool))};
	long found = 0;

	if (!keys || !bk || !ids || !t.used || section_keys(s->rows, s->n_rows, keys) < 0 ||
	    section_keys(bs->rows, bs->n_rows, keys + n) < 0) {
		found = dp_error(DP_ENOMEM, "out of memory comparing profiles");
		goto out;
	}
	section_parents(s->rows, s->n_rows, t.parent);
	section_parents(bs->rows, bs->n_rows, t.bparent);
	for (uint32_t i = 0; i < bs->n_rows; i++)
		bk[i] = (struct cmp_key){keys[n + i], i};
	qsort(bk, bn, sizeof(*bk), cmp_key_order);
	for (uint32_t i = 0; i < s->n_rows; i++) {
		uint32_t lo = 0, hi = bs->n_rows;
		long pick;

		while (lo < hi) { /* the first base row with this key */
			uint32_t mid = lo + (hi - lo) / 2;

			if (bk[mid].h < keys[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		pick = pick_row(nc, s, i, keys[i], bc, bs, bk, lo, &t);
		t.match[i] = pick < 0 ? UINT32_MAX : (uint32_t)pick;
		if (pick < 0) {
			found = dp_error(DP_ENOMEM, "out of memory comparing profiles");
			goto out;
		}
		if (pick == UINT32_MAX)
			continue;
		t.used[pick] = true;
		out[i] = (struct dp_rep_base){true, bs->rows[pick].own, bs->rows[pick].desc};
		found++;
	}
out:
	free(keys);
	free(bk);
	free(ids);
	free(t.used);
	return found;
}

/* What the comparison shows: the metric and scope of the page (top, flame graphs), of
 * its sort order when it is by a cost, else total time (total callseqs without samples). */
static void cmp_metric(const struct dp_report *r, struct dp_rep_compare *c)
{
	const struct dp_query *q = &r->q;

	if (q->page == DP_PAGE_TOP) {
		c->metric = q->metric;
		c->scope = q->scope;
	} else if (q->page == DP_PAGE_FLAME || q->page == DP_PAGE_FLAME_CALLERS) {
		c->metric = q->metric;
		c->scope = DP_SCOPE_TOTAL;
	} else if (q->prefs.sort == DP_SORT_COST) {
		c->metric = q->prefs.sort_metric;
		c->scope = q->prefs.sort_scope;
	} else {
		c->metric = r->root_total.samples ? DP_METRIC_TIME : DP_METRIC_CALLSEQS;
		c->scope = DP_SCOPE_TOTAL;
	}
	if (c->metric == DP_METRIC_CALLS)
		c->scope = DP_SCOPE_SELF;
}

/* The section of @b that corresponds to @r's section @s: the one with the same id. */
static const struct dp_rep_section *base_section(const struct dp_report *r, uint32_t s,
						 const struct dp_report *b)
{
	const char *id = r->sections[s].id ? r->sections[s].id : "";

	for (uint32_t k = 0; k < b->n_sections; k++)
		if (strcmp(id, b->sections[k].id ? b->sections[k].id : "") == 0)
			return &b->sections[k];
	return NULL;
}

/* Fill @c from the base's answer @b (about @bc) to the same page as @r (about @nc).
 * Return: 0 or -DP_ENOMEM. */
static int cmp_fill(struct dp_report *r, const struct dp_report_ctx *nc, const struct dp_report *b,
		    const struct dp_report_ctx *bc, struct dp_rep_compare *c)
{
	if (r->has_subject && b->has_subject)
		c->subject = (struct dp_rep_base){true, b->subject.own, b->subject.desc};
	for (uint32_t s = 0; s < r->n_sections; s++) {
		const struct dp_rep_section *bs = base_section(r, s, b);
		long n = bs ? match_section(nc, &r->sections[s], bc, bs, c->rows[s]) : 0;

		if (n < 0)
			return (int)n;
		c->n_found += (uint32_t)n;
	}
	return 0;
}

int dp_report_compare(struct dp_report *r, const struct dp_report_ctx *ctx,
		      const struct dp_report_ctx *base, const struct dp_compare_opts *o)
{
	struct dp_rep_compare *c = dp_arena_alloc(&r->arena, sizeof(*c));
	struct dp_report *b = NULL;
	struct dp_query *bq = malloc(sizeof(*bq));
	int rc;

	if (!c || !bq ||
	    !(c->rows = dp_arena_array(&r->arena, r->n_sections + 1, sizeof(*c->rows))))
		goto nomem;
	for (uint32_t s = 0; s < r->n_sections; s++) {
		c->rows[s] =
			dp_arena_array(&r->arena, r->sections[s].n_rows + 1, sizeof(**c->rows));
		if (!c->rows[s])
			goto nomem;
		c->n_rows += r->sections[s].n_rows;
	}
	c->base_name = dp_rep_strdup(r, o && o->base_name ? o->base_name : "base");
	if (!c->base_name)
		goto nomem;
	c->absolute = o && o->absolute;
	c->base_total = base->a->root_total;
	c->base_period_ns = base->p->sample_period_ns;
	cmp_metric(r, c);
	rc = dp_cmp_query(ctx, r, base, bq);
	if (rc > 0) {
		rc = dp_report_build(base, bq, &b);
		if (rc == 0) {
			c->found = true;
			rc = cmp_fill(r, ctx, b, base, c);
		} else if (rc != -DP_ENOMEM) {
			rc = 0; /* the base has no such page: nothing to compare with */
		}
	}
	dp_report_free(b);
	free(bq);
	if (rc < 0)
		return rc;
	r->cmp = c;
	return 0;
nomem:
	free(bq);
	return dp_error(DP_ENOMEM, "out of memory comparing profiles");
}
