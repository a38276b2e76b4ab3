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
 * page=flame&metric=M&min=P&depth=D[&thread=N][&root=C]:
 *   subject: the depth-0 clique row. Rows (section "tree"): depth 0 = the root clique
 *     (kind CLIQUE, dp_rep_row_clique), or with thread=N the clique of thread N's root PD,
 *     or with root=C clique C (which must be under the former: its "path" section,
 *     rep_flame_ctx.c, lists the cliques from there down to C's parent);
 *     the children of a clique node are the cliques entered from it (the analysis's
 *     clique_kids index): for each CSD of a member PD that is the entry CSD of its
 *     callee's clique, that CSD's row (kind CSD,
 *     id = the entry CSD, clique = the child clique, own/desc = the CSD's, so own + desc
 *     = the child clique's total). Crossing CSDs that are not their clique's entry (never
 *     in runtime files) are not children. Section "members" (rep_flame_ctx.c): the
 *     procedures of the tree's recursive cliques.
 * page=flame&proc=N (or name=F), metric, min, depth: the callees tree of the procedure
 *   (rep_flame_callees.c).
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
 * The callers tree is built by flame_climb.c; both pages are walked here.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/sort.h"
#include "../core/vec.h"
#include "flame_index.h"
#include "rep_flame_int.h"

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
	if (dp_vec_grow(&f->kids, &f->cap_kids, f->n_kids + 1, sizeof(*f->kids)) < 0)
		return -DP_ENOMEM;
	f->kids[f->n_kids++] = *x;
	return 0;
}

/* lazy_kid - child @id (value @v) of a wide clique or callers-tree node into f->lz, its
 * costs unread */
static int lazy_kid(struct fl *f, uint32_t id, uint64_t v)
{
	if (f->n_lz == f->cap_lz &&
	    dp_vec_grow(&f->lz, &f->cap_lz, f->n_lz + 1, sizeof(*f->lz)) < 0)
		return -DP_ENOMEM;
	f->lz[f->n_lz++] = (struct fl_lazy){v, id};
	return 0;
}

/*
 * wide_cut - with a node cap f->cap, a lower bound of the walk's threshold from wide
 * clique @w when its top for f->m holds its cap-th widest child (the cap is at most the
 * index's top size): that child's value, since cap children and the depth-0 node, cap + 1
 * nodes, are at least that wide; else 0. *@rc: 0 or -DP_ENOMEM.
 */
static uint64_t wide_cut(const struct fl *f, const struct dp_flame_wide *w, int *rc)
{
	uint32_t s = value_slot(f->m);
	uint64_t *v, cut;

	*rc = 0;
	if (f->cap == 0 || !w->n_top[s] || f->cap > f->ix->k)
		return 0;
	if (f->cap == f->ix->k)
		return w->cut[s];
	v = malloc((size_t)w->n_top[s] * sizeof(*v));
	if (!v) {
		*rc = dp_error(DP_ENOMEM, "out of memory building a flame graph");
		return 0;
	}
	for (uint32_t j = 0; j < w->n_top[s]; j++)
		v[j] = w->val[(size_t)s * w->n_kids + w->top[s][j]];
	cut = dp_kth_largest_u64(v, w->n_top[s], f->cap);
	free(v);
	return cut;
}

/*
 * wide_kids - flame_kids() for a clique of the flame index, lazily: the children of
 * value at least the minimum come from its contiguous arrays with their ids and values
 * only (f->lz, f->lazy set), and the sums over all the children from the index (f->all);
 * no CSD is read. Under a node cap the minimum is first raised to wide_cut(). When the
 * minimum is at least the index's cut for the metric, only the children of its top are
 * looked at; otherwise every value is (a sequential scan).
 */
static int wide_kids(struct fl *f, const struct dp_flame_wide *w, const uint32_t *ids)
{
	uint32_t s = value_slot(f->m), n;
	const uint64_t *v = w->val + (size_t)s * w->n_kids;
	int rc;
	uint64_t cut = wide_cut(f, w, &rc);
	bool top;

	if (rc < 0)
		return rc;
	if (cut > f->min_v) { /* the walk restores its minimum when done */
		f->min_v = cut;
		f->min = (double)cut;
	}
	top = w->n_top[s] && f->min_v >= w->cut[s];
	n = top ? w->n_top[s] : w->n_kids;
	f->lazy = true;
	f->all.n_other = w->n_kids;
	f->all.own = w->own;
	f->all.desc = w->desc;
	f->all.value = dp_fl_value(f->m, &w->own, &w->desc);
	for (uint32_t j = 0; j < n; j++) {
		uint32_t i = top ? w->top[s][j] : j;

		if (v[i] >= f->min_v && lazy_kid(f, ids[i], v[i]) < 0)
			return -DP_ENOMEM;
	}
	return 0;
}

/* flame_kids - the children of flame node @id into f->kids: the entry CSDs of the
 * cliques entered from its clique (the analysis's clique tree index) */
static int flame_kids(struct fl *f, uint32_t id)
{
	const struct dp_analysis *a = f->c->a;
	uint32_t k = id ? a->csd_child_clique[id] : f->top;
	uint32_t m = dp_csr_count(&a->clique_kids, k);
	const uint32_t *ids = dp_csr_items(&a->clique_kids, k);
	const struct dp_flame_wide *w = f->ix ? dp_flame_index_wide(f->ix, k) : NULL;

	if (w && w->n_kids == m)
		return wide_kids(f, w, ids);
	dp_flame_kids_prime(f->c->p, a, ids, m);
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

/* callers_kids - the children of callers-tree node @id, lazily: those at least f->min
 * (and, while the walk searches under a cap, f->cut) into f->lz with their values (f->tv:
 * a node's value is that of its costs, dp_fl_value() being a sum), the sums over all of
 * them from f->tk; no child's costs are read */
static int callers_kids(struct fl *f, uint32_t id)
{
	f->lazy = true;
	memset(&f->all, 0, sizeof(f->all));
	if (f->t[id].child) { /* tk is set for the nodes with children only */
		f->all.own = f->tk[id].own;
		f->all.desc = f->tk[id].desc;
		f->all.value = dp_fl_value(f->m, &f->all.own, &f->all.desc);
	}
	for (uint32_t i = f->t[id].child; i; i = f->t[i].sibling) {
		f->all.n_other++;
		if ((double)f->tv[i] >= f->min && (f->tv[i] >= f->cut || !f->cap) &&
		    lazy_kid(f, i, f->tv[i]) < 0)
			return -DP_ENOMEM;
	}
	return 0;
}

int dp_fl_kids(struct fl *f, uint32_t id)
{
	f->n_kids = f->n_lz = 0;
	f->lazy = false;
	memset(&f->other, 0, sizeof(f->other));
	if (f->callees)
		return dp_fe_kids(f, id);
	return f->callers ? callers_kids(f, id) : flame_kids(f, id);
}

const char *dp_fl_name(struct fl *f, uint32_t id)
{
	const struct dp_profile *p = f->c->p;

	if (f->callers)
		return dp_rep_ps_name(f->r, f->c, f->t[id].ps, 0);
	if (f->callees)
		return dp_rep_ps_name(f->r, f->c, f->e[id].ps, 0);
	return dp_rep_ps_name(f->r, f->c, p->pd[p->csd[id].callee].ps,
			      f->c->a->ps_module[p->pd[p->csd[id].caller].ps]);
}

uint32_t dp_fl_cap(const struct fl *f)
{
	uint32_t cap = f->c->flame_max_nodes ? f->c->flame_max_nodes : DP_FLAME_MAX_NODES;

	return cap > UINT32_MAX / 8 ? UINT32_MAX / 8 : cap; /* keeps 4 * cap + 1 in range */
}

void dp_fl_costs(const struct fl *f, uint32_t id, struct fl_node *x)
{
	if (f->callers) {
		x->own = f->tc[id].own;
		x->desc = f->tc[id].desc;
	} else if (f->callees) {
		x->own = f->e[id].own;
		x->desc = f->e[id].desc;
	} else {
		csd_costs(f->c, id, x);
	}
}

void dp_fl_prefetch(const struct fl *f, uint32_t id, int stage)
{
	const struct dp_profile *p = f->c->p;

	if (f->callers || f->callees || id == 0)
		return; /* the callers and callees trees are the page's own, small */
	dp_rep_csd_prefetch(p, f->c->a, id, stage);
	if (stage == 1) { /* and the PDs its name and row read */
		__builtin_prefetch(&p->pd[p->csd[id].callee]);
		__builtin_prefetch(&p->pd[p->csd[id].caller]);
	}
}

void dp_fl_row(struct fl *f, const struct fl_node *x, struct dp_rep_row *row)
{
	if (x->n_other) {
		row->kind = DP_ENT_NONE;
		row->name = "(other)";
		row->flags = DP_ROW_SUM;
		row->n = x->n_other;
	} else if (f->callees) {
		const struct fe_node *e = &f->e[x->id];

		dp_rep_row_ps(f->r, f->c, e->ps, row);
		row->clique = 0; /* a single context: the clique to zoom the flame graph at */
		if (e->n_src == 1 && !f->es[e->src].pd)
			row->clique = f->es[e->src].id;
		row->flags = (row->flags & DP_ROW_REGION) | DP_ROW_SUM;
		row->n = e->n_src;
		row->own = e->own;
		row->desc = e->desc;
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

/* conversion to double is monotonic, so v is kept exactly when v >= it (@min never
 * exceeds 2^64: it is a part of a total) */
uint64_t dp_fl_min_value(double min)
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

void dp_fl_free(struct fl *f)
{
	free(f->t);
	free(f->tc);
	free(f->tk);
	free(f->tv);
	free(f->kids);
	free(f->lz);
	free(f->e);
	free(f->es);
	free(f->ps_mark);
	free(f->ps_gen);
	free(f->kid_of);
	free(f->flat);
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

/* flame_top - the depth-0 clique of a flame page: root=C, else the clique of thread N's
 * root PD, else the root clique; 0 with the message set when there is none */
static uint32_t flame_top(struct dp_report *r, const struct dp_report_ctx *c, uint32_t *top)
{
	const struct dp_profile *p = c->p;
	const struct dp_analysis *a = c->a;

	*top = a->root_clique;
	if (r->q.thread) {
		if (r->q.thread > p->n_threads) {
			dp_error(DP_ENOENT, "unknown thread=%u (valid: 1..%u)", r->q.thread,
				 p->n_threads);
			return 0;
		}
		*top = a->pd_clique[p->threads[r->q.thread].root_pd];
	}
	if (*top == 0) {
		dp_error(DP_ENOENT, "the profile has no root clique");
		return 0;
	}
	if (!r->q.root)
		return *top;
	if (dp_rep_check_id(r, "clique", r->q.root, a->n_cliques) < 0)
		return 0;
	return r->q.root;
}

/* flame_title - the page's title */
static const char *flame_title(struct dp_report *r, const struct fl *f)
{
	if (f->callees)
		return dp_rep_printf(r, "Callees of %s (flame graph)", r->subject.name);
	if (r->q.root)
		return dp_rep_printf(r, "Flame graph from %s (clique %u)%s", r->subject.name,
				     f->top, r->q.thread ? ", in its thread" : "");
	return r->q.thread ? dp_rep_printf(r, "Flame graph of thread %u", r->q.thread)
			   : "Flame graph";
}

/* flame_callees - the flame page of proc=N: the callees tree */
static int flame_callees(struct dp_report *r, const struct dp_report_ctx *c, struct fl *f)
{
	int rc = dp_rep_resolve_proc(r, c, r->q.proc);

	if (rc < 0)
		return rc;
	f->callees = true;
	f->top = (uint32_t)rc;
	rc = dp_fe_callees_root(f);
	if (rc < 0)
		return rc;
	r->has_subject = true;
	dp_rep_row_ps(r, c, f->top, &r->subject);
	r->subject.clique = 0;
	r->subject.own = f->e[1].own;
	r->subject.desc = f->e[1].desc;
	r->subject.flags = (r->subject.flags & DP_ROW_REGION) | DP_ROW_SUM;
	r->subject.n = f->e[1].n_src;
	return 0;
}

int dp_rep_flame(struct dp_report *r, const struct dp_report_ctx *c)
{
	uint64_t rv;
	uint32_t top = 0;
	struct fl f;
	int rc = dp_fl_setup(&f, r, c);

	if (rc < 0)
		return rc;
	if (r->q.proc || r->q.name[0]) {
		rc = flame_callees(r, c, &f);
	} else {
		f.top = flame_top(r, c, &top);
		f.ix = c->flame_ix;
		rc = f.top ? 0 : -DP_ENOENT;
		if (rc == 0) {
			r->has_subject = true;
			dp_rep_row_clique(r, c, f.top, &r->subject);
		}
	}
	if (rc < 0) {
		dp_fl_free(&f);
		return rc;
	}
	rv = dp_fl_value(f.m, &r->subject.own, &r->subject.desc);
	f.min = (double)rv * r->q.min_pct / 100.0;
	f.min_v = dp_fl_min_value(f.min);
	r->title = flame_title(r, &f);
	rc = r->title ? dp_fl_walk_capped(&f, f.callees ? 1 : 0, rv) : -DP_ENOMEM;
	if (rc == 0 && !f.callees)
		rc = dp_fl_members(r, c);
	if (rc == 0 && r->q.root)
		rc = dp_fl_path(r, c, top, f.top);
	dp_fl_free(&f);
	return rc;
}
