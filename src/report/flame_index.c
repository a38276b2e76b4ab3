/*
 * report/flame_index.c - the flame pages' index of wide cliques and procedures
 * (flame_index.h): the children's values of every clique with many children gathered in
 * one array per metric, with the sums of all the children's costs, so the flame walk
 * scans instead of reading each child's CSD at random; and for every procedure with many
 * contexts, those contexts and its caller CSDs gathered the same way, and the first
 * levels of its callers tree. Built once per analysis, on two cores (by the session,
 * on its background thread for the merged view).
 */
#include "flame_index.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../core/arena.h"
#include "../core/err.h"
#include "../core/par.h"
#include "../core/sort.h"
#include "../core/vec.h"

void dp_report_index_free(struct dp_report_index *ix)
{
	if (!ix)
		return;
	free(ix->wide);
	free(ix->vals);
	free(ix->tops);
	for (uint32_t i = 0; ix->procs && i < ix->n_procs; i++) {
		free(ix->procs[i].pre.node);
		free(ix->procs[i].pre.unit);
	}
	free(ix->procs);
	free(ix->ctxs);
	free(ix->cls);
	free(ix->cl_costs);
	free(ix);
}

/* The contexts of the wide procedures, gathered on two cores: ctx[i] of PD pds[i]. */
struct fx_ctx_job {
	const struct dp_analysis *a;
	const uint32_t *pds;
	struct dp_flame_ctx *ctx;
};

static void fx_ctx_range(void *arg, uint32_t lo, uint32_t hi)
{
	const struct fx_ctx_job *j = arg;

	for (uint32_t i = lo; i < hi; i++) {
		dp_flame_ctx_prefetch(j->a, j->pds, i, hi);
		j->ctx[i] = dp_flame_ctx_of(j->a, j->pds[i]);
	}
}

/* The caller CSDs of the wide procedures, gathered on two cores: cl[i] of CSD ids[i]. */
struct fx_cl_job {
	const struct dp_profile *p;
	const struct dp_analysis *a;
	const uint32_t *ids;
	struct dp_flame_caller *cl;
	struct dp_flame_costs *costs;
};

static void fx_cl_range(void *arg, uint32_t lo, uint32_t hi)
{
	const struct fx_cl_job *j = arg;
	const struct dp_profile *p = j->p;

	for (uint32_t i = lo; i < hi; i++) {
		const struct dp_csd *d = &p->csd[j->ids[i]];

		if (i + 2 * DP_REP_AHEAD < hi)
			dp_rep_csd_prefetch(p, j->a, j->ids[i + 2 * DP_REP_AHEAD], 0);
		if (i + DP_REP_AHEAD < hi) {
			dp_rep_csd_prefetch(p, j->a, j->ids[i + DP_REP_AHEAD], 1);
			__builtin_prefetch(
				&j->a->pd_clique[p->csd[j->ids[i + DP_REP_AHEAD]].caller]);
		}
		j->cl[i] = (struct dp_flame_caller){d->css, p->css[d->css].ps,
						    j->a->pd_clique[d->caller], 0};
		j->costs[i] = (struct dp_flame_costs){dp_csd_costs(d),
						      dp_analysis_csd_desc(j->a, j->ids[i])};
	}
}

/* The prefixes of the wide procedures' callers trees, built on two cores (without memory
 * for one, a procedure has none). */
struct fx_pre_job {
	const struct dp_analysis *a;
	struct dp_flame_proc *procs; /* ctx set */
};

static void fx_pre_range(void *arg, uint32_t lo, uint32_t hi)
{
	const struct fx_pre_job *j = arg;

	for (uint32_t i = lo; i < hi; i++)
		(void)dp_flame_prefix_build(j->a, j->procs[i].ctx, j->procs[i].n, &j->procs[i].pre);
}

/* fx_flat - the items of @c of every procedure of @ix one after another (@total in all),
 * in a new array; NULL without memory */
