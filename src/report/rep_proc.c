/*
 * report/rep_proc.c - the page about one procedure over all its contexts (proc); its
 * callers page is rep_callers.c, the site page rep_site.c.
 *
 * page=proc&id=N (or name=F):
 *   subject: the PS row (dp_rep_row_ps: own = ps_own, own + desc = ps_total, all
 *     contexts). Title "Procedure N: NAME".
 *   section "callers": one row, kind NONE, name "(all callers)", SUM with n = the caller
 *     CSDs, own = the sum of those CSDs' own, own + desc = the procedure's total (every
 *     cost with the procedure on the stack is under a call from another procedure; zero
 *     for a procedure nothing calls, the program's root); ps =
 *     the procedure. Callers are the CSDs calling any PD of the procedure,
 *     self-recursive ones (caller PS == the PS) excluded.
 *   section "sites": per call site of the procedure (analysis ps_csss) the CSS row
 *     (dp_rep_row_css: the sum over its CSDs), depth 0, sorted by prefs; the sites of
 *     one line and callee merged into the first (SUM, n = the sites) unless prefs.split
 *     (dp_rep_coalesce_sites). A site whose
 *     CSDs reach several callee procedures is MULTI, and is followed at depth 1 by one
 *     row per callee procedure (kind PS, id = callee, css = the site, SUM with n = its
 *     CSDs, own/desc = the sum over its CSDs at this site), sorted by prefs.
 *   facts: caller_procs (distinct caller procedures), caller_csds, self_csds
 *     (self-recursive CSDs left out), pds (contexts of the procedure).
 *   links: "callers" (callers page), "module" (module page), "flame of callers"
 *     (flame_callers page).
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "report_int.h"

/* radix_sort - sort @v[0..n) by their upper 32 bits, stably (LSD, 4 byte passes) */
static int radix_sort(struct dp_report *r, uint64_t *v, uint32_t n)
{
	uint64_t *tmp, *src = v, *dst;

	if (n < 64) { /* insertion sort; stable */
		for (uint32_t i = 1; i < n; i++) {
			uint64_t x = v[i];
			uint32_t j = i;

			for (; j > 0 && (v[j - 1] >> 32) > (x >> 32); j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
		return 0;
	}
	tmp = dp_arena_array(&r->arena, n, sizeof(*tmp));
	if (!tmp)
		return dp_error(DP_ENOMEM, "out of memory sorting %u callers", n);
	dst = tmp;
	for (unsigned shift = 32; shift < 64; shift += 8) {
		uint32_t count[257] = {0};

		for (uint32_t i = 0; i < n; i++)
			count[((src[i] >> shift) & 0xFF) + 1]++;
		for (unsigned b = 0; b < 256; b++)
			count[b + 1] += count[b];
		for (uint32_t i = 0; i < n; i++)
			dst[count[(src[i] >> shift) & 0xFF]++] = src[i];
		uint64_t *t = src;

		src = dst;
		dst = t;
	}
	/* four passes: the result is back in @v */
	return 0;
}

int dp_rep_subject_proc(struct dp_report *r, const struct dp_report_ctx *c, uint32_t id)
{
	int ps;

	if (id == 0 && !r->q.name[0])
		return dp_error(DP_EUSAGE, "page %s needs %s or name=PROCEDURE",
				dp_query_page_name(r->q.page),
				r->q.page == DP_PAGE_PROC ? "id=N" : "proc=N");
	ps = dp_rep_resolve_proc(r, c, id);
	if (ps < 0)
		return ps;
	r->has_subject = true;
	dp_rep_row_ps(r, c, (uint32_t)ps, &r->subject);
	return ps;
}

/*
 * the "callers" summary of the proc page and its facts: the sums come from the analysis
 * (ps_own less ps_self_own, ps_in_desc); only the distinct caller procedures need the
 * caller CSDs, and of each only its CSS (in the record's first line: its caller's PS is
 * the CSS's, a small array)
 */
static int proc_callers(struct dp_report *r, const struct dp_report_ctx *c, uint32_t ps)
{
	const struct dp_profile *p = c->p;
	const struct dp_analysis *a = c->a;
	uint32_t n = dp_csr_count(&a->ps_callers, ps), k = n - a->ps_self_n[ps], procs = 0;
	const uint32_t *ids = dp_csr_items(&a->ps_callers, ps);
	uint8_t *seen = dp_arena_array(&r->arena, (size_t)p->n_ps + 1, 1); /* caller PSs */
	struct dp_rep_rows l;
	struct dp_rep_row *row;
	int rc;

	dp_rep_rows_init(&l, r);
	row = dp_rep_rows_add(&l);
	if (!seen || !row)
		return dp_error(DP_ENOMEM, "out of memory building a procedure page");
	memset(seen, 0, (size_t)p->n_ps + 1);
	row->kind = DP_ENT_NONE;
	row->name = "(all callers)";
	row->ps = ps;
	row->flags = DP_ROW_SUM;
	seen[ps] = 1; /* self-recursive callers are left out */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t caller;

		if (i + DP_REP_AHEAD < n)
			__builtin_prefetch(&p->csd[ids[i + DP_REP_AHEAD]].css);
		caller = p->css[p->csd[ids[i]].css].ps;
		procs += !seen[caller];
		seen[caller] = 1;
	}
	row->own = a->ps_own[ps];
	dp_costs_sub(&row->own, &a->ps_self_own[ps]);
	/* every cost with the procedure on the stack is under a call from another
	 * procedure: the total of those calls is the procedure's */
	if (k) {
		row->desc = r->subject.desc;
		dp_inherit_add(&row->desc, &(struct dp_inherit){a->ps_self_own[ps].samples,
								a->ps_self_own[ps].callseqs,
								a->ps_self_own[ps].allocs,
								a->ps_self_own[ps].alloc_bytes});
	}
	row->n = k;
	rc = dp_rep_section(r, "callers", "Callers", &l);
	if (rc == 0)
		rc = dp_rep_fact_u64(r, "caller_procs", "caller procedures", procs);
	if (rc == 0)
		rc = dp_rep_fact_u64(r, "caller_csds", "caller call sites in context", k);
	if (rc == 0)
		rc = dp_rep_fact_u64(r, "self_csds", "self-recursive calls left out", n - k);
	return rc;
}

/* the rows of site @css (depth 0, then its callee procedures at depth 1 if several) */
static int proc_site(struct dp_report *r, const struct dp_report_ctx *c, uint32_t css,
		     struct dp_rep_rows *l)
{
	const struct dp_profile *p = c->p;
	uint32_t n = dp_csr_count(&c->a->css_csds, css), first;
	const uint32_t *ids = dp_csr_items(&c->a->css_csds, css);
	struct dp_rep_row *row = dp_rep_rows_add(l);
	uint64_t *v;
	int rc;

	if (!row)
		return -DP_ENOMEM;
	dp_rep_row_css(r, c, css, row);
	if (n < 2 || row->callee)
		return 0; /* one callee procedure (or none) */
	row->flags |= DP_ROW_MULTI;
	v = dp_arena_array(&r->arena, n, sizeof(*v));
	if (!v)
		return dp_error(DP_ENOMEM, "out of memory building a procedure page");
	for (uint32_t i = 0; i < n; i++)
		v[i] = (uint64_t)p->pd[p->csd[ids[i]].callee].ps << 32 | ids[i];
	rc = radix_sort(r, v, n);
	first = l->n;
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		uint32_t csd = (uint32_t)v[i], callee = (uint32_t)(v[i] >> 32);
		struct dp_inherit desc;

		if (i == 0 || callee != v[i - 1] >> 32) {
			row = dp_rep_rows_add(l);
			if (!row)
				return -DP_ENOMEM;
			dp_rep_row_ps(r, c, callee, row);
			memset(&row->own, 0, sizeof(row->own));
			memset(&row->desc, 0, sizeof(row->desc));
			row->flags = 0;
			row->depth = 1;
			row->css = css;
			row->name = dp_rep_ps_name(r, c, callee, c->a->ps_module[p->css[css].ps]);
		}
		row->flags |= DP_ROW_SUM;
		row->n++;
		dp_costs_add_csd(&row->own, &p->csd[csd]);
		desc = dp_analysis_csd_desc(c->a, csd);
		dp_inherit_add(&row->desc, &desc);
	}
	return rc < 0 ? rc : dp_rep_sort(r, l->rows + first, l->n - first, &r->q.prefs);
}

