/*
 * report/rep_callers.c - the callers page of one procedure: its caller CSDs grouped by
 * call site, procedure, module or clique, with contour exclusion, sorted and paginated.
 *
 * page=callers&proc=N (or name=F), group=site|proc|module|clique, page=K (bunch), size=S:
 *   subject: the PS row. Title "Callers of NAME".
 *   section "callers": the procedure's caller CSDs (self-recursive ones excluded), grouped
 *     by the caller's call site (kind CSS, id = CSS, ps = the caller procedure, name =
 *     the caller procedure, callee = this procedure, position = the call site), caller
 *     procedure (kind PS), caller module (kind MODULE) or caller clique (kind CLIQUE, name
 *     = its entry procedure). Each row is SUM with n = its CSDs, own/desc = their sum;
 *     clique, thread and path (dp_rep_path: the call path to the caller) are set when n
 *     = 1 (site, proc groups); a clique row's path is its entry's. With prefs.contour each
 *     CSD is first moved to dp_contour_site() (the key moves, the costs stay, the row gets
 *     CONTOUR). Rows sorted by prefs (ties by id), then only bunch K (size S rows,
 *     1-based) is kept: r->n_items = the groups, r->n_bunches, r->bunch.
 *   facts: caller_csds, self_csds, groups, and with contour exclusion moved (CSDs moved).
 *   links: "procedure", "previous" / "next" bunch, and the three other groupings.
 *
 * A procedure may have a hundred thousand caller CSDs (in as many contexts): they are read
 * once, on two cores with their loads prefetched, and grouped by hashing their keys; the
 * groups are sorted on integers only (names and files ranked first), and only as far as
 * the bunch shown needs (sorting by cost, only the groups that can rank in it are named).
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/hash.h"
#include "../core/par.h"
#include "../core/sort.h"
#include "../core/vec.h"
#include "deepprof/format.h"
#include "flame_index.h"
#include "report_int.h"

/* One group of caller CSDs: v[first .. first + n) of the page's CSD array, in increasing
 * id. Sorting by cost, its costs are summed in the scan (struct cgroups); otherwise only
 * for the rows shown. */
struct cgroup {
	uint32_t key, first, n;
	uint32_t one; /* the (moved) CSD of the first of them */
	uint32_t ps;  /* the caller procedure of one */
	unsigned flags;
	double metric;		  /* sorting by cost: the sort metric of the summed costs */
	const char *sname, *file; /* sorting: bare name and position (file, line) */
	uint32_t line;
};

/* The groups while they are made: an array in the order met and a map from their keys
 * to their indexes; sorting by cost, their costs summed as the CSDs are read. */
struct cgroups {
	struct cgroup *g;
	struct dp_costs *own; /* with desc, NULL unless costs */
	struct dp_inherit *desc;
	bool costs;
	uint32_t n, room; /* groups; room in g (and own, desc) */
	struct dp_map32 map;
};

/* key_of - the key under grouping @g of a caller CSD of call site @css, caller procedure
 * @ps and caller clique @clique (read for DP_GROUP_CLIQUE only) */
static uint32_t key_of(const struct dp_report_ctx *c, enum dp_group g, uint32_t css, uint32_t ps,
		       uint32_t clique)
{
	switch (g) {
	case DP_GROUP_PROC:
		return ps;
	case DP_GROUP_MODULE:
		return c->a->ps_module[ps];
	case DP_GROUP_CLIQUE:
		return clique;
	case DP_GROUP_SITE:
	default:
		return css;
	}
}

/* group_key - the key of (moved) caller CSD @csd, whose caller is of procedure @ps,
 * under grouping @g */
static uint32_t group_key(const struct dp_report_ctx *c, uint32_t csd, uint32_t ps, enum dp_group g)
{
	const struct dp_csd *d = &c->p->csd[csd];

	return key_of(c, g, d->css, ps, g == DP_GROUP_CLIQUE ? c->a->pd_clique[d->caller] : 0);
}