static uint32_t *fx_flat(const struct dp_csr *c, const struct dp_report_index *ix, uint64_t total)
{
	uint32_t *ids = malloc(total ? (size_t)total * sizeof(*ids) : 1);
	size_t at = 0;

	for (uint32_t i = 0; ids && i < ix->n_procs; i++) {
		uint32_t m = dp_csr_count(c, ix->procs[i].ps);

		memcpy(ids + at, dp_csr_items(c, ix->procs[i].ps), (size_t)m * sizeof(*ids));
		at += m;
	}
	return ids;
}

/* fx_procs - index the procedures of @a with at least @min_ctx contexts into @ix: their
 * contexts and their caller CSDs, each gathered on two cores. Return: 0 or -1 (out of
 * memory). */
static int fx_procs(const struct dp_profile *p, const struct dp_analysis *a, uint32_t min_ctx,
		    struct dp_report_index *ix)
{
	uint64_t total = 0, callers = 0;
	uint32_t n = 0, *ids;
	size_t at = 0, at_cl = 0;

	for (uint32_t ps = 1; ps <= p->n_ps; ps++)
		if (dp_csr_count(&a->ps_pds, ps) >= min_ctx) {
			n++;
			total += dp_csr_count(&a->ps_pds, ps);
			callers += dp_csr_count(&a->ps_callers, ps);
		}
	if (total > UINT32_MAX || callers > UINT32_MAX)
		return -1;
	ix->procs = calloc(n ? n : 1, sizeof(*ix->procs));
	ix->ctxs = dp_big_malloc(total, sizeof(*ix->ctxs));
	ix->cls = dp_big_malloc(callers, sizeof(*ix->cls));
	ix->cl_costs = dp_big_malloc(callers, sizeof(*ix->cl_costs));
	if (!ix->procs || !ix->ctxs || !ix->cls || !ix->cl_costs)
		return -1;
	for (uint32_t ps = 1; ps <= p->n_ps; ps++) {
		uint32_t m = dp_csr_count(&a->ps_pds, ps), m_cl = dp_csr_count(&a->ps_callers, ps);

		if (m < min_ctx)
			continue;
		ix->procs[ix->n_procs++] = (struct dp_flame_proc){
			ps, m, m_cl, ix->ctxs + at, ix->cls + at_cl, ix->cl_costs + at_cl, {0}};
		at += m;
		at_cl += m_cl;
	}
	if (!(ids = fx_flat(&a->ps_pds, ix, total)))
		return -1;
	dp_par_split(fx_ctx_range, &(struct fx_ctx_job){a, ids, ix->ctxs}, (uint32_t)total, 4096);
	free(ids);
	dp_par_split(fx_pre_range, &(struct fx_pre_job){a, ix->procs}, ix->n_procs, 2);
	if (!(ids = fx_flat(&a->ps_callers, ix, callers)))
		return -1;
	dp_par_split(fx_cl_range, &(struct fx_cl_job){p, a, ids, ix->cls, ix->cl_costs},
		     (uint32_t)callers, 4096);
	free(ids);
	return 0;
}

/* fx_fill - gather the children of wide clique @w (n_kids, clique set) into @vals, its
 * val, with their sums */
static void fx_fill(const struct dp_profile *p, const struct dp_analysis *a,
		    struct dp_flame_wide *w, uint64_t *vals)
{
	const uint32_t *ids = dp_csr_items(&a->clique_kids, w->clique);
	uint32_t n = w->n_kids;

	for (uint32_t i = 0; i < n; i++) {
		const struct dp_csd *d = &p->csd[ids[i]];
		struct dp_inherit e;
		struct dp_costs o;

		dp_flame_kid_prefetch(p, a, ids, i, n);
		e = dp_analysis_csd_desc(a, ids[i]);
		o = dp_csd_costs(d);

		vals[i] = o.samples + e.samples;
		vals[n + i] = o.callseqs + e.callseqs;
		vals[2 * (size_t)n + i] = o.allocs + e.allocs;
		vals[3 * (size_t)n + i] = o.alloc_bytes + e.alloc_bytes;
		dp_costs_add(&w->own, &o);
		dp_inherit_add(&w->desc, &e);
	}
	w->val = vals;
}

