/*
 * report/rep_flame_callees.c - the callees tree of one procedure (page=flame&proc=N, the
 * lower half of the sandwich page) and the sandwich page itself.
 *
 * page=flame&proc=N (or name=F), metric, min, depth:
 *   subject and depth 0: procedure N (kind PS, SUM, n = its contexts counted) with the
 *     costs of its outermost contexts: each PD of N that no other PD of N contains, where
 *     a PD contains the cliques it enters and their subtrees, and a clique's entry PD its
 *     whole clique. So a cost under N is counted once whatever the recursion, and an
 *     entry PD stands for its clique (own + desc = the clique's total), another PD for
 *     itself (its own, and the cliques it enters).
 *   Each node below stands for a set of contexts, its sources (cliques): the children of
 *     a node are the cliques its sources enter (a clique: every clique entered from its
 *     members; a PD: those it enters), merged by their entry procedure: a row per
 *     procedure under its parent, kind PS (id = the procedure), SUM with n = the cliques
 *     merged, own/desc = the sum of their entry CSDs' own/desc (own + desc = the
 *     cliques' totals), clique = the one clique when n = 1. Pruning, the node cap, order
 *     and "(other)" rows as on the flame page (rep_flame.c). A procedure called
 *     again below itself appears again below (the tree is not folded a second time).
 *   Facts: kept, dropped, metric; capped and min_used when the node cap raised min.
 * page=sandwich&proc=N (or name=F), metric, min, depth:
 *   subject: the PS row of N (dp_rep_row_ps). Sections "callers": the tree of
 *     flame_callers&proc=N; "callees": the tree of flame&proc=N (each pruned by min= of
 *     its own depth-0 node). Facts: metric, callers_kept, callers_dropped,
 *     callees_kept, callees_dropped (and callers_/callees_ capped and min_used).
 *
 * Speed: a node is expanded only when the capped walk takes it, so at most the node cap
 * of them are; an expansion reads every child of its sources (a CSD, its clique's total
 * and its callee's procedure each), merged through a per-procedure mark.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/vec.h"
#include "flame_index.h"
#include "rep_flame_int.h"

/* A context of the procedure: PD @pd in clique @clique, whether it is the entry. */
struct fe_ctx {
	uint32_t pd, clique;
	uint32_t i; /* its index in ps_pds order */
	bool entry, nested;
};

/* An interval [lo, hi] of clique ids, a subtree of the clique tree, that context @owner
 * (an index into the contexts) contains. */
struct fe_span {
	uint32_t lo, hi, owner;
};

static int span_cmp(const void *x, const void *y)
{
	const struct fe_span *a = x, *b = y;

	if (a->lo != b->lo)
		return a->lo < b->lo ? -1 : 1;
	return (a->hi < b->hi) - (a->hi > b->hi); /* the outer one first */
}

static int ctx_cmp(const void *x, const void *y)
{
	uint32_t a = ((const struct fe_ctx *)x)->clique, b = ((const struct fe_ctx *)y)->clique;

	return (a > b) - (a < b);
}

/*
 * nested_by_spans - mark the contexts some other context contains, when cliques'
 * subtrees are id ranges (clique_first[c]..c: runtime files): an entry contains its
 * clique's range, another PD the ranges of the cliques it enters. The ranges are nested
 * or apart, so one sweep with a stack of the open ones decides: a context is contained
 * when a range open at its clique belongs to another context (its own range is the only
 * one of its own that can hold its clique). Sorts @x by clique.
 */
static int nested_by_spans(const struct dp_report_ctx *c, struct fe_ctx *x, uint32_t n)
{
	const struct dp_analysis *a = c->a;
	struct fe_span *sp = NULL, *stack = NULL;
	uint32_t n_sp = 0, cap_sp = 0, top = 0, s = 0;

	qsort(x, n, sizeof(*x), ctx_cmp);
	for (uint32_t i = 0; i < n; i++) {
		const uint32_t *ids = dp_csr_items(&a->pd_csds, x[i].pd);
		uint32_t m = x[i].entry ? 1 : dp_csr_count(&a->pd_csds, x[i].pd);

		if (dp_vec_grow(&sp, &cap_sp, n_sp + m, sizeof(*sp)) < 0)
			goto nomem;
		if (x[i].entry) {
			sp[n_sp++] = (struct fe_span){a->clique_first[x[i].clique], x[i].clique, i};
			continue;
		}
		for (uint32_t j = 0; j < m; j++) {
			uint32_t k = a->csd_child_clique[ids[j]];

			if (k && a->clique_entry[k] == ids[j])
				sp[n_sp++] = (struct fe_span){a->clique_first[k], k, i};
		}
	}
	stack = malloc(((size_t)n_sp + 1) * sizeof(*stack));
	if (!stack)
		goto nomem;
	if (n_sp)
		qsort(sp, n_sp, sizeof(*sp), span_cmp);
	for (uint32_t i = 0; i < n; i++) {
		while (s < n_sp && sp[s].lo <= x[i].clique) { /* open the spans begun */
			while (top && stack[top - 1].hi < sp[s].lo)
				top--;
			stack[top++] = sp[s++];
		}
		while (top && stack[top - 1].hi < x[i].clique)
			top--;
		x[i].nested = top > 1 || (top == 1 && stack[0].owner != i);
	}
	free(sp);
	free(stack);
	return 0;
nomem:
	free(sp);
	return dp_error(DP_ENOMEM, "out of memory building a flame graph");
}