static const char *bare_name(const struct dp_profile *p, uint32_t ps)
{
	if (p->ps[ps].kind == DP_PS_THREAD || p->ps[ps].kind == DP_PS_ROOT)
		return p->ps[ps].kind == DP_PS_THREAD ? "<thread>" : "<program>";
	return p->ps[ps].name ? dp_profile_str(p, p->ps[ps].name) : "";
}

/* sort keys of group @g: name and position of its node */
static void group_sort_keys(const struct dp_report_ctx *c, enum dp_group how, struct cgroup *g)
{
	const struct dp_profile *p = c->p;
	uint32_t ps = 0;

	switch (how) {
	case DP_GROUP_SITE:
		ps = g->ps; /* the site's */
		g->file = p->css[g->key].file ? dp_profile_str(p, p->css[g->key].file) : NULL;
		g->line = p->css[g->key].line;
		break;
	case DP_GROUP_PROC:
		ps = g->key;
		break;
	case DP_GROUP_MODULE:
		g->sname = g->file = dp_analysis_module_name(c->a, g->key);
		break;
	case DP_GROUP_CLIQUE: /* its entry's; a clique of one is its caller PD, of g->one */
		ps = dp_csr_count(&c->a->clique_pds, g->key) == 1
			     ? g->ps
			     : p->pd[dp_csr_items(&c->a->clique_pds, g->key)[0]].ps;
		break;
	}
	if (ps) {
		g->sname = bare_name(p, ps);
		if (how != DP_GROUP_SITE) {
			g->file = p->ps[ps].file ? dp_profile_str(p, p->ps[ps].file) : NULL;
			g->line = p->ps[ps].line;
		}
	}
}

/* How many groups ahead clique_key_prefetch() starts: four loads in a chain */
#define CLIQUE_AHEAD 32

/*
 * clique_key_prefetch - in a pass of group_sort_keys() over the clique groups @g[@x[0 ..
 * @m)], at @j: prefetch what it reads for the groups ahead, a stage of the chain at a
 * time: the clique's members range (CLIQUE_AHEAD ahead), its entry's id (1/2), the entry
 * PD (1/4), the procedure it names (1/8: the entry's, or, for a clique of one, the group's
 * own). Tens of thousands of cliques all over memory for a procedure's callers.
 */
DP_PREFETCHER void clique_key_prefetch(const struct dp_report_ctx *c, const struct cgroup *g,
				       const uint32_t *x, uint32_t j, uint32_t m)
{
	const struct dp_csr *k = &c->a->clique_pds;

	if (j + CLIQUE_AHEAD < m)
		__builtin_prefetch(&k->start[g[x[j + CLIQUE_AHEAD]].key]);
	if (j + CLIQUE_AHEAD / 2 < m)
		__builtin_prefetch(&k->ids[k->start[g[x[j + CLIQUE_AHEAD / 2]].key]]);
	if (j + CLIQUE_AHEAD / 4 < m) {
		const struct cgroup *e = &g[x[j + CLIQUE_AHEAD / 4]];

		if (dp_csr_count(k, e->key) > 1)
			__builtin_prefetch(&c->p->pd[dp_csr_items(k, e->key)[0]]);
	}
	if (j + CLIQUE_AHEAD / 8 < m) {
		const struct cgroup *e = &g[x[j + CLIQUE_AHEAD / 8]];
		uint32_t ps = dp_csr_count(k, e->key) == 1
				      ? e->ps
				      : c->p->pd[dp_csr_items(k, e->key)[0]].ps;

		__builtin_prefetch(&c->p->ps[ps]);
	}
}

/* moved - the CSD caller CSD @csd is grouped under (itself without contour exclusion) */
static uint32_t moved(const struct dp_report *r, const struct dp_report_ctx *c, uint32_t csd)
{
	return r->q.prefs.contour ? dp_contour_site(c->a, c->contour, csd) : csd;
}

