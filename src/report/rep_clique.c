/*
 * report/rep_clique.c - the clique page and the two pages made from it: root (the root
 * clique's page) and action (descend from the root clique while one child clique holds
 * most of the cost, then that clique's page with the path descended).
 *
 * page=clique&id=N (also root, action):
 *   subject: the clique row (dp_rep_row_clique: own = the entry PD's own, desc = clique
 *     total minus that). Title "Clique N: ENTRY".
 *   section "ancestors": the entry CSDs above the clique, innermost first, at most
 *     prefs.ancestors rows (-1 = all); each a CSD row (kind CSD, depth 0, id = the entry
 *     CSD) with the CSD's own and desc, whose name is "CALLER -> CALLEE", ps = the callee,
 *     css = the call site and clique = the CALLER's clique (the link climbs).
 *   section "procs": the member PDs grouped by procedure, the entry's procedure first,
 *     the others sorted by prefs. Per procedure a PS row (depth 0, id = PS, clique = this
 *     clique, own/desc = the sum over its PDs in this clique, SUM with n = #PDs when
 *     several; in a clique of several PDs own + desc = the clique's total, as for
 *     dp_rep_row_pd). If several PDs: a PD row each at depth 1 (own/desc = the PD's).
 *     Under the
 *     PD (depth + 1), every call site of the procedure (analysis ps_csss), sorted by
 *     prefs: no CSD of this PD at it -> a CSS row with zero costs, INACTIVE ("no calls
 *     made"); one -> that CSD's row (RECURSIVE when the callee stays in this clique:
 *     then it has no desc and its clique is this one); several callees -> a CSS row,
 *     MULTI | SUM (n = #CSDs, costs = their sum), then each CSD row at depth + 1 sorted by
 *     prefs, unless prefs.summarise. Costs are this context's only. The sites of one line
 *     and callee (one-callee rows) are merged into the first, SUM with n = the sites,
 *     unless prefs.split (dp_rep_coalesce_sites).
 *   facts: pds (members), procs (distinct procedures among them).
 *   links: "entry procedure" (proc page), "parent clique" (clique page of the caller of
 *     the entry CSD, if any), "flame graph" (flame page).
 * page=root: the clique page of the analysis's root clique.
 * page=action&percent=P&metric=M (default time): from the root clique, descend while exactly one
 * child clique (entered by a crossing CSD of any member) has a total of M (own + desc of a crossing
 *   CSD into it: each counts alone) >= P% of the ROOT total of M. metric=time
 *   on a profile without samples uses callseqs (r->note says so); metric=calls is a
 *   usage error. The page is the final clique's page (subject and sections above) plus a
 *   section "path" first: the crossing CSD rows descended, outermost first, depth 0.
 *   Facts add: percent (f64), metric (the one followed, a string), steps.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "report_int.h"

/* the "ancestors" section of @clique */
static int ancestors(struct dp_report *r, const struct dp_report_ctx *c, uint32_t clique)
{
	const struct dp_analysis *a = c->a;
	const struct dp_profile *p = c->p;
	int limit = r->q.prefs.ancestors;
	struct dp_rep_rows l;

	dp_rep_rows_init(&l, r);
	for (uint32_t e = a->clique_entry[clique]; e && (limit < 0 || l.n < (uint32_t)limit);) {
		uint32_t caller = p->csd[e].caller;
		struct dp_rep_row *row = dp_rep_rows_add(&l);
		const char *from;

		if (!row)
			return -DP_ENOMEM;
		dp_rep_row_csd(r, c, e, row);
		from = p->ps[p->pd[caller].ps].kind == DP_PS_THREAD
			       ? dp_rep_thread_name(r, c, caller)
			       : dp_rep_ps_name(r, c, p->pd[caller].ps, 0);
		row->name = dp_rep_printf(r, "%s -> %s", from, row->callee);
		if (!row->name)
			return -DP_ENOMEM;
		row->clique = a->pd_clique[caller];
		e = a->clique_entry[row->clique];
	}
	return dp_rep_section(r, "ancestors", "Ancestors", &l);
}

struct pair {
	uint32_t key, id;
};