/* fx_cuts - the cut of every slot of wide clique @w (val set) for top size @k: the k-th
 * largest value when it has more than @k children (0: none to leave out). @tmp: room for
 * n_kids values. */
static void fx_cuts(struct dp_flame_wide *w, uint32_t k, uint64_t *tmp)
{
	uint32_t n = w->n_kids;

	for (uint32_t s = 0; s < 4; s++) {
		w->cut[s] = 0;
		if (n <= k)
			continue;
		memcpy(tmp, w->val + (size_t)s * n, (size_t)n * sizeof(*tmp));
		w->cut[s] = dp_kth_largest_u64(tmp, n, k);
	}
}

/* The wide cliques' children gathered, and their cuts found, on two cores, a clique each
 * at a time; cut_ready[i]: clique i's cuts were (without memory for them, the build's
 * thread finds them). */
struct fx_fill_job {
	const struct dp_profile *p;
	const struct dp_analysis *a;
	struct dp_flame_wide *wide; /* val set: where in vals its values go */
	uint64_t *vals;
	uint32_t k;
	uint8_t *cut_ready;
};

static void fx_fill_range(void *arg, uint32_t lo, uint32_t hi)
{
	const struct fx_fill_job *j = arg;
	uint32_t widest = 0;
	uint64_t *tmp;

	for (uint32_t i = lo; i < hi; i++)
		widest = j->wide[i].n_kids > widest ? j->wide[i].n_kids : widest;
	tmp = malloc((size_t)(widest ? widest : 1) * sizeof(*tmp));
	for (uint32_t i = lo; i < hi; i++) {
		fx_fill(j->p, j->a, &j->wide[i], j->vals + (j->wide[i].val - j->vals));
		if (tmp) {
			fx_cuts(&j->wide[i], j->k, tmp);
			j->cut_ready[i] = 1;
		}
	}
	free(tmp);
}

/*
 * fx_tops - the top of every slot of wide clique @w (val and cut set, fx_cuts()): the
 * children at least as wide as a cut that is not 0, their indices appended to ix->tops
 * (*@n_tops used, room for *@cap_tops), where they start in @off (the caller sets
 * w->top[] once the array stops moving); the cut of a slot without a top is left 0.
 * Return: 0 or -1 (out of memory).
 */
static int fx_tops(struct dp_report_index *ix, struct dp_flame_wide *w, size_t *n_tops,
		   size_t *cap_tops, size_t off[4])
{
	uint32_t n = w->n_kids;

	for (uint32_t s = 0; s < 4; s++) {
		const uint64_t *v = w->val + (size_t)s * n;
		uint64_t cut = w->cut[s];

		w->cut[s] = 0;
		if (cut == 0)
			continue; /* every child is at least 0: nothing to leave out */
		if (DP_VEC_GROWZ(ix->tops, *cap_tops, *n_tops + n) < 0)
			return -1;
		off[s] = *n_tops;
		for (uint32_t i = 0; i < n; i++)
			if (v[i] >= cut)
				ix->tops[(*n_tops)++] = i;
		w->cut[s] = cut;
		w->n_top[s] = (uint32_t)(*n_tops - off[s]);
	}
	return 0;
}