/* group_costs - the sum of the costs of the CSDs of group @g into @row */
static void group_costs(const struct dp_report_ctx *c, const uint32_t *v, const struct cgroup *g,
			struct dp_rep_row *row)
{
	memset(&row->own, 0, sizeof(row->own));
	memset(&row->desc, 0, sizeof(row->desc));
	for (uint32_t i = g->first; i < g->first + g->n; i++) {
		struct dp_inherit desc = dp_analysis_csd_desc(c->a, v[i]);

		dp_costs_add_csd(&row->own, &c->p->csd[v[i]]);
		dp_inherit_add(&row->desc, &desc);
	}
}

/* grow - room in @gs for one more group */
static int grow(struct cgroups *gs)
{
	uint32_t room = gs->room;

	if (DP_VEC_GROW(gs->g, room, gs->n + 1) < 0)
		return -DP_ENOMEM;
	if (gs->costs) {
		uint32_t r1 = gs->room, r2 = gs->room;

		if (DP_VEC_GROW(gs->own, r1, gs->n + 1) < 0 ||
		    DP_VEC_GROW(gs->desc, r2, gs->n + 1) < 0)
			return -DP_ENOMEM;
	}
	gs->room = room;
	return 0;
}

/* group_of - the index of the group of @key in @gs, made if new; UINT32_MAX when out of
 * memory */
static uint32_t group_of(struct cgroups *gs, uint32_t key)
{
	uint32_t x;

	if (grow(gs) < 0)
		return UINT32_MAX;
	x = dp_map32_intern(&gs->map, key, gs->n);
	if (x != gs->n)
		return x == DP_MAP32_NONE ? UINT32_MAX : x;
	memset(&gs->g[x], 0, sizeof(gs->g[x]));
	if (gs->costs) {
		memset(&gs->own[x], 0, sizeof(gs->own[x]));
		memset(&gs->desc[x], 0, sizeof(gs->desc[x]));
	}
	gs->g[x].key = key;
	gs->g[x].flags = DP_ROW_SUM;
	gs->n++;
	return x;
}

/*
 * callers_prefetch - prefetch, in the scan of the caller CSDs @ids[0..n) at @i, what
 * caller_csds() reads of the CSDs ahead: their records' first line and, grouping by
 * clique, their callers' cliques; with @costs (the groups are sorted by cost), all that
 * group_costs() reads of them next (dp_rep_csd_prefetch(), in two stages)
 */
DP_PREFETCHER void callers_prefetch(const struct dp_report_ctx *c, const uint32_t *ids, uint32_t i,
				    uint32_t n, enum dp_group g, bool costs)
{
	if (i + 2 * DP_REP_AHEAD < n) {
		if (costs)
			dp_rep_csd_prefetch(c->p, c->a, ids[i + 2 * DP_REP_AHEAD], 0);
		else
			__builtin_prefetch(&c->p->csd[ids[i + 2 * DP_REP_AHEAD]].css);
	}
	if (i + DP_REP_AHEAD < n) {
		if (costs)
			dp_rep_csd_prefetch(c->p, c->a, ids[i + DP_REP_AHEAD], 1);
		if (g == DP_GROUP_CLIQUE)
			__builtin_prefetch(
				&c->a->pd_clique[c->p->csd[ids[i + DP_REP_AHEAD]].caller]);
	}
}

/* What the scan reads of each caller CSD (callers_read(), on two threads). */
struct ccsd {
	uint32_t to;  /* the (moved) CSD it is grouped under; 0: self-recursive, left out */
	uint32_t key; /* its group's key */
	uint32_t ps;  /* the caller procedure of to */
};

