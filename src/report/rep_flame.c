/*
 * report/rep_flame.c - the flame pages: the calling-context tree with cliques folded
 * (flame) and the inverted tree of one procedure's callers (flame_callers), as rows in
 * preorder that a display draws as a flame graph or an indented tree.
 *
 * Both pages share the pruning and order rules. A node's value is its total of q.metric
 * (own + desc). Calls are not inherited (a callee may be called more often than its
 * caller), so with metric=calls a node's value is its total of callseqs, the calls made
 * in its subtree, which bounds the calls of every node below it: pruning stays sound and
 * the display draws widths by it; rows still carry their calls. Children are ordered by
 * name (ties by id), so equal stacks line up. A child whose value is below min_pct% of
 * the depth-0 node's value is dropped with its subtree; the dropped children of one
 * parent are gathered in one row (kind NONE, name "(other)", SUM with n = how many,
 * own/desc = their sum) placed after the parent's kept children, when their values add
 * up to at least that minimum.
 * depth=D keeps D levels (0 = all). At most DP_FLAME_MAX_NODES nodes are kept: when min
 * would keep more, the minimum is raised to the smallest value keeping at most that many
 * (the widest nodes of the tree) and facts capped and min_used say so. Facts: kept (rows
 * other than "(other)"), dropped (children dropped by min, not counting their subtrees),
 * and metric.
 *
 * page=flame&metric=M&min=P&depth=D[&thread=N]:
 *   subject: the depth-0 clique row. Rows (section "tree"): depth 0 = the root clique
 *     (kind CLIQUE, dp_rep_row_clique), or with thread=N the clique of thread N's root PD;
 *     the children of a clique node are the cliques entered from it (the analysis's
 *     clique_kids index): for each CSD of a member PD that is the entry CSD of its
 *     callee's clique, that CSD's row (kind CSD,
 *     id = the entry CSD, clique = the child clique, own/desc = the CSD's, so own + desc
 *     = the child clique's total). Crossing CSDs that are not their clique's entry (never
 *     in runtime files) are not children.
 * page=flame_callers&proc=N (or name=F), metric, min, depth:
 *   subject and depth 0: the PS row (all contexts, dp_rep_row_ps). Each PD of the
 *     procedure contributes its own + desc (PD costs) to every node of its ancestor chain:
 *     from a PD that is not its clique's entry PD, the next step is that entry PD (the
 *     procedure through which the recursion was entered); from an entry PD, the caller PD
 *     of the clique's entry CSD; the chain ends at a clique without entry CSD (the root).
 *     Equal caller procedures at the same place of the tree merge: a row per tree node,
 *     kind PS (id = the caller procedure), SUM with n = the PDs merged, own/desc = the
 *     sum of those PDs' own/desc. Chains are cut at the depth limit.
 *
 * Speed: a clique may have tens of thousands of children, nearly all dropped. When the
 * report context carries a flame index (flame_index.h, built by the session with the
 * analysis), the children of its wide cliques are judged on one contiguous array of
 * values and the "(other)" sums come by subtraction from the clique's sums: the same rows.
 * The callers tree is built by rep_flame_callers.c; both pages are walked here.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "flame_index.h"
#include "rep_flame_int.h"

/* walk()'s return when it gave up at f->cap */
#define DP_FL_CAPPED 1

int dp_fl_grow(void **v, uint32_t *cap, uint32_t need, size_t size)
{
	uint32_t c = *cap ? *cap : 64;
	void *nv;

	if (need <= *cap)
		return 0;
	while (c < need) {
		if (c > UINT32_MAX / 2)
			return dp_error(DP_ENOMEM, "flame graph too large");
		c *= 2;
	}
	nv = realloc(*v, (size_t)c * size);
	if (!nv)
		return dp_error(DP_ENOMEM, "out of memory building a flame graph");
	*v = nv;
	*cap = c;
	return 0;
}

