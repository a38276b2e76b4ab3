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
 * depth=D keeps D levels (0 = all). Facts: kept (rows other than "(other)"), dropped
 * (children dropped by min, not counting their subtrees), and metric.
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
 * values and the "(other)" sums come by subtraction from the clique's sums: the same rows. The
 * callers tree climbs all the procedure's PDs a level at a time with their loads prefetched.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "flame_index.h"
#include "report_int.h"

/* A node of either tree, as the pruning and ordering see it. */
struct fl_node {
	uint32_t id; /* flame: entry CSD (0: the depth-0 clique); callers: tree node */
	uint32_t depth;
	uint64_t value;
	const char *name;
	struct dp_costs own;
	struct dp_inherit desc;
	uint32_t n_other; /* > 0: an "(other)" row standing for that many nodes */
};

/* A node of the inverted (callers) tree. */
struct fc_node {
	uint32_t ps, parent, n;
	uint32_t child, sibling; /* first child, next sibling; 0 = none */
	struct dp_costs own;
	struct dp_inherit desc;
};

/* PDs of the procedure climbing their ancestor chain: their costs (index into the
 * climbers' cost arrays), where they are and their tree node. */
struct fc_climb {
	uint32_t k, cur, node;
	uint32_t n; /* PDs merged into this climber */
};

struct fl {
	struct dp_report *r;
	const struct dp_report_ctx *c;
	enum dp_metric m;
	bool callers;			 /* flame_callers */
	uint32_t top;			 /* flame: the depth-0 clique; callers: the procedure */
	const struct dp_flame_index *ix; /* flame: the analysis's index, or NULL */
	double min;			 /* values below are dropped */
	uint64_t min_v;			 /* flame: the smallest value v with (double)v >= min */
	uint32_t kept, dropped;
	struct fc_node *t; /* callers tree, t[0] unused, t[1] = the root */
	uint32_t n_t, cap_t;
	uint32_t *hash; /* (parent, ps) -> tree node, open addressing */
	uint32_t n_hash;
	struct fl_node *stack, *kids; /* kids: the kept children of the node expanded */
	struct fl_node other;	      /* and the sum of those dropped */
	uint32_t n_stack, cap_stack, n_kids, cap_kids;
};

/* grow - make room in a malloc'd array; 0 or -DP_ENOMEM */
static int grow(void **v, uint32_t *cap, uint32_t need, size_t size)
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

static uint64_t value_of(enum dp_metric m, const struct dp_costs *o, const struct dp_inherit *d)
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

/* The flame index's slot of metric @m's value (see value_of()). */
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
	if (grow((void **)&f->kids, &f->cap_kids, f->n_kids + 1, sizeof(*f->kids)) < 0)
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
		x.value = value_of(f->m, &x.own, &x.desc);
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

		x.value = value_of(f->m, &x.own, &x.desc);
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
	if (grow((void **)&f->stack, &f->cap_stack, f->n_stack + 1, sizeof(*f->stack)) < 0)
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
	if (rc < 0)
		return rc;
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

static void fl_free(struct fl *f)
{
	free(f->t);
	free(f->hash);
	free(f->stack);
	free(f->kids);
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

/* fl_setup - common checks: min_pct, metric */
static int fl_setup(struct fl *f, struct dp_report *r, const struct dp_report_ctx *c)
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
	int rc = fl_setup(&f, r, c);

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
	rv = value_of(f.m, &r->subject.own, &r->subject.desc);
	f.min = (double)rv * r->q.min_pct / 100.0;
	f.min_v = min_value(f.min);
	r->title = r->q.thread ? dp_rep_printf(r, "Flame graph of thread %u", r->q.thread)
			       : "Flame graph";
	rc = r->title ? walk(&f, &root) : -DP_ENOMEM;
	fl_free(&f);
	return rc;
}

static uint32_t hash_of(uint32_t parent, uint32_t ps)
{
	uint64_t h = ((uint64_t)parent << 32 | ps) * 0x9E3779B97F4A7C15ull;

	return (uint32_t)(h >> 32);
}

/* rehash - double the hash table of the callers tree */
static int rehash(struct fl *f)
{
	uint32_t n = f->n_hash ? f->n_hash * 2 : 256;
	uint32_t *h;

	if (n == 0 || n > UINT32_MAX / 4)
		return dp_error(DP_ENOMEM, "flame graph too large");
	h = calloc(n, sizeof(*h));
	if (!h)
		return dp_error(DP_ENOMEM, "out of memory building a flame graph");
	for (uint32_t i = 2; i < f->n_t; i++) {
		uint32_t s = hash_of(f->t[i].parent, f->t[i].ps) & (n - 1);

		while (h[s])
			s = (s + 1) & (n - 1);
		h[s] = i;
	}
	free(f->hash);
	f->hash = h;
	f->n_hash = n;
	return 0;
}

