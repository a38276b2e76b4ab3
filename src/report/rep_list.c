/*
 * report/rep_list.c - the list pages: every module (and object), one module's
 * procedures, and the top procedures by a metric.
 *
 * modules: no subject. Section "modules": one MODULE row per module (id = module id,
 * name = its file or "<unknown>", own/desc = module_own/module_desc, INACTIVE when it has
 * no calls and no cost), sorted as prefs.sort says. Section "objects": one OBJECT row per
 * object, 0 (procedures of no known object, name "<unknown>") then 1..n_objects (name =
 * its path), own/desc = object_own/object_desc, INACTIVE as above, same order rules.
 * Only bunch K (bunch=K, size=S) of the sorted modules is kept; every object is.
 *
 * module (id=N or name=FILE: the module's file exactly, else the unique module whose
 * file ends in "/FILE"; r->q then names it by id): subject = the module's row; section
 * "procs": one PS row per procedure of the module (names qualified against this module),
 * INACTIVE when never called, sorted by prefs; only bunch K (bunch=K, size=S) is
 * kept. Unknown: -DP_ENOENT naming the modules with the same base name, or how many
 * modules there are; neither id nor name: -DP_EUSAGE.
 *
 * top (limit=, metric=, scope=, per=): no subject. Candidates: every PS of kind function
 * whose value of the metric is non-zero. Value: calls (scope self, per overall only,
 * otherwise -DP_EUSAGE), or samples / callseqs / allocs / bytes, own (self) or the
 * procedure's total (ps_total, as its row: dp_rep_row_ps), per call divided by calls. Ranked by
 * value descending, ties by total samples, then total bytes (both descending), then name, then id.
 * A sort= given by cost ranks by that cost instead (its metric, scope and per; ascending with
 * sort_rev: the cheapest non-zero first); a sort= by name or source order keeps the ranking's rows
 * and orders them so (dp_rep_sort). limit=M-N keeps ranks M..N; pct:X keeps values >= X% of the
 * root total of the metric (not for calls, not per call: -DP_EUSAGE); val:X keeps values >= X in
 * the metric's unit (seconds for time: samples * sample_period_ns / 1e9; a count for the others).
 * Section "procs": the PS rows kept, in rank order, depth 0. n_items = the number of candidates;
 * facts: n_candidates, first_rank (the rank of the first row, 1-based).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "report_int.h"

/* ------------------------------------------------------------------ modules --- */

static int modules_section(struct dp_report *r, const struct dp_report_ctx *c)
{
	struct dp_rep_rows l;
	int rc;

	dp_rep_rows_init(&l, r);
	for (uint32_t m = 1; m <= c->a->n_modules; m++) {
		struct dp_rep_row *row = dp_rep_rows_add(&l);

		if (!row)
			return -DP_ENOMEM;
		dp_rep_row_module(r, c, m, row);
		if (row->own.calls == 0)
			row->flags |= DP_ROW_INACTIVE;
	}
	rc = dp_rep_sort(r, l.rows, l.n, &r->q.prefs);
	return rc < 0 ? rc : dp_rep_section_bunch(r, "modules", "Modules", &l);
}

static int objects_section(struct dp_report *r, const struct dp_report_ctx *c)
{
	const struct dp_profile *p = c->p;
	struct dp_rep_rows l;
	int rc;

	dp_rep_rows_init(&l, r);
	for (uint32_t o = 0; o <= p->n_objects; o++) {
		struct dp_rep_row *row = dp_rep_rows_add(&l);
		const char *path = o ? dp_profile_str(p, p->objects[o].path) : "";

		if (!row)
			return -DP_ENOMEM;
		row->kind = DP_ENT_OBJECT;
		row->id = o;
		row->name = path[0] ? path : "<unknown>";
		row->own = c->a->object_own[o];
		row->desc = c->a->object_desc[o];
		if (row->own.calls == 0)
			row->flags |= DP_ROW_INACTIVE;
	}
	rc = dp_rep_sort(r, l.rows, l.n, &r->q.prefs);
	return rc < 0 ? rc : dp_rep_section(r, "objects", "Objects", &l);
}

