/*
 * report/rep_flame_callers.c - the flame_callers page: the inverted tree of one
 * procedure's callers (the rules are in rep_flame.c's header). All the procedure's PDs
 * (their costs and first steps from the flame index for the procedures with the most)
 * climb their ancestor chains a level at a time, with their loads prefetched, adding
 * their values to the nodes; climbers at the same PD and tree node merge; the nodes'
 * costs are summed once the tree is built, which is then walked like the flame page's.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/par.h"
#include "rep_flame_int.h"

/* How many climbers ahead the climb's loops prefetch (the merge table a quarter of
 * that): their loads are all over memory, as the contexts' (DP_FLAME_CTX_AHEAD) */
#define FC_AHEAD 64

static uint32_t hash_of(uint32_t parent, uint32_t ps)
{
	uint64_t h = ((uint64_t)parent << 32 | ps) * 0x9E3779B97F4A7C15ull;

	return (uint32_t)(h >> 32);
}

/*
 * The tables of a level of the climb, stamped with the level (slots of other levels are
 * free, so that no level clears them). kid: (parent node, ps) -> the child the level
 * made, with its key, grown with the children (far fewer than the climbers: it stays in
 * the caches); merge: (node, PD) -> the first climber at that PD that came from that node
 * (its index in the level's output; its node of origin in from[]), room for every
 * climber of the first level (no later one has more).
 */
struct fc_kslot {
	uint32_t parent, ps, node, gen;
};

struct fc_mslot {
	uint32_t i, gen;
};

struct fc_tabs {
	struct fc_kslot *kid;
	uint32_t kid_room, n_kid; /* slots (a power of two); children made this level */
	struct fc_mslot *merge;
	uint32_t *from;
};

/* merge_room - the slots of a table for @n keys: a power of two >= 2 * @n (and 16) */
static size_t merge_room(uint32_t n)
{
	size_t size = 16;

	while (size < 2 * (size_t)n)
		size *= 2;
	return size;
}

/* kid_grow - double the kid table of @tb (from 64 slots: the test profiles make it grow),
 * keeping the children of level @gen. Return: 0 or -DP_ENOMEM. */
static int kid_grow(struct fc_tabs *tb, uint32_t gen)
{
	uint32_t room = tb->kid_room ? tb->kid_room * 2 : 64;
	struct fc_kslot *k = room > UINT32_MAX / 4 ? NULL : calloc(room, sizeof(*k));

	if (!k)
		return -DP_ENOMEM;
	for (uint32_t i = 0; i < tb->kid_room; i++) {
		uint32_t s;

		if (tb->kid[i].gen != gen)
			continue;
		s = hash_of(tb->kid[i].parent, tb->kid[i].ps) & (room - 1);
		while (k[s].gen == gen)
			s = (s + 1) & (room - 1);
		k[s] = tb->kid[i];
	}
	free(tb->kid);
	tb->kid = k;
	tb->kid_room = room;
	return 0;
}

/* tree_child - the child of callers-tree node @parent for procedure @ps (made if new, of
 * value 0), using @tb's kid table in level @gen (the level that makes @parent's
 * children); 0 on out of memory */
static uint32_t tree_child(struct fl *f, struct fc_tabs *tb, uint32_t gen, uint32_t parent,
			   uint32_t ps)
{
	struct fc_kslot *k;
	uint32_t s, i;

	if ((uint64_t)(tb->n_kid + 1) * 2 > tb->kid_room && kid_grow(tb, gen) < 0)
		return 0;
	s = hash_of(parent, ps) & (tb->kid_room - 1);
	for (; (k = &tb->kid[s])->gen == gen; s = (s + 1) & (tb->kid_room - 1))
		if (k->parent == parent && k->ps == ps)
			return k->node;
	if (dp_fl_grow((void **)&f->t, &f->cap_t, f->n_t + 1, sizeof(*f->t)) < 0 ||
	    dp_fl_grow((void **)&f->tv, &f->cap_tv, f->n_t + 1, sizeof(*f->tv)) < 0)
		return 0;
	i = f->n_t++;
	f->tv[i] = 0;
	f->t[i] = (struct fc_node){ps, parent, 0, 0, f->t[parent].child};
	f->t[parent].child = i;
	*k = (struct fc_kslot){parent, ps, i, gen};
	tb->n_kid++;
	return i;
}