/* nested_by_climb - the same for other profiles: a context is contained when the chain
 * of steps up the clique tree from it meets another PD of the procedure (the steps reach
 * exactly the PDs that contain it: a member's entry, an entry's caller) */
static void nested_by_climb(const struct dp_report_ctx *c, uint32_t ps, struct fe_ctx *x,
			    uint32_t n)
{
	const struct dp_analysis *a = c->a;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t cur = x[i].pd, steps = 0;

		x[i].nested = false;
		while (a->pd_up[cur].pd && steps++ < c->p->n_pd) {
			if (a->pd_up[cur].ps == ps) {
				x[i].nested = true;
				break;
			}
			cur = a->pd_up[cur].pd;
		}
	}
}

/* new_node - a zeroed node of the callees tree for procedure @ps; its index or 0 */
static uint32_t new_node(struct fl *f, uint32_t ps)
{
	if (dp_vec_grow(&f->e, &f->cap_e, f->n_e + 1, sizeof(*f->e)) < 0)
		return 0;
	memset(&f->e[f->n_e], 0, sizeof(*f->e));
	f->e[f->n_e].ps = ps;
	return f->n_e++;
}

/* FE_AHEAD: how many contexts or children ahead the passes prefetch (their loads are
 * all over memory) */
#define FE_AHEAD 32

/* read_contexts - the contexts of procedure f->top into @x (PD, clique, entry) and their
 * own, desc and step up into @cx, or the flame index's array of them when it has the
 * procedure (returned: the array to read), in passes whose loads are prefetched ahead */
static const struct dp_flame_ctx *read_contexts(struct fl *f, struct fe_ctx *x,
						struct dp_flame_ctx *cx, uint32_t n)
{
	const struct dp_analysis *a = f->c->a;
	const uint32_t *pds = dp_csr_items(&a->ps_pds, f->top);
	const struct dp_flame_proc *ix =
		f->c->flame_ix ? dp_flame_index_proc(f->c->flame_ix, f->top) : NULL;
	const struct dp_flame_ctx *y = cx;

	if (ix && ix->n == n) {
		y = ix->ctx;
	} else {
		for (uint32_t i = 0; i < n; i++) {
			dp_flame_ctx_prefetch(a, pds, i, n);
			cx[i] = dp_flame_ctx_of(a, pds[i]);
		}
	}
	for (uint32_t i = 0; i < n; i++) { /* an entry's step leaves its clique */
		if (i + FE_AHEAD < n) {
			__builtin_prefetch(&a->pd_clique[pds[i + FE_AHEAD]]);
			__builtin_prefetch(&a->pd_clique[y[i + FE_AHEAD].up.pd]);
		}
		x[i].pd = pds[i];
		x[i].clique = a->pd_clique[pds[i]];
		x[i].entry = !y[i].up.pd || a->pd_clique[y[i].up.pd] != x[i].clique;
		x[i].nested = false;
		x[i].i = i;
	}
	return y;
}

int dp_fe_callees_root(struct fl *f)
{
	const struct dp_report_ctx *c = f->c;
	const struct dp_analysis *a = c->a;
	uint32_t n = dp_csr_count(&a->ps_pds, f->top), root;
	struct fe_ctx *x = malloc(((size_t)n + 1) * sizeof(*x));
	struct dp_flame_ctx *cx = malloc(((size_t)n + 1) * sizeof(*cx));
	const struct dp_flame_ctx *y;
	struct fe_node *e;
	int rc = 0;

	f->n_e = 1; /* e[0] unused */
	f->ps_mark = calloc((size_t)c->p->n_ps + 1, sizeof(*f->ps_mark));
	f->ps_gen = calloc((size_t)c->p->n_ps + 1, sizeof(*f->ps_gen));
	if (!x || !cx || !f->ps_mark || !f->ps_gen || !(root = new_node(f, f->top)) ||
	    dp_vec_grow(&f->es, &f->cap_es, n + 1, sizeof(*f->es)) < 0) {
		free(x);
		free(cx);
		return dp_error(DP_ENOMEM, "out of memory building a flame graph");
	}
	y = read_contexts(f, x, cx, n);
	if (a->n_extra_entries == 0 && a->root_clique == a->n_cliques)
		rc = nested_by_spans(c, x, n);
	else
		nested_by_climb(c, f->top, x, n);
	e = &f->e[root];
	e->src = 0;
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		const struct dp_flame_ctx *yi = &y[x[i].i];

		if (i + FE_AHEAD < n && x[i + FE_AHEAD].entry)
			__builtin_prefetch(&a->clique_total[x[i + FE_AHEAD].clique]);
		if (x[i].nested)
			continue;
		dp_costs_add(&e->own, &yi->own);
		if (x[i].entry) { /* the clique: own + desc = its total */
			struct dp_inherit oi = dp_costs_inherit(&yi->own),
					  d = a->clique_total[x[i].clique];

			dp_inherit_sub(&d, &oi);
			dp_inherit_add(&e->desc, &d);
			f->es[f->n_es++] = (struct fe_src){x[i].clique, 0};
		} else {
			dp_inherit_add(&e->desc, &yi->desc);
			f->es[f->n_es++] = (struct fe_src){x[i].clique, x[i].pd};
		}
		e->n_src++;
	}
	e->value = dp_fl_value(f->m, &e->own, &e->desc);
	free(x);
	free(cx);
	return rc;
}

