/*
 * report/rep_site.c - the page about one static call site in every context (site): its
 * contexts ranked by cost, of which only the bunch asked for is selected (a bounded heap,
 * not a sort of all) and made into rows.
 *
 * page=site&id=N:
 *   subject: the CSS row. Title "Call site N: CALLER -> CALLEE".
 *   section "contexts": one CSD row per CSD of the site (name = the callee, clique = the
 *     callee's clique, thread = the thread, path = the call path down to the callee,
 *     dp_rep_path) with n = THE CALLER'S CLIQUE (SUM is not set:
 *     n is not a count here), sorted by cost descending (prefs' cost if sort=cost, else
 *     total time, or total callseqs without samples; ascending for sort=cost with
 *     sort_rev: every context names the same callee), then only bunch K (bunch=K,
 *     size=S, as on the callers page) is kept.
 *   facts: contexts. links: "caller" (proc page of the caller), "callee" (when single).
 */
#include <stdbool.h>
#include <string.h>

#include "../core/err.h"
#include "report_int.h"

/* One context of a site page: its sort value, its callee's name (for ties) and index. */
struct site_ctx {
	double v;
	const char *name;
	uint32_t csd, i;
};

/* site_before - whether context @x is shown before @y: value descending, then name, then
 * the order of the site's CSDs (what dp_rep_sort() does with rows) */
static bool site_before(const struct site_ctx *x, const struct site_ctx *y)
{
	int d;

	if (x->v != y->v)
		return x->v > y->v;
	d = x->name == y->name ? 0 : strcmp(x->name, y->name);
	return d ? d < 0 : x->i < y->i;
}

/* site_sift - restore the heap of @h[0..n) (the worst context on top) from @i down */
static void site_sift(struct site_ctx *h, uint32_t n, uint32_t i)
{
	for (;;) {
		uint32_t w = i, l = 2 * i + 1, rt = l + 1;
		struct site_ctx t;

		if (l < n && site_before(&h[w], &h[l]))
			w = l;
		if (rt < n && site_before(&h[w], &h[rt]))
			w = rt;
		if (w == i)
			return;
		t = h[i];
		h[i] = h[w];
		h[w] = t;
		i = w;
	}
}

/*
 * site_select - the first @hi contexts of @x[0..n) in display order into @x[0..hi),
 * sorted: a heap of the best @hi seen (the worst on top), then heapsort of it.
 */
static void site_select(struct site_ctx *x, uint32_t n, uint32_t hi)
{
	if (hi == 0)
		return;
	for (uint32_t i = hi / 2; i-- > 0;)
		site_sift(x, hi, i);
	for (uint32_t i = hi; i < n; i++) {
		if (site_before(&x[i], &x[0])) {
			x[0] = x[i];
			site_sift(x, hi, 0);
		}
	}
	for (uint32_t m = hi; m > 1; m--) { /* the worst goes last */
		struct site_ctx t = x[0];

		x[0] = x[m - 1];
		x[m - 1] = t;
		site_sift(x, m - 1, 0);
	}
}

/* site_contexts - the contexts of site @css with their sort values as @by says */
static struct site_ctx *site_contexts(struct dp_report *r, const struct dp_report_ctx *c,
				      uint32_t css, const struct dp_prefs *by)
{
	const struct dp_profile *p = c->p;
	uint32_t n = dp_csr_count(&c->a->css_csds, css), last_ps = 0, mod;
	const uint32_t *ids = dp_csr_items(&c->a->css_csds, css);
	struct site_ctx *x = dp_arena_array(&r->arena, n ? n : 1, sizeof(*x));
	const char *last_name = "";

	if (!x) {
		dp_error(DP_ENOMEM, "out of memory building a call site page");
		return NULL;
	}
	mod = c->a->ps_module[p->css[css].ps];
	for (uint32_t i = 0; i < n; i++) {
		const struct dp_csd *d = &p->csd[ids[i]];
		struct dp_rep_row row = {0};
		uint32_t ps;

		if (i + DP_REP_AHEAD < n) {
			const struct dp_csd *ahead = &p->csd[ids[i + DP_REP_AHEAD]];

			__builtin_prefetch(ahead);
			__builtin_prefetch((const char *)(ahead + 1) - 1);
			__builtin_prefetch(&c->a->csd_child_clique[ids[i + DP_REP_AHEAD]]);
		}
		dp_costs_add_csd(&row.own, d);
		row.desc = dp_analysis_csd_desc(c->a, ids[i]);
		ps = p->pd[d->callee].ps;
		if (ps != last_ps) { /* mostly one callee: name it once */
			last_ps = ps;
			last_name = dp_rep_ps_name(r, c, ps, mod);
		}
		x[i] = (struct site_ctx){
			dp_rep_row_metric(&row, by->sort_metric, by->sort_scope, by->sort_per),
			last_name, ids[i], i};
		if (by->sort_rev) /* ascending: the order of the negated values */
			x[i].v = -x[i].v;
	}
	return x;
}

int dp_rep_site(struct dp_report *r, const struct dp_report_ctx *c)
{
	const struct dp_profile *p = c->p;
	const struct dp_analysis *a = c->a;
	uint32_t css = r->q.id, n;
	struct dp_prefs by = r->q.prefs;
	struct site_ctx *x;
	struct dp_rep_rows l;
	uint64_t lo, hi;
	int rc = dp_rep_check_id(r, "call site", css, p->n_css);

	if (rc < 0)
		return rc;
	r->has_subject = true;
	dp_rep_row_css(r, c, css, &r->subject);
	r->title = dp_rep_printf(r, "Call site %u: %s -> %s", css,
				 dp_rep_ps_name(r, c, p->css[css].ps, 0), r->subject.name);
	if (!r->title)
		return -DP_ENOMEM;
	if (by.sort != DP_SORT_COST) {
		by.sort_metric = a->root_total.samples ? DP_METRIC_TIME : DP_METRIC_CALLSEQS;
		by.sort_scope = DP_SCOPE_TOTAL;
		by.sort_per = DP_PER_OVERALL;
		by.sort_rev = false;
	}
	n = dp_csr_count(&a->css_csds, css);
	x = site_contexts(r, c, css, &by);
	if (!x)
		return -DP_ENOMEM;
	rc = dp_rep_bunch(r, n, &lo, &hi);
	if (rc < 0)
		return rc;
	site_select(x, n, (uint32_t)hi);
	dp_rep_rows_init(&l, r);
	rc = dp_rep_rows_room(&l, (uint32_t)(hi - lo));
	for (uint64_t i = lo; i < hi && rc == 0; i++) {
		struct dp_rep_row *row = dp_rep_rows_add(&l);

		if (!row)
			return -DP_ENOMEM;
		dp_rep_row_csd(r, c, x[i].csd, row);
		row->n = a->pd_clique[p->csd[x[i].csd].caller];
		row->path = dp_rep_path(r, c, p->csd[x[i].csd].caller, row->ps);
		if (!row->path)
			return -DP_ENOMEM;
	}
	if (rc == 0)
		rc = dp_rep_section(r, "contexts", "Contexts", &l);
	if (rc == 0)
		rc = dp_rep_fact_u64(r, "contexts", "contexts", n);
	if (rc == 0)
		rc = dp_rep_link_id(r, "caller", DP_PAGE_PROC, p->css[css].ps);
	if (rc == 0 && r->subject.ps)
		rc = dp_rep_link_id(r, "callee", DP_PAGE_PROC, r->subject.ps);
	return rc;
}