/* The first pass over the procedure's PDs: their contexts (@ctx: own and desc costs,
 * first step; read from the analysis unless the flame index has them), their values
 * (@cv) and their climbers, which take their first step. */
struct own_job {
	const struct dp_analysis *a;
	const uint32_t *pds;
	struct fc_climb *act;
	struct dp_flame_ctx *ctx;
	uint64_t *cv;
	enum dp_metric m;
};

/* first_steps - the climbers of contexts [@lo, @hi) of @ctx, which take their first step,
 * and their values for metric @m */
static void first_steps(const struct dp_flame_ctx *ctx, uint32_t lo, uint32_t hi, enum dp_metric m,
			struct fc_climb *act, uint64_t *cv)
{
	for (uint32_t i = lo; i < hi; i++) {
		act[i] = (struct fc_climb){i, ctx[i].up.pd, 1, ctx[i].up.ps};
		cv[i] = dp_fl_value(m, &ctx[i].own, &ctx[i].desc);
	}
}

/* own_range - the contexts of PDs [@lo, @hi) of the job @arg, and their first steps */
static void own_range(void *arg, uint32_t lo, uint32_t hi)
{
	const struct own_job *j = arg;

	for (uint32_t i = lo; i < hi; i++) {
		dp_flame_ctx_prefetch(j->a, j->pds, i, hi);
		j->ctx[i] = dp_flame_ctx_of(j->a, j->pds[i]);
		first_steps(j->ctx, i, i + 1, j->m, j->act, j->cv);
	}
}

/*
 * tree_costs - the callers tree's n, own and desc (f->tc), and the sums over each node's
 * children (f->tk, set for the nodes that have children only; the walk reads them
 * instead of every child's costs), once built: PD
 * k (of @n, context @ctx[k]) climbed, alone and then in the climber it merged into
 * (@up[k], k if none), until it stopped at node @last[k] of that climber; its chain of
 * nodes is the path from the root to that node. So each PD adds its costs to its last
 * node, and then every node to its parent's sums over children and those to the parent,
 * children having been made after their parents. Resolves @up. The root keeps none (the
 * subject's row has the procedure's own). Return: 0 or -DP_ENOMEM.
 */
static int tree_costs(struct fl *f, uint32_t n, uint32_t *up, const uint32_t *last,
		      const struct dp_flame_ctx *ctx)
{
	struct fc_costs *tc = calloc(f->n_t, sizeof(*tc)), *tk = malloc(f->n_t * sizeof(*tk));

	f->tc = tc;
	f->tk = tk;
	if (!tc || !tk)
		return dp_error(DP_ENOMEM, "out of memory building a flame graph");
	for (uint32_t k = 0; k < n; k++) {
		uint32_t node;

		up[k] = up[up[k]]; /* up[k] <= k: climbers keep the order of k, and merge into
				      the first; so up[up[k]] is already the final one */
		node = last[up[k]];
		if (node < 2)
			continue;
		f->t[node].n++;
		dp_costs_add(&tc[node].own, &ctx[k].own);
		dp_inherit_add(&tc[node].desc, &ctx[k].desc);
	}
	/* tc holds what was deposited; a node's children add into its tk, and it adds tk
	 * into tc once they all have (they have higher ids). The first of them to (the last
	 * made, its first child) sets it: tk is not cleared, and a node without children
	 * has none */
	for (uint32_t i = f->n_t - 1; i >= 2; i--) {
		uint32_t p = f->t[i].parent;

		if (f->t[i].child) {
			dp_costs_add(&tc[i].own, &tk[i].own);
			dp_inherit_add(&tc[i].desc, &tk[i].desc);
		}
		if (f->t[p].child == i) {
			tk[p] = tc[i];
		} else {
			dp_costs_add(&tk[p].own, &tc[i].own);
			dp_inherit_add(&tk[p].desc, &tc[i].desc);
		}
		if (p >= 2)
			f->t[p].n += f->t[i].n;
	}
	return 0;
}

/* The bound of the walk's threshold that callers_tree() keeps: values of the tree's
 * complete nodes, n of them, among which the k largest (k = the cap + 1); lb: the k-th
 * largest when last selected (0 before k nodes are complete). Values below lb are
 * dropped: they cannot be among the k largest. */