struct read_job {
	const struct dp_report *r;
	const struct dp_report_ctx *c;
	const uint32_t *ids; /* the caller CSDs */
	uint32_t ps;	     /* the procedure */
	struct ccsd *cs;
	struct dp_costs *own;	 /* with desc, each CSD's own costs (where it was) and desc, */
	struct dp_inherit *desc; /* NULL unless sorting by cost */
};

/* callers_read - what caller CSDs [@lo, @hi) of the job @arg are, into its arrays */
static void callers_read(void *arg, uint32_t lo, uint32_t hi)
{
	const struct read_job *j = arg;
	const struct dp_report_ctx *c = j->c;
	const struct dp_profile *p = c->p;
	enum dp_group g = j->r->q.group;

	for (uint32_t i = lo; i < hi; i++) {
		uint32_t caller, to;

		callers_prefetch(c, j->ids, i, hi, g, j->own != NULL);
		/* the caller's procedure is its CSS's (the reader checks it): a small array */
		caller = p->css[p->csd[j->ids[i]].css].ps;
		if (caller == j->ps) {
			j->cs[i].to = 0; /* self-recursive */
			continue;
		}
		to = moved(j->r, c, j->ids[i]);
		if (to != j->ids[i])
			caller = p->css[p->csd[to].css].ps;
		j->cs[i] = (struct ccsd){to, group_key(c, to, caller, g), caller};
		if (j->own) {
			j->own[i] = dp_csd_costs(&p->csd[j->ids[i]]);
			j->desc[i] = dp_analysis_csd_desc(c->a, j->ids[i]);
		}
	}
}

/* callers_indexed - callers_read() of all the caller CSDs of job @j from their entry @e
 * in the flame index, in order (without contour exclusion: no CSD moves) */
static void callers_indexed(const struct read_job *j, const struct dp_flame_proc *e)
{
	enum dp_group g = j->r->q.group;

	for (uint32_t i = 0; i < e->n_callers; i++) {
		const struct dp_flame_caller *x = &e->callers[i];

		if (x->ps == j->ps) {
			j->cs[i].to = 0; /* self-recursive */
			continue;
		}
		j->cs[i] =
			(struct ccsd){j->ids[i], key_of(j->c, g, x->css, x->ps, x->clique), x->ps};
		if (j->own) {
			j->own[i] = e->caller_costs[i].own;
			j->desc[i] = e->caller_costs[i].desc;
		}
	}
}

/*
 * caller_csds - the caller CSDs of @ps (self-recursive ones left out) in groups @gs (in
 * the order met; with gs->costs, their costs summed), laid out group by group in *@vout
 * (*@k of them); the facts on them. The CSDs, all over memory, are read on two cores
 * (callers_read()), or in order from the flame index for its wide procedures, then
 * grouped here. @gi: room for the group of each caller CSD.
 */
static int caller_csds(struct dp_report *r, const struct dp_report_ctx *c, uint32_t ps,
		       struct cgroups *gs, uint32_t *gi, uint32_t **vout, uint32_t *k)
{
	uint32_t n = dp_csr_count(&c->a->ps_callers, ps), at = 0, n_moved = 0;
	const uint32_t *ids = dp_csr_items(&c->a->ps_callers, ps);
	uint32_t *v = dp_arena_array(&r->arena, n ? n : 1, sizeof(*v));
	struct read_job j = {r, c, ids, ps, malloc((n ? n : 1) * sizeof(struct ccsd)), NULL, NULL};
	int rc = v && j.cs ? 0 : -DP_ENOMEM;

