/*
 * report/rep_flame_callers.c - the flame_callers page: the inverted tree of one
 * procedure's callers (the rules are in rep_flame.c's header). All the procedure's PDs
 * climb their ancestor chains a level at a time, with their loads prefetched; climbers
 * at the same PD and tree node merge; the tree is then walked like the flame page's.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/par.h"
#include "rep_flame_int.h"

/* How many PDs or climbers ahead the loops prefetch (the own costs in stages of this, 1/2
 * and 1/4): their loads are all over memory (64 rather than the reports' DP_REP_AHEAD:
 * 10 -> 9 ms for 33,000 contexts at 10 million) */
#define FC_AHEAD 64

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
	if (dp_fl_grow((void **)&f->t, &f->cap_t, f->n_t + 1, sizeof(*f->t)) < 0 ||
	    dp_fl_grow((void **)&f->tv, &f->cap_tv, f->n_t + 1, sizeof(*f->tv)) < 0)
		return 0;
	i = f->n_t++;
	f->tv[i] = 0;
	memset(&f->t[i], 0, sizeof(f->t[i]));
	f->t[i].ps = ps;
	f->t[i].parent = parent;
	f->t[i].sibling = f->t[parent].child;
	f->t[parent].child = i;
	f->hash[s] = i;
	return i;
}

/* own_prefetch - prefetch what dp_analysis_pd_own() and pd_desc read for the PDs ahead
 * of @i in @pds (up to @n), in three stages: the PD's callers range, its caller CSDs'
 * ids, those CSDs (the first four) */
DP_PREFETCHER void own_prefetch(const struct dp_analysis *a, const uint32_t *pds, uint32_t i,
				uint32_t n)
{
	const struct dp_csr *c = &a->pd_callers;

	if (i + FC_AHEAD < n) {
		__builtin_prefetch(&c->start[pds[i + FC_AHEAD]]);
		__builtin_prefetch(&a->pd_desc[pds[i + FC_AHEAD]]);
	}
	if (i + FC_AHEAD / 2 < n)
		__builtin_prefetch(&c->ids[c->start[pds[i + FC_AHEAD / 2]]]);
	if (i + FC_AHEAD / 4 < n) {
		uint32_t pd = pds[i + FC_AHEAD / 4], m = dp_csr_count(c, pd);

		for (uint32_t k = 0; k < m && k < 4; k++) {
			const struct dp_csd *d = &a->p->csd[c->ids[c->start[pd] + k]];

			__builtin_prefetch(d); /* a CSD may span two cache lines */
			__builtin_prefetch((const char *)(d + 1) - 1);
		}
	}
}

/* The first pass over the procedure's PDs: their own and desc costs and value (@cv), their
 * climbers. */
struct own_job {
	const struct dp_analysis *a;
	const uint32_t *pds;
	struct fc_climb *act;
	struct dp_costs *own;
	struct dp_inherit *desc;
	uint64_t *cv;
	enum dp_metric m;
};

/* own_range - the climbers of PDs [@lo, @hi) of the job @arg, with their costs */
static void own_range(void *arg, uint32_t lo, uint32_t hi)
{
	const struct own_job *j = arg;

	for (uint32_t i = lo; i < hi; i++) {
		own_prefetch(j->a, j->pds, i, hi);
		j->act[i] = (struct fc_climb){i, j->pds[i], 1, 1, 0};
		j->own[i] = dp_analysis_pd_own(j->a, j->pds[i]);
		j->desc[i] = j->a->pd_desc[j->pds[i]];
		j->cv[i] = dp_fl_value(j->m, &j->own[i], &j->desc[i]);
	}
}

/*
 * merge_climbers - merge the @n climbers of @act that are at the same PD and tree node
 * (their futures are the same): the first keeps its place and takes the others' PDs and
 * costs (@own, @desc), so that node creation order, and the tree, stay as without the
 * merge. @tab: room for 4 * @n + 16 entries. Return: how many climbers are left.
 */
static uint32_t merge_climbers(struct fc_climb *act, uint32_t n, uint32_t *tab,
			       struct dp_costs *own, struct dp_inherit *desc, uint64_t *cv)
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
			cv[w->k] += cv[act[i].k];
			continue;
		}
		act[m] = act[i];
		tab[s] = ++m;
	}
	return m;
}

/* The bound of the walk's threshold that callers_tree() keeps: the values of the tree's
 * complete nodes not below it, at most 4 * k of them (k = the cap + 1: a selection every 3 * k
 * values). */
struct fc_bound {
	uint64_t *v;
	uint32_t n, k, room;
	uint64_t lb;
};

/*
 * bound_see - nodes @from .. f->n_t - 1 are complete (their level is done): with the
 * bound's values, return the k-th largest value of the tree so far once there are k,
 * else 0. k = cap + 1 nodes at least that wide exist, so the walk's threshold is at least
 * it (see search() in rep_flame_walk.c): a node below it is never expanded.
 */