struct fc_bound {
	uint64_t *v;
	uint32_t n, k, room;
	uint64_t lb;
};

/* bound_select - keep the k largest values of @b, the smallest of them in b->lb */
static void bound_select(struct fc_bound *b)
{
	b->lb = dp_flame_kth_largest(b->v, b->n, b->k);
	b->n = b->k;
}

/*
 * bound_see - nodes @from .. f->n_t - 1 are complete (their level is done): return a
 * lower bound of the k-th largest value of the tree, 0 before there are k values. k = cap
 * + 1 nodes at least that wide exist, so the walk's threshold is at least it (see
 * search() in rep_flame_walk.c): a node below it is never expanded. The k largest are
 * selected again when k more values are in, or at the end of a call once k / 8 are: a
 * level of a few nodes leaves the bound as it was, a little lower than it could be, rather
 * than select among k values for them.
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
		if (b->n == 2 * b->k)
			bound_select(b);
	}
	if (b->n > b->k && (b->lb == 0 || b->n - b->k >= b->k / 8))
		bound_select(b);
	return b->lb;
}

/*
 * climb_step - the @n climbers of @act whose node's value is below the minimum or @lb
 * (the previous level's bound) stop there (@last), since the walk never expands that node
 * (its children could not be shown); the others take a step (a->pd_up, which has its
 * procedure, its load prefetched), kept in order. Return: how many did.
 */
static uint32_t climb_step(const struct fl *f, struct fc_climb *act, uint32_t n, uint64_t lb,
			   uint32_t *last)
{
	const struct dp_analysis *a = f->c->a;
	uint32_t m = 0;

	for (uint32_t i = 0; i < n; i++) {
		struct fc_climb c = act[i];
		uint64_t v = f->tv[c.node];
		struct dp_pd_step up;

		if (i + FC_AHEAD < n)
			__builtin_prefetch(&a->pd_up[act[i + FC_AHEAD].cur]);
		if ((double)v < f->min || v < lb) {
			last[c.k] = c.node;
			continue;
		}
		up = a->pd_up[c.cur];
		act[m++] = (struct fc_climb){c.k, up.pd, c.node, up.ps};
	}
	return m;
}

/*
 * level_pass - a level of the climb: each of the @n climbers of @act that stepped to a PD
 * merges into the first one that came to the same PD from the same node, if any (their
 * futures are the same: the first takes its value @cv, and its PDs follow the first from
 * now on, @up), else goes on to its node's child for the PD's procedure; either way its
 * value counts in that child's. Those that go on are kept in order in act[0 .. *@m) (so
 * merges go to the first: up[k] <= k, and nodes are made in the order of their first
 * climber); those at the top stop (@last). Return: 0 or -DP_ENOMEM.
 */
static int level_pass(struct fl *f, struct fc_tabs *tb, uint32_t gen, struct fc_climb *act,
		      uint32_t n, uint64_t *cv, uint32_t *up, uint32_t *last, uint32_t *m)
{
	size_t size = merge_room(n);

	tb->n_kid = 0;
	*m = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct fc_climb c = act[i];
		struct fc_mslot *t;
		size_t s;
		uint32_t node;

		if (i + FC_AHEAD / 4 < n) { /* the merge table is bigger than the caches */
			const struct fc_climb *ahead = &act[i + FC_AHEAD / 4];

			__builtin_prefetch(
				&tb->merge[hash_of(ahead->node, ahead->cur) & (size - 1)]);
		}
		if (!c.cur) {
			last[c.k] = c.node;
			continue;
		}
		s = hash_of(c.node, c.cur) & (size - 1);
		for (; (t = &tb->merge[s])->gen == gen; s = (s + 1) & (size - 1))
			if (act[t->i].cur == c.cur && tb->from[t->i] == c.node)
				break;
		if (t->gen == gen) {
			const struct fc_climb *first = &act[t->i];

			f->tv[first->node] += cv[c.k];
			cv[first->k] += cv[c.k];
			up[c.k] = first->k;
			continue;
		}
		node = tree_child(f, tb, gen, c.node, c.ps);
		if (!node)
			return -DP_ENOMEM;
		f->tv[node] += cv[c.k];
		*t = (struct fc_mslot){*m, gen};
		tb->from[*m] = c.node;
		act[(*m)++] = (struct fc_climb){c.k, c.cur, node, 0};
	}
	return 0;
}