/* gather_kids - the children (entry CSDs) of the @n sources @src into f->flat: a
 * clique's are its clique tree's, a PD's the entries among its calls. Return: how many,
 * or -DP_ENOMEM. */
static int64_t gather_kids(struct fl *f, const struct fe_src *src, uint32_t n)
{
	const struct dp_analysis *a = f->c->a;
	uint32_t n_flat = 0;

	for (uint32_t s = 0; s < n; s++) {
		const struct dp_csr *csr = src[s].pd ? &a->pd_csds : &a->clique_kids;
		uint32_t k = src[s].pd ? src[s].pd : src[s].id, m = dp_csr_count(csr, k);
		const uint32_t *ids = dp_csr_items(csr, k);

		if (s + FE_AHEAD < n && !src[s + FE_AHEAD].pd)
			__builtin_prefetch(&a->clique_kids.start[src[s + FE_AHEAD].id]);
		if (s + FE_AHEAD / 2 < n && !src[s + FE_AHEAD / 2].pd)
			__builtin_prefetch(dp_csr_items(&a->clique_kids, src[s + FE_AHEAD / 2].id));
		if (dp_vec_grow(&f->flat, &f->cap_flat, n_flat + m, sizeof(*f->flat)) < 0)
			return dp_error(DP_ENOMEM, "out of memory building a flame graph");
		for (uint32_t j = 0; j < m; j++)
			if (!src[s].pd || dp_analysis_is_entry(a, ids[j]))
				f->flat[n_flat++] = ids[j];
	}
	return n_flat;
}

/* kid_prefetch - in a scan of the @m children @ids, at child @i: their CSDs FE_AHEAD
 * ahead, then half as far (the CSD loaded) its callee's PD and its clique's entry and
 * total, which a child's procedure and costs read */
DP_PREFETCHER void kid_prefetch(const struct dp_profile *p, const struct dp_analysis *a,
				const uint32_t *ids, uint32_t i, uint32_t m)
{
	if (i + FE_AHEAD < m)
		dp_rep_csd_prefetch(p, a, ids[i + FE_AHEAD], 0);
	if (i + FE_AHEAD / 2 < m) {
		dp_rep_csd_prefetch(p, a, ids[i + FE_AHEAD / 2], 1);
		__builtin_prefetch(&p->pd[p->csd[ids[i + FE_AHEAD / 2]].callee]);
	}
}

/* kids_prime - before such a scan, what kid_prefetch() would have fetched for the first
 * ones: short lists have their loads in flight together */
DP_PREFETCHER void kids_prime(const struct dp_profile *p, const struct dp_analysis *a,
			      const uint32_t *ids, uint32_t m)
{
	uint32_t n = m < FE_AHEAD ? m : FE_AHEAD;

	for (uint32_t i = 0; i < n; i++)
		dp_rep_csd_prefetch(p, a, ids[i], 0);
	for (uint32_t i = 0; i < n && i < FE_AHEAD / 2; i++) {
		dp_rep_csd_prefetch(p, a, ids[i], 1);
		__builtin_prefetch(&p->pd[p->csd[ids[i]].callee]);
	}
}

