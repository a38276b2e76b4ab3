/*
 * report/rep_compare_map.c - the nodes of one profile found in another (a base profile
 * of a comparison, dp_report_compare()): procedures by name and source file (unnamed ones
 * by kind and address), calling contexts by the chain of procedures from the root that
 * reaches them, call sites by their caller and callee, modules by path. And the query of
 * a page translated into the base's ids, so that the base answers the same page.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/hash.h"
#include "../core/vec.h"
#include "deepprof/format.h"
#include "report_int.h"

/* Whether procedure @x of @a and procedure @y of @b are the same procedure. */
static bool ps_same(const struct dp_profile *a, uint32_t x, const struct dp_profile *b, uint32_t y)
{
	const struct dp_ps *p = &a->ps[x], *q = &b->ps[y];

	if (p->kind != q->kind)
		return false;
	if (!p->name || !q->name)
		return !p->name && !q->name && p->addr == q->addr;
	return strcmp(dp_profile_str(a, p->name), dp_profile_str(b, q->name)) == 0 &&
	       strcmp(dp_profile_str(a, p->file), dp_profile_str(b, q->file)) == 0;
}

uint32_t dp_cmp_ps(const struct dp_report_ctx *a, uint32_t ps, const struct dp_report_ctx *b)
{
	if (!ps || ps > a->p->n_ps)
		return 0;
	for (uint32_t y = 1; y <= b->p->n_ps; y++)
		if (ps_same(a->p, ps, b->p, y))
			return y;
	return 0;
}

/* The path inside clique @c of @a from its entry PD @e to its member @pd, @e left out and
 * @pd first, appended to *@v (*@n elements of capacity *@cap): a breadth-first search over
 * the clique's calls. Return: 0, or -DP_ENOMEM. */
static int clique_path(const struct dp_analysis *a, uint32_t c, uint32_t e, uint32_t pd,
		       uint32_t **v, uint32_t *n, uint32_t *cap)
{
	uint32_t m = dp_csr_count(&a->clique_pds, c), head = 0, tail = 0;
	uint32_t *queue = malloc((size_t)m * sizeof(*queue));
	struct dp_map32 parent = {0}; /* PD -> the PD it was reached from */
	int rc = 0;

	if (!queue || dp_map32_intern(&parent, e, 0) == DP_MAP32_NONE) {
		rc = dp_error(DP_ENOMEM, "out of memory comparing profiles");
		goto out;
	}
	queue[tail++] = e;
	while (head < tail && dp_map32_get(&parent, pd) == DP_MAP32_NONE) {
		uint32_t x = queue[head++];
		const uint32_t *succ = a->pd_succ + a->pd_csds.start[x];

		for (uint32_t k = 0, nk = dp_csr_count(&a->pd_csds, x); k < nk; k++) {
			uint32_t y = succ[k];

			if (a->pd_clique[y] != c || dp_map32_get(&parent, y) != DP_MAP32_NONE)
				continue;
			if (dp_map32_intern(&parent, y, x) == DP_MAP32_NONE) {
				rc = -DP_ENOMEM;
				goto out;
			}
			if (tail < m)
				queue[tail++] = y;
		}
	}
	for (uint32_t x = pd; x && x != e; x = dp_map32_get(&parent, x)) {
		if (x == DP_MAP32_NONE)
			break; /* not reached from the entry: the path stops here */
		if ((rc = DP_VEC_GROW(*v, *cap, *n + 1)) < 0)
			goto out;
		(*v)[(*n)++] = x;
	}
out:
	free(queue);
	dp_map32_free(&parent);
	return rc;
}

/* The PDs from @pd up to the root of @a's clique tree into *@v (*@n of them, @pd first).
 * Return: 0 or -DP_ENOMEM. */
static int pd_chain(const struct dp_analysis *a, uint32_t pd, uint32_t **v, uint32_t *n,
		    uint32_t *cap)
{
	uint32_t steps = 0;

	*n = 0;
	while (pd && steps++ <= a->n_cliques) {
		uint32_t c = a->pd_clique[pd], e = dp_csr_items(&a->clique_pds, c)[0];
		int rc = pd == e ? 0 : clique_path(a, c, e, pd, v, n, cap);

		if (rc < 0 || (rc = DP_VEC_GROW(*v, *cap, *n + 1)) < 0)
			return rc;
		(*v)[(*n)++] = e;
		pd = a->clique_entry_caller[c];
	}
	return 0;
}

