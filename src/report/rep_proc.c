/*
 * report/rep_proc.c - the pages about one procedure over all its contexts (proc) and
 * about its callers (callers, grouped, contour exclusion, paginated); the site page is in
 * rep_site.c.
 *
 * page=proc&id=N (or name=F):
 *   subject: the PS row (dp_rep_row_ps: ps_own / ps_desc, all contexts). Title
 *     "Procedure N: NAME".
 *   section "callers": one row, kind NONE, name "(all callers)", SUM with n = the caller
 *     CSDs, own/desc = the sum of those CSDs' own/desc; ps = the procedure. Callers are the
 *     CSDs calling any PD of the procedure, self-recursive ones (caller PS == the PS)
 *     excluded.
 *   section "sites": per call site of the procedure (analysis ps_csss) the CSS row
 *     (dp_rep_row_css: the sum over its CSDs), depth 0, sorted by prefs. A site whose
 *     CSDs reach several callee procedures is MULTI, and is followed at depth 1 by one
 *     row per callee procedure (kind PS, id = callee, css = the site, SUM with n = its
 *     CSDs, own/desc = the sum over its CSDs at this site), sorted by prefs.
 *   facts: caller_procs (distinct caller procedures), caller_csds, self_csds
 *     (self-recursive CSDs left out), pds (contexts of the procedure).
 *   links: "callers" (callers page), "module" (module page), "flame of callers"
 *     (flame_callers page).
 * page=callers&proc=N (or name=F), group=site|proc|module|clique, page=K (bunch), size=S:
 *   subject: the PS row. Title "Callers of NAME".
 *   section "callers": the procedure's caller CSDs (self-recursive ones excluded), grouped
 *     by the caller's call site (kind CSS, id = CSS, ps = the caller procedure, name =
 *     the caller procedure, callee = this procedure, position = the call site), caller
 *     procedure (kind PS), caller module (kind MODULE) or caller clique (kind CLIQUE, name
 *     = its entry procedure). Each row is SUM with n = its CSDs, own/desc = their sum;
 *     clique and thread are set when n = 1 (site, proc groups). With prefs.contour each
 *     CSD is first moved to dp_contour_site() (the key moves, the costs stay, the row gets
 *     CONTOUR). Rows sorted by prefs (ties by id), then only bunch K (size S rows,
 *     1-based) is kept: r->n_items = the groups, r->n_bunches, r->bunch.
 *   facts: caller_csds, self_csds, groups, and with contour exclusion moved (CSDs moved).
 *   links: "procedure", "previous" / "next" bunch, and the three other groupings.
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

/* the procedure of a proc or callers page, with its subject row set */
static int subject_proc(struct dp_report *r, const struct dp_report_ctx *c, uint32_t id)
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

/* the "callers" summary of the proc page and its facts */
static int proc_callers(struct dp_report *r, const struct dp_report_ctx *c, uint32_t ps)
{
	const struct dp_profile *p = c->p;
	const struct dp_analysis *a = c->a;
	uint32_t n = dp_csr_count(&a->ps_callers, ps), k = 0, procs = 0;
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
	for (uint32_t i = 0; i < n; i++) {
		const struct dp_csd *d = &p->csd[ids[i]];
		uint32_t caller;

		if (i + DP_REP_AHEAD < n) {
			const struct dp_csd *ahead = &p->csd[ids[i + DP_REP_AHEAD]];

			__builtin_prefetch(ahead);
			__builtin_prefetch((const char *)(ahead + 1) - 1);
			__builtin_prefetch(&a->csd_child_clique[ids[i + DP_REP_AHEAD]]);
		}
		caller = p->pd[d->caller].ps;
		if (caller == ps)
			continue;
		k++;
		procs += !seen[caller];
		seen[caller] = 1;
		dp_rep_costs_add_csd(&row->own, d);
		if (a->csd_child_clique[ids[i]]) {
			struct dp_inherit desc = dp_analysis_csd_desc(a, ids[i]);

			dp_inherit_add(&row->desc, &desc);
		}
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
		dp_rep_costs_add_csd(&row->own, &p->csd[csd]);
		desc = dp_analysis_csd_desc(c->a, csd);
		dp_inherit_add(&row->desc, &desc);
	}
	return rc < 0 ? rc : dp_rep_sort(r, l->rows + first, l->n - first, &r->q.prefs);
}

