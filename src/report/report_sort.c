/*
 * report/report_sort.c - the stable sort of row groups (a row and the deeper rows after
 * it) by position, name or cost, as the preferences say, and the string keys it and the
 * callers page share: byte prefixes and the ranks of interned strings.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/hash.h"
#include "../core/sort.h"
#include "report_int.h"

/*
 * One sortable unit: a row at the top depth and the deeper rows that follow it. @pre is
 * a prefix of the sort key (never contradicting the full order) compared first, so
 * that most comparisons touch neither the rows nor their strings.
 */
struct sort_group {
	uint64_t pre, sub;
	uint32_t start, len;
	double key;
	const struct dp_rep_row *row;
};

/* sort_name - the name a row sorts by: its procedure's, without the "file.c: " the
 * module qualification puts before it (dp_rep_ps_name), so that names sort as names */
static const char *sort_name(const struct dp_rep_row *row)
{
	const char *s = row->name, *colon;

	if (row->kind == DP_ENT_MODULE || row->kind == DP_ENT_OBJECT ||
	    !(colon = strstr(s, ": ")) || colon == s || colon[-1] == ':' ||
	    memchr(s, ' ', (size_t)(colon - s)))
		return s;
	return colon + 2;
}

/* cmp_str - strcmp with NULL (unknown) after every string */
static int cmp_str(const char *a, const char *b)
{
	if (a == b)
		return 0; /* interned strings: the same file */
	if (!a || !b)
		return (a == NULL) - (b == NULL);
	return strcmp(a, b);
}

uint64_t dp_rep_str_bytes(const char *s, unsigned off, unsigned n)
{
	uint64_t v = 0;
	bool end = false;

	if (!s)
		return UINT64_MAX >> (64 - 8 * n);
	for (unsigned i = 0; i < off + n; i++) {
		end = end || s[i] == 0;
		if (i >= off)
			v = v << 8 | (end ? 0u : (unsigned char)s[i]);
	}
	return v;
}

/* A distinct string of dp_rep_str_ranks(): its pointer and the index it was first met at. */
struct str_slot {
	const char *s;
	uint32_t d;
};

static int str_slot_cmp(const void *x, const void *y)
{
	const struct str_slot *a = x, *b = y;

	if (!a->s || !b->s)
		return (a->s == NULL) - (b->s == NULL);
	return strcmp(a->s, b->s);
}

int dp_rep_str_ranks(struct dp_report *r, const char *const *s, uint32_t n, uint32_t *rank)
{
	uint32_t size = (uint32_t)dp_hash_room(n), nd = 0, *slot, *pos;
	struct str_slot *d;

	slot = dp_arena_array(&r->arena, size, sizeof(*slot));
	d = dp_arena_array(&r->arena, n ? n : 1, sizeof(*d));
	pos = dp_arena_array(&r->arena, n ? n : 1, sizeof(*pos));
	if (!slot || !d || !pos)
		return dp_error(DP_ENOMEM, "out of memory sorting %u rows", n);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t j = dp_hash_u64((uint64_t)(uintptr_t)s[i]) & (size - 1);

		while (slot[j] && d[slot[j] - 1].s != s[i])
			j = (j + 1) & (size - 1);
		if (!slot[j]) {
			d[nd] = (struct str_slot){s[i], nd};
			slot[j] = ++nd;
		}
		rank[i] = slot[j] - 1;
	}
	qsort(d, nd, sizeof(*d), str_slot_cmp);
	for (uint32_t i = 0, k = 0; i < nd; i++) {
		k += i > 0 && str_slot_cmp(&d[i - 1], &d[i]) != 0;
		pos[d[i].d] = k;
	}
	for (uint32_t i = 0; i < n; i++)
		rank[i] = pos[rank[i]];
	return 0;
}

/* sort_prefix - the prefix keys of group @g (its row and cost key set), for @how; @rank:
 * its file's rank (context order) */
static void sort_prefix(struct sort_group *g, enum dp_sort how, uint32_t rank)
{
	const struct dp_rep_row *row = g->row;
	uint64_t bits;

	switch (how) {
	case DP_SORT_COST: /* keys are >= 0: their bits order as they do; descending */
		memcpy(&bits, &g->key, sizeof(bits));
		g->pre = ~bits;
		g->sub = dp_rep_str_bytes(sort_name(row), 0, 8);
		break;
	case DP_SORT_NAME:
		g->pre = dp_rep_str_bytes(sort_name(row), 0, 8);
		g->sub = dp_rep_str_bytes(sort_name(row), 8, 8);
		break;
	case DP_SORT_SOURCE:
	default:
		g->pre = (uint64_t)rank << 32 | row->line;
		g->sub = dp_rep_str_bytes(sort_name(row), 0, 8);
		break;
	}
}