int dp_report_index_build(const struct dp_profile *p, const struct dp_analysis *a,
			  const struct dp_report_index_opts *o, struct dp_report_index **out)
{
	static const struct dp_report_index_opts defaults;
	struct dp_report_index *ix = calloc(1, sizeof(*ix));
	uint32_t min_kids = (o ? o : &defaults)->min_kids, min_ctx = (o ? o : &defaults)->min_ctx;
	uint32_t k = (o ? o : &defaults)->k;
	uint64_t total = 0, *tmp = NULL;
	uint32_t n = 0, widest = 0;
	size_t n_tops = 0, cap_tops = 0, (*offs)[4] = NULL;
	uint8_t *ready = NULL;

	*out = NULL;
	if (!min_kids)
		min_kids = DP_FLAME_IX_MIN_KIDS;
	if (!min_ctx)
		min_ctx = DP_FLAME_IX_MIN_CTX;
	if (!k)
		k = DP_FLAME_MAX_NODES;
	if (!ix)
		goto oom;
	ix->k = k;
	for (uint32_t c = 1; c <= a->n_cliques; c++) {
		uint32_t m = dp_csr_count(&a->clique_kids, c);

		if (m >= min_kids) {
			n++;
			total += m;
			widest = m > widest ? m : widest;
		}
	}
	ix->wide = calloc(n ? n : 1, sizeof(*ix->wide));
	ix->vals = total <= SIZE_MAX / 32 ? malloc(total ? (size_t)total * 32 : 1) : NULL;
	tmp = malloc((widest ? widest : 1) * sizeof(*tmp));
	offs = calloc(n ? n : 1, sizeof(*offs));
	ready = calloc(n ? n : 1, 1);
	if (!ix->wide || !ix->vals || !tmp || !offs || !ready)
		goto oom;
	total = 0;
	for (uint32_t c = 1; c <= a->n_cliques; c++) {
		uint32_t m = dp_csr_count(&a->clique_kids, c);
		struct dp_flame_wide *w = &ix->wide[ix->n_wide];

		if (m < min_kids)
			continue;
		w->clique = c;
		w->n_kids = m;
		w->val = ix->vals + total;
		total += 4 * (uint64_t)m;
		ix->n_wide++;
	}
	/* the children's CSDs are all over memory: on two cores, a clique at a time */
	dp_par_split(fx_fill_range, &(struct fx_fill_job){p, a, ix->wide, ix->vals, k, ready},
		     ix->n_wide, 2);
	for (uint32_t i = 0; i < ix->n_wide; i++) {
		if (!ready[i])
			fx_cuts(&ix->wide[i], k, tmp);
		if (fx_tops(ix, &ix->wide[i], &n_tops, &cap_tops, offs[i]) < 0)
			goto oom;
	}
	for (uint32_t i = 0; i < ix->n_wide; i++) /* the tops array has stopped moving */
		for (uint32_t s = 0; s < 4; s++)
			ix->wide[i].top[s] = ix->wide[i].n_top[s] ? ix->tops + offs[i][s] : NULL;
	if (fx_procs(p, a, min_ctx, ix) < 0)
		goto oom;
	free(tmp);
	free(offs);
	free(ready);
	*out = ix;
	return 0;
oom:
	free(tmp);
	free(offs);
	free(ready);
	dp_report_index_free(ix);
	return dp_error(DP_ENOMEM, "out of memory building the flame index");
}

/* fx_find - the index of the entry of key @key among the @n entries of @size bytes at
 * @v, which start with their uint32_t key and are sorted by it; @n when none has it */
static uint32_t fx_find(const void *v, size_t size, uint32_t n, uint32_t key)
{
	uint32_t lo = 0, hi = n, k = 0;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		memcpy(&k, (const char *)v + (size_t)mid * size, sizeof(k));
		if (k < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < n)
		memcpy(&k, (const char *)v + (size_t)lo * size, sizeof(k));
	return lo < n && k == key ? lo : n;
}

_Static_assert(offsetof(struct dp_flame_wide, clique) == 0, "fx_find's key comes first");
_Static_assert(offsetof(struct dp_flame_proc, ps) == 0, "fx_find's key comes first");

const struct dp_flame_wide *dp_flame_index_wide(const struct dp_report_index *ix, uint32_t k)
{
	uint32_t i = fx_find(ix->wide, sizeof(*ix->wide), ix->n_wide, k);

	return i < ix->n_wide ? &ix->wide[i] : NULL;
}

struct dp_report_index_size dp_report_index_size(const struct dp_report_index *ix)
{
	struct dp_report_index_size z = {0};

	if (ix) {
		z.cliques = ix->n_wide;
		z.procs = ix->n_procs;
	}
	return z;
}

const struct dp_flame_proc *dp_flame_index_proc(const struct dp_report_index *ix, uint32_t ps)
{
	uint32_t i = fx_find(ix->procs, sizeof(*ix->procs), ix->n_procs, ps);

	return i < ix->n_procs ? &ix->procs[i] : NULL;
}
