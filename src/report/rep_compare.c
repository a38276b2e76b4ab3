/*
 * report/rep_compare.c - dp_report_compare(): the same page of a base profile beside a
 * report. The page's query is translated into the base's ids (rep_compare_map.c), the
 * base answers it, and each row of the report is matched with the base's row for the same
 * thing: the same kind and name (and callee and source file), under the same chain of
 * rows above it in its section; of several such rows the one whose node is the
 * counterpart of the row's, else the one at the same line. The base row's costs are kept
 * beside the report's (r->cmp); the base report is freed.
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
	/* a thread's root is named by its entry, which may differ: a thread is a thread */
	if (row->flags & DP_ROW_THREAD)
		return hash_str(h, "<thread>");
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
	       (a->kind == DP_ENT_THREAD ? a->thread == b->thread
		: (a->flags & b->flags & DP_ROW_THREAD)
			? true
			: strcmp(a->name ? a->name : "", b->name ? b->name : "") == 0);
}

/* What matching a section needs: per row of each side its key and its parent row
 * (UINT32_MAX at the top); the new rows' matches so far and the base rows taken; the
 * base rows by key (@bk) and by kind and node id (@bid, made when first needed). */
struct cmp_tree {
	const struct dp_rep_section *s, *b;
	const struct dp_report_ctx *nc, *bc;
	struct dp_cmp_memo *nm; /* the new profile's memo */
	uint64_t *key, *bkey;
	uint32_t *parent, *bparent, *match;
	bool *used;
	struct cmp_key *bk, *bid;
	bool bid_made;
};

/* Whether base row @k can stand for row @i: not taken, under the match of @i's parent
 * (when it has one), and alike. */
static bool can_pick(const struct cmp_tree *t, uint32_t i, uint32_t k)
{
	uint32_t up = t->parent[i];

	if (t->used[k] ||
	    (up != UINT32_MAX && t->match[up] != UINT32_MAX && t->bparent[k] != t->match[up]))
		return false;
	return rows_same(&t->s->rows[i], &t->b->rows[k]);
}

/* The first index of @v (@n, sorted by h) whose h is @h (@n if none). */
static uint32_t key_lower(const struct cmp_key *v, uint32_t n, uint64_t h)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (v[mid].h < h)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* A row's kind and node id in one 64-bit value. */
static uint64_t node_key(const struct dp_rep_row *row, uint32_t id)
{
	return (uint64_t)row->kind << 32 | id;
}

/* The base row for row @i: the only one with its key, else the one of those whose node
 * is the counterpart of @i's (dp_cmp_row_node()), else the one at the same line, else
 * the first. Return: its index, UINT32_MAX for none, or -DP_ENOMEM as a long. */