int dp_rep_modules(struct dp_report *r, const struct dp_report_ctx *c)
{
	int rc;

	r->title = "Modules";
	rc = modules_section(r, c);
	return rc < 0 ? rc : objects_section(r, c);
}

/* ------------------------------------------------------------------- module --- */

static const char *base_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* ends_with_path - whether @path is @suffix or ends in "/@suffix" */
static bool ends_with_path(const char *path, const char *suffix)
{
	size_t lp = strlen(path), ls = strlen(suffix);

	if (ls > lp)
		return false;
	if (ls == lp)
		return strcmp(path, suffix) == 0;
	return path[lp - ls - 1] == '/' && strcmp(path + lp - ls, suffix) == 0;
}

/* module_not_found - -DP_ENOENT naming up to 10 modules with @name's base name */
static int module_not_found(const struct dp_report_ctx *c, const char *name)
{
	const struct dp_analysis *a = c->a;
	const char *base = base_of(name);
	char list[768];
	size_t len = 0;
	uint32_t shown = 0, close = 0;

	list[0] = 0;
	for (uint32_t m = 1; m <= a->n_modules; m++) {
		const char *mn = dp_analysis_module_name(a, m);
		int w;

		if (strcmp(base_of(mn), base) != 0)
			continue;
		close++;
		if (shown >= 10)
			continue;
		w = snprintf(list + len, sizeof(list) - len, "%s '%s' (id=%u)", shown ? "," : "",
			     mn, m);
		if (w < 0 || (size_t)w >= sizeof(list) - len)
			continue;
		len += (size_t)w;
		shown++;
	}
	if (close)
		return dp_error(DP_ENOENT, "no module '%s'; did you mean%s%s?", name, list,
				close > shown ? ", ..." : "");
	return dp_error(DP_ENOENT, "no module '%s' (the profile has %u modules; see page=modules)",
			name, a->n_modules);
}

/* resolve_module - the module q.id or q.name names (> 0), or a negative dp_err */
static int64_t resolve_module(struct dp_report *r, const struct dp_report_ctx *c)
{
	const struct dp_analysis *a = c->a;
	const char *name = r->q.name;
	uint32_t found = 0, n_suffix = 0;
	int rc;

	if (r->q.id) {
		rc = dp_rep_check_id(r, "module", r->q.id, a->n_modules);
		return rc < 0 ? rc : (int64_t)r->q.id;
	}
	if (!name[0])
		return dp_error(DP_EUSAGE, "page module needs name=FILE or id=N");
	for (uint32_t m = 1; m <= a->n_modules; m++)
		if (strcmp(dp_analysis_module_name(a, m), name) == 0)
			return m;
	for (uint32_t m = 1; m <= a->n_modules; m++) {
		if (ends_with_path(dp_analysis_module_name(a, m), name)) {
			found = m;
			n_suffix++;
		}
	}
	if (n_suffix == 1)
		return found;
	return module_not_found(c, name);
}

int dp_rep_module(struct dp_report *r, const struct dp_report_ctx *c)
{
	const struct dp_analysis *a = c->a;
	int64_t got = resolve_module(r, c);
	struct dp_rep_rows l;
	uint32_t m, n;
	const uint32_t *ps;
	int rc;

	if (got < 0)
		return (int)got;
	m = (uint32_t)got;
	r->q.id = m; /* the query answered, its name resolved (report.h) */
	r->q.name[0] = 0;
	dp_rep_row_module(r, c, m, &r->subject);
	r->has_subject = true;
	r->title = dp_rep_printf(r, "Module %s", r->subject.name);
	if (!r->title)
		return -DP_ENOMEM;
	n = dp_csr_count(&a->module_pss, m);
	ps = dp_csr_items(&a->module_pss, m);
	dp_rep_rows_init(&l, r);
	for (uint32_t i = 0; i < n; i++) {
		struct dp_rep_row *row = dp_rep_rows_add(&l);

		if (!row)
			return -DP_ENOMEM;
		dp_rep_row_ps(r, c, ps[i], row);
		row->name = dp_rep_ps_name(r, c, ps[i], m);
		if (row->own.calls == 0)
			row->flags |= DP_ROW_INACTIVE;
	}
	rc = dp_rep_sort(r, l.rows, l.n, &r->q.prefs);
	return rc < 0 ? rc : dp_rep_section_bunch(r, "procs", "Procedures", &l);
}