	*k = 0;
	if (rc == 0 && gs->costs) {
		j.own = malloc((n ? n : 1) * sizeof(*j.own));
		j.desc = malloc((n ? n : 1) * sizeof(*j.desc));
		rc = j.own && j.desc ? 0 : -DP_ENOMEM;
	}
	if (rc == 0) {
		const struct dp_flame_proc *e = c->flame_ix && !r->q.prefs.contour
							? dp_flame_index_proc(c->flame_ix, ps)
							: NULL;

		if (e && e->n_callers == n)
			callers_indexed(&j, e);
		else
			dp_par_split(callers_read, &j, n, 8192);
	}
	for (uint32_t i = 0; rc == 0 && i < n; i++) {
		uint32_t x;

		gi[i] = UINT32_MAX;
		if (!j.cs[i].to)
			continue;
		x = group_of(gs, j.cs[i].key);
		if (x == UINT32_MAX) {
			rc = -DP_ENOMEM;
			break;
		}
		if (gs->g[x].n++ == 0) {
			gs->g[x].one = j.cs[i].to;
			gs->g[x].ps = j.cs[i].ps;
		}
		if (j.cs[i].to != ids[i]) {
			gs->g[x].flags |= DP_ROW_CONTOUR;
			n_moved++;
		}
		if (gs->costs) {
			dp_costs_add(&gs->own[x], &j.own[i]);
			dp_inherit_add(&gs->desc[x], &j.desc[i]);
		}
		gi[i] = x;
		(*k)++;
	}
	free(j.cs);
	free(j.own);
	free(j.desc);
	if (rc < 0)
		return rc;
	for (uint32_t x = 0; x < gs->n; x++) {
		gs->g[x].first = at;
		at += gs->g[x].n;
	}
	for (uint32_t i = 0; i < n; i++) /* the next free place of a group's: gi[i] */
		if (gi[i] != UINT32_MAX)
			gi[i] = gs->g[gi[i]].first++;
	for (uint32_t x = 0; x < gs->n; x++)
		gs->g[x].first -= gs->g[x].n;
	for (uint32_t i = 0; i < n; i++)
		if (gi[i] != UINT32_MAX)
			v[gi[i]] = ids[i];
	*vout = v;
	rc = dp_rep_fact_u64(r, "caller_csds", "caller call sites in context", *k);
	if (rc == 0)
		rc = dp_rep_fact_u64(r, "self_csds", "self-recursive calls left out", n - *k);
	if (rc == 0)
		rc = dp_rep_fact_u64(r, "groups", "groups", gs->n);
	if (rc == 0 && r->q.prefs.contour)
		rc = dp_rep_fact_u64(r, "moved", "calls moved by contour exclusion", n_moved);
	return rc < 0 ? -DP_ENOMEM : 0;
}

/*
 * caller_groups - the groups of @gs that take part in the sort, in *@ix (*@m of them),
 * with their sort keys: names, positions and, sorting by cost, the metric of their
 * summed costs. Sorting by cost for a bunch [@lo, @hi) of many groups, only the groups at
 * least as costly as the @hi-th take part (the others cannot rank before @hi): reading the
 * nodes that name the groups is most of the cost of a page of 24,000 groups.
 */
static int caller_groups(struct dp_report *r, const struct dp_report_ctx *c,
			 const struct cgroups *gs, uint32_t lo, uint32_t hi, uint32_t **ix,
			 uint32_t *m)
{
	const struct dp_prefs *pr = &r->q.prefs;
	struct cgroup *g = gs->g;
	uint32_t ng = gs->n, *x = dp_arena_array(&r->arena, ng ? ng : 1, sizeof(*x));
	double least = 0;

	if (!x)
		return -DP_ENOMEM;
	for (uint32_t i = 0; gs->costs && i < ng; i++) {
		struct dp_rep_row tmp;

		tmp.own = gs->own[i];
		tmp.desc = gs->desc[i];
		g[i].metric =
			dp_rep_row_metric(&tmp, pr->sort_metric, pr->sort_scope, pr->sort_per);
		if (pr->sort_rev) /* ascending: the order of the negated costs */
			g[i].metric = -g[i].metric;
	}
	if (gs->costs && hi > 0 && hi - lo < ng / 4) {
		double *v = malloc((size_t)ng * sizeof(*v));

		if (!v)
			return -DP_ENOMEM;
		for (uint32_t i = 0; i < ng; i++)
			v[i] = g[i].metric;
		least = dp_kth_largest_f64(v, ng, hi);
		free(v);
	}
	*m = 0;
	for (uint32_t i = 0; i < ng; i++)
		if (!gs->costs || g[i].metric >= least)
			x[(*m)++] = i;
	for (uint32_t j = 0; j < *m; j++) {
		uint32_t i = x[j];

		if (r->q.group == DP_GROUP_CLIQUE)
			clique_key_prefetch(c, g, x, j, *m);
		else if (j + DP_REP_AHEAD < *m)
			__builtin_prefetch(&c->p->ps[g[x[j + DP_REP_AHEAD]].ps]);
		group_sort_keys(c, r->q.group, &g[i]);
	}
	*ix = x;
	return 0;
}