/* Offset of call site @css of @p in its caller (its position across runs of a build). */
static uint64_t site_off(const struct dp_profile *p, uint32_t css)
{
	return p->css[css].addr - p->ps[p->css[css].ps].addr;
}

/* The PD of @b called by @b's PD @from whose procedure is that of @a's PD @x (for thread
 * roots: of the same thread too), preferring a call through a site at the line of @a's
 * CSD @via (0: any) and then at its offset; 0 if none. */
static uint32_t pd_step(const struct dp_report_ctx *a, uint32_t x, uint32_t via,
			const struct dp_report_ctx *b, uint32_t from)
{
	const struct dp_profile *pa = a->p, *pb = b->p;
	const uint32_t *ids = dp_csr_items(&b->a->pd_csds, from);
	uint32_t ps = pa->pd[x].ps, line = via ? pa->css[pa->csd[via].css].line : 0, found = 0;
	uint64_t off = via ? site_off(pa, pa->csd[via].css) : 0;
	int best = -1;

	for (uint32_t k = 0, n = dp_csr_count(&b->a->pd_csds, from); k < n; k++) {
		const struct dp_csd *d = &pb->csd[ids[k]];
		uint32_t y = d->callee;
		int score;

		if (pb->ps[pb->pd[y].ps].kind == DP_PS_THREAD &&
		    pb->pd[y].thread != pa->pd[x].thread)
			continue;
		if (!ps_same(pa, ps, pb, pb->pd[y].ps))
			continue;
		score = via ? 2 * (pb->css[d->css].line == line) + (site_off(pb, d->css) == off)
			    : 3;
		if (score > best) {
			best = score;
			found = y;
		}
		if (score == 3)
			break;
	}
	return found;
}

/* The CSD of @a from PD @caller to PD @callee, 0 if none. */
static uint32_t csd_between(const struct dp_analysis *a, uint32_t caller, uint32_t callee)
{
	const uint32_t *ids = dp_csr_items(&a->pd_csds, caller);
	const uint32_t *succ = a->pd_succ + a->pd_csds.start[caller];

	for (uint32_t k = 0, n = dp_csr_count(&a->pd_csds, caller); k < n; k++)
		if (succ[k] == callee)
			return ids[k];
	return 0;
}

/* FNV-1a of the @n bytes at @s, continuing @h. */
static uint64_t fnv(uint64_t h, const void *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ ((const uint8_t *)s)[i]) * 0x100000001b3ull;
	return h;
}

/* @h continued with what makes procedure @ps of @p the same as another profile's
 * (ps_same()): kind, name and file (unnamed: address), and a thread root's @thread. */
static uint64_t hash_ps(uint64_t h, const struct dp_profile *p, uint32_t ps, uint32_t thread)
{
	const struct dp_ps *q = &p->ps[ps];
	const char *name = dp_profile_str(p, q->name), *file = dp_profile_str(p, q->file);

	h = fnv(h, &q->kind, sizeof(q->kind));
	if (q->kind == DP_PS_THREAD)
		return fnv(h, &thread, sizeof(thread));
	if (!q->name)
		return fnv(h, &q->addr, sizeof(q->addr));
	return fnv(fnv(h, name, strlen(name) + 1), file, strlen(file) + 1);
}

/* @h continued with call site @css's position: its line and its offset in its caller. */
static uint64_t hash_site(uint64_t h, const struct dp_profile *p, uint32_t css)
{
	uint64_t off = site_off(p, css);

	h = fnv(h, &p->css[css].line, sizeof(p->css[css].line));
	return fnv(h, &off, sizeof(off));
}

int dp_cmp_row_sig(const struct dp_report_ctx *c, const struct dp_rep_row *row,
		   struct dp_cmp_sig *sig)
{
	const struct dp_profile *p = c->p;
	const struct dp_analysis *a = c->a;
	uint32_t pd = 0, css = 0, callee = 0, *v = NULL, n = 0, cap = 0;
	uint64_t weak = 0xcbf29ce484222325ull, strong = weak;
	int rc;