int dp_rep_proc(struct dp_report *r, const struct dp_report_ctx *c)
{
	const struct dp_analysis *a = c->a;
	int rc = dp_rep_subject_proc(r, c, r->q.id);
	uint32_t ps, ns;
	const uint32_t *sites;
	struct dp_rep_rows l;

	if (rc < 0)
		return rc;
	ps = (uint32_t)rc;
	r->title = dp_rep_printf(r, "Procedure %u: %s", ps, r->subject.name);
	if (!r->title)
		return -DP_ENOMEM;
	rc = proc_callers(r, c, ps);
	ns = dp_csr_count(&a->ps_csss, ps);
	sites = dp_csr_items(&a->ps_csss, ps);
	dp_rep_rows_init(&l, r);
	if (rc == 0)
		rc = dp_rep_rows_room(&l, ns);
	for (uint32_t i = 0; i < ns && rc == 0; i++)
		rc = proc_site(r, c, sites[i], &l);
	if (rc == 0)
		rc = dp_rep_coalesce_sites(r, &l, 0);
	if (rc == 0)
		rc = dp_rep_sort(r, l.rows, l.n, &r->q.prefs);
	if (rc == 0)
		rc = dp_rep_section(r, "sites", "Call sites", &l);
	if (rc == 0)
		rc = dp_rep_fact_u64(r, "pds", "contexts", dp_csr_count(&a->ps_pds, ps));
	if (rc == 0)
		rc = dp_rep_link_id(r, "callers", DP_PAGE_CALLERS, ps);
	if (rc == 0)
		rc = dp_rep_link_id(r, "module", DP_PAGE_MODULE, a->ps_module[ps]);
	if (rc == 0)
		rc = dp_rep_link_id(r, "flame of callers", DP_PAGE_FLAME_CALLERS, ps);
	return rc;
}