static int pair_cmp(const void *x, const void *y)
{
	const struct pair *a = x, *b = y;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

/* one call site @css of PD @pd whose CSDs are @csds[0..n): its rows at @depth */
static int site_rows(struct dp_report *r, const struct dp_report_ctx *c, uint32_t css,
		     const struct pair *csds, uint32_t n, uint32_t depth, struct dp_rep_rows *l)
{
	struct dp_rep_row *row = dp_rep_rows_add(l);
	uint32_t first;

	if (!row)
		return -DP_ENOMEM;
	if (n == 1) {
		dp_rep_row_csd(r, c, csds[0].id, row);
		row->depth = depth;
		return 0;
	}
	dp_rep_row_css(r, c, css, row);
	row->depth = depth;
	memset(&row->own, 0, sizeof(row->own));
	memset(&row->desc, 0, sizeof(row->desc));
	row->thread = 0;
	row->clique = 0;
	if (n == 0) {
		row->flags |= DP_ROW_INACTIVE;
		return 0;
	}
	row->flags |= DP_ROW_MULTI;
	row->flags &= ~DP_ROW_INACTIVE;
	first = l->n;
	for (uint32_t i = 0; i < n; i++) {
		struct dp_rep_row one = {.name = ""};

		dp_rep_row_csd(r, c, csds[i].id, &one);
		dp_rep_row_add_costs(&l->rows[first - 1], &one);
		if (r->q.prefs.summarise)
			continue;
		one.depth = depth + 1;
		row = dp_rep_rows_add(l);
		if (!row)
			return -DP_ENOMEM;
		*row = one;
	}
	return dp_rep_sort(r, l->rows + first, l->n - first, &r->q.prefs);
}

/* the call sites of PD @pd (procedure @ps) at @depth, sorted by prefs */
static int pd_sites(struct dp_report *r, const struct dp_report_ctx *c, uint32_t pd, uint32_t ps,
		    uint32_t depth, struct dp_rep_rows *l)
{
	const struct dp_analysis *a = c->a;
	uint32_t n = dp_csr_count(&a->pd_csds, pd), ns = dp_csr_count(&a->ps_csss, ps);
	const uint32_t *ids = dp_csr_items(&a->pd_csds, pd), *sites = dp_csr_items(&a->ps_csss, ps);
	struct pair *v = n ? dp_arena_array(&r->arena, n, sizeof(*v)) : NULL;
	uint32_t first = l->n, j = 0;
	int rc = 0;

	if ((n && !v) || dp_rep_rows_room(l, ns + n) < 0)
		return dp_error(DP_ENOMEM, "out of memory building a clique page");
	for (uint32_t i = 0; i < n; i++)
		v[i] = (struct pair){c->p->csd[ids[i]].css, ids[i]};
	if (n > 1)
		qsort(v, n, sizeof(*v), pair_cmp);
	/* ps_csss is in increasing CSS id, as v is now: one merge pass */
	for (uint32_t s = 0; s < ns && rc == 0; s++) {
		uint32_t k = j;

		while (j < n && v[j].key < sites[s])
			j++;
		k = j;
		while (j < n && v[j].key == sites[s])
			j++;
		rc = site_rows(r, c, sites[s], v + k, j - k, depth, l);
	}
	if (rc < 0)
		return rc;
	rc = dp_rep_coalesce_sites(r, l, first);
	return rc < 0 ? rc : dp_rep_sort(r, l->rows + first, l->n - first, &r->q.prefs);
}

/* one procedure's rows: its PDs @m[0..n) (all of procedure m[0].key) in clique @clique */
static int proc_rows(struct dp_report *r, const struct dp_report_ctx *c, uint32_t clique,
		     const struct pair *m, uint32_t n, struct dp_rep_rows *l)
{
	uint32_t ps = m[0].key, at = l->n;
	struct dp_rep_row *row = dp_rep_rows_add(l);
	int rc;

	if (!row)
		return -DP_ENOMEM;
	dp_rep_row_ps(r, c, ps, row);
	row->clique = clique;
	memset(&row->own, 0, sizeof(row->own));
	memset(&row->desc, 0, sizeof(row->desc));
	row->flags &= ~DP_ROW_INACTIVE;
	for (uint32_t i = 0; i < n; i++) {
		struct dp_rep_row one = {.name = ""};

		dp_rep_row_pd(r, c, m[i].id, &one);
		dp_rep_row_add_costs(&l->rows[at], &one);
		if (n == 1) {
			l->rows[at].flags = one.flags & DP_ROW_INACTIVE;
			l->rows[at].n = 0;
			l->rows[at].thread = one.thread;
		}
		if (n > 1) {
			one.depth = 1;
			row = dp_rep_rows_add(l);
			if (!row)
				return -DP_ENOMEM;
			*row = one;
		}
		rc = pd_sites(r, c, m[i].id, ps, n > 1 ? 2 : 1, l);
		if (rc < 0)
			return rc;
	}
	if (dp_csr_count(&c->a->clique_pds, clique) > 1) { /* the recursion's total, once */
		struct dp_rep_row *p = &l->rows[at];
		const struct dp_inherit *t = &c->a->clique_total[clique];

		p->desc = (struct dp_inherit){
			t->samples - p->own.samples, t->callseqs - p->own.callseqs,
			t->allocs - p->own.allocs, t->alloc_bytes - p->own.alloc_bytes};
	}
	return 0;
}

/* the "procs" section of @clique */
static int procs(struct dp_report *r, const struct dp_report_ctx *c, uint32_t clique)
{
	const struct dp_analysis *a = c->a;
	uint32_t n = dp_csr_count(&a->clique_pds, clique), n_ps = 0, second = 0;
	const uint32_t *pds = dp_csr_items(&a->clique_pds, clique);
	struct pair *m = dp_arena_array(&r->arena, n, sizeof(*m));
	uint32_t entry_ps = c->p->pd[pds[0]].ps;
	struct dp_rep_rows l;
	int rc = 0;

	if (!m)
		return dp_error(DP_ENOMEM, "out of memory building a clique page");
	for (uint32_t i = 0; i < n; i++) {
		uint32_t ps = c->p->pd[pds[i]].ps;

		/* the entry's procedure sorts first (key 0), the others by PS id */
		m[i] = (struct pair){ps == entry_ps ? 0 : ps, pds[i]};
	}
	qsort(m, n, sizeof(*m), pair_cmp);
	for (uint32_t i = 0; i < n; i++)
		if (m[i].key == 0)
			m[i].key = entry_ps;
	dp_rep_rows_init(&l, r);
	for (uint32_t i = 0, j; i < n && rc == 0; i = j) {
		for (j = i + 1; j < n && m[j].key == m[i].key;)
			j++;
		if (i > 0 && second == 0)
			second = l.n;
		n_ps++;
		rc = proc_rows(r, c, clique, m + i, j - i, &l);
	}
	if (rc == 0 && second)
		rc = dp_rep_sort(r, l.rows + second, l.n - second, &r->q.prefs);
	if (rc == 0)
		rc = dp_rep_section(r, "procs", "Procedures", &l);
	if (rc == 0)
		rc = dp_rep_fact_u64(r, "pds", "procedure contexts", n);
	if (rc == 0)
		rc = dp_rep_fact_u64(r, "procs", "procedures", n_ps);
	return rc;
}

/* the page of @clique (id checked), after the sections already in @r */
static int clique_page(struct dp_report *r, const struct dp_report_ctx *c, uint32_t clique)
{
	const struct dp_analysis *a = c->a;
	uint32_t e = a->clique_entry[clique];
	int rc;

	r->has_subject = true;
	dp_rep_row_clique(r, c, clique, &r->subject);
	r->title = dp_rep_printf(r, "Clique %u: %s", clique, r->subject.name);
	if (!r->title)
		return -DP_ENOMEM;
	rc = ancestors(r, c, clique);
	if (rc == 0)
		rc = procs(r, c, clique);
	if (rc == 0)
		rc = dp_rep_link_id(r, "entry procedure", DP_PAGE_PROC, r->subject.ps);
	if (rc == 0 && e)
		rc = dp_rep_link_id(r, "parent clique", DP_PAGE_CLIQUE,
				    a->pd_clique[c->p->csd[e].caller]);
	if (rc == 0)
		rc = dp_rep_link_id(r, "flame graph", DP_PAGE_FLAME, 0);
	return rc;
}

int dp_rep_clique(struct dp_report *r, const struct dp_report_ctx *c)
{
	int rc = dp_rep_check_id(r, "clique", r->q.id, c->a->n_cliques);

	return rc < 0 ? rc : clique_page(r, c, r->q.id);
}

int dp_rep_root(struct dp_report *r, const struct dp_report_ctx *c)
{
	if (c->a->root_clique == 0)
		return dp_error(DP_ENOENT, "the profile has no root clique");
	return clique_page(r, c, c->a->root_clique);
}

/* crossing_value - @m of crossing CSD @csd: own + desc (calls excluded by the caller) */
static uint64_t crossing_value(const struct dp_report_ctx *c, uint32_t csd, enum dp_metric m)
{
	const struct dp_csd *d = &c->p->csd[csd];
	const struct dp_inherit desc = dp_analysis_csd_desc(c->a, csd), *i = &desc;

	switch (m) {
	case DP_METRIC_CALLSEQS:
		return d->callseqs + i->callseqs;
	case DP_METRIC_ALLOCS:
		return d->allocs + i->allocs;
	case DP_METRIC_BYTES:
		return d->alloc_bytes + i->alloc_bytes;
	default:
		return d->samples + i->samples;
	}
}

/*
 * action_step - the one child clique of @clique holding >= @min of @m, in *@next with
 * a crossing CSD entering it (the largest) in *@via; 0 if none or several.
 */
static uint32_t action_step(const struct dp_report_ctx *c, uint32_t clique, enum dp_metric m,
			    double min, uint32_t *via)
{
	const struct dp_analysis *a = c->a;
	uint32_t n = dp_csr_count(&a->clique_pds, clique), found = 0;
	const uint32_t *pds = dp_csr_items(&a->clique_pds, clique);
	uint64_t best = 0;

	/* each crossing CSD counts alone: an entry CSD's value is its clique's total; the
	 * extra entries of hand-made files only have their own cost */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t k = dp_csr_count(&a->pd_csds, pds[i]);
		const uint32_t *ids = dp_csr_items(&a->pd_csds, pds[i]);

		for (uint32_t j = 0; j < k; j++) {
			uint32_t child = a->csd_child_clique[ids[j]];
			uint64_t v;

			if (!child)
				continue;
			v = crossing_value(c, ids[j], m);
			if ((double)v < min)
				continue;
			if (found && found != child)
				return 0;
			if (!found || v > best) {
				best = v;
				*via = ids[j];
			}
			found = child;
		}
	}
	return found;
}