uint64_t dp_fl_value(enum dp_metric m, const struct dp_costs *o, const struct dp_inherit *d)
{
	switch (m) {
	case DP_METRIC_CALLS: /* not inherited: weigh by the calls made in the subtree */
	case DP_METRIC_CALLSEQS:
		return o->callseqs + d->callseqs;
	case DP_METRIC_ALLOCS:
		return o->allocs + d->allocs;
	case DP_METRIC_BYTES:
		return o->alloc_bytes + d->alloc_bytes;
	default:
		return o->samples + d->samples;
	}
}

/* @d -= @s, every counter (modulo 2^64, as the sums were made) */
static void costs_sub(struct dp_costs *d, const struct dp_costs *s)
{
	d->calls -= s->calls;
	d->exits -= s->exits;
	d->unwinds -= s->unwinds;
	d->samples -= s->samples;
	d->callseqs -= s->callseqs;
	d->allocs -= s->allocs;
	d->alloc_bytes -= s->alloc_bytes;
}

static void inherit_sub(struct dp_inherit *d, const struct dp_inherit *s)
{
	d->samples -= s->samples;
	d->callseqs -= s->callseqs;
	d->allocs -= s->allocs;
	d->alloc_bytes -= s->alloc_bytes;
}

/* The flame index's slot of metric @m's value (see dp_fl_value()). */
static uint32_t value_slot(enum dp_metric m)
{
	switch (m) {
	case DP_METRIC_CALLS:
	case DP_METRIC_CALLSEQS:
		return 1;
	case DP_METRIC_ALLOCS:
		return 2;
	case DP_METRIC_BYTES:
		return 3;
	default:
		return 0;
	}
}

static void csd_costs(const struct dp_report_ctx *c, uint32_t csd, struct fl_node *n)
{
	const struct dp_csd *d = &c->p->csd[csd];

	n->own = dp_csd_costs(d);
	n->desc = dp_analysis_csd_desc(c->a, csd);
}

/* offer - child @x (value set) of the node being expanded: kept in f->kids, or added to
 * f->other when below the minimum */
static int offer(struct fl *f, const struct fl_node *x)
{
	if ((double)x->value < f->min) {
		f->other.n_other++;
		f->other.value += x->value;
		dp_costs_add(&f->other.own, &x->own);
		dp_inherit_add(&f->other.desc, &x->desc);
		return 0;
	}
	if (dp_fl_grow((void **)&f->kids, &f->cap_kids, f->n_kids + 1, sizeof(*f->kids)) < 0)
		return -DP_ENOMEM;
	f->kids[f->n_kids++] = *x;
	return 0;
}

/* skip_narrow - the first i' >= @i (< @n) with @v[i'] >= @min_v, or @n; adds the values
 * skipped to *@sum. The one loop over every child of a wide clique: kept tight. */
static uint32_t skip_narrow(const uint64_t *v, uint32_t i, uint32_t n, uint64_t min_v,
			    uint64_t *sum)
{
	uint64_t s = 0;

	for (; i < n && v[i] < min_v; i++)
		s += v[i];
	*sum += s;
	return i;
}

/*
 * wide_kids - flame_kids() for a clique of the flame index: the children's values come
 * from its contiguous array, only the kept children's CSDs are read, and the "(other)"
 * sums are the clique's sums of all children minus those of the kept ones.
 */
static int wide_kids(struct fl *f, const struct dp_flame_wide *w, const uint32_t *ids)
{
	const uint64_t *v = w->val + (size_t)value_slot(f->m) * w->n_kids;
	struct dp_costs own = w->own;
	struct dp_inherit desc = w->desc;
	uint64_t drop_v = 0;
	uint32_t n_kept = 0;

	for (uint32_t i = 0; i < w->n_kids; i++) {
		struct fl_node x;

		i = skip_narrow(v, i, w->n_kids, f->min_v, &drop_v);
		if (i == w->n_kids)
			break;
		/* kept: past walk()'s cap, give up before reading (min=0 keeps thousands) */
		if (f->cap && (uint64_t)f->kept + f->n_stack + f->n_kids >= f->cap)
			return DP_FL_CAPPED;
		memset(&x, 0, sizeof(x));
		x.id = ids[i];
		x.value = v[i];
		csd_costs(f->c, x.id, &x);
		if (offer(f, &x) < 0)
			return -DP_ENOMEM;
		n_kept++;
		costs_sub(&own, &x.own);
		inherit_sub(&desc, &x.desc);
	}
	if (n_kept < w->n_kids) {
		f->other.n_other += w->n_kids - n_kept;
		f->other.value += drop_v;
		dp_costs_add(&f->other.own, &own);
		dp_inherit_add(&f->other.desc, &desc);
	}
	return 0;
}

