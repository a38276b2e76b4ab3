/*
 * front/check.c - dp_session_check(), the self-test of a loaded profile (mdprof_test's
 * job): every page in every format and thread view must answer 200, the analysis
 * invariants must hold in both views (and in the folded views of library leaves), and no
 * region may have mismatched leaves.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "session_int.h"

/* Every failure line kept; more are only counted. */
#define DP_CHECK_MAX_LINES 100

struct dp_checker {
	struct dp_session *s;
	uint32_t file;
	struct dp_check_result *res;
	uint64_t lines;
};

static void dp_check_fail(struct dp_checker *c, const char *what, const char *detail)
{
	c->res->failures++;
	if (c->lines++ < DP_CHECK_MAX_LINES)
		dp_buf_addf(&c->res->report, "%s: %s\n", what, detail);
}

/* Answers @query in every format; counts pages and failures. */
static int dp_check_query(struct dp_checker *c, const char *query)
{
	static const enum dp_format fmts[] = {DP_FMT_TEXT, DP_FMT_JSON, DP_FMT_HTML};
	static const char *const views[] = {"", "&view=threads"};
	char q[256];
	size_t f, v;

	for (v = 0; v < 2; v++) {
		snprintf(q, sizeof(q), "%s%s", query, views[v]);
		for (f = 0; f < 3; f++) {
			struct dp_answer a;
			int rc = dp_session_answer(c->s, c->file, q, fmts[f], NULL, &a);

			c->res->pages++;
			if (rc == -DP_ENOMEM) {
				dp_buf_release(&a.body);
				return rc;
			}
			if (rc < 0 || a.status != 200 || a.body.len == 0) {
				char detail[600];

				snprintf(detail, sizeof(detail), "format %d: status %d: %.400s",
					 (int)fmts[f], a.status,
					 rc < 0 ? dp_errmsg() : dp_buf_cstr(&a.body));
				dp_check_fail(c, q, detail);
			}
			dp_buf_release(&a.body);
		}
	}
	return 0;
}

/* The queries @prefix followed by id 1..n (at most @max of them). */
static int dp_check_ids(struct dp_checker *c, const char *prefix, uint32_t n, uint32_t max)
{
	char q[128];
	uint32_t id;
	int rc;

	if (max && n > max)
		n = max;
	for (id = 1; id <= n; id++) {
		snprintf(q, sizeof(q), "%s%" PRIu32, prefix, id);
		rc = dp_check_query(c, q);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* The pages of every id (at most @max of each kind). */
static int dp_check_id_pages(struct dp_checker *c, const struct dp_sfile *f, uint32_t max)
{
	const struct dp_analysis *a = f->view[DP_VIEW_THREADS].a;
	const struct dp_profile *p = &f->view[DP_VIEW_THREADS].prof;
	const struct {
		const char *prefix;
		uint32_t n;
	} ids[] = {
		{"page=proc&id=", p->n_ps},
		{"page=dump_ps&id=", p->n_ps},
		{"page=site&id=", p->n_css},
		{"page=dump_css&id=", p->n_css},
		{"page=module&id=", a->n_modules},
		/* PD, CSD and clique ids differ between the views: the per-thread view's */
		{"page=clique&view=threads&id=", a->n_cliques},
		{"page=dump_clique&view=threads&id=", a->n_cliques},
		{"page=dump_pd&view=threads&id=", p->n_pd},
		{"page=dump_csd&view=threads&id=", p->n_csd},
		/* the flame graph zoomed at each clique the root reaches (1..root_clique) */
		{"page=flame&view=threads&root=", a->root_clique},
		/* and the merged view's cliques */
		{"page=clique&id=", f->has_merged ? f->view[DP_VIEW_MERGED].a->n_cliques : 0},
		{"page=flame&root=", f->has_merged ? f->view[DP_VIEW_MERGED].a->root_clique : 0},
	};
	int rc = 0;

	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]) && rc == 0; i++)
		rc = dp_check_ids(c, ids[i].prefix, ids[i].n, max);
	return rc;
}