/* tree_child - the child of callers-tree node @parent for procedure @ps (made if new);
 * 0 on out of memory */
static uint32_t tree_child(struct fl *f, uint32_t parent, uint32_t ps)
{
	uint32_t s, i;

	if ((uint64_t)f->n_t * 2 >= f->n_hash && rehash(f) < 0)
		return 0;
	s = hash_of(parent, ps) & (f->n_hash - 1);
	for (; (i = f->hash[s]) != 0; s = (s + 1) & (f->n_hash - 1))
		if (f->t[i].parent == parent && f->t[i].ps == ps)
			return i;
	if (grow((void **)&f->t, &f->cap_t, f->n_t + 1, sizeof(*f->t)) < 0)
		return 0;
	i = f->n_t++;
	memset(&f->t[i], 0, sizeof(f->t[i]));
	f->t[i].ps = ps;
	f->t[i].parent = parent;
	f->t[i].sibling = f->t[parent].child;
	f->t[parent].child = i;
	f->hash[s] = i;
	return i;
}

/* caller_step - the next PD up the ancestor chain from @cur (see the page comment), or 0
 * at the root */
static uint32_t caller_step(const struct dp_report_ctx *c, uint32_t cur)
{
	const struct dp_analysis *a = c->a;
	uint32_t k = a->pd_clique[cur], entry = dp_csr_items(&a->clique_pds, k)[0];

	return cur == entry ? a->clique_entry_caller[k] : entry;
}

/* own_prefetch - prefetch what dp_analysis_pd_own() and pd_desc read for the PDs ahead
 * of @i in @pds (@n of them), in three stages: the PD's callers range, its first caller
 * CSD's id, that CSD (most PDs have one caller) */
static inline void own_prefetch(const struct dp_analysis *a, const uint32_t *pds, uint32_t i,
				uint32_t n)
{
	const struct dp_csr *c = &a->pd_callers;

	if (i + DP_REP_AHEAD < n) {
		__builtin_prefetch(&c->start[pds[i + DP_REP_AHEAD]]);
		__builtin_prefetch(&a->pd_desc[pds[i + DP_REP_AHEAD]]);
	}
	if (i + DP_REP_AHEAD / 2 < n)
		__builtin_prefetch(&c->ids[c->start[pds[i + DP_REP_AHEAD / 2]]]);
	if (i + DP_REP_AHEAD / 4 < n && dp_csr_count(c, pds[i + DP_REP_AHEAD / 4])) {
		const struct dp_csd *d = &a->p->csd[c->ids[c->start[pds[i + DP_REP_AHEAD / 4]]]];

		__builtin_prefetch(d); /* a CSD may span two cache lines */
		__builtin_prefetch((const char *)(d + 1) - 1);
	}
}

/* climb_prefetch - prefetch what caller_step() reads for the climbers ahead of @i (of
 * @n), in two stages as dp_flame_kid_prefetch() */
static inline void climb_prefetch(const struct dp_analysis *a, const struct fc_climb *act,
				  uint32_t i, uint32_t n)
{
	if (i + DP_REP_AHEAD < n)
		__builtin_prefetch(&a->pd_clique[act[i + DP_REP_AHEAD].cur]);
	if (i + DP_REP_AHEAD / 2 < n) {
		uint32_t k = a->pd_clique[act[i + DP_REP_AHEAD / 2].cur];

		__builtin_prefetch(&a->clique_pds.start[k]);
		__builtin_prefetch(&a->clique_entry_caller[k]);
	}
}

/*
 * merge_climbers - merge the @n climbers of @act that are at the same PD and tree node
 * (their futures are the same): the first keeps its place and takes the others' PDs and
 * costs (@own, @desc), so that node creation order, and the tree, stay as without the
 * merge. @tab: room for 4 * @n + 16 entries. Return: how many climbers are left.
 */
static uint32_t merge_climbers(struct fc_climb *act, uint32_t n, uint32_t *tab,
			       struct dp_costs *own, struct dp_inherit *desc)
{
	uint32_t size = 16, m = 0;

	while (size < 2 * n)
		size *= 2;
	memset(tab, 0, size * sizeof(*tab));
	for (uint32_t i = 0; i < n; i++) {
		uint32_t s = hash_of(act[i].node, act[i].cur) & (size - 1), j;

		for (; (j = tab[s]) != 0; s = (s + 1) & (size - 1))
			if (act[j - 1].node == act[i].node && act[j - 1].cur == act[i].cur)
				break;
		if (j) {
			struct fc_climb *w = &act[j - 1];

			w->n += act[i].n;
			dp_costs_add(&own[w->k], &own[act[i].k]);
			dp_inherit_add(&desc[w->k], &desc[act[i].k]);
			continue;
		}
		act[m] = act[i];
		tab[s] = ++m;
	}
	return m;
}