	if (row->kind == DP_ENT_PD && row->id && row->id <= p->n_pd) {
		pd = row->id;
	} else if (row->kind == DP_ENT_CSD && row->id && row->id <= p->n_csd) {
		pd = p->csd[row->id].caller; /* the caller's chain, the site, the callee */
		css = p->csd[row->id].css;
		callee = p->csd[row->id].callee;
	} else if (row->kind == DP_ENT_CLIQUE && row->id && row->id <= a->n_cliques) {
		pd = dp_csr_items(&a->clique_pds, row->id)[0];
	} else if (row->kind == DP_ENT_CSS && row->id && row->id <= p->n_css) {
		css = row->id;
	}
	rc = pd ? pd_chain(a, pd, &v, &n, &cap) : 0;
	for (uint32_t i = n; rc == 0 && i-- > 0;) {
		uint32_t csd = i + 1 < n ? csd_between(a, v[i + 1], v[i]) : 0;

		weak = hash_ps(weak, p, p->pd[v[i]].ps, p->pd[v[i]].thread);
		strong = hash_ps(strong, p, p->pd[v[i]].ps, p->pd[v[i]].thread);
		if (csd)
			strong = hash_site(strong, p, p->csd[csd].css);
	}
	free(v);
	if (css) {
		weak = hash_ps(weak, p, p->css[css].ps, 0);
		strong = hash_site(hash_ps(strong, p, p->css[css].ps, 0), p, css);
	}
	if (callee) {
		weak = hash_ps(weak, p, p->pd[callee].ps, p->pd[callee].thread);
		strong = hash_ps(strong, p, p->pd[callee].ps, p->pd[callee].thread);
	}
	*sig = (struct dp_cmp_sig){weak, strong, pd || css};
	return rc;
}

int dp_cmp_pd(const struct dp_report_ctx *a, uint32_t pd, const struct dp_report_ctx *b,
	      uint32_t *out)
{
	uint32_t *v = NULL, n = 0, cap = 0, cur;
	int rc;

	*out = 0;
	if (!pd || pd > a->p->n_pd)
		return 0;
	rc = pd_chain(a->a, pd, &v, &n, &cap);
	/* v[n - 1] is the program root (else @pd is not reached from it), the base's root */
	cur = rc == 0 && n && v[n - 1] == a->p->root_pd && b->p->root_pd &&
			      b->p->root_pd <= b->p->n_pd
		      ? b->p->root_pd
		      : 0;
	for (uint32_t i = n - 1; cur && i-- > 0;)
		cur = pd_step(a, v[i], csd_between(a->a, v[i + 1], v[i]), b, cur);
	free(v);
	*out = cur;
	return rc;
}

/* The call site of @b matching @a's call site @css: of the sites of the caller's
 * counterpart, the one with the same static callee, line and offset in the caller, by
 * that order of importance; 0 if none is like it in any of them. */
static uint32_t cmp_css(const struct dp_report_ctx *a, uint32_t css, const struct dp_report_ctx *b)
{
	const struct dp_css *s;
	uint32_t caller, best = 0, score = 0;

	if (!css || css > a->p->n_css || !(caller = dp_cmp_ps(a, a->p->css[css].ps, b)))
		return 0;
	s = &a->p->css[css];
	for (uint32_t k = 0, n = dp_csr_count(&b->a->ps_csss, caller); k < n; k++) {
		uint32_t y = dp_csr_items(&b->a->ps_csss, caller)[k];
		const struct dp_css *t = &b->p->css[y];
		bool callee = s->callee_ps && t->callee_ps
				      ? ps_same(a->p, s->callee_ps, b->p, t->callee_ps)
				      : s->callee_ps == t->callee_ps;
		uint32_t sc = (callee ? 4u : 0u) + (t->line == s->line ? 2u : 0u) +
			      (site_off(b->p, y) == site_off(a->p, css) ? 1u : 0u);

		if (sc > score) {
			best = y;
			score = sc;
		}
	}
	return best;
}

/* The module of @b with the path of @a's module @m, 0 if none. */
static uint32_t cmp_module(const struct dp_report_ctx *a, uint32_t m, const struct dp_report_ctx *b)
{
	const char *name;

	if (!m || m > a->a->n_modules)
		return 0;
	name = dp_analysis_module_name(a->a, m);
	for (uint32_t y = 1; y <= b->a->n_modules; y++)
		if (strcmp(name, dp_analysis_module_name(b->a, y)) == 0)
			return y;
	return 0;
}

/* The clique of @b holding the counterpart of the entry of @a's clique @c, via *@out. */
static int cmp_clique(const struct dp_report_ctx *a, uint32_t c, const struct dp_report_ctx *b,
		      uint32_t *out)
{
	uint32_t pd = 0;
	int rc;

	*out = 0;
	if (!c || c > a->a->n_cliques)
		return 0;
	if (c == a->a->root_clique) {
		*out = b->a->root_clique;
		return 0;
	}
	rc = dp_cmp_pd(a, dp_csr_items(&a->a->clique_pds, c)[0], b, &pd);
	*out = pd ? b->a->pd_clique[pd] : 0;
	return rc;
}