/* ---------------------------------------------------------------------- top --- */

struct top_cand {
	double value;
	uint64_t total_samples, total_bytes;
	const char *name;
	uint32_t ps;
};

/* the order of the ranking: value descending, then the ties */
static int cmp_cand(const void *x, const void *y)
{
	const struct top_cand *a = x, *b = y;
	int c;

	if (a->value != b->value)
		return a->value > b->value ? -1 : 1;
	if (a->total_samples != b->total_samples)
		return a->total_samples > b->total_samples ? -1 : 1;
	if (a->total_bytes != b->total_bytes)
		return a->total_bytes > b->total_bytes ? -1 : 1;
	c = strcmp(a->name, b->name);
	if (c)
		return c;
	return (a->ps > b->ps) - (a->ps < b->ps);
}

/* top_check - -DP_EUSAGE for the combinations that make no sense */
static int top_check(const struct dp_query *q)
{
	if (q->metric == DP_METRIC_CALLS && (q->scope != DP_SCOPE_SELF || q->per != DP_PER_OVERALL))
		return dp_error(DP_EUSAGE, "top by metric=calls needs scope=self and per=overall "
					   "(calls are not inherited, and calls per call is 1)");
	if (q->limit_kind == DP_LIMIT_PCT && q->metric == DP_METRIC_CALLS)
		return dp_error(DP_EUSAGE, "limit=pct:X does not apply to metric=calls (no root "
					   "total); use limit=M-N or limit=val:X");
	if (q->limit_kind == DP_LIMIT_PCT && q->per == DP_PER_CALL)
		return dp_error(DP_EUSAGE,
				"limit=pct:X needs per=overall (a per-call value is "
				"not a share of the total); use limit=M-N or limit=val:X");
	if (q->limit_kind == DP_LIMIT_RANKS && q->limit_hi < q->limit_lo)
		return dp_error(DP_EUSAGE, "limit=%u-%u: the first rank is after the last",
				q->limit_lo, q->limit_hi);
	return 0;
}

/* root_of - the root total of metric @m */
static double root_of(const struct dp_report *r, enum dp_metric m)
{
	switch (m) {
	case DP_METRIC_CALLSEQS:
		return (double)r->root_total.callseqs;
	case DP_METRIC_ALLOCS:
		return (double)r->root_total.allocs;
	case DP_METRIC_BYTES:
		return (double)r->root_total.alloc_bytes;
	default:
		return (double)r->root_total.samples;
	}
}

/* What the top page ranks by: a metric in a scope and per, in a direction. */
struct top_key {
	enum dp_metric metric;
	enum dp_scope scope;
	enum dp_per per;
	bool rev; /* ascending */
};

/* top_rank_key - the ranking: the query's metric, scope and per, or the sort= given by
 * cost */
static struct top_key top_rank_key(const struct dp_query *q)
{
	const struct dp_prefs *p = &q->prefs;

	if (!q->sort_default && p->sort == DP_SORT_COST)
		return (struct top_key){p->sort_metric, p->sort_scope, p->sort_per, p->sort_rev};
	return (struct top_key){q->metric, q->scope, q->per, false};
}

/* ps_value - a procedure's value of @k, from its own costs and its total (as
 * dp_rep_row_metric() of its row, without making a row: this runs once per procedure) */
static double ps_value(const struct dp_costs *own, const struct dp_inherit *total,
		       const struct top_key *q)
{
	struct dp_inherit dd = {total->samples - own->samples, total->callseqs - own->callseqs,
				total->allocs - own->allocs, total->alloc_bytes - own->alloc_bytes};
	const struct dp_inherit *desc = &dd;

	uint64_t o, d;
	double v;

	switch (q->metric) {
	case DP_METRIC_CALLS:
		o = own->calls;
		d = 0;
		break;
	case DP_METRIC_CALLSEQS:
		o = own->callseqs;
		d = desc->callseqs;
		break;
	case DP_METRIC_ALLOCS:
		o = own->allocs;
		d = desc->allocs;
		break;
	case DP_METRIC_BYTES:
		o = own->alloc_bytes;
		d = desc->alloc_bytes;
		break;
	default:
		o = own->samples;
		d = desc->samples;
		break;
	}
	v = (double)o + (q->scope == DP_SCOPE_TOTAL ? (double)d : 0.0);
	if (q->per == DP_PER_CALL)
		v = own->calls ? v / (double)own->calls : 0.0;
	return v;
}