/* A group's place in the sort: sorting by cost, its cost (descending); then two integers
 * that order as the prefs say (ties by key). */
struct skey {
	double cost; /* 0 unless sorting by cost */
	uint64_t pre, sub;
	uint32_t idx;
};

static inline bool skey_less(int unused, const struct skey *a, const struct skey *b)
{
	(void)unused;
	if (a->cost != b->cost)
		return a->cost > b->cost;
	return a->pre != b->pre ? a->pre < b->pre : a->sub < b->sub;
}

DP_MERGE_SORT_DEFINE(merge_sort, struct skey, int, skey_less)
DP_SELECT_RANK_DEFINE(select_rank, struct skey, int, skey_less)

/*
 * sort_keys - the keys of the groups @g[@ix[0..n)] for @how into @k: cost (descending), then name;
 * name, then file (NULL last) and line; or file, line and name; the group's key last; @rev:
 * names and positions the other way round (costs come negated for that). Names and files
 * are ranked first (dp_rep_str_ranks), so that the sort compares integers only.
 */
static int sort_keys(struct dp_report *r, const struct cgroup *g, const uint32_t *ix, uint32_t n,
		     enum dp_sort how, bool rev, struct skey *k)
{
	const char **s = dp_arena_array(&r->arena, n ? n : 1, sizeof(*s));
	uint32_t *name = dp_arena_array(&r->arena, n ? n : 1, sizeof(*name));
	uint32_t *file = dp_arena_array(&r->arena, n ? n : 1, sizeof(*file));

	if (!s || !name || !file)
		return -DP_ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		s[i] = g[ix[i]].sname;
	if (dp_rep_str_ranks(r, s, n, name) < 0)
		return -DP_ENOMEM;
	if (how != DP_SORT_COST) {
		for (uint32_t i = 0; i < n; i++)
			s[i] = g[ix[i]].file;
		if (dp_rep_str_ranks(r, s, n, file) < 0)
			return -DP_ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++) {
		const struct cgroup *x = &g[ix[i]];

		k[i].idx = ix[i];
		k[i].cost = 0;
		if (how == DP_SORT_COST) {
			k[i].cost = x->metric;
			k[i].pre = (uint64_t)name[i] << 32 | x->key;
			k[i].sub = 0;
		} else if (how == DP_SORT_NAME) {
			k[i].pre = (uint64_t)name[i] << 32 | file[i];
			k[i].sub = (uint64_t)x->line << 32 | x->key;
		} else {
			k[i].pre = (uint64_t)file[i] << 32 | x->line;
			k[i].sub = (uint64_t)name[i] << 32 | x->key;
		}
		if (rev && how != DP_SORT_COST) {
			k[i].pre = ~k[i].pre;
			k[i].sub = ~k[i].sub;
		}
	}
	return 0;
}

/*
 * sort_groups - order the groups @g[@ix[0..n)] by @how, in *@out (indexes into @g), for
 * the bunch [@lo, @hi) shown: only that range is sorted, after the two selections that put in
 * it the groups of those ranks (a page of 20 rows out of 24,000 groups), unless the
 * selections give up (then everything is sorted).
 */