/* The CSD of @b from PD @caller to PD @callee most like @a's CSD @csd: through a site at
 * the same line and offset, else the same line, else any. */
static uint32_t csd_like(const struct dp_report_ctx *a, uint32_t csd, const struct dp_report_ctx *b,
			 uint32_t caller, uint32_t callee)
{
	const struct dp_analysis *ba = b->a;
	const uint32_t *ids = dp_csr_items(&ba->pd_csds, caller);
	const uint32_t *succ = ba->pd_succ + ba->pd_csds.start[caller];
	uint32_t css = a->p->csd[csd].css, found = 0;
	int best = -1;

	for (uint32_t k = 0, n = dp_csr_count(&ba->pd_csds, caller); k < n; k++) {
		uint32_t y = b->p->csd[ids[k]].css;
		int score;

		if (succ[k] != callee)
			continue;
		score = 2 * (b->p->css[y].line == a->p->css[css].line) +
			(site_off(b->p, y) == site_off(a->p, css));
		if (score > best) {
			best = score;
			found = ids[k];
		}
	}
	return found;
}

/* The CSD of @b matching @a's CSD @csd (its caller's counterpart, calling the same
 * procedure), via *@out. */
static int cmp_csd(const struct dp_report_ctx *a, uint32_t csd, const struct dp_report_ctx *b,
		   uint32_t *out)
{
	uint32_t caller = 0, callee;
	int rc;

	*out = 0;
	if (!csd || csd > a->p->n_csd)
		return 0;
	rc = dp_cmp_pd(a, a->p->csd[csd].caller, b, &caller);
	if (rc < 0 || !caller)
		return rc;
	callee = pd_step(a, a->p->csd[csd].callee, csd, b, caller);
	*out = callee ? csd_like(a, csd, b, caller, callee) : 0;
	return 0;
}

int dp_cmp_query(const struct dp_report_ctx *a, const struct dp_report *r,
		 const struct dp_report_ctx *b, struct dp_query *out)
{
	const struct dp_query *q = &r->q;
	/* a procedure named by name= is the subject's (the report leaves the id at 0) */
	uint32_t id = 0, ps = r->has_subject && r->subject.kind == DP_ENT_PS ? r->subject.ps : 0;
	int rc = 0;

	*out = *q;
	out->name[0] = '\0'; /* the report resolved names into ids */
	/* every item of the base's lists, to find each row of this page among them */
	out->bunch = 1;
	out->size = UINT32_MAX;
	if (q->page == DP_PAGE_TOP) {
		out->limit_kind = DP_LIMIT_RANKS;
		out->limit_lo = 1;
		out->limit_hi = UINT32_MAX;
	}
	if (q->page == DP_PAGE_FLAME || q->page == DP_PAGE_FLAME_CALLERS)
		out->min_pct = 0; /* the widest nodes, to the node cap */
	if (q->thread > b->p->n_threads)
		return 0;
	switch (q->page) {
	case DP_PAGE_CLIQUE:
	case DP_PAGE_DUMP_CLIQUE:
		rc = cmp_clique(a, q->id, b, &id);
		break;
	case DP_PAGE_PROC:
	case DP_PAGE_DUMP_PS:
		id = dp_cmp_ps(a, q->id ? q->id : ps, b);
		break;
	case DP_PAGE_CALLERS:
	case DP_PAGE_FLAME_CALLERS:
		out->proc = dp_cmp_ps(a, q->proc ? q->proc : ps, b);
		return out->proc ? 1 : 0;
	case DP_PAGE_MODULE:
		id = cmp_module(a, q->id, b);
		break;
	case DP_PAGE_SITE:
	case DP_PAGE_DUMP_CSS:
		id = cmp_css(a, q->id, b);
		break;
	case DP_PAGE_DUMP_PD:
		rc = dp_cmp_pd(a, q->id, b, &id);
		break;
	case DP_PAGE_DUMP_CSD:
		rc = cmp_csd(a, q->id, b, &id);
		break;
	default:
		return 1; /* no subject: the whole profile */
	}
	out->id = id;
	return rc < 0 ? rc : id ? 1 : 0;
}
