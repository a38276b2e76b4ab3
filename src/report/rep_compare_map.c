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

struct dp_cmp_memo *dp_cmp_memo_new(void)
{
	return calloc(1, sizeof(struct dp_cmp_memo));
}

void dp_cmp_memo_free(struct dp_cmp_memo *m)
{
	if (!m)
		return;
	free(m->parent);
	free(m->done);
	free(m);
}

/* The breadth-first search of clique @c of @a from its entry @e over its calls, once per
 * memo: each member's parent on it into m->parent. Return: 0, or -DP_ENOMEM. */
static int clique_bfs(const struct dp_analysis *a, uint32_t c, uint32_t e, struct dp_cmp_memo *m)
{
	uint32_t size = dp_csr_count(&a->clique_pds, c), head = 0, tail = 0;
	uint32_t *queue;

	if (m->n_pd != a->p->n_pd || m->n_cliques != a->n_cliques) { /* first use */
		free(m->parent);
		free(m->done);
		m->parent = calloc((size_t)a->p->n_pd + 1, sizeof(*m->parent));
		m->done = calloc((size_t)a->n_cliques + 1, sizeof(*m->done));
		m->n_pd = m->n_cliques = 0;
		if (!m->parent || !m->done)
			return dp_error(DP_ENOMEM, "out of memory comparing profiles");
		m->n_pd = a->p->n_pd;
		m->n_cliques = a->n_cliques;
	}
	if (m->done[c])
		return 0;
	queue = malloc((size_t)size * sizeof(*queue));
	if (!queue)
		return dp_error(DP_ENOMEM, "out of memory comparing profiles");
	queue[tail++] = e;
	while (head < tail) {
		uint32_t x = queue[head++];
		const uint32_t *succ = a->pd_succ + a->pd_csds.start[x];

		for (uint32_t k = 0, nk = dp_csr_count(&a->pd_csds, x); k < nk; k++) {
			uint32_t y = succ[k];

			if (a->pd_clique[y] != c || y == e || m->parent[y])
				continue;
			m->parent[y] = x;
			if (tail < size)
				queue[tail++] = y;
		}
	}
	m->done[c] = 1;
	free(queue);
	return 0;
}

/* The PDs from @pd up to the root of @a's clique tree into *@v (*@n of them, @pd first):
 * in each clique the path from its entry (its breadth-first search, @m), then the entry.
 * Return: 0 or -DP_ENOMEM. */
static int pd_chain(const struct dp_analysis *a, struct dp_cmp_memo *m, uint32_t pd, uint32_t **v,
		    uint32_t *n, uint32_t *cap)
{
	uint32_t steps = 0;

	*n = 0;
	while (pd && steps++ <= a->n_cliques) {
		uint32_t c = a->pd_clique[pd], e = dp_csr_items(&a->clique_pds, c)[0];
		int rc = pd == e ? 0 : clique_bfs(a, c, e, m);

		for (uint32_t x = pd; rc == 0 && x && x != e; x = m->parent[x]) {
			if ((rc = DP_VEC_GROW(*v, *cap, *n + 1)) == 0)
				(*v)[(*n)++] = x;
		}
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

int dp_cmp_pd(const struct dp_report_ctx *a, struct dp_cmp_memo *m, uint32_t pd,
	      const struct dp_report_ctx *b, uint32_t *out)
{
	uint32_t *v = NULL, n = 0, cap = 0, cur;
	int rc;

	*out = 0;
	if (!pd || pd > a->p->n_pd)
		return 0;
	rc = pd_chain(a->a, m, pd, &v, &n, &cap);
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
static int cmp_clique(const struct dp_report_ctx *a, struct dp_cmp_memo *m, uint32_t c,
		      const struct dp_report_ctx *b, uint32_t *out)
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
	rc = dp_cmp_pd(a, m, dp_csr_items(&a->a->clique_pds, c)[0], b, &pd);
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
static int cmp_csd(const struct dp_report_ctx *a, struct dp_cmp_memo *m, uint32_t csd,
		   const struct dp_report_ctx *b, uint32_t *out)
{
	uint32_t caller = 0, callee;
	int rc;

	*out = 0;
	if (!csd || csd > a->p->n_csd)
		return 0;
	rc = dp_cmp_pd(a, m, a->p->csd[csd].caller, b, &caller);
	if (rc < 0 || !caller)
		return rc;
	callee = pd_step(a, a->p->csd[csd].callee, csd, b, caller);
	*out = callee ? csd_like(a, csd, b, caller, callee) : 0;
	return 0;
}

int dp_cmp_row_node(const struct dp_report_ctx *a, struct dp_cmp_memo *m,
		    const struct dp_rep_row *row, const struct dp_report_ctx *b, uint32_t *out)
{
	*out = 0;
	switch (row->kind) {
	case DP_ENT_PD:
		return dp_cmp_pd(a, m, row->id, b, out);
	case DP_ENT_CSD:
		return cmp_csd(a, m, row->id, b, out);
	case DP_ENT_CLIQUE:
		return cmp_clique(a, m, row->id, b, out);
	case DP_ENT_CSS:
		*out = cmp_css(a, row->id, b);
		return 0;
	case DP_ENT_PS:
		*out = dp_cmp_ps(a, row->id, b);
		return 0;
	case DP_ENT_MODULE:
		*out = cmp_module(a, row->id, b);
		return 0;
	default:
		return 0;
	}
}

int dp_cmp_query(const struct dp_report_ctx *a, struct dp_cmp_memo *m, const struct dp_report *r,
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
		rc = cmp_clique(a, m, q->id, b, &id);
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
		rc = dp_cmp_pd(a, m, q->id, b, &id);
		break;
	case DP_PAGE_DUMP_CSD:
		rc = cmp_csd(a, m, q->id, b, &id);
		break;
	default:
		return 1; /* no subject: the whole profile */
	}
	out->id = id;
	return rc < 0 ? rc : id ? 1 : 0;
}