/*
 * callers_tree - the callers tree of f->top, one level at a time: every PD of the
 * procedure climbs one step and adds its value to the node it reaches; before the next
 * step the PDs whose node is below the minimum stop climbing, since the walk never expands
 * that node (its children could not be shown), and so do those below the node cap's bound
 * (bound_see(): min=0 would otherwise build the whole tree). Chains are cut at @limit
 * levels. The nodes' costs are summed at the end (tree_costs()).
 */
static int callers_tree(struct fl *f, uint32_t limit)
{
	const struct dp_analysis *a = f->c->a;
	const uint32_t n0 = dp_csr_count(&a->ps_pds, f->top);
	const uint32_t *pds = dp_csr_items(&a->ps_pds, f->top);
	size_t room = n0 ? n0 : 1;
	/* the flame index has the contexts of the widest procedures in one array */
	const struct dp_flame_proc *wp =
		f->c->flame_ix ? dp_flame_index_proc(f->c->flame_ix, f->top) : NULL;
	struct fc_climb *act = malloc(room * sizeof(*act));
	const struct dp_flame_ctx *ix_ctx = wp && wp->n == n0 ? wp->ctx : NULL;
	struct dp_flame_ctx *own_ctx = ix_ctx ? NULL : malloc(room * sizeof(*own_ctx));
	const struct dp_flame_ctx *ctx = ix_ctx ? ix_ctx : own_ctx;
	uint64_t *cv = malloc(room * sizeof(*cv));
	uint32_t *up = malloc(room * sizeof(*up)), *last = malloc(room * sizeof(*last));
	struct fc_tabs tb = {.merge = calloc(merge_room(n0), sizeof(*tb.merge)),
			     .from = malloc(room * sizeof(*tb.from))};
	uint32_t n = n0;
	uint64_t lb = 0;
	struct fc_bound b = {.k = dp_fl_cap(f) + 1};
	/* room for as many nodes as climbers: the first level makes that many at most */
	uint32_t room_t = n0 < UINT32_MAX / 2 ? n0 + 2 : 2;
	int rc = dp_fl_grow((void **)&f->t, &f->cap_t, room_t, sizeof(*f->t));

	if (rc == 0)
		rc = dp_fl_grow((void **)&f->tv, &f->cap_tv, room_t, sizeof(*f->tv));
	if (rc == 0)
		rc = dp_fl_grow((void **)&b.v, &b.room, b.k < 4096 ? 2 * b.k : 8192, sizeof(*b.v));
	if (!act || !ctx || !cv || !up || !last || !tb.merge || !tb.from || rc < 0) {
		rc = dp_error(DP_ENOMEM, "out of memory building a flame graph");
		goto out;
	}
	memset(f->t, 0, 2 * sizeof(*f->t));
	memset(f->tv, 0, 2 * sizeof(*f->tv));
	f->t[1].ps = f->top;
	f->n_t = 2;
	b.v[b.n++] = UINT64_MAX; /* the depth-0 node */
	for (uint32_t k = 0; k < n0; k++)
		up[k] = k;
	if (own_ctx) /* thousands of PDs all over memory: on two cores */
		dp_par_split(own_range, &(struct own_job){a, pds, act, own_ctx, cv, f->m}, n, 4096);
	else
		first_steps(ctx, 0, n, f->m, act, cv);
	for (uint32_t level = 1; n && (limit == 0 || level < limit); level++) {
		uint32_t first = f->n_t, m;

		if (level > 1) /* the first step: own_range() */
			n = climb_step(f, act, n, lb, last);
		rc = level_pass(f, &tb, level, act, n, cv, up, last, &m);
		if (rc < 0) {
			rc = dp_error(DP_ENOMEM, "out of memory building a flame graph");
			break;
		}
		n = m;
		lb = bound_see(f, &b, first);
	}
	/* those left (cut at @limit, or whose node the next step would stop them at) */
	for (uint32_t i = 0; i < n; i++)
		last[act[i].k] = act[i].node;
	if (rc == 0)
		rc = tree_costs(f, n0, up, last, ctx);
out:
	free(b.v);
	free(tb.kid);
	free(tb.merge);
	free(tb.from);
	free(act);
	free(own_ctx);
	free(cv);
	free(up);
	free(last);
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