static int dp_check_pages(struct dp_checker *c, const struct dp_sfile *f, uint32_t max)
{
	static const char *const fixed[] = {
		"page=menu",
		"page=root",
		"page=action",
		"page=modules",
		"page=threads",
		"page=flame",
		"page=flame&metric=calls",
		"page=top&metric=calls",
		"page=top&metric=time&scope=total",
		"page=top&metric=callseqs&per=call",
		"page=top&metric=bytes&scope=total&limit=pct:1",
		"page=top&metric=allocs",
		"page=top&sort=name:desc",
		"page=top&sort=cost:calls:asc",
		"page=modules&sort=source",
		"page=search&q=a",
		"page=search&q=%5E.&match=regex",
	};
	static const char *const groups[] = {"site", "proc", "module", "clique"};
	const struct dp_profile *p = &f->view[DP_VIEW_THREADS].prof;
	char q[128];
	uint32_t ps, n_ps = max && p->n_ps > max ? max : p->n_ps;
	size_t i;
	int rc = 0;

	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]) && rc == 0; i++)
		rc = dp_check_query(c, fixed[i]);
	for (ps = 1; ps <= n_ps && rc == 0; ps++) {
		for (i = 0; i < 4 && rc == 0; i++) {
			snprintf(q, sizeof(q), "page=callers&proc=%" PRIu32 "&group=%s", ps,
				 groups[i]);
			rc = dp_check_query(c, q);
		}
		if (rc == 0) {
			snprintf(q, sizeof(q), "page=flame_callers&proc=%" PRIu32, ps);
			rc = dp_check_query(c, q);
		}
		if (rc == 0) { /* its callers and callees graphs (flame&proc=N) */
			snprintf(q, sizeof(q), "page=sandwich&proc=%" PRIu32, ps);
			rc = dp_check_query(c, q);
		}
	}
	return rc == 0 ? dp_check_id_pages(c, f, max) : rc;
}

static bool dp_inherit_eq(const struct dp_inherit *x, const struct dp_inherit *y)
{
	return x->samples == y->samples && x->callseqs == y->callseqs && x->allocs == y->allocs &&
	       x->alloc_bytes == y->alloc_bytes;
}

/* The invariants of one view's analysis; @view names it in messages. */
static void dp_check_invariants(struct dp_checker *c, const struct dp_analysis *a, const char *view)
{
	const struct dp_profile *p = a->p;
	struct dp_inherit sum = {0}, own, x;
	char what[64], detail[160];
	uint32_t i, k;

	for (i = 1; i <= p->n_pd; i++) {
		own = dp_analysis_pd_own_inherit(a, i);
		dp_inherit_add(&sum, &own);
	}
	snprintf(what, sizeof(what), "%s view", view);
	if (!dp_inherit_eq(&sum, &a->root_total) && a->n_extra_entries == 0) {
		snprintf(detail, sizeof(detail),
			 "root total %" PRIu64 " samples, %" PRIu64 " callseqs differs from the "
			 "sum of own costs %" PRIu64 ", %" PRIu64,
			 a->root_total.samples, a->root_total.callseqs, sum.samples, sum.callseqs);
		dp_check_fail(c, what, detail);
	}
	for (i = 1; i <= a->n_cliques; i++) {
		const uint32_t *m = dp_csr_items(&a->clique_pds, i);

		memset(&sum, 0, sizeof(sum));
		for (k = 0; k < dp_csr_count(&a->clique_pds, i); k++) {
			own = dp_analysis_pd_own_inherit(a, m[k]);
			dp_inherit_add(&sum, &own);
			dp_inherit_add(&sum, &a->pd_desc[m[k]]);
		}
		if (!dp_inherit_eq(&sum, &a->clique_total[i])) {
			snprintf(detail, sizeof(detail),
				 "clique %" PRIu32 ": total differs from the sum over its members",
				 i);
			dp_check_fail(c, what, detail);
		}
	}
	for (i = 1; i <= p->n_ps; i++) {
		const uint32_t *pds = dp_csr_items(&a->ps_pds, i);

		memset(&sum, 0, sizeof(sum));
		for (k = 0; k < dp_csr_count(&a->ps_pds, i); k++) {
			own = dp_analysis_pd_own_inherit(a, pds[k]);
			dp_inherit_add(&sum, &own);
		}
		x = dp_costs_inherit(&a->ps_own[i]);
		if (!dp_inherit_eq(&sum, &x)) {
			snprintf(detail, sizeof(detail),
				 "procedure %" PRIu32
				 ": own cost differs from the sum over its PDs",
				 i);
			dp_check_fail(c, what, detail);
		}
	}
}