/* flame_kids - the children of flame node @n into f->kids: the entry CSDs of the
 * cliques entered from its clique (the analysis's clique tree index) */
static int flame_kids(struct fl *f, const struct fl_node *n)
{
	const struct dp_analysis *a = f->c->a;
	uint32_t k = n->id ? a->csd_child_clique[n->id] : f->top;
	uint32_t m = dp_csr_count(&a->clique_kids, k);
	const uint32_t *ids = dp_csr_items(&a->clique_kids, k);
	const struct dp_flame_wide *w = f->ix ? dp_flame_index_wide(f->ix, k) : NULL;

	if (w && w->n_kids == m)
		return wide_kids(f, w, ids);
	for (uint32_t i = 0; i < m; i++) {
		struct fl_node x = {.id = ids[i]};

		dp_flame_kid_prefetch(f->c->p, a, ids, i, m);
		csd_costs(f->c, x.id, &x);
		x.value = dp_fl_value(f->m, &x.own, &x.desc);
		if (offer(f, &x) < 0)
			return -DP_ENOMEM;
	}
	return 0;
}

/* callers_kids - the children of callers-tree node @n into f->kids */
static int callers_kids(struct fl *f, const struct fl_node *n)
{
	for (uint32_t i = f->t[n->id].child; i; i = f->t[i].sibling) {
		struct fl_node x = {.id = i, .own = f->t[i].own, .desc = f->t[i].desc};

		x.value = dp_fl_value(f->m, &x.own, &x.desc);
		if (offer(f, &x) < 0)
			return -DP_ENOMEM;
	}
	return 0;
}

static int kid_cmp(const void *x, const void *y)
{
	const struct fl_node *a = x, *b = y;
	int d = strcmp(a->name, b->name);

	return d ? d : (a->id > b->id) - (a->id < b->id);
}

/* kid_name - the label of child @x (kept nodes only) */
static const char *kid_name(struct fl *f, const struct fl_node *x)
{
	const struct dp_profile *p = f->c->p;

	if (f->callers)
		return dp_rep_ps_name(f->r, f->c, f->t[x->id].ps, 0);
	return dp_rep_ps_name(f->r, f->c, p->pd[p->csd[x->id].callee].ps,
			      f->c->a->ps_module[p->pd[p->csd[x->id].caller].ps]);
}

/* push - put @x on the stack */
static int push(struct fl *f, const struct fl_node *x)
{
	if (dp_fl_grow((void **)&f->stack, &f->cap_stack, f->n_stack + 1, sizeof(*f->stack)) < 0)
		return -DP_ENOMEM;
	f->stack[f->n_stack++] = *x;
	return 0;
}

/* node_row - the row of node @x */
static void node_row(struct fl *f, const struct fl_node *x, struct dp_rep_row *row)
{
	if (x->n_other) {
		row->kind = DP_ENT_NONE;
		row->name = "(other)";
		row->flags = DP_ROW_SUM;
		row->n = x->n_other;
	} else if (!f->callers) {
		if (x->id)
			dp_rep_row_csd(f->r, f->c, x->id, row);
		else
			dp_rep_row_clique(f->r, f->c, f->top, row);
	} else if (x->id == 1) {
		dp_rep_row_ps(f->r, f->c, f->top, row);
	} else {
		const struct fc_node *t = &f->t[x->id];

		dp_rep_row_ps(f->r, f->c, t->ps, row);
		row->clique = 0;
		row->flags = DP_ROW_SUM;
		row->n = t->n;
	}
	if (x->n_other || (f->callers && x->id != 1)) {
		row->own = x->own;
		row->desc = x->desc;
	}
	row->depth = x->depth;
}