/* the metric action descends by, with the note explaining a substitution */
static int action_metric(struct dp_report *r, const struct dp_report_ctx *c, enum dp_metric *m)
{
	*m = r->q.metric;
	if (*m == DP_METRIC_CALLS)
		return dp_error(DP_EUSAGE, "page action needs metric=time|callseqs|allocs|bytes "
					   "(calls are not inherited)");
	if (*m == DP_METRIC_TIME && c->a->root_total.samples == 0) {
		*m = DP_METRIC_CALLSEQS;
		r->note = "the profile has no samples: the action follows callseqs";
	}
	return 0;
}

static uint64_t root_value(const struct dp_inherit *t, enum dp_metric m)
{
	switch (m) {
	case DP_METRIC_CALLSEQS:
		return t->callseqs;
	case DP_METRIC_ALLOCS:
		return t->allocs;
	case DP_METRIC_BYTES:
		return t->alloc_bytes;
	default:
		return t->samples;
	}
}

int dp_rep_hot_path(struct dp_report *r, const struct dp_report_ctx *c, enum dp_metric m,
		    double pct, uint32_t max_steps, struct dp_rep_rows *path, uint32_t *end)
{
	const struct dp_analysis *a = c->a;
	double min = (double)root_value(&a->root_total, m) * pct / 100.0;
	uint32_t cur = a->root_clique, next, via = 0;

	/* child cliques have smaller ids than their parents: the descent ends */
	while (path->n < max_steps && (next = action_step(c, cur, m, min, &via)) != 0) {
		struct dp_rep_row *row = dp_rep_rows_add(path);

		if (!row)
			return -DP_ENOMEM;
		dp_rep_row_csd(r, c, via, row);
		cur = next;
	}
	*end = cur;
	return 0;
}