int dp_rep_proc(struct dp_report *r, const struct dp_report_ctx *c)
{
	const struct dp_analysis *a = c->a;
	int rc = subject_proc(r, c, r->q.id);
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

/* One group of caller CSDs on a callers page: v[first .. first + n) of the sorted
 * (key, CSD) array; costs are summed again only for the rows shown. */
struct cgroup {
	uint32_t key, first, n;
	uint32_t one; /* the (moved) CSD when n == 1 */
	unsigned flags;
	uint32_t line;
	double metric;
	const char *sname, *file; /* sorting: bare name and position */
};
/* group_key - the key of (moved) caller CSD @csd under grouping @g */
static uint32_t group_key(const struct dp_report_ctx *c, uint32_t csd, enum dp_group g)
{
	const struct dp_csd *d = &c->p->csd[csd];
	uint32_t ps = c->p->pd[d->caller].ps;

	switch (g) {
	case DP_GROUP_PROC:
		return ps;
	case DP_GROUP_MODULE:
		return c->a->ps_module[ps];
	case DP_GROUP_CLIQUE:
		return c->a->pd_clique[d->caller];
	case DP_GROUP_SITE:
	default:
		return d->css;
	}
}

static const char *bare_name(const struct dp_profile *p, uint32_t ps)
{
	return p->ps[ps].name ? dp_profile_str(p, p->ps[ps].name) : "";
}

/* sort keys of group @g: name and position of its node */
static void group_sort_keys(const struct dp_report_ctx *c, enum dp_group how, struct cgroup *g)
{
	const struct dp_profile *p = c->p;
	uint32_t ps = 0;

	switch (how) {
	case DP_GROUP_SITE:
		ps = p->css[g->key].ps;
		g->file = p->css[g->key].file ? dp_profile_str(p, p->css[g->key].file) : NULL;
		g->line = p->css[g->key].line;
		break;
	case DP_GROUP_PROC:
		ps = g->key;
		break;
	case DP_GROUP_MODULE:
		g->sname = g->file = dp_analysis_module_name(c->a, g->key);
		break;
	case DP_GROUP_CLIQUE:
		ps = p->pd[dp_csr_items(&c->a->clique_pds, g->key)[0]].ps;
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

static int cmp_opt(const char *a, const char *b)
{
	if (a == b)
		return 0; /* interned strings: the same one */
	if (!a || !b)
		return (a == NULL) - (b == NULL);
	return strcmp(a, b);
}

/* group_cmp - the prefs' order of two groups, ties by key */
static int group_cmp(const struct cgroup *x, const struct cgroup *y, enum dp_sort how)
{
	int d = 0;

	if (how == DP_SORT_COST && x->metric != y->metric)
		return x->metric > y->metric ? -1 : 1;
	if (how == DP_SORT_CONTEXT) {
		d = cmp_opt(x->file, y->file);
		if (!d && x->line != y->line)
			d = x->line < y->line ? -1 : 1;
	}
	if (!d)
		d = strcmp(x->sname, y->sname);
	if (!d && how == DP_SORT_NAME) {
		d = cmp_opt(x->file, y->file);
		if (!d && x->line != y->line)
			d = x->line < y->line ? -1 : 1;
	}
	return d ? d : (x->key > y->key) - (x->key < y->key);
}

/* A group's place in the sort: a prefix of its key (never contradicting the full
 * order) compared before the group itself, so most comparisons stay in this array. */
struct skey {
	uint64_t pre, sub;
	uint32_t idx;
};

static int skey_cmp(const struct skey *a, const struct skey *b, const struct cgroup *g,
		    enum dp_sort how)
{
	if (a->pre != b->pre)
		return a->pre < b->pre ? -1 : 1;
	if (a->sub != b->sub)
		return a->sub < b->sub ? -1 : 1;
	return group_cmp(&g[a->idx], &g[b->idx], how);
}

/* sort_groups - the order of @g[0..n) by @how in *@out (indexes into @g) */
static int sort_groups(struct dp_report *r, const struct cgroup *g, uint32_t n, enum dp_sort how,
		       struct skey **out)
{
	struct skey *k = dp_arena_array(&r->arena, n ? n : 1, sizeof(*k));
	struct skey *tmp = dp_arena_array(&r->arena, n ? n : 1, sizeof(*tmp));
	struct skey *src = k, *dst = tmp;
	uint32_t sorted = 1;

	const char **files = NULL;
	uint32_t *rank = NULL;

	if (!k || !tmp)
		return dp_error(DP_ENOMEM, "out of memory sorting %u callers", n);
	if (how == DP_SORT_CONTEXT) {
		files = dp_arena_array(&r->arena, n ? n : 1, sizeof(*files));
		rank = dp_arena_array(&r->arena, n ? n : 1, sizeof(*rank));
		if (!files || !rank)
			return dp_error(DP_ENOMEM, "out of memory sorting %u callers", n);
		for (uint32_t i = 0; i < n; i++)
			files[i] = g[i].file;
		if (dp_rep_str_ranks(r, files, n, rank) < 0)
			return -DP_ENOMEM;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint64_t bits;

		k[i].idx = i;
		if (how == DP_SORT_COST) { /* metrics are >= 0: their bits order as they do */
			memcpy(&bits, &g[i].metric, sizeof(bits));
			k[i].pre = ~bits;
			k[i].sub = dp_rep_str_bytes(g[i].sname, 0, 8);
		} else if (how == DP_SORT_NAME) {
			k[i].pre = dp_rep_str_bytes(g[i].sname, 0, 8);
			k[i].sub = dp_rep_str_bytes(g[i].sname, 8, 8);
		} else {
			k[i].pre = (uint64_t)rank[i] << 32 | g[i].line;
			k[i].sub = dp_rep_str_bytes(g[i].sname, 0, 8);
		}
	}
	*out = k;
	while (sorted < n && skey_cmp(&k[sorted - 1], &k[sorted], g, how) <= 0)
		sorted++;
	if (sorted >= n)
		return 0; /* already in order */
	for (uint64_t w = 1; w < n; w *= 2) {
		for (uint64_t lo = 0; lo < n; lo += 2 * w) {
			uint64_t mid = lo + w < n ? lo + w : n,
				 hi = lo + 2 * w < n ? lo + 2 * w : n;
			uint64_t i = lo, j = mid, o = lo;

			while (i < mid && j < hi)
				dst[o++] = skey_cmp(&src[j], &src[i], g, how) < 0 ? src[j++]
										  : src[i++];
			while (i < mid)
				dst[o++] = src[i++];
			while (j < hi)
				dst[o++] = src[j++];
		}
		struct skey *t = src;

		src = dst;
		dst = t;
	}
	*out = src;
	return 0;
}

/* moved - the CSD caller CSD @csd is grouped under (itself without contour exclusion) */
static uint32_t moved(const struct dp_report *r, const struct dp_report_ctx *c, uint32_t csd)
{
	return r->q.prefs.contour ? dp_contour_site(c->a, c->contour, csd) : csd;
}

/* group_costs - the sum of the costs of the CSDs of group @g into @row */
static void group_costs(const struct dp_report_ctx *c, const uint64_t *v, const struct cgroup *g,
			struct dp_rep_row *row)
{
	memset(&row->own, 0, sizeof(row->own));
	memset(&row->desc, 0, sizeof(row->desc));
	for (uint32_t i = g->first; i < g->first + g->n; i++) {
		struct dp_inherit desc = dp_analysis_csd_desc(c->a, (uint32_t)v[i]);

		dp_rep_costs_add_csd(&row->own, &c->p->csd[(uint32_t)v[i]]);
		dp_inherit_add(&row->desc, &desc);
	}
}

/* the caller CSDs of @ps, sorted by group key, in *@vout (*@k of them) */
static int caller_csds(struct dp_report *r, const struct dp_report_ctx *c, uint32_t ps,
		       uint64_t **vout, uint32_t *k)
{
	const struct dp_profile *p = c->p;
	uint32_t n = dp_csr_count(&c->a->ps_callers, ps);
	const uint32_t *ids = dp_csr_items(&c->a->ps_callers, ps);
	uint64_t *v = dp_arena_array(&r->arena, n ? n : 1, sizeof(*v));
	int rc;

	*k = 0;
	if (!v)
		return dp_error(DP_ENOMEM, "out of memory building a callers page");
	for (uint32_t i = 0; i < n; i++) {
		if (i + DP_REP_AHEAD < n)
			__builtin_prefetch(&p->csd[ids[i + DP_REP_AHEAD]].caller);
		if (i + DP_REP_AHEAD / 2 < n)
			__builtin_prefetch(&p->pd[p->csd[ids[i + DP_REP_AHEAD / 2]].caller]);
		if (p->pd[p->csd[ids[i]].caller].ps == ps)
			continue;
		v[(*k)++] = (uint64_t)group_key(c, moved(r, c, ids[i]), r->q.group) << 32 | ids[i];
	}
	rc = radix_sort(r, v, *k);
	*vout = v;
	if (rc == 0)
		rc = dp_rep_fact_u64(r, "caller_csds", "caller call sites in context", *k);
	if (rc == 0)
		rc = dp_rep_fact_u64(r, "self_csds", "self-recursive calls left out", n - *k);
	return rc;
}

/* the groups of the sorted caller CSDs @v[0..k) in *@out (*@n_out of them) */
static int caller_groups(struct dp_report *r, const struct dp_report_ctx *c, const uint64_t *v,
			 uint32_t k, struct cgroup **out, uint32_t *n_out)
{
	struct cgroup *g = dp_arena_array(&r->arena, k ? k : 1, sizeof(*g));
	const struct dp_prefs *pr = &r->q.prefs;
	uint32_t ng = 0, n_moved = 0;

	if (!g)
		return dp_error(DP_ENOMEM, "out of memory building a callers page");
	for (uint32_t i = 0; i < k; i++) {
		uint32_t csd = (uint32_t)v[i], to = moved(r, c, csd);
		struct cgroup *x = &g[ng - 1];

		if (i == 0 || v[i] >> 32 != v[i - 1] >> 32) {
			x = &g[ng++];
			x->key = (uint32_t)(v[i] >> 32);
			x->first = i;
			x->one = to;
			x->flags = DP_ROW_SUM;
		}
		x->n++;
		if (to != csd) {
			x->flags |= DP_ROW_CONTOUR;
			n_moved++;
		}
	}
	for (uint32_t i = 0; i < ng; i++) {
		group_sort_keys(c, r->q.group, &g[i]);
		if (pr->sort == DP_SORT_COST) {
			struct dp_rep_row tmp;

			group_costs(c, v, &g[i], &tmp);
			g[i].metric = dp_rep_row_metric(&tmp, pr->sort_metric, pr->sort_scope,
							pr->sort_per);
		}
	}
	*out = g;
	*n_out = ng;
	if (dp_rep_fact_u64(r, "groups", "groups", ng) < 0)
		return -DP_ENOMEM;
	if (!r->q.prefs.contour)
		return 0;
	return dp_rep_fact_u64(r, "moved", "calls moved by contour exclusion", n_moved);
}

/* the row of caller group @g (of procedure @ps) */
static void caller_row(struct dp_report *r, const struct dp_report_ctx *c, uint32_t ps,
		       const uint64_t *v, const struct cgroup *g, struct dp_rep_row *row)
{
	const struct dp_profile *p = c->p;
	uint32_t mod = c->a->ps_module[ps];
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
		dp_rep_row_clique(r, c, g->key, row);
		break;
	}
	if (g->n == 1 && (r->q.group == DP_GROUP_SITE || r->q.group == DP_GROUP_PROC)) {
		row->clique = c->a->pd_clique[pd1];
		row->thread = p->pd[pd1].thread;
	} else if (r->q.group != DP_GROUP_CLIQUE) {
		row->thread = 0;
	}
	row->flags = g->flags;
	row->n = g->n;
	group_costs(c, v, g, row);
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
	uint32_t ng = 0, ps, k = 0;
	uint64_t *v = NULL;
	struct cgroup *g = NULL;
	struct skey *order = NULL;
	struct dp_rep_rows l;
	uint64_t lo, hi;
	int rc;

	if ((unsigned)r->q.group > DP_GROUP_CLIQUE)
		return dp_error(DP_EUSAGE, "page callers needs group=site|proc|module|clique");
	if (r->q.prefs.contour && !c->contour)
		return dp_error(DP_EUSAGE, "contour exclusion: %s",
				c->contour_error ? c->contour_error : "no contour file");
	rc = subject_proc(r, c, r->q.proc);
	if (rc < 0)
		return rc;
	ps = (uint32_t)rc;
	r->title = dp_rep_printf(r, "Callers of %s", r->subject.name);
	if (!r->title)
		return -DP_ENOMEM;
	if (r->q.prefs.contour && c->contour->warnings && c->contour->warnings[0])
		r->note = c->contour->warnings;
	rc = caller_csds(r, c, ps, &v, &k);
	if (rc == 0)
		rc = caller_groups(r, c, v, k, &g, &ng);
	if (rc == 0)
		rc = sort_groups(r, g, ng, r->q.prefs.sort, &order);
	if (rc < 0)
		return rc;
	rc = dp_rep_bunch(r, ng, &lo, &hi);
	if (rc < 0)
		return rc;
	dp_rep_rows_init(&l, r);
	for (uint64_t i = lo; i < hi; i++) {
		struct dp_rep_row *row = dp_rep_rows_add(&l);

		if (!row)
			return -DP_ENOMEM;
		caller_row(r, c, ps, v, &g[order[i].idx], row);
	}
	rc = dp_rep_section(r, "callers", "Callers", &l);
	if (rc == 0)
		rc = dp_rep_link_id(r, "procedure", DP_PAGE_PROC, ps);
	return rc < 0 ? rc : callers_links(r, ps);
}