static long pick_row(struct cmp_tree *t, uint32_t i)
{
	const struct dp_rep_row *row = &t->s->rows[i];
	uint32_t bn = t->b->n_rows, lo = key_lower(t->bk, bn, t->key[i]), pick = UINT32_MAX;
	uint32_t node = 0;

	if (lo + 1 >= bn || t->bk[lo + 1].h != t->key[i]) /* none or one with the key */
		return lo < bn && t->bk[lo].h == t->key[i] && can_pick(t, i, t->bk[lo].i)
			       ? t->bk[lo].i
			       : UINT32_MAX;
	if (dp_cmp_row_node(t->nc, t->nm, row, t->bc, &node) < 0)
		return -DP_ENOMEM;
	if (node) {
		if (!t->bid_made) { /* the base rows by node, once per section */
			for (uint32_t k = 0; k < bn; k++)
				t->bid[k] = (struct cmp_key){
					node_key(&t->b->rows[k], t->b->rows[k].id), k};
			qsort(t->bid, bn, sizeof(*t->bid), cmp_key_order);
			t->bid_made = true;
		}
		for (uint32_t k = key_lower(t->bid, bn, node_key(row, node));
		     k < bn && t->bid[k].h == node_key(row, node); k++)
			if (t->bkey[t->bid[k].i] == t->key[i] && can_pick(t, i, t->bid[k].i))
				return t->bid[k].i;
	}
	for (uint32_t k = lo; k < bn && t->bk[k].h == t->key[i]; k++) {
		uint32_t j = t->bk[k].i;

		if (!can_pick(t, i, j))
			continue;
		if (t->b->rows[j].line == row->line)
			return j;
		if (pick == UINT32_MAX)
			pick = j;
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
			  struct dp_cmp_memo *memo, struct dp_rep_base *out)
{
	size_t n = s->n_rows, bn = bs->n_rows;
	struct cmp_tree t = {.s = s, .b = bs, .nc = nc, .bc = bc, .nm = memo};
	uint64_t *keys = malloc((n + bn + 1) * sizeof(*keys));
	uint32_t *ids = malloc((2 * n + bn + 1) * sizeof(*ids));
	struct cmp_key *sorted = malloc((2 * bn + 1) * sizeof(*sorted));
	long found = 0;

	t.used = calloc(bn + 1, sizeof(*t.used));
	if (!keys || !ids || !sorted || !t.used || section_keys(s->rows, s->n_rows, keys) < 0 ||
	    section_keys(bs->rows, bs->n_rows, keys + n) < 0)
		goto nomem;
	t.key = keys;
	t.bkey = keys + n;
	t.parent = ids;
	t.match = ids + n;
	t.bparent = ids + 2 * n;
	t.bk = sorted;
	t.bid = sorted + bn;
	section_parents(s->rows, s->n_rows, t.parent);
	section_parents(bs->rows, bs->n_rows, t.bparent);
	for (uint32_t i = 0; i < bs->n_rows; i++)
		t.bk[i] = (struct cmp_key){t.bkey[i], i};
	qsort(t.bk, bn, sizeof(*t.bk), cmp_key_order);
	for (uint32_t i = 0; i < s->n_rows; i++) {
		long pick = pick_row(&t, i);

		if (pick < 0)
			goto nomem;
		t.match[i] = (uint32_t)pick;
		if (pick == UINT32_MAX)
			continue;
		t.used[pick] = true;
		out[i] = (struct dp_rep_base){true, bs->rows[pick].own, bs->rows[pick].desc};
		found++;
	}
	goto out;
nomem:
	found = dp_error(DP_ENOMEM, "out of memory comparing profiles");
out:
	free(keys);
	free(ids);
	free(sorted);
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

/* Fill @c from the base's answer @b (about @bc) to the same page as @r (about @nc, whose
 * memo is @memo). Return: 0 or -DP_ENOMEM. */
static int cmp_fill(struct dp_report *r, const struct dp_report_ctx *nc, const struct dp_report *b,
		    const struct dp_report_ctx *bc, struct dp_cmp_memo *memo,
		    struct dp_rep_compare *c)
{
	if (r->has_subject && b->has_subject)
		c->subject = (struct dp_rep_base){true, b->subject.own, b->subject.desc};
	for (uint32_t s = 0; s < r->n_sections; s++) {
		const struct dp_rep_section *bs =
			r->sections[s].costless ? NULL : base_section(r, s, b);
		long n = bs ? match_section(nc, &r->sections[s], bc, bs, memo, c->rows[s]) : 0;

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
	/* the memo of the new profile's contexts: its own, kept from query to query, or
	   made for this comparison */
	struct dp_cmp_memo *memo = ctx->cmp_memo ? ctx->cmp_memo : dp_cmp_memo_new();
	int rc = -DP_ENOMEM;

	if (!c || !bq || !memo ||
	    !(c->rows = dp_arena_array(&r->arena, r->n_sections + 1, sizeof(*c->rows))))
		goto out;
	for (uint32_t s = 0; s < r->n_sections; s++) {
		c->rows[s] =
			dp_arena_array(&r->arena, r->sections[s].n_rows + 1, sizeof(**c->rows));
		if (!c->rows[s])
			goto out;
		if (!r->sections[s].costless)
			c->n_rows += r->sections[s].n_rows;
	}
	c->base_name = dp_rep_strdup(r, o && o->base_name ? o->base_name : "base");
	if (!c->base_name)
		goto out;
	c->absolute = o && o->absolute;
	c->base_total = base->a->root_total;
	c->base_period_ns = base->p->sample_period_ns;
	cmp_metric(r, c);
	rc = dp_cmp_query(ctx, memo, r, base, bq);
	if (rc > 0) {
		rc = dp_report_build(base, bq, &b);
		if (rc == 0) {
			c->found = true;
			rc = cmp_fill(r, ctx, b, base, memo, c);
		} else if (rc != -DP_ENOMEM) {
			rc = 0; /* the base has no such page: nothing to compare with */
		}
	}
	if (rc >= 0)
		r->cmp = c;
out:
	if (rc == -DP_ENOMEM)
		dp_error(DP_ENOMEM, "out of memory comparing profiles");
	dp_report_free(b);
	free(bq);
	if (!ctx->cmp_memo)
		dp_cmp_memo_free(memo);
	return rc < 0 ? rc : 0;
}