int dp_rep_action(struct dp_report *r, const struct dp_report_ctx *c)
{
	const struct dp_analysis *a = c->a;
	double pct = r->q.percent;
	uint32_t cur = a->root_clique;
	struct dp_rep_rows path;
	enum dp_metric m;
	int rc;

	if (!(pct > 0.0 && pct <= 100.0))
		return dp_error(DP_EUSAGE, "page action needs 0 < percent <= 100, got %g", pct);
	if (cur == 0)
		return dp_error(DP_ENOENT, "the profile has no root clique");
	rc = action_metric(r, c, &m);
	if (rc < 0)
		return rc;
	dp_rep_rows_init(&path, r);
	rc = dp_rep_hot_path(r, c, m, pct, UINT32_MAX, &path, &cur);
	if (rc < 0)
		return rc;
	rc = dp_rep_section(r, "path", "Path from the root", &path);
	if (rc == 0)
		rc = dp_rep_fact_f64(r, "percent", "threshold (% of the root total)", pct);
	if (rc == 0)
		rc = dp_rep_fact_str(r, "metric", "metric followed", dp_metric_name(m));
	if (rc == 0)
		rc = dp_rep_fact_u64(r, "steps", "cliques descended", path.n);
	return rc < 0 ? rc : clique_page(r, c, cur);
}