/*
 * callers_tree - the callers tree of f->top, one level at a time: every PD of the
 * procedure climbs one step and adds its costs to the node it reaches; after each level
 * the PDs whose node is below the minimum stop climbing, since walk() never expands that
 * node (its children could not be shown). Chains are cut at @limit levels.
 */
static int callers_tree(struct fl *f, uint32_t limit)
{
	const struct dp_analysis *a = f->c->a;
	uint32_t n = dp_csr_count(&a->ps_pds, f->top);
	const uint32_t *pds = dp_csr_items(&a->ps_pds, f->top);
	struct fc_climb *act = malloc((n ? n : 1) * sizeof(*act));
	struct dp_costs *own = malloc((n ? n : 1) * sizeof(*own));
	struct dp_inherit *desc = malloc((n ? n : 1) * sizeof(*desc));
	uint32_t *tab = malloc(((size_t)n * 4 + 16) * sizeof(*tab));
	int rc = grow((void **)&f->t, &f->cap_t, 2, sizeof(*f->t));

	if (!act || !own || !desc || !tab || rc < 0) {
		rc = dp_error(DP_ENOMEM, "out of memory building a flame graph");
		goto out;
	}
	memset(f->t, 0, 2 * sizeof(*f->t));
	f->t[1].ps = f->top;
	f->n_t = 2;
	for (uint32_t i = 0; i < n; i++) {
		own_prefetch(a, pds, i, n);
		act[i] = (struct fc_climb){i, pds[i], 1, 1};
		own[i] = dp_analysis_pd_own(a, pds[i]);
		desc[i] = a->pd_desc[pds[i]];
	}
	for (uint32_t level = 1; n && (limit == 0 || level < limit) && rc == 0; level++) {
		const struct dp_pd *pd = f->c->p->pd;
		uint32_t m = 0;

		/* two passes, each with its loads prefetched: the step, then the tree node */
		for (uint32_t i = 0; i < n; i++) {
			climb_prefetch(a, act, i, n);
			act[i].cur = caller_step(f->c, act[i].cur);
		}
		for (uint32_t i = 0; i < n; i++) {
			uint32_t node;

			if (i + DP_REP_AHEAD < n)
				__builtin_prefetch(&pd[act[i + DP_REP_AHEAD].cur]);
			if (!act[i].cur)
				continue;
			node = tree_child(f, act[i].node, pd[act[i].cur].ps);
			if (!node) {
				rc = -DP_ENOMEM;
				break;
			}
			f->t[node].n += act[i].n;
			dp_costs_add(&f->t[node].own, &own[act[i].k]);
			dp_inherit_add(&f->t[node].desc, &desc[act[i].k]);
			act[m++] = (struct fc_climb){act[i].k, act[i].cur, node, act[i].n};
		}
		n = 0;
		for (uint32_t i = 0; i < m; i++) {
			const struct fc_node *t = &f->t[act[i].node];

			if ((double)value_of(f->m, &t->own, &t->desc) >= f->min)
				act[n++] = act[i];
		}
		n = merge_climbers(act, n, tab, own, desc);
	}
out:
	free(tab);
	free(act);
	free(own);
	free(desc);
	return rc;
}

int dp_rep_flame_callers(struct dp_report *r, const struct dp_report_ctx *c)
{
	struct fl_node root = {.id = 1};
	struct fl f;
	int rc = fl_setup(&f, r, c);

	if (rc < 0)
		return rc;
	if (r->q.proc == 0 && !r->q.name[0])
		return dp_error(DP_EUSAGE, "page flame_callers needs proc=N or name=PROCEDURE");
	rc = dp_rep_resolve_proc(r, c, r->q.proc);
	if (rc < 0)
		return rc;
	f.callers = true;
	f.top = (uint32_t)rc;
	r->has_subject = true;
	dp_rep_row_ps(r, c, f.top, &r->subject);
	f.min = (double)value_of(f.m, &r->subject.own, &r->subject.desc) * r->q.min_pct / 100.0;
	r->title = dp_rep_printf(r, "Callers of %s (inverted flame graph)", r->subject.name);
	rc = r->title ? callers_tree(&f, r->q.depth) : -DP_ENOMEM;
	if (rc == 0)
		rc = walk(&f, &root);
	fl_free(&f);
	return rc;
}