/* sort_prefixes - the prefix keys of @g[0..ng) */
static int sort_prefixes(struct dp_report *r, struct sort_group *g, uint32_t ng, enum dp_sort how)
{
	const char **files = NULL;
	uint32_t *rank = NULL;

	if (how == DP_SORT_SOURCE) {
		files = dp_arena_array(&r->arena, ng, sizeof(*files));
		rank = dp_arena_array(&r->arena, ng, sizeof(*rank));
		if (!files || !rank)
			return dp_error(DP_ENOMEM, "out of memory sorting %u rows", ng);
		for (uint32_t j = 0; j < ng; j++)
			files[j] = g[j].row->file;
		if (dp_rep_str_ranks(r, files, ng, rank) < 0)
			return -DP_ENOMEM;
	}
	for (uint32_t j = 0; j < ng; j++)
		sort_prefix(&g[j], how, rank ? rank[j] : 0);
	return 0;
}

static int group_cmp(const struct sort_group *x, const struct sort_group *y, enum dp_sort how)
{
	const struct dp_rep_row *a = x->row, *b = y->row;
	int c;

	if (x->pre != y->pre)
		return x->pre < y->pre ? -1 : 1;
	if (x->sub != y->sub)
		return x->sub < y->sub ? -1 : 1;
	switch (how) {
	case DP_SORT_COST:
		if (x->key != y->key)
			return x->key > y->key ? -1 : 1;
		return strcmp(sort_name(a), sort_name(b));
	case DP_SORT_NAME:
		c = strcmp(sort_name(a), sort_name(b));
		if (c)
			return c;
		c = cmp_str(a->file, b->file);
		return c ? c : (a->line > b->line) - (a->line < b->line);
	case DP_SORT_SOURCE:
	default:
		c = cmp_str(a->file, b->file);
		if (c)
			return c;
		if (a->line != b->line)
			return a->line < b->line ? -1 : 1;
		return strcmp(sort_name(a), sort_name(b));
	}
}

/* The order of a sort: the key (enum dp_sort) and, in bit 4, the reversed direction. */
#define SORT_REV 0x10u

/* order_cmp - group_cmp() in @order's direction */
static inline int order_cmp(const struct sort_group *x, const struct sort_group *y, unsigned order)
{
	enum dp_sort how = (enum dp_sort)(order & 0xfu);

	return order & SORT_REV ? group_cmp(y, x, how) : group_cmp(x, y, how);
}

/* group_less - whether group @a goes before group @b in @order (stable: ties keep their
 * order) */
static inline bool group_less(unsigned order, const struct sort_group *a,
			      const struct sort_group *b)
{
	return order_cmp(a, b, order) < 0;
}

DP_MERGE_SORT_DEFINE(merge_sort, struct sort_group, unsigned, group_less)

int dp_rep_sort(struct dp_report *r, struct dp_rep_row *rows, uint32_t n,
		const struct dp_prefs *prefs)
{
	struct sort_group *g, *tmp;
	struct dp_rep_row *copy;
	uint32_t ng = 0, top, k = 1;
	unsigned order = (unsigned)prefs->sort | (prefs->sort_rev ? SORT_REV : 0);

	if (n < 2)
		return 0;
	top = rows[0].depth;
	for (uint32_t i = 0; i < n; i++)
		ng += rows[i].depth <= top;
	g = dp_arena_array(&r->arena, ng, sizeof(*g));
	if (!g)
		return dp_error(DP_ENOMEM, "out of memory sorting %u rows", n);
	for (uint32_t i = 0, j = 0; i < n; i++) {
		if (rows[i].depth <= top) {
			g[j].start = i;
			g[j].len = 0;
			g[j].row = &rows[i];
			g[j].key = dp_rep_row_metric(&rows[i], prefs->sort_metric,
						     prefs->sort_scope, prefs->sort_per);
			j++;
		}
		g[j - 1].len++;
	}
	if (sort_prefixes(r, g, ng, prefs->sort) < 0)
		return -DP_ENOMEM;
	while (k < ng && order_cmp(&g[k - 1], &g[k], order) <= 0)
		k++;
	if (k >= ng)
		return 0; /* already in order (rows often come in position order) */
	tmp = dp_arena_array(&r->arena, ng, sizeof(*tmp));
	copy = dp_arena_array(&r->arena, n, sizeof(*copy));
	if (!tmp || !copy)
		return dp_error(DP_ENOMEM, "out of memory sorting %u rows", n);
	if (merge_sort(g, tmp, ng, order) != g)
		memcpy(g, tmp, (size_t)ng * sizeof(*g));
	/* the comparisons are over: now the rows may move */
	memcpy(copy, rows, (size_t)n * sizeof(*copy));
	k = 0;
	for (uint32_t j = 0; j < ng; j++) {
		memcpy(&rows[k], &copy[g[j].start], (size_t)g[j].len * sizeof(*rows));
		k += g[j].len;
	}
	return 0;
}