static uint64_t bound_see(struct fl *f, struct fc_bound *b, uint32_t from)
{
	for (uint32_t i = from; i < f->n_t; i++) {
		uint64_t v = f->tv[i];

		if (v < b->lb)
			continue;
		if (dp_fl_grow((void **)&b->v, &b->room, b->n + 1, sizeof(*b->v)) < 0)
			return b->lb; /* a bound less tight, still a bound */
		b->v[b->n++] = v;
		if (b->n == 4 * b->k) { /* keep the k largest */
			b->lb = dp_flame_kth_largest(b->v, b->n, b->k);
			b->n = b->k;
		}
	}
	if (b->n > b->k) {
		b->lb = dp_flame_kth_largest(b->v, b->n, b->k);
		b->n = b->k;
	}
	return b->lb;
}

/*
 * callers_tree - the callers tree of f->top, one level at a time: every PD of the
 * procedure climbs one step and adds its costs to the node it reaches; after each level
 * the PDs whose node is below the minimum stop climbing, since the walk never expands that
 * node (its children could not be shown), and so do those below the node cap's bound
 * (bound_see(): min=0 would otherwise build the whole tree). Chains are cut at @limit
 * levels.
 */
static int callers_tree(struct fl *f, uint32_t limit)
{
	const struct dp_analysis *a = f->c->a;
	uint32_t n = dp_csr_count(&a->ps_pds, f->top);
	const uint32_t *pds = dp_csr_items(&a->ps_pds, f->top);
	struct fc_climb *act = malloc((n ? n : 1) * sizeof(*act));
	struct dp_costs *own = malloc((n ? n : 1) * sizeof(*own));
	struct dp_inherit *desc = malloc((n ? n : 1) * sizeof(*desc));
	uint64_t *cv = malloc((n ? n : 1) * sizeof(*cv));
	uint32_t *tab = malloc(((size_t)n * 4 + 16) * sizeof(*tab));
	struct fc_bound b = {.k = dp_fl_cap(f) + 1};
	int rc = dp_fl_grow((void **)&f->t, &f->cap_t, 2, sizeof(*f->t));

	if (rc == 0)
		rc = dp_fl_grow((void **)&f->tv, &f->cap_tv, 2, sizeof(*f->tv));
	if (rc == 0)
		rc = dp_fl_grow((void **)&b.v, &b.room, b.k < 4096 ? 4 * b.k : 16384, sizeof(*b.v));
	if (!act || !own || !desc || !cv || !tab || rc < 0) {
		rc = dp_error(DP_ENOMEM, "out of memory building a flame graph");
		goto out;
	}
	memset(f->t, 0, 2 * sizeof(*f->t));
	memset(f->tv, 0, 2 * sizeof(*f->tv));
	f->t[1].ps = f->top;
	f->n_t = 2;
	b.v[b.n++] = UINT64_MAX; /* the depth-0 node */
	/* thousands of PDs all over memory: on two cores */
	dp_par_split(own_range, &(struct own_job){a, pds, act, own, desc, cv, f->m}, n, 4096);
	for (uint32_t level = 1; n && (limit == 0 || level < limit) && rc == 0; level++) {
		const struct dp_pd *pd = f->c->p->pd;
		uint32_t m = 0, first = f->n_t;
		uint64_t lb;

		/* two passes: the step (a->pd_up) and its procedure, their loads prefetched
		 * in two stages, then the tree node */
		for (uint32_t i = 0; i < n; i++) {
			if (i + FC_AHEAD < n)
				__builtin_prefetch(&a->pd_up[act[i + FC_AHEAD].cur]);
			if (i + FC_AHEAD / 2 < n)
				__builtin_prefetch(&pd[a->pd_up[act[i + FC_AHEAD / 2].cur]]);
			act[i].cur = a->pd_up[act[i].cur];
			act[i].ps = pd[act[i].cur].ps;
		}
		for (uint32_t i = 0; i < n; i++) {
			uint32_t node;

			if (!act[i].cur)
				continue;
			node = tree_child(f, act[i].node, act[i].ps);
			if (!node) {
				rc = -DP_ENOMEM;
				break;
			}
			f->t[node].n += act[i].n;
			dp_costs_add(&f->t[node].own, &own[act[i].k]);
			dp_inherit_add(&f->t[node].desc, &desc[act[i].k]);
			f->tv[node] += cv[act[i].k];
			act[m++] = (struct fc_climb){act[i].k, act[i].cur, node, act[i].n, 0};
		}
		n = 0;
		lb = rc == 0 ? bound_see(f, &b, first) : 0;
		for (uint32_t i = 0; i < m; i++) {
			uint64_t v = f->tv[act[i].node];

			if ((double)v >= f->min && v >= lb)
				act[n++] = act[i];
		}
		n = merge_climbers(act, n, tab, own, desc, cv);
	}
out:
	free(b.v);
	free(tab);
	free(act);
	free(own);
	free(desc);
	free(cv);
	return rc;
}

int dp_rep_flame_callers(struct dp_report *r, const struct dp_report_ctx *c)
{
	struct fl f;
	int rc = dp_fl_setup(&f, r, c);

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
	f.min = (double)dp_fl_value(f.m, &r->subject.own, &r->subject.desc) * r->q.min_pct / 100.0;
	r->title = dp_rep_printf(r, "Callers of %s (inverted flame graph)", r->subject.name);
	rc = r->title ? callers_tree(&f, r->q.depth) : -DP_ENOMEM;
	if (rc == 0)
		rc = dp_fl_walk_capped(&f, 1, dp_fl_value(f.m, &r->subject.own, &r->subject.desc));
	dp_fl_free(&f);
	return rc;
}