int dp_fe_kids(struct fl *f, uint32_t id)
{
	const struct dp_profile *p = f->c->p;
	const struct dp_analysis *a = f->c->a;
	uint32_t first = f->n_e, m;
	int64_t got = gather_kids(f, f->es + f->e[id].src, f->e[id].n_src);
	const uint32_t *ids = f->flat;

	if (got < 0)
		return (int)got;
	m = (uint32_t)got;
	if (++f->gen == 0) { /* wrapped: every mark is stale */
		memset(f->ps_gen, 0, ((size_t)p->n_ps + 1) * sizeof(*f->ps_gen));
		f->gen = 1;
	}
	if (dp_vec_grow(&f->kid_of, &f->cap_kid_of, m + 1, sizeof(*f->kid_of)) < 0 ||
	    dp_vec_grow(&f->es, &f->cap_es, f->n_es + m, sizeof(*f->es)) < 0)
		return dp_error(DP_ENOMEM, "out of memory building a flame graph");
	/* each child CSD to its node (made on first sight), costs summed */
	kids_prime(p, a, ids, m);
	for (uint32_t j = 0; j < m; j++) {
		uint32_t csd = ids[j], ps, k;
		struct dp_costs own = {0};
		struct dp_inherit desc;

		kid_prefetch(p, a, ids, j, m);
		ps = p->pd[p->csd[csd].callee].ps;
		if (f->ps_gen[ps] == f->gen) {
			k = f->ps_mark[ps];
		} else if ((k = new_node(f, ps))) {
			f->ps_gen[ps] = f->gen;
			f->ps_mark[ps] = k;
		} else {
			return dp_error(DP_ENOMEM, "out of memory building a flame graph");
		}
		dp_costs_add_csd(&own, &p->csd[csd]);
		desc = dp_analysis_csd_desc(a, csd);
		dp_costs_add(&f->e[k].own, &own);
		dp_inherit_add(&f->e[k].desc, &desc);
		f->e[k].n_src++;
		f->kid_of[j] = k;
		f->flat[j] = a->csd_child_clique[csd]; /* the child's source, for below */
	}
	/* the children's sources, each child's together */
	for (uint32_t k = first; k < f->n_e; k++) {
		f->e[k].src = f->n_es;
		f->n_es += f->e[k].n_src;
		f->e[k].n_src = 0;
	}
	for (uint32_t j = 0; j < m; j++) {
		struct fe_node *e = &f->e[f->kid_of[j]];

		f->es[e->src + e->n_src++] = (struct fe_src){f->flat[j], 0};
	}
	/* the children, at least the minimum kept, the others summed */
	for (uint32_t k = first; k < f->n_e; k++) {
		struct fe_node *e = &f->e[k];
		struct fl_node x = {.id = k, .own = e->own, .desc = e->desc};

		e->value = x.value = dp_fl_value(f->m, &e->own, &e->desc);
		if ((double)x.value < f->min) {
			f->other.n_other++;
			f->other.value += x.value;
			dp_costs_add(&f->other.own, &x.own);
			dp_inherit_add(&f->other.desc, &x.desc);
			continue;
		}
		if (dp_vec_grow(&f->kids, &f->cap_kids, f->n_kids + 1, sizeof(*f->kids)) < 0)
			return dp_error(DP_ENOMEM, "out of memory building a flame graph");
		f->kids[f->n_kids++] = x;
	}
	return 0;
}

int dp_rep_sandwich(struct dp_report *r, const struct dp_report_ctx *c)
{
	struct fl f;
	uint64_t rv;
	int rc = dp_fl_setup(&f, r, c);

	if (rc < 0)
		return rc;
	rc = dp_rep_resolve_proc(r, c, r->q.proc);
	if (rc < 0)
		return rc;
	r->has_subject = true;
	dp_rep_row_ps(r, c, (uint32_t)rc, &r->subject);
	r->title = dp_rep_printf(r, "Sandwich of %s: its callers and callees", r->subject.name);
	if (!r->title)
		return -DP_ENOMEM;
	/* the callers tree, as page flame_callers makes it */
	f.callers = true;
	f.sec = "callers";
	f.top = (uint32_t)rc;
	rv = dp_fl_value(f.m, &r->subject.own, &r->subject.desc);
	f.min = (double)rv * r->q.min_pct / 100.0;
	f.min_v = dp_fl_min_value(f.min);
	rc = dp_fc_callers_tree(&f, r->q.depth);
	if (rc == 0)
		rc = dp_fl_walk_capped(&f, 1, rv);
	dp_fl_free(&f);
	/* the callees tree, as page flame&proc=N makes it */
	if (rc == 0)
		rc = dp_fl_setup(&f, r, c);
	if (rc < 0)
		return rc;
	f.callees = true;
	f.sec = "callees";
	f.top = r->subject.ps;
	rc = dp_fe_callees_root(&f);
	if (rc == 0) {
		rv = f.e[1].value;
		f.min = (double)rv * r->q.min_pct / 100.0;
		f.min_v = dp_fl_min_value(f.min);
		rc = dp_fl_walk_capped(&f, 1, rv);
	}
	dp_fl_free(&f);
	if (rc == 0)
		rc = dp_rep_fact_str(r, "metric", "metric", dp_metric_name(r->q.metric));
	return rc;
}