/* expand - push the kept children of @x (popped) and their "(other)" row */
static int expand(struct fl *f, const struct fl_node *x)
{
	int rc;

	f->n_kids = 0;
	memset(&f->other, 0, sizeof(f->other));
	f->other.depth = x->depth + 1;
	f->other.name = "(other)";
	rc = f->callers ? callers_kids(f, x) : flame_kids(f, x);
	if (rc != 0) /* an error, or DP_FL_CAPPED */
		return rc;
	/* every node on the stack but "(other)" rows will be kept: give up before naming */
	if (f->cap && (uint64_t)f->kept + f->n_stack + f->n_kids > f->cap)
		return DP_FL_CAPPED;
	for (uint32_t i = 0; i < f->n_kids; i++) {
		f->kids[i].depth = x->depth + 1;
		f->kids[i].name = kid_name(f, &f->kids[i]);
	}
	f->dropped += f->other.n_other;
	if (f->n_kids > 1)
		qsort(f->kids, f->n_kids, sizeof(*f->kids), kid_cmp);
	if (f->other.n_other && (double)f->other.value >= f->min)
		rc = push(f, &f->other);
	for (uint32_t i = f->n_kids; i > 0 && rc == 0; i--)
		rc = push(f, &f->kids[i - 1]);
	return rc;
}

/* walk - emit the tree from @root in preorder into section "tree" */
static int walk(struct fl *f, const struct fl_node *root)
{
	struct dp_rep_rows l;
	uint32_t limit = f->r->q.depth;
	int rc = push(f, root);

	dp_rep_rows_init(&l, f->r);
	while (f->n_stack && rc == 0) {
		struct fl_node x = f->stack[--f->n_stack];
		struct dp_rep_row *row = dp_rep_rows_add(&l);

		if (!row)
			return -DP_ENOMEM;
		node_row(f, &x, row);
		if (x.n_other)
			continue;
		f->kept++;
		if (limit == 0 || x.depth + 1 < limit)
			rc = expand(f, &x);
	}
	if (rc == DP_FL_CAPPED)
		return rc; /* the rows made stay in the report's arena, unused */
	if (rc == 0)
		rc = dp_rep_section(f->r, "tree", NULL, &l);
	if (rc == 0)
		rc = dp_rep_fact_u64(f->r, "kept", "nodes kept", f->kept);
	if (rc == 0)
		rc = dp_rep_fact_u64(f->r, "dropped", "nodes dropped", f->dropped);
	if (rc == 0)
		rc = dp_rep_fact_str(f->r, "metric", "metric", dp_metric_name(f->m));
	return rc;
}

/* min_value - the smallest v with (double)v >= @min: conversion to double is monotonic,
 * so v is kept exactly when v >= it (@min never exceeds 2^64: it is a part of a total) */