/* Both views must agree on everything that does not depend on PD identity. */
static void dp_check_views(struct dp_checker *c, const struct dp_sfile *f)
{
	const struct dp_analysis *a = f->view[DP_VIEW_THREADS].a, *m = f->view[DP_VIEW_MERGED].a;
	char detail[128];
	uint32_t i;

	if (!f->has_merged)
		return;
	if (!dp_inherit_eq(&a->root_total, &m->root_total))
		dp_check_fail(c, "views", "the merged view's root total differs");
	for (i = 1; i <= f->view[DP_VIEW_THREADS].prof.n_ps; i++) {
		const struct dp_costs *x = &a->ps_own[i], *y = &m->ps_own[i];

		if (x->calls != y->calls || x->samples != y->samples ||
		    x->callseqs != y->callseqs || x->alloc_bytes != y->alloc_bytes) {
			snprintf(detail, sizeof(detail),
				 "procedure %" PRIu32 ": own costs differ between the views", i);
			dp_check_fail(c, "views", detail);
		}
	}
}

/*
 * Files with library leaves: each thread view folded (libs=fold) keeps the invariants and
 * the root total, and its library procedures cost nothing; its main pages answer.
 */
static int dp_check_folded(struct dp_checker *c, struct dp_sfile *f)
{
	static const char *const pages[] = {"page=menu&libs=fold", "page=flame&libs=fold",
					    "page=top&metric=time&libs=fold",
					    "page=callers&proc=3&group=proc&libs=fold"};
	int rc = 0;

	if (!f->has_libs)
		return 0;
	for (int k = 0; k < 2 && rc == 0; k++) {
		struct dp_prefs p = {.view = (enum dp_view_kind)k, .libs = DP_LIBS_FOLD};
		const struct dp_analysis *a, *x;

		rc = dp_sfile_prepare(f, &p);
		if (rc < 0)
			return rc;
		a = dp_sfile_pick(f, &p)->a;
		x = dp_sfile_view(f, p.view)->a;
		dp_check_invariants(c, a, k ? "per-thread folded" : "folded");
		if (!dp_inherit_eq(&a->root_total, &x->root_total))
			dp_check_fail(c, "folded view", "the root total differs from the view's");
		for (uint32_t i = 1; i <= a->p->n_ps; i++)
			if (a->p->ps[i].kind == DP_PS_LIBRARY && a->ps_own[i].samples)
				dp_check_fail(c, "folded view", "a library procedure has samples");
	}
	for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]) && rc == 0; i++)
		rc = dp_check_query(c, pages[i]);
	return rc;
}

/* MLton's checkProf: a region's leaves that named it while another region or function
 * was innermost are the program's mistake, reported as failures. */
static void dp_check_regions(struct dp_checker *c, const struct dp_profile *p)
{
	char what[160], detail[96];

	for (uint32_t ps = 1; ps <= p->n_ps; ps++) {
		if (p->ps[ps].kind != DP_PS_REGION || !p->ps[ps].mismatched)
			continue;
		snprintf(what, sizeof(what), "region %s", dp_profile_str(p, p->ps[ps].name));
		snprintf(detail, sizeof(detail),
			 "%" PRIu64 " mismatched leave%s (not the innermost open region)",
			 p->ps[ps].mismatched, p->ps[ps].mismatched == 1 ? "" : "s");
		dp_check_fail(c, what, detail);
	}
}

int dp_session_check(struct dp_session *s, uint32_t i, uint32_t max_per_kind,
		     struct dp_check_result *res)
{
	struct dp_checker c = {s, i, res, 0};
	struct dp_sfile *f;
	int rc;

	memset(res, 0, sizeof(*res));
	dp_buf_init(&res->report, (size_t)1 << 20);
	if (i >= s->n)
		return dp_error(DP_EUSAGE, "no file %" PRIu32 " in the session", i);
	f = s->files[i];
	rc = dp_sfile_threads_view(s->files[i]); /* check both views */
	if (rc < 0)
		return rc;
	dp_check_invariants(&c, f->view[DP_VIEW_THREADS].a, "per-thread");
	if (f->has_merged)
		dp_check_invariants(&c, f->view[DP_VIEW_MERGED].a, "merged");
	dp_check_views(&c, f);
	dp_check_regions(&c, &f->view[DP_VIEW_THREADS].prof);
	rc = dp_check_folded(&c, f);
	if (rc == 0)
		rc = dp_check_pages(&c, f, max_per_kind);
	return rc < 0 ? rc : dp_buf_error(&res->report);
}
