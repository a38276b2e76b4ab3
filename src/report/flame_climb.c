/*
 * report/flame_climb.c - the climb that makes a procedure's callers tree, for the
 * flame_callers page (dp_fc_callers_tree()) and for the report index, which keeps the
 * first levels of the widest procedures' trees (dp_flame_prefix_build()). All the
 * procedure's PDs (their costs and first steps from the index for the procedures with
 * the most) climb their ancestor chains a level at a time, with their loads prefetched,
 * adding their values to the nodes; climbers at the same PD and tree node merge; the
 * nodes' costs are summed once the tree is built. For the index's procedures the climb
 * starts from the first levels that the index holds, made at load by this same climb.
 * Neither a page nor the index: both call it.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/hash.h"
#include "../core/par.h"
#include "../core/sort.h"
#include "../core/vec.h"
#include "rep_flame_int.h"

/* How many climbers ahead the climb's loops prefetch (the merge table a quarter of
 * that): their loads are all over memory, as the contexts' (DP_FLAME_CTX_AHEAD) */
#define FC_AHEAD 64

static uint32_t hash_of(uint32_t parent, uint32_t ps)
{
	return dp_hash_u64((uint64_t)parent << 32 | ps);
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

/* make_node - a new callers tree node of procedure @ps under @parent, of value @v (room
 * made), first in its parent's list of children */
static uint32_t make_node(struct fl *f, uint32_t parent, uint32_t ps, uint64_t v)
{
	uint32_t i = f->n_t++;

	f->tv[i] = v;
	f->t[i] = (struct fc_node){ps, parent, 0, 0, f->t[parent].child};
	f->t[parent].child = i;
	return i;
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
	if (dp_vec_grow(&f->t, &f->cap_t, f->n_t + 1, sizeof(*f->t)) < 0 ||
	    dp_vec_grow(&f->tv, &f->cap_tv, f->n_t + 1, sizeof(*f->tv)) < 0)
		return 0;
	i = make_node(f, parent, ps, 0);
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
 * The climb of a callers tree: its climbers start from the procedure's contexts (@ctx,
 * one PD each) or, with the flame index's prefix (@pre), from the prefix's units that the
 * page keeps (@unit: unit[k] is the prefix unit of climber k), the prefix's levels made;
 * per climber k (n0 of them): value cv[k], the climber it merged into up[k] (k if none)
 * and the node it stopped at last[k]. Tree nodes below @fixed have their n and costs from
 * the prefix (pmap[id]: the prefix node of node id), the others are summed at the end.
 */
struct fc_run {
	const struct dp_flame_ctx *ctx;
	struct dp_flame_ctx *own_ctx; /* ctx gathered here when the index has none */
	const struct dp_flame_prefix *pre;
	uint32_t *unit, *pmap;
	uint32_t fixed, n0, n; /* n: climbers in act */
	struct fc_climb *act;
	uint64_t *cv;
	uint32_t *up, *last;
	struct fc_tabs tb;
};

/* deposit - add the costs @own, @desc of @cnt PDs that stopped at node @node to its sums */
static inline void deposit(struct fl *f, uint32_t node, uint32_t cnt, const struct dp_costs *own,
			   const struct dp_inherit *desc)
{
	f->t[node].n += cnt;
	dp_costs_add(&f->tc[node].own, own);
	dp_inherit_add(&f->tc[node].desc, desc);
}

/*
 * tree_costs - the callers tree's n, own and desc (f->tc), and the sums over each node's
 * children (f->tk, set for the nodes that have children only; the walk reads them
 * instead of every child's costs), once built from @run: climber k climbed, alone and
 * then in the climber it merged into (up[k], k if none), until it stopped at node last[k]
 * of that climber; its chain of nodes is the path from the root to that node. So each
 * climber adds its PDs' costs to its last node, and then every node to its parent's sums
 * over children and those to the parent, children having been made after their parents;
 * the prefix's nodes have theirs already (and no deposit: they count every PD through
 * them). Resolves up. The root keeps none (the subject's row has the procedure's own).
 * Return: 0 or -DP_ENOMEM.
 */
static int tree_costs(struct fl *f, struct fc_run *run)
{
	struct fc_costs *tc = calloc(f->n_t, sizeof(*tc)), *tk = malloc(f->n_t * sizeof(*tk));
	uint32_t *up = run->up, fixed = run->fixed;

	f->tc = tc;
	f->tk = tk;
	if (!tc || !tk)
		return dp_error(DP_ENOMEM, "out of memory building a flame graph");
	for (uint32_t id = 2; id < fixed; id++) {
		const struct dp_flame_pnode *x = &run->pre->node[run->pmap[id]];

		tc[id] = (struct fc_costs){x->own, x->desc};
	}
	for (uint32_t k = 0; k < run->n0; k++) {
		uint32_t node;

		up[k] = up[up[k]]; /* up[k] <= k: climbers keep the order of k, and merge into
				      the first; so up[up[k]] is already the final one */
		node = run->last[up[k]];
		if (node < fixed)
			continue;
		if (run->ctx) {
			deposit(f, node, 1, &run->ctx[k].own, &run->ctx[k].desc);
		} else {
			const struct dp_flame_unit *u = &run->pre->unit[run->unit[k]];

			deposit(f, node, u->n, &u->own, &u->desc);
		}
	}
	/* tc holds what was deposited; a node's children add into its tk, and it adds tk
	 * into tc once they all have (they have higher ids). The first of them to (the last
	 * made, its first child) sets it: tk is not cleared, and a node without children
	 * has none */
	for (uint32_t i = f->n_t - 1; i >= 2; i--) {
		uint32_t p = f->t[i].parent;

		if (f->t[i].child && i >= fixed) {
			dp_costs_add(&tc[i].own, &tk[i].own);
			dp_inherit_add(&tc[i].desc, &tk[i].desc);
		}
		if (f->t[p].child == i) {
			tk[p] = tc[i];
		} else {
			dp_costs_add(&tk[p].own, &tc[i].own);
			dp_inherit_add(&tk[p].desc, &tc[i].desc);
		}
		if (p >= fixed)
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
	b->lb = dp_kth_largest_u64(b->v, b->n, b->k);
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
		if (dp_vec_grow(&b->v, &b->room, b->n + 1, sizeof(*b->v)) < 0)
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
	size_t size = dp_hash_room(n);

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

/* run_free - free what @run holds */
static void run_free(struct fc_run *run)
{
	free(run->tb.kid);
	free(run->tb.merge);
	free(run->tb.from);
	free(run->act);
	free(run->own_ctx);
	free(run->unit);
	free(run->pmap);
	free(run->cv);
	free(run->up);
	free(run->last);
}

/* run_alloc - the arrays of @run for @n climbers at the most, and room in @f for @nodes
 * tree nodes, the first two (unused and the root, procedure f->top) set. Return: 0 or
 * -DP_ENOMEM (message set). */
static int run_alloc(struct fl *f, struct fc_run *run, uint32_t n, uint32_t nodes)
{
	size_t room = n ? n : 1;
	int rc;

	run->act = malloc(room * sizeof(*run->act));
	run->cv = malloc(room * sizeof(*run->cv));
	run->up = malloc(room * sizeof(*run->up));
	run->last = malloc(room * sizeof(*run->last));
	run->tb.merge = calloc(dp_hash_room(n), sizeof(*run->tb.merge));
	run->tb.from = malloc(room * sizeof(*run->tb.from));
	rc = dp_vec_grow(&f->t, &f->cap_t, nodes, sizeof(*f->t));
	if (rc == 0)
		rc = dp_vec_grow(&f->tv, &f->cap_tv, nodes, sizeof(*f->tv));
	if (!run->act || !run->cv || !run->up || !run->last || !run->tb.merge || !run->tb.from ||
	    rc < 0)
		return dp_error(DP_ENOMEM, "out of memory building a flame graph");
	memset(f->t, 0, 2 * sizeof(*f->t));
	memset(f->tv, 0, 2 * sizeof(*f->tv));
	f->t[1].ps = f->top;
	f->n_t = 2;
	for (uint32_t k = 0; k < n; k++)
		run->up[k] = k;
	run->fixed = 2;
	return 0;
}

/*
 * seed_prefix - the climb's first DP_FLAME_PRE_LEVELS (2) levels from the prefix @pre of
 * the procedure, as climbing from its contexts makes them (the prefix was built that way,
 * without pruning; the values are linear in the costs): the level-1 nodes; the level-2
 * nodes under those that climb_step() with the bound after level 1 keeps (the others stop
 * their climbers: no node below); the units under those, in order, as the climbers. @b
 * sees each level; *@lb: the bound after level 2. Return: 0 or -DP_ENOMEM.
 */
static int seed_prefix(struct fl *f, struct fc_run *run, const struct dp_flame_prefix *pre,
		       struct fc_bound *b, uint64_t *lb)
{
	uint32_t *map = malloc(((size_t)pre->n_node + 2) * sizeof(*map)), m = 0;
	int rc = run_alloc(f, run, pre->n_unit, pre->n_node + 2);

	run->pre = pre;
	run->unit = malloc((pre->n_unit ? pre->n_unit : 1) * sizeof(*run->unit));
	run->pmap = malloc(((size_t)pre->n_node + 2) * sizeof(*run->pmap));
	if (rc < 0 || !map || !run->unit || !run->pmap) {
		free(map);
		return dp_error(DP_ENOMEM, "out of memory building a flame graph");
	}
	map[0] = 0;
	map[1] = 1;
	for (uint32_t i = 0; i < pre->n_node; i++) {
		const struct dp_flame_pnode *x = &pre->node[i];
		uint32_t parent = map[x->parent];

		if (i == pre->n_node1) /* level 1 is made: the bound its nodes give */
			*lb = bound_see(f, b, 2);
		map[i + 2] = 0;
		if (i >= pre->n_node1 && /* the level-2 step of climb_step() */
		    ((double)f->tv[parent] < f->min || f->tv[parent] < *lb))
			continue;
		map[i + 2] = make_node(f, parent, x->ps, dp_fl_value(f->m, &x->own, &x->desc));
		run->pmap[map[i + 2]] = i;
		f->t[map[i + 2]].n = x->n;
	}
	if (pre->n_node1 == pre->n_node)
		*lb = bound_see(f, b, 2);
	*lb = bound_see(f, b, pre->n_node1 + 2);
	run->fixed = f->n_t;
	for (uint32_t u = 0; u < pre->n_unit; u++) {
		const struct dp_flame_unit *x = &pre->unit[u];
		uint32_t node = map[x->node];

		if (!node)
			continue;
		run->act[m] = (struct fc_climb){m, x->cur, node, 0};
		run->cv[m] = dp_fl_value(f->m, &x->own, &x->desc);
		run->unit[m++] = u;
	}
	run->n0 = run->n = m;
	free(map);
	return 0;
}

/* seed_ctx - the climbers of the @n contexts of f->top (PDs @pds), which take their first
 * step: their contexts from @ix_ctx (the flame index's), else gathered. Return: 0 or
 * -DP_ENOMEM. */
static int seed_ctx(struct fl *f, struct fc_run *run, const uint32_t *pds, uint32_t n,
		    const struct dp_flame_ctx *ix_ctx)
{
	/* room for as many nodes as climbers: the first level makes that many at most */
	int rc = run_alloc(f, run, n, n < UINT32_MAX / 2 ? n + 2 : 2);

	if (rc < 0)
		return rc;
	run->n0 = run->n = n;
	run->ctx = ix_ctx;
	if (!ix_ctx) {
		run->own_ctx = malloc((n ? n : 1) * sizeof(*run->own_ctx));
		if (!run->own_ctx)
			return dp_error(DP_ENOMEM, "out of memory building a flame graph");
		run->ctx = run->own_ctx;
		/* thousands of PDs all over memory: on two cores */
		dp_par_split(own_range,
			     &(struct own_job){f->c->a, pds, run->act, run->own_ctx, run->cv, f->m},
			     n, 4096);
	} else {
		first_steps(ix_ctx, 0, n, f->m, run->act, run->cv);
	}
	return 0;
}

/*
 * climb - levels @level, @level + 1, ... of the climb of @run (its climbers have taken
 * their step of level @level): before each later step the climbers whose node is below
 * the minimum stop, since the walk never expands that node (its children could not be
 * shown), and so do those below the node cap's bound (@b, *@lb the bound so far; b->k =
 * 0: none), which min=0 would otherwise build the whole tree for. Chains are cut at
 * @limit levels (0: none); those left stop at their node. Return: 0 or -DP_ENOMEM.
 */
static int climb(struct fl *f, struct fc_run *run, uint32_t level, uint32_t limit,
		 struct fc_bound *b, uint64_t lb)
{
	uint32_t n = run->n;
	int rc = 0;

	for (; n && (limit == 0 || level < limit); level++) {
		uint32_t first = f->n_t, m;

		if (level > 1) /* the first step: seed_ctx() */
			n = climb_step(f, run->act, n, lb, run->last);
		rc = level_pass(f, &run->tb, level, run->act, n, run->cv, run->up, run->last, &m);
		if (rc < 0) {
			rc = dp_error(DP_ENOMEM, "out of memory building a flame graph");
			break;
		}
		n = m;
		if (b->k)
			lb = bound_see(f, b, first);
	}
	for (uint32_t i = 0; i < n; i++)
		run->last[run->act[i].k] = run->act[i].node;
	run->n = n;
	return rc;
}

/*
 * dp_fc_callers_tree - the callers tree of f->top, one level at a time: every PD of the
 * procedure climbs one step and adds its value to the node it reaches (climb()), from
 * the flame index's prefix when it has one and @limit lets every level of it be made.
 * The nodes' costs are summed at the end (tree_costs()).
 */
int dp_fc_callers_tree(struct fl *f, uint32_t limit)
{
	const struct dp_analysis *a = f->c->a;
	const uint32_t n0 = dp_csr_count(&a->ps_pds, f->top);
	/* the flame index has the contexts of the widest procedures in one array */
	const struct dp_flame_proc *wp =
		f->c->flame_ix ? dp_flame_index_proc(f->c->flame_ix, f->top) : NULL;
	const struct dp_flame_ctx *ix_ctx = wp && wp->n == n0 ? wp->ctx : NULL;
	bool pre = ix_ctx && wp->pre.levels == DP_FLAME_PRE_LEVELS &&
		   (limit == 0 || limit > DP_FLAME_PRE_LEVELS);
	struct fc_bound b = {.k = dp_fl_cap(f) + 1};
	struct fc_run run = {0};
	uint64_t lb = 0;
	int rc = dp_vec_grow(&b.v, &b.room, b.k < 4096 ? 2 * b.k : 8192, sizeof(*b.v));

	if (rc == 0) {
		b.v[b.n++] = UINT64_MAX; /* the depth-0 node */
		rc = pre ? seed_prefix(f, &run, &wp->pre, &b, &lb)
			 : seed_ctx(f, &run, dp_csr_items(&a->ps_pds, f->top), n0, ix_ctx);
	}
	if (rc == 0)
		rc = climb(f, &run, pre ? DP_FLAME_PRE_LEVELS + 1 : 1, limit, &b, lb);
	if (rc == 0)
		rc = tree_costs(f, &run);
	/* b has the values of the tree at least its bound, so its k largest (k = the cap + 1,
	 * the depth-0 node's among them) */
	f->cut = rc == 0 && b.n >= b.k ? dp_kth_largest_u64(b.v, b.n, b.k) : 0;
	free(b.v);
	run_free(&run);
	return rc;
}

int dp_flame_prefix_build(const struct dp_analysis *a, const struct dp_flame_ctx *ctx, uint32_t n,
			  struct dp_flame_prefix *out)
{
	const struct dp_report_ctx c = {.a = a};
	struct fl f = {.c = &c}; /* min 0 and no bound: nothing is pruned */
	struct fc_bound b = {0};
	struct fc_run run = {0};
	uint32_t *unit_of = NULL, m;
	int rc = seed_ctx(&f, &run, NULL, n, ctx);

	memset(out, 0, sizeof(*out));
	if (rc == 0)
		rc = climb(&f, &run, 1, DP_FLAME_PRE_LEVELS + 1, &b, 0);
	if (rc == 0)
		rc = tree_costs(&f, &run); /* the nodes' n and costs; up resolved */
	m = run.n;
	out->n_node = f.n_t - 2;
	out->node = rc == 0 ? malloc((out->n_node ? out->n_node : 1) * sizeof(*out->node)) : NULL;
	out->unit = out->node ? calloc(m ? m : 1, sizeof(*out->unit)) : NULL;
	unit_of = out->unit ? malloc((n ? n : 1) * sizeof(*unit_of)) : NULL;
	if (!unit_of) {
		free(out->node);
		free(out->unit);
		memset(out, 0, sizeof(*out));
		run_free(&run);
		dp_fl_free(&f);
		return -1;
	}
	for (uint32_t i = 2; i < f.n_t; i++) {
		out->node[i - 2] = (struct dp_flame_pnode){f.t[i].ps, f.t[i].parent, f.t[i].n,
							   0,	      f.tc[i].own,   f.tc[i].desc};
		out->n_node1 += f.t[i].parent == 1;
	}
	for (uint32_t k = 0; k < n; k++)
		unit_of[k] = UINT32_MAX;
	for (uint32_t i = 0; i < m; i++) { /* the climbers left after the last level */
		unit_of[run.act[i].k] = i;
		out->unit[i] =
			(struct dp_flame_unit){.cur = run.act[i].cur, .node = run.act[i].node};
	}
	for (uint32_t k = 0; k < n; k++) {
		uint32_t u = unit_of[run.up[k]];

		if (u == UINT32_MAX)
			continue;
		out->unit[u].n++;
		dp_costs_add(&out->unit[u].own, &ctx[k].own);
		dp_inherit_add(&out->unit[u].desc, &ctx[k].desc);
	}
	out->n_unit = m;
	out->levels = DP_FLAME_PRE_LEVELS;
	free(unit_of);
	run_free(&run);
	dp_fl_free(&f);
	return 0;
}