/* top_min - the smallest value a pct: or val: limit of @q keeps */
static double top_min(const struct dp_report *r, const struct dp_query *q)
{
	if (q->limit_kind == DP_LIMIT_PCT)
		return q->limit_value / 100.0 * root_of(r, q->metric);
	if (q->metric == DP_METRIC_TIME)
		return q->limit_value * 1e9 /
		       (double)(r->sample_period_ns ? r->sample_period_ns : 1);
	return q->limit_value;
}

/* heap_down - restore the heap (the candidate that sorts last on top) below @i */
static void heap_down(struct top_cand *h, uint32_t n, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, big = i;
		struct top_cand t;

		if (l < n && cmp_cand(&h[l], &h[big]) > 0)
			big = l;
		if (l + 1 < n && cmp_cand(&h[l + 1], &h[big]) > 0)
			big = l + 1;
		if (big == i)
			return;
		t = h[i];
		h[i] = h[big];
		h[big] = t;
		i = big;
	}
}

static void heap_up(struct top_cand *h, uint32_t i)
{
	while (i > 0 && cmp_cand(&h[(i - 1) / 2], &h[i]) < 0) {
		struct top_cand t = h[i];

		h[i] = h[(i - 1) / 2];
		h[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

/* struct top_sel - the candidates kept: the best @cap (ranks) or all >= @min (thresholds) */
struct top_sel {
	struct top_cand *kept;
	uint32_t n_kept, cap;
	bool ranks;
	double min;
	uint32_t n_all; /* candidates in all */
};

/* top_offer - consider candidate @x */
static void top_offer(struct top_sel *t, const struct top_cand *x)
{
	t->n_all++;
	if (!t->ranks) {
		if (x->value >= t->min)
			t->kept[t->n_kept++] = *x;
		return;
	}
	if (t->n_kept < t->cap) {
		t->kept[t->n_kept] = *x;
		heap_up(t->kept, t->n_kept++);
	} else if (t->cap && cmp_cand(x, &t->kept[0]) < 0) {
		t->kept[0] = *x;
		heap_down(t->kept, t->n_kept, 0);
	}
}

/*
 * top_select - fill @t with the candidates the limit of @q keeps, sorted: one pass over
 * the procedures keeping the best limit_hi in a heap (ranks) or those over the
 * threshold, so that only the kept ones are sorted. Return: 0 or -DP_ENOMEM.
 */
static int top_select(struct dp_report *r, const struct dp_report_ctx *c, const struct dp_query *q,
		      struct top_sel *t)
{
	const struct dp_profile *p = c->p;
	struct top_key by = {q->metric, q->scope, q->per, false};

	t->ranks = q->limit_kind == DP_LIMIT_RANKS;
	t->min = t->ranks ? 0.0 : top_min(r, q);
	if (t->ranks) /* a threshold is on the query's metric; ranks follow the ranking */
		by = top_rank_key(q);
	t->cap = t->ranks && q->limit_hi < p->n_ps ? q->limit_hi : p->n_ps;
	t->kept = dp_arena_array(&r->arena, (size_t)t->cap + 1, sizeof(*t->kept));
	if (!t->kept)
		return dp_error(DP_ENOMEM, "out of memory ranking procedures");
	for (uint32_t ps = 1; ps <= p->n_ps; ps++) {
		const struct dp_costs *own = &c->a->ps_own[ps];
		const struct dp_inherit *tot = &c->a->ps_total[ps];
		struct top_cand x;

		if (p->ps[ps].kind != DP_PS_FUNCTION && p->ps[ps].kind != DP_PS_REGION &&
		    p->ps[ps].kind != DP_PS_LIBRARY)
			continue;
		x.value = ps_value(own, tot, &by);
		if (x.value == 0.0)
			continue;
		if (by.rev) /* the heap keeps the largest: of the negated values */
			x.value = -x.value;
		/* worse than the worst kept: only counted */
		if (t->ranks && t->n_kept == t->cap && t->cap && x.value < t->kept[0].value) {
			t->n_all++;
			continue;
		}
		x.total_samples = tot->samples;
		x.total_bytes = tot->alloc_bytes;
		x.name = dp_profile_str(p, p->ps[ps].name);
		x.ps = ps;
		top_offer(t, &x);
	}
	qsort(t->kept, t->n_kept, sizeof(*t->kept), cmp_cand);
	return 0;
}

static const char *top_title(struct dp_report *r)
{
	const struct dp_query *q = &r->q;
	struct top_key k = top_rank_key(q);
	const char *scope = k.scope == DP_SCOPE_SELF ? ", self" : ", total";
	const char *per = k.per == DP_PER_CALL ? ", per call" : "";
	const char *m = dp_metric_name(k.metric);

	if (k.metric == DP_METRIC_CALLS)
		scope = "";
	if (q->limit_kind == DP_LIMIT_RANKS)
		return dp_rep_printf(r, "%s procedures %u-%u by %s%s%s", k.rev ? "Bottom" : "Top",
				     q->limit_lo, q->limit_hi, m, scope, per);
	scope = q->scope == DP_SCOPE_SELF ? "self" : "total";
	per = q->per == DP_PER_CALL ? ", per call" : "";
	m = dp_metric_name(q->metric);
	return dp_rep_printf(r, "Procedures with %s, %s%s >= %g%s", m, scope, per, q->limit_value,
			     q->limit_kind == DP_LIMIT_PCT ? "%"
			     : q->metric == DP_METRIC_TIME ? " s"
							   : "");
}

int dp_rep_top(struct dp_report *r, const struct dp_report_ctx *c)
{
	struct top_sel t = {0};
	struct dp_rep_rows l;
	uint32_t lo = 0;
	int rc = top_check(&r->q);

	if (rc < 0)
		return rc;
	r->title = top_title(r);
	if (!r->title)
		return -DP_ENOMEM;
	rc = top_select(r, c, &r->q, &t);
	if (rc < 0)
		return rc;
	if (t.ranks)
		lo = r->q.limit_lo ? r->q.limit_lo - 1 : 0;
	dp_rep_rows_init(&l, r);
	for (uint32_t i = lo; i < t.n_kept; i++) {
		struct dp_rep_row *row = dp_rep_rows_add(&l);

		if (!row)
			return -DP_ENOMEM;
		dp_rep_row_ps(r, c, t.kept[i].ps, row);
	}
	/* rows in the ranking's order, unless sort= asks for another */
	if (!r->q.sort_default && (r->q.prefs.sort != DP_SORT_COST || !t.ranks) &&
	    (rc = dp_rep_sort(r, l.rows, l.n, &r->q.prefs)) < 0)
		return rc;
	r->n_items = t.n_all;
	rc = dp_rep_fact_u64(r, "n_candidates", "procedures with a non-zero value", t.n_all);
	rc |= dp_rep_fact_u64(r, "first_rank", "rank of the first row", (uint64_t)lo + 1);
	if (rc < 0)
		return -DP_ENOMEM;
	return dp_rep_section(r, "procs", NULL, &l);
}

int dp_rep_top_rows(struct dp_report *r, const struct dp_report_ctx *c, enum dp_metric m,
		    enum dp_scope scope, uint32_t n, struct dp_rep_rows *l)
{
	struct top_sel t = {0};
	struct dp_query q = r->q;
	int rc;

	dp_query_reset_params(&q, DP_PAGE_TOP);
	q.metric = m;
	q.scope = scope;
	q.limit_hi = n;
	q.sort_default = true;
	rc = top_select(r, c, &q, &t);
	for (uint32_t i = 0; rc == 0 && i < t.n_kept; i++) {
		struct dp_rep_row *row = dp_rep_rows_add(l);

		if (!row)
			return -DP_ENOMEM;
		dp_rep_row_ps(r, c, t.kept[i].ps, row);
	}
	return rc;
}