static int sort_groups(struct dp_report *r, const struct cgroup *g, const uint32_t *ix, uint32_t n,
		       enum dp_sort how, bool rev, uint32_t lo, uint32_t hi, struct skey **out)
{
	struct skey *k = dp_arena_array(&r->arena, n ? n : 1, sizeof(*k));
	struct skey *tmp = dp_arena_array(&r->arena, n ? n : 1, sizeof(*tmp));
	uint32_t sorted = 1;

	if (!k || !tmp || sort_keys(r, g, ix, n, how, rev, k) < 0)
		return -DP_ENOMEM;
	*out = k;
	while (sorted < n && !skey_less(0, &k[sorted], &k[sorted - 1]))
		sorted++;
	if (sorted >= n)
		return 0; /* already in order */
	if (hi - lo < n / 4 && (lo == 0 || select_rank(k, 0, n, lo, 0) == 0) &&
	    (hi == n || select_rank(k, lo, n, hi, 0) == 0)) {
		struct skey *part = merge_sort(k + lo, tmp + lo, hi - lo, 0);

		if (part != k + lo)
			memcpy(k + lo, part, (hi - lo) * sizeof(*k));
		return 0;
	}
	*out = merge_sort(k, tmp, n, 0);
	return 0;
}

/* the row of caller group @g (of procedure @ps). Return: 0 or -DP_ENOMEM. */
static int caller_row(struct dp_report *r, const struct dp_report_ctx *c, uint32_t ps,
		      const uint32_t *v, const struct cgroups *gs, uint32_t x,
		      struct dp_rep_row *row)
{
	const struct dp_profile *p = c->p;
	uint32_t mod = c->a->ps_module[ps];
	const struct cgroup *g = &gs->g[x];
	uint32_t pd1 = p->csd[g->one].caller;

	switch (r->q.group) {
	case DP_GROUP_SITE: {
		uint32_t caller = p->css[g->key].ps;

		dp_rep_row_ps(r, c, caller, row);
		row->kind = DP_ENT_CSS;
		row->id = row->css = g->key;
		row->clique = 0;
		row->name = dp_rep_ps_name(r, c, caller, mod);
		row->callee = r->subject.name;
		row->file = p->css[g->key].file ? dp_profile_str(p, p->css[g->key].file) : NULL;
		row->line = p->css[g->key].line;
		break;
	}
	case DP_GROUP_PROC:
		dp_rep_row_ps(r, c, g->key, row);
		row->clique = 0;
		row->name = dp_rep_ps_name(r, c, g->key, mod);
		break;
	case DP_GROUP_MODULE:
		dp_rep_row_module(r, c, g->key, row);
		break;
	case DP_GROUP_CLIQUE:
		dp_rep_row_clique_node(r, c, g->key, row);
		row->name = dp_rep_ps_name(r, c, row->ps, 0); /* as it sorts: threads too */
		break;
	}
	if (g->n == 1 && (r->q.group == DP_GROUP_SITE || r->q.group == DP_GROUP_PROC)) {
		row->clique = c->a->pd_clique[pd1];
		row->thread = p->pd[pd1].thread;
		row->path = dp_rep_path(r, c, pd1, 0); /* one context: which one */
	} else if (r->q.group != DP_GROUP_CLIQUE) {
		row->thread = 0;
	} else { /* a clique: the path to its entry */
		row->path = dp_rep_path(r, c, dp_csr_items(&c->a->clique_pds, g->key)[0], 0);
	}
	row->flags = g->flags;
	row->n = g->n;
	if (gs->costs) {
		row->own = gs->own[x];
		row->desc = gs->desc[x];
	} else {
		group_costs(c, v, g, row);
	}
	/* a path was to be made (a clique, or one context) and could not be */
	return !row->path && (r->q.group == DP_GROUP_CLIQUE ||
			      (g->n == 1 && r->q.group != DP_GROUP_MODULE))
		       ? -DP_ENOMEM
		       : 0;
}