static uint64_t min_value(double min)
{
	uint64_t lo = 0, hi = UINT64_MAX;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if ((double)mid >= min)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/* A candidate of the best-first search: a node's value and what expanding it needs. */
struct fl_cand {
	uint64_t value;
	uint32_t id, depth;
};

/* heap_push / heap_pop - a max-heap of candidates by value in @h (@n of them, room for
 * @cap) */
static int heap_push(struct fl_cand **h, uint32_t *n, uint32_t *cap, struct fl_cand x)
{
	uint32_t i;

	if (dp_fl_grow((void **)h, cap, *n + 1, sizeof(**h)) < 0)
		return -DP_ENOMEM;
	for (i = (*n)++; i > 0 && (*h)[(i - 1) / 2].value < x.value; i = (i - 1) / 2)
		(*h)[i] = (*h)[(i - 1) / 2];
	(*h)[i] = x;
	return 0;
}

static struct fl_cand heap_pop(struct fl_cand *h, uint32_t *n)
{
	struct fl_cand top = h[0], last = h[--*n];
	uint32_t i = 0, c;

	while ((c = 2 * i + 1) < *n) {
		if (c + 1 < *n && h[c + 1].value > h[c].value)
			c++;
		if (h[c].value <= last.value)
			break;
		h[i] = h[c];
		i = c;
	}
	if (*n)
		h[i] = last;
	return top;
}

/* kth_largest - the @k-th largest (1-based, @k <= @n) of @v[0..@n), which it reorders:
 * quickselect with a middle pivot, iterative. */
static uint64_t kth_largest(uint64_t *v, uint32_t n, uint32_t k)
{
	uint32_t lo = 0, hi = n - 1, want = k - 1; /* index in descending order */

	while (lo < hi) {
		uint64_t pivot = v[lo + (hi - lo) / 2];
		uint32_t i = lo, j = hi;

		while (i <= j) {
			while (v[i] > pivot)
				i++;
			while (v[j] < pivot)
				j--;
			if (i <= j) {
				uint64_t tmp = v[i];

				v[i] = v[j];
				v[j] = tmp;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (want <= j)
			hi = j;
		else if (want >= i)
			lo = i;
		else
			break;
	}
	return v[want];
}

/*
 * wide_cut - a lower bound of the threshold cap_threshold() looks for, from the children
 * of candidate @x when they are a wide clique's with more than @cap of them: the @cap-th
 * largest of their values (@cap nodes are at least that wide). 0 when none; -DP_ENOMEM
 * in *@rc.
 */
static uint64_t wide_cut(struct fl *f, const struct fl_cand *x, uint32_t cap, int *rc)
{
	const struct dp_analysis *a = f->c->a;
	uint32_t k = x->id ? a->csd_child_clique[x->id] : f->top;
	const struct dp_flame_wide *w;
	uint64_t *v, cut;

	*rc = 0;
	if (f->callers || !f->ix || !(w = dp_flame_index_wide(f->ix, k)) || w->n_kids <= cap)
		return 0;
	v = malloc((size_t)w->n_kids * sizeof(*v));
	if (!v) {
		*rc = dp_error(DP_ENOMEM, "out of memory building a flame graph");
		return 0;
	}
	memcpy(v, w->val + (size_t)value_slot(f->m) * w->n_kids, (size_t)w->n_kids * sizeof(*v));
	cut = kth_largest(v, w->n_kids, cap);
	free(v);
	return cut;
}

/*
 * cap_threshold - the smallest value *@t such that at most @cap nodes of the tree from
 * @root (as walk() prunes it at f->min and the depth limit) have a value of at least *@t.
 * A node's value never exceeds its parent's (inherited costs include the children's), so
 * the nodes taken best-first, widest first, are the widest nodes of the whole tree; the
 * value of the last one taken (one more if the next one ties) is the threshold. Children
 * below a known lower bound of it (wide_cut()) are never read. *@t = 0 when the tree
 * has no more than @cap nodes. Return: 0 or -DP_ENOMEM.
 */
static int cap_threshold(struct fl *f, const struct fl_node *root, uint32_t cap, uint64_t *t)
{
	uint32_t limit = f->r->q.depth, n = 0, room = 0, taken = 0;
	uint64_t last = UINT64_MAX, cut = 0, min_v = f->min_v;
	double min = f->min;
	struct fl_cand *h = NULL, x = {UINT64_MAX, root->id, root->depth}; /* root first */
	int rc = heap_push(&h, &n, &room, x);

	*t = 0;
	while (n && rc == 0) {
		struct fl_node e;

		x = heap_pop(h, &n);
		if (taken == cap) {
			*t = x.value == last && last < UINT64_MAX ? last + 1 : last;
			break;
		}
		taken++;
		last = x.value;
		if (limit && x.depth + 1 >= limit)
			continue;
		cut = wide_cut(f, &x, cap, &rc);
		if (rc < 0)
			break;
		if (cut > f->min_v) {
			f->min_v = cut;
			f->min = (double)cut;
		}
		f->n_kids = 0;
		memset(&f->other, 0, sizeof(f->other));
		e = (struct fl_node){.id = x.id, .depth = x.depth};
		rc = f->callers ? callers_kids(f, &e) : flame_kids(f, &e);
		for (uint32_t i = 0; i < f->n_kids && rc == 0; i++)
			rc = heap_push(
				&h, &n, &room,
				(struct fl_cand){f->kids[i].value, f->kids[i].id, x.depth + 1});
	}
	f->min_v = min_v;
	f->min = min;
	free(h);
	return rc;
}

int dp_fl_walk_capped(struct fl *f, const struct fl_node *root, uint64_t rv)
{
	uint32_t cap = f->c->flame_max_nodes ? f->c->flame_max_nodes : DP_FLAME_MAX_NODES;
	uint64_t t, min_v = f->min_v;
	bool capped;
	int rc;

	f->cap = cap;
	rc = walk(f, root);
	if (rc != DP_FL_CAPPED)
		return rc;
	/* walk() gives up early, counting "(other)" rows on its stack as kept: the search
	 * decides whether the page really has more than cap nodes (t = 0: it has not) */
	f->cap = 0;
	f->kept = f->dropped = 0;
	f->n_stack = 0;
	rc = cap_threshold(f, root, cap, &t);
	if (rc < 0)
		return rc;
	capped = t > min_v;
	if (capped) {
		f->min = (double)t;
		f->min_v = min_value(f->min);
	}
	rc = walk(f, root);
	if (rc == 0 && capped)
		rc = dp_rep_fact_u64(f->r, "capped", "nodes at most", cap);
	if (rc == 0 && capped)
		rc = dp_rep_fact_f64(f->r, "min_used", "minimum used (%)",
				     rv ? 100.0 * (double)t / (double)rv : 0.0);
	return rc;
}

void dp_fl_free(struct fl *f)
{
	free(f->t);
	free(f->hash);
	free(f->stack);
	free(f->kids);
}

int dp_fl_setup(struct fl *f, struct dp_report *r, const struct dp_report_ctx *c)
{
	memset(f, 0, sizeof(*f));
	f->r = r;
	f->c = c;
	f->m = r->q.metric;
	if (!(r->q.min_pct >= 0.0 && r->q.min_pct <= 100.0))
		return dp_error(DP_EUSAGE, "min= must be a percentage (0 to 100), got %g",
				r->q.min_pct);
	if ((unsigned)f->m >= DP_METRIC_COUNT)
		return dp_error(DP_EUSAGE, "metric must be time|calls|callseqs|allocs|bytes");
	return 0;
}

int dp_rep_flame(struct dp_report *r, const struct dp_report_ctx *c)
{
	const struct dp_profile *p = c->p;
	const struct dp_analysis *a = c->a;
	struct fl_node root = {0};
	uint64_t rv;
	struct fl f;
	int rc = dp_fl_setup(&f, r, c);

	if (rc < 0)
		return rc;
	f.top = a->root_clique;
	f.ix = c->flame_ix;
	if (r->q.thread) {
		if (r->q.thread > p->n_threads)
			return dp_error(DP_ENOENT, "unknown thread=%u (valid: 1..%u)", r->q.thread,
					p->n_threads);
		f.top = a->pd_clique[p->threads[r->q.thread].root_pd];
	}
	if (f.top == 0)
		return dp_error(DP_ENOENT, "the profile has no root clique");
	r->has_subject = true;
	dp_rep_row_clique(r, c, f.top, &r->subject);
	rv = dp_fl_value(f.m, &r->subject.own, &r->subject.desc);
	f.min = (double)rv * r->q.min_pct / 100.0;
	f.min_v = min_value(f.min);
	r->title = r->q.thread ? dp_rep_printf(r, "Flame graph of thread %u", r->q.thread)
			       : "Flame graph";
	rc = r->title ? dp_fl_walk_capped(&f, &root, rv) : -DP_ENOMEM;
	dp_fl_free(&f);
	return rc;
}