/* the pager and grouping links of a callers page */
static int callers_links(struct dp_report *r, uint32_t ps)
{
	static const char *const gname[] = {"by call site", "by procedure", "by module",
					    "by clique"};
	struct dp_query t = r->q;
	int rc = 0;

	t.proc = ps;
	t.name[0] = 0;
	for (unsigned g = DP_GROUP_SITE; g <= DP_GROUP_CLIQUE && rc == 0; g++) {
		if (g == (unsigned)r->q.group)
			continue;
		t.group = (enum dp_group)g;
		t.bunch = 1;
		rc = dp_rep_link(r, gname[g], &t);
	}
	t.group = r->q.group;
	if (rc == 0 && r->bunch > 1) {
		t.bunch = r->bunch - 1;
		rc = dp_rep_link(r, "previous", &t);
	}
	if (rc == 0 && r->bunch < r->n_bunches) {
		t.bunch = r->bunch + 1;
		rc = dp_rep_link(r, "next", &t);
	}
	return rc;
}

int dp_rep_callers(struct dp_report *r, const struct dp_report_ctx *c)
{
	struct cgroups gs = {.costs = r->q.prefs.sort == DP_SORT_COST};
	uint32_t ps, k = 0, m = 0, *v = NULL, *gi, *ix = NULL;
	struct skey *order = NULL;
	struct dp_rep_rows l;
	uint64_t lo = 0, hi = 0;
	int rc;

	if ((unsigned)r->q.group > DP_GROUP_CLIQUE)
		return dp_error(DP_EUSAGE, "page callers needs group=site|proc|module|clique");
	if (r->q.prefs.contour && !c->contour)
		return dp_error(DP_EUSAGE, "contour exclusion: %s",
				c->contour_error ? c->contour_error : "no contour file");
	rc = dp_rep_subject_proc(r, c, r->q.proc);
	if (rc < 0)
		return rc;
	ps = (uint32_t)rc;
	r->title = dp_rep_printf(r, "Callers of %s", r->subject.name);
	if (!r->title)
		return -DP_ENOMEM;
	if (r->q.prefs.contour && c->contour->warnings && c->contour->warnings[0])
		r->note = c->contour->warnings;
	gi = malloc(((size_t)dp_csr_count(&c->a->ps_callers, ps) + 1) * sizeof(*gi));
	rc = gi ? caller_csds(r, c, ps, &gs, gi, &v, &k) : -DP_ENOMEM;
	free(gi);
	if (rc == 0)
		rc = dp_rep_bunch(r, gs.n, &lo, &hi);
	if (rc == 0)
		rc = caller_groups(r, c, &gs, (uint32_t)lo, (uint32_t)hi, &ix, &m);
	if (rc == 0)
		rc = sort_groups(r, gs.g, ix, m, r->q.prefs.sort, r->q.prefs.sort_rev, (uint32_t)lo,
				 (uint32_t)hi, &order);
	dp_rep_rows_init(&l, r);
	for (uint64_t i = lo; rc == 0 && i < hi; i++) {
		struct dp_rep_row *row = dp_rep_rows_add(&l);

		if (!row)
			rc = -DP_ENOMEM;
		else
			rc = caller_row(r, c, ps, v, &gs, order[i].idx, row);
	}
	free(gs.g);
	free(gs.own);
	free(gs.desc);
	dp_map32_free(&gs.map);
	if (rc == -DP_ENOMEM)
		rc = dp_error(DP_ENOMEM, "out of memory building a callers page");
	if (rc == 0)
		rc = dp_rep_section(r, "callers", "Callers", &l);
	if (rc == 0)
		rc = dp_rep_link_id(r, "procedure", DP_PAGE_PROC, ps);
	return rc < 0 ? rc : callers_links(r, ps);
}
