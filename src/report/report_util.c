/*
 * report/report_util.c - what every page builder shares (report_int.h): growing row
 * lists, sections, facts and links in the report's arena; procedure naming with module
 * qualification; one row maker per kind of node; metric extraction; bunches of long
 * lists; resolving procedure names and checking ids (the sort is in report_sort.c).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "report_int.h"

void dp_rep_rows_init(struct dp_rep_rows *l, struct dp_report *r)
{
	l->r = r;
	l->rows = NULL;
	l->n = 0;
	l->cap = 0;
}

int dp_rep_rows_room(struct dp_rep_rows *l, uint32_t more)
{
	uint64_t want = (uint64_t)l->n + more, cap = l->cap ? 2 * (uint64_t)l->cap : 16;
	struct dp_rep_row *rows;

	if (want <= l->cap)
		return 0;
	if (want > UINT32_MAX)
		return dp_error(DP_ENOMEM, "too many rows in a report");
	cap = cap > want && cap <= UINT32_MAX ? cap : want;
	rows = dp_arena_array(&l->r->arena, cap, sizeof(*rows));
	if (!rows)
		return dp_error(DP_ENOMEM, "out of memory building a report (%llu rows)",
				(unsigned long long)cap);
	if (l->n)
		memcpy(rows, l->rows, (size_t)l->n * sizeof(*rows));
	l->rows = rows;
	l->cap = (uint32_t)cap;
	return 0;
}

struct dp_rep_row *dp_rep_rows_add(struct dp_rep_rows *l)
{
	struct dp_rep_row *row;

	if (l->n == l->cap && dp_rep_rows_room(l, 1) < 0)
		return NULL;
	row = &l->rows[l->n++];
	memset(row, 0, sizeof(*row));
	row->name = "";
	return row;
}

int dp_rep_bunch(struct dp_report *r, uint64_t n_items, uint64_t *lo, uint64_t *hi)
{
	uint32_t size = r->q.size ? r->q.size : 20, bunch = r->q.bunch ? r->q.bunch : 1;

	r->n_items = n_items;
	r->n_bunches = n_items ? (uint32_t)((n_items + size - 1) / size) : 1;
	if (bunch > r->n_bunches)
		return dp_error(DP_ENOENT, "%s page %u does not exist (%u pages of %u)",
				dp_query_page_name(r->q.page), bunch, r->n_bunches, size);
	r->bunch = bunch;
	*lo = (uint64_t)(bunch - 1) * size;
	*hi = *lo + size < n_items ? *lo + size : n_items;
	return 0;
}

int dp_rep_section_bunch(struct dp_report *r, const char *id, const char *title,
			 const struct dp_rep_rows *l)
{
	struct dp_rep_rows part = *l;
	uint64_t lo, hi;
	int rc = dp_rep_bunch(r, l->n, &lo, &hi);

	if (rc < 0)
		return rc;
	part.rows = l->rows + lo;
	part.n = part.cap = (uint32_t)(hi - lo);
	return dp_rep_section(r, id, title, &part);
}

/* grow_by_one - a copy of @old (@n elements of @size) with room for one more, or NULL */
static void *grow_by_one(struct dp_report *r, const void *old, uint32_t n, size_t size)
{
	void *p = dp_arena_array(&r->arena, (size_t)n + 1, size);

	if (!p) {
		dp_error(DP_ENOMEM, "out of memory building a report");
		return NULL;
	}
	if (n)
		memcpy(p, old, (size_t)n * size);
	return p;
}

int dp_rep_section(struct dp_report *r, const char *id, const char *title,
		   const struct dp_rep_rows *l)
{
	struct dp_rep_section *s = grow_by_one(r, r->sections, r->n_sections, sizeof(*s));

	if (!s)
		return -DP_ENOMEM;
	r->sections = s;
	s = &s[r->n_sections++];
	s->id = id;
	s->title = title;
	s->n_rows = l ? l->n : 0;
	s->rows = l ? l->rows : NULL;
	s->costless = false;
	return 0;
}

static struct dp_rep_fact *fact_add(struct dp_report *r, const char *key, const char *label)
{
	struct dp_rep_fact *f = grow_by_one(r, r->facts, r->n_facts, sizeof(*f));

	if (!f)
		return NULL;
	r->facts = f;
	f = &f[r->n_facts++];
	memset(f, 0, sizeof(*f));
	f->key = key;
	f->label = label;
	return f;
}

int dp_rep_fact_u64(struct dp_report *r, const char *key, const char *label, uint64_t v)
{
	struct dp_rep_fact *f = fact_add(r, key, label);

	if (!f)
		return -DP_ENOMEM;
	f->type = DP_FACT_U64;
	f->u = v;
	return 0;
}

int dp_rep_fact_str(struct dp_report *r, const char *key, const char *label, const char *s)
{
	struct dp_rep_fact *f = fact_add(r, key, label);

	if (!f)
		return -DP_ENOMEM;
	f->type = DP_FACT_STR;
	f->s = s ? s : "";
	return 0;
}

int dp_rep_fact_f64(struct dp_report *r, const char *key, const char *label, double v)
{
	struct dp_rep_fact *f = fact_add(r, key, label);

	if (!f)
		return -DP_ENOMEM;
	f->type = DP_FACT_F64;
	f->f = v;
	return 0;
}

int dp_rep_link(struct dp_report *r, const char *label, const struct dp_query *target)
{
	struct dp_rep_link *l = grow_by_one(r, r->links, r->n_links, sizeof(*l));
	struct dp_query *q;

	if (!l)
		return -DP_ENOMEM;
	q = dp_arena_alloc(&r->arena, sizeof(*q));
	if (!q)
		return dp_error(DP_ENOMEM, "out of memory building a report");
	*q = *target;
	r->links = l;
	l = &l[r->n_links++];
	l->label = label;
	l->q = q;
	return 0;
}

int dp_rep_link_id(struct dp_report *r, const char *label, enum dp_page page, uint32_t id)
{
	struct dp_query t = r->q;

	dp_query_reset_params(&t, page);
	if (page == DP_PAGE_CALLERS || page == DP_PAGE_FLAME_CALLERS)
		t.proc = id;
	else
		t.id = id;
	return dp_rep_link(r, label, &t);
}

char *dp_rep_strdup(struct dp_report *r, const char *s)
{
	char *d = dp_arena_strndup(&r->arena, s, strlen(s));

	if (!d)
		dp_error(DP_ENOMEM, "out of memory building a report");
	return d;
}

char *dp_rep_printf(struct dp_report *r, const char *fmt, ...)
{
	va_list ap;
	char *d;

	va_start(ap, fmt);
	d = dp_arena_vprintf(&r->arena, fmt, ap);
	va_end(ap);
	if (!d)
		dp_error(DP_ENOMEM, "out of memory building a report");
	return d;
}

/* base_name - the part of @path after its last '/' */
static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* join_name - "@module: @name" in @r's arena, or NULL */
static const char *join_name(struct dp_report *r, const char *module, const char *name)
{
	size_t lm = strlen(module), ln = strlen(name);
	char *s = dp_arena_alloc(&r->arena, lm + ln + 3);

	if (!s)
		return NULL;
	memcpy(s, module, lm);
	memcpy(s + lm, ": ", 2);
	memcpy(s + lm + 2, name, ln + 1);
	return s;
}

const char *dp_rep_ps_name(struct dp_report *r, const struct dp_report_ctx *c, uint32_t ps,
			   uint32_t ctx_module)
{
	const struct dp_profile *p = c->p;
	char buf[64];
	const char *bare, *q, **slot;
	uint32_t m;
	bool qualify;

	if (ps == 0 || ps > p->n_ps)
		return "<none>";
	m = c->a->ps_module[ps];
	switch (r->q.prefs.mq) {
	case DP_MQ_ALWAYS:
		qualify = true;
		break;
	case DP_MQ_DIFF:
		/* no context, or a context without a file (artificial procedures): bare */
		qualify = ctx_module != 0 && c->a->module_file[ctx_module] != 0 && m != ctx_module;
		break;
	case DP_MQ_NEVER:
	default:
		qualify = false;
		break;
	}
	/* artificial procedures and the "<unknown>" module have no file to show */
	if (m == 0 || c->a->module_file[m] == 0 || p->ps[ps].kind != DP_PS_FUNCTION)
		qualify = false;
	if (!r->ps_names) /* zeroed */
		r->ps_names = dp_arena_array(&r->arena, 2 * ((size_t)p->n_ps + 1), sizeof(char *));
	slot = r->ps_names ? &r->ps_names[(qualify ? p->n_ps + 1 : 0) + ps] : NULL;
	if (slot && *slot)
		return *slot;
	bare = dp_profile_ps_label(p, ps, buf, sizeof(buf));
	if (bare == buf && !(bare = dp_rep_strdup(r, buf)))
		return "<procedure>";
	q = qualify ? join_name(r, base_name(dp_analysis_module_name(c->a, m)), bare) : bare;
	if (!q)
		return bare;
	if (slot)
		*slot = q;
	return q;
}

/* thread_entry - the procedure thread root PD @pd calls (the costliest if several), 0
 * if none */
static uint32_t thread_entry(const struct dp_report_ctx *c, uint32_t pd)
{
	const struct dp_profile *p = c->p;
	uint32_t n = dp_csr_count(&c->a->pd_csds, pd), best = 0;
	const uint32_t *ids = dp_csr_items(&c->a->pd_csds, pd);
	uint64_t most = 0;

	for (uint32_t i = 0; i < n; i++) {
		const struct dp_csd *d = &p->csd[ids[i]];
		struct dp_inherit desc = dp_analysis_csd_desc(c->a, ids[i]);
		uint64_t v = d->samples + desc.samples + d->callseqs + desc.callseqs + d->calls;

		if (!best || v > most) {
			best = p->pd[d->callee].ps;
			most = v;
		}
	}
	return best;
}

/* thread_numbers - "thread N", or "threads N, M" / "threads N-M" for the threads whose
 * root is @pd (a thread root of the merged view stands for several), into @b */
static void thread_numbers(const struct dp_report_ctx *c, uint32_t pd, struct dp_buf *b)
{
	const struct dp_profile *p = c->p;
	uint32_t n = 0, run_lo = 0, run_hi = 0, shown = 0;

	for (uint32_t t = 1; t <= p->n_threads; t++)
		n += p->threads[t].root_pd == pd;
	if (n == 0) { /* (a view that does not know its threads' roots) */
		dp_buf_addf(b, "thread %u", p->pd[pd].thread);
		return;
	}
	dp_buf_adds(b, n == 1 ? "thread " : "threads ");
	for (uint32_t t = 1; t <= p->n_threads + 1; t++) {
		bool in = t <= p->n_threads && p->threads[t].root_pd == pd;

		if (in && run_hi && t == run_hi + 1) {
			run_hi = t;
			continue;
		}
		if (run_hi && shown < 8) { /* a run ends */
			dp_buf_addf(b, shown ? ", %u" : "%u", run_lo);
			if (run_hi > run_lo)
				dp_buf_addf(b, run_hi > run_lo + 1 ? "-%u" : ", %u", run_hi);
			shown++;
		} else if (run_hi && shown == 8) {
			dp_buf_adds(b, ", ...");
			shown++;
		}
		run_lo = run_hi = in ? t : 0;
	}
}

const char *dp_rep_thread_name(struct dp_report *r, const struct dp_report_ctx *c, uint32_t pd)
{
	uint32_t entry = thread_entry(c, pd);
	struct dp_buf b;
	const char *s;

	dp_buf_init(&b, 1 << 12);
	dp_buf_adds(&b, entry ? dp_rep_ps_name(r, c, entry, 0) : "<thread>");
	dp_buf_adds(&b, " (");
	thread_numbers(c, pd, &b);
	dp_buf_addc(&b, ')');
	s = dp_buf_error(&b) ? NULL : dp_rep_strdup(r, dp_buf_cstr(&b));
	dp_buf_release(&b);
	if (!s)
		r->err = -DP_ENOMEM; /* the report fails (dp_report_build) */
	return s ? s : "<thread>";
}

/* pd_name - the name of PD @pd's procedure (dp_rep_ps_name), a thread's by its entry
 * (then DP_ROW_THREAD goes into *@flags) */
static const char *pd_name(struct dp_report *r, const struct dp_report_ctx *c, uint32_t pd,
			   uint32_t ctx_module, unsigned *flags)
{
	uint32_t ps = c->p->pd[pd].ps;

	if (ps && ps <= c->p->n_ps && c->p->ps[ps].kind == DP_PS_THREAD) {
		*flags |= DP_ROW_THREAD;
		return dp_rep_thread_name(r, c, pd);
	}
	return dp_rep_ps_name(r, c, ps, ctx_module);
}

const char *dp_rep_path(struct dp_report *r, const struct dp_report_ctx *c, uint32_t pd,
			uint32_t last_ps)
{
	const struct dp_profile *p = c->p;
	uint32_t ps[DP_REP_PATH_MAX], n = 0;
	bool cut = false;
	struct dp_buf b;
	const char *s;

	if (last_ps)
		ps[n++] = last_ps;
	for (uint32_t x = pd; x; x = c->a->pd_up[x].pd) {
		uint32_t k = p->pd[x].ps;

		if (k == 0 || k > p->n_ps || p->ps[k].kind == DP_PS_ROOT ||
		    p->ps[k].kind == DP_PS_THREAD)
			break;
		if (n == DP_REP_PATH_MAX) {
			cut = true;
			break;
		}
		if (!n || ps[n - 1] != k) /* a recursion's member after its entry: once */
			ps[n++] = k;
	}
	dp_buf_init(&b, 1 << 20);
	if (cut)
		dp_buf_adds(&b, "... > ");
	for (uint32_t i = n; i-- > 0;) {
		dp_buf_adds(&b, dp_rep_ps_name(r, c, ps[i], 0));
		if (i)
			dp_buf_adds(&b, " > ");
	}
	if (n == 0 && !cut) { /* a thread's root: no path to say */
		dp_buf_release(&b);
		return "";
	}
	s = dp_buf_error(&b) ? NULL : dp_rep_strdup(r, dp_buf_cstr(&b));
	if (!s)
		dp_error(DP_ENOMEM, "out of memory naming a call path");
	dp_buf_release(&b);
	return s;
}

/* is_zero - whether a row has no calls and no cost at all */
static bool is_zero(const struct dp_costs *o, const struct dp_inherit *d)
{
	return (o->calls | o->exits | o->unwinds | o->samples | o->callseqs | o->allocs |
		o->alloc_bytes | d->samples | d->callseqs | d->allocs | d->alloc_bytes) == 0;
}

static void row_ps_position(const struct dp_report_ctx *c, uint32_t ps, struct dp_rep_row *row)
{
	const struct dp_ps *s = &c->p->ps[ps];

	row->file = s->file ? dp_profile_str(c->p, s->file) : NULL;
	row->line = s->line;
	if (s->kind == DP_PS_REGION)
		row->flags |= DP_ROW_REGION;
}

/* The kind flags of a call row through site @css to procedure @ps (0: none). */
static unsigned call_flags(const struct dp_profile *p, uint32_t css, uint32_t ps)
{
	return (p->css[css].kind == DP_CSS_TAIL ? DP_ROW_TAIL : 0) |
	       (ps && p->ps[ps].kind == DP_PS_REGION ? DP_ROW_REGION : 0);
}

void dp_rep_row_csd(struct dp_report *r, const struct dp_report_ctx *c, uint32_t csd,
		    struct dp_rep_row *row)
{
	const struct dp_profile *p = c->p;
	const struct dp_csd *d = &p->csd[csd];
	const struct dp_css *s = &p->css[d->css];
	uint32_t ps = p->pd[d->callee].ps;

	row->kind = DP_ENT_CSD;
	row->id = csd;
	row->ps = ps;
	row->css = d->css;
	row->clique = c->a->pd_clique[d->callee];
	row->module = c->a->ps_module[ps];
	row->thread = p->pd[d->callee].thread;
	row->name = pd_name(r, c, d->callee, c->a->ps_module[s->ps], &row->flags);
	row->callee = row->name;
	row->file = s->file ? dp_profile_str(p, s->file) : NULL;
	row->line = s->line;
	row->flags |= call_flags(p, d->css, ps);
	memset(&row->own, 0, sizeof(row->own));
	dp_costs_add_csd(&row->own, d);
	row->desc = dp_analysis_csd_desc(c->a, csd);
	if (c->a->csd_child_clique[csd] == 0)
		row->flags |= DP_ROW_RECURSIVE;
	if (is_zero(&row->own, &row->desc))
		row->flags |= DP_ROW_INACTIVE;
}

/* inherit_sub - @a - @b per counter (modulo 2^64) */
static struct dp_inherit inherit_sub(const struct dp_inherit *a, const struct dp_costs *b)
{
	struct dp_inherit d = {
		.samples = a->samples - b->samples,
		.callseqs = a->callseqs - b->callseqs,
		.allocs = a->allocs - b->allocs,
		.alloc_bytes = a->alloc_bytes - b->alloc_bytes,
	};

	return d;
}

void dp_rep_row_pd(struct dp_report *r, const struct dp_report_ctx *c, uint32_t pd,
		   struct dp_rep_row *row)
{
	uint32_t ps = c->p->pd[pd].ps;

	row->kind = DP_ENT_PD;
	row->id = pd;
	row->ps = ps;
	row->clique = c->a->pd_clique[pd];
	row->module = c->a->ps_module[ps];
	row->thread = c->p->pd[pd].thread;
	row->name = pd_name(r, c, pd, 0, &row->flags);
	row_ps_position(c, ps, row);
	row->own = dp_analysis_pd_own(c->a, pd);
	row->desc = c->a->pd_desc[pd];
	/* inside a recursion of several procedures, a context's total is the recursion's:
	 * which member called which is not kept (the clique page shows the same for each) */
	if (dp_csr_count(&c->a->clique_pds, row->clique) > 1)
		row->desc = inherit_sub(&c->a->clique_total[row->clique], &row->own);
	if (is_zero(&row->own, &row->desc))
		row->flags |= DP_ROW_INACTIVE;
}

void dp_rep_row_ps(struct dp_report *r, const struct dp_report_ctx *c, uint32_t ps,
		   struct dp_rep_row *row)
{
	const struct dp_analysis *a = c->a;

	row->kind = DP_ENT_PS;
	row->id = ps;
	row->ps = ps;
	row->module = a->ps_module[ps];
	/* a procedure with a single context links to that context's clique */
	if (dp_csr_count(&a->ps_pds, ps) == 1)
		row->clique = a->pd_clique[dp_csr_items(&a->ps_pds, ps)[0]];
	row->name = dp_rep_ps_name(r, c, ps, 0);
	row_ps_position(c, ps, row);
	row->own = a->ps_own[ps];
	row->desc = inherit_sub(&a->ps_total[ps], &row->own); /* total = ps_total */
	if (is_zero(&row->own, &row->desc))
		row->flags |= DP_ROW_INACTIVE;
}

/* css_single_callee - the one callee PS the CSDs of @css reach (0: none or several) */
static uint32_t css_single_callee(const struct dp_report_ctx *c, uint32_t css)
{
	const struct dp_profile *p = c->p;
	uint32_t n = dp_csr_count(&c->a->css_csds, css), ps = 0;
	const uint32_t *ids = dp_csr_items(&c->a->css_csds, css);

	for (uint32_t i = 0; i < n; i++) {
		uint32_t q = p->pd[p->csd[ids[i]].callee].ps;

		if (ps && q != ps)
			return 0;
		ps = q;
	}
	return ps;
}

void dp_rep_row_css(struct dp_report *r, const struct dp_report_ctx *c, uint32_t css,
		    struct dp_rep_row *row)
{
	const struct dp_profile *p = c->p;
	const struct dp_analysis *a = c->a;
	const struct dp_css *s = &p->css[css];
	uint32_t n = dp_csr_count(&a->css_csds, css);
	uint32_t ps = n ? css_single_callee(c, css) : s->callee_ps;

	row->kind = DP_ENT_CSS;
	row->id = css;
	row->css = css;
	row->file = s->file ? dp_profile_str(p, s->file) : NULL;
	row->line = s->line;
	row->flags |= call_flags(p, css, ps <= p->n_ps ? ps : 0);
	if (ps && ps <= p->n_ps) {
		row->ps = ps;
		row->module = a->ps_module[ps];
		row->name = dp_rep_ps_name(r, c, ps, a->ps_module[s->ps]);
		row->callee = row->name;
	} else if (n == 0 && s->kind != DP_CSS_INDIRECT && s->kind != DP_CSS_CALLBACK) {
		row->name = "(unknown)";
	} else {
		row->name = s->kind == DP_CSS_CALLBACK ? "(callback)"
			    : s->kind == DP_CSS_TAIL   ? "(tail calls)"
						       : "(indirect)";
	}
	if (n == 1) {
		uint32_t csd = dp_csr_items(&a->css_csds, css)[0];

		row->clique = a->pd_clique[p->csd[csd].callee];
		row->thread = p->pd[p->csd[csd].caller].thread;
	}
	row->own = a->css_own[css];
	row->desc = a->css_desc[css];
	if (is_zero(&row->own, &row->desc))
		row->flags |= DP_ROW_INACTIVE;
}

void dp_rep_row_clique_node(struct dp_report *r, const struct dp_report_ctx *c, uint32_t clique,
			    struct dp_rep_row *row)
{
	const struct dp_analysis *a = c->a;
	uint32_t pd = dp_csr_items(&a->clique_pds, clique)[0];
	uint32_t ps = c->p->pd[pd].ps;

	row->kind = DP_ENT_CLIQUE;
	row->id = clique;
	row->clique = clique;
	row->ps = ps;
	row->module = a->ps_module[ps];
	row->thread = c->p->pd[pd].thread;
	row->name = pd_name(r, c, pd, 0, &row->flags);
	row_ps_position(c, ps, row);
}

void dp_rep_row_clique(struct dp_report *r, const struct dp_report_ctx *c, uint32_t clique,
		       struct dp_rep_row *row)
{
	const struct dp_analysis *a = c->a;
	uint32_t pd = dp_csr_items(&a->clique_pds, clique)[0];

	dp_rep_row_clique_node(r, c, clique, row);
	row->own = dp_analysis_pd_own(a, pd);
	row->desc = inherit_sub(&a->clique_total[clique], &row->own);
	if (is_zero(&row->own, &row->desc))
		row->flags |= DP_ROW_INACTIVE;
}

void dp_rep_row_module(struct dp_report *r, const struct dp_report_ctx *c, uint32_t module,
		       struct dp_rep_row *row)
{
	(void)r;
	row->kind = DP_ENT_MODULE;
	row->id = module;
	row->module = module;
	row->name = dp_analysis_module_name(c->a, module);
	row->own = c->a->module_own[module];
	row->desc = c->a->module_desc[module];
	if (is_zero(&row->own, &row->desc))
		row->flags |= DP_ROW_INACTIVE;
}

void dp_rep_row_add_costs(struct dp_rep_row *dst, const struct dp_rep_row *src)
{
	dp_costs_add(&dst->own, &src->own);
	dp_inherit_add(&dst->desc, &src->desc);
	dst->flags |= DP_ROW_SUM;
	dst->n++;
}

double dp_rep_row_metric(const struct dp_rep_row *row, enum dp_metric m, enum dp_scope scope,
			 enum dp_per per)
{
	uint64_t own, desc;
	double v;

	switch (m) {
	case DP_METRIC_CALLS:
		own = row->own.calls;
		desc = 0;
		break;
	case DP_METRIC_CALLSEQS:
		own = row->own.callseqs;
		desc = row->desc.callseqs;
		break;
	case DP_METRIC_ALLOCS:
		own = row->own.allocs;
		desc = row->desc.allocs;
		break;
	case DP_METRIC_BYTES:
		own = row->own.alloc_bytes;
		desc = row->desc.alloc_bytes;
		break;
	case DP_METRIC_TIME:
	case DP_METRIC_COUNT:
	default:
		own = row->own.samples;
		desc = row->desc.samples;
		break;
	}
	v = (double)own;
	if (scope == DP_SCOPE_TOTAL)
		v += (double)desc;
	if (per == DP_PER_CALL)
		v = row->own.calls ? v / (double)row->own.calls : 0.0;
	return v;
}

int dp_rep_check_id(const struct dp_report *r, const char *what, uint32_t id, uint32_t n)
{
	if (id == 0)
		return dp_error(DP_EUSAGE, "page %s needs id=N", dp_query_page_name(r->q.page));
	if (id > n) {
		if (n == 0)
			return dp_error(DP_ENOENT, "unknown %s id=%u (the profile has none)", what,
					id);
		return dp_error(DP_ENOENT, "unknown %s id=%u (valid: 1..%u)", what, id, n);
	}
	return 0;
}

/* A call-site row as dp_rep_coalesce_sites() keys it, and where it is. */
struct site_key {
	const char *file;
	uint32_t line, ps, flags, at;
};

static int site_key_cmp(const void *x, const void *y)
{
	const struct site_key *a = x, *b = y;

	if (a->file != b->file)
		return (uintptr_t)a->file < (uintptr_t)b->file ? -1 : 1;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->ps != b->ps)
		return a->ps < b->ps ? -1 : 1;
	if (a->flags != b->flags)
		return a->flags < b->flags ? -1 : 1;
	return (a->at > b->at) - (a->at < b->at);
}

/* the flags two rows must share to be one call site */
#define SITE_KIND_FLAGS (DP_ROW_RECURSIVE | DP_ROW_TAIL | DP_ROW_REGION | DP_ROW_INACTIVE)

int dp_rep_coalesce_sites(struct dp_report *r, struct dp_rep_rows *l, uint32_t first)
{
	uint32_t n = l->n - first, m = 0, depth;
	struct dp_rep_row *rows = l->rows + first;
	struct site_key *k;
	uint8_t *gone;

	if (r->q.prefs.split || n < 2)
		return 0;
	depth = rows[0].depth;
	k = dp_arena_array(&r->arena, n, sizeof(*k));
	gone = dp_arena_array(&r->arena, n, 1);
	if (!k || !gone)
		return dp_error(DP_ENOMEM, "out of memory building a report");
	memset(gone, 0, n);
	for (uint32_t i = 0; i < n; i++) {
		const struct dp_rep_row *row = &rows[i];
		bool leaf = i + 1 == n || rows[i + 1].depth <= row->depth;

		/* a row of one callee with a known line and nothing under it */
		if (row->depth == depth && leaf && row->line && row->ps &&
		    (row->kind == DP_ENT_CSS || row->kind == DP_ENT_CSD) &&
		    !(row->flags & DP_ROW_MULTI))
			k[m++] = (struct site_key){row->file, row->line, row->ps,
						   row->flags & SITE_KIND_FLAGS, i};
	}
	qsort(k, m, sizeof(*k), site_key_cmp);
	for (uint32_t a = 0, b; a < m; a = b) {
		struct dp_rep_row *into = &rows[k[a].at];

		for (b = a + 1; b < m && k[b].file == k[a].file && k[b].line == k[a].line &&
				k[b].ps == k[a].ps && k[b].flags == k[a].flags;
		     b++) {
			if (!(into->flags & DP_ROW_SUM))
				into->n = 1;
			dp_rep_row_add_costs(into, &rows[k[b].at]);
			gone[k[b].at] = 1;
		}
	}
	m = 0;
	for (uint32_t i = 0; i < n; i++)
		if (!gone[i])
			rows[m++] = rows[i];
	l->n = first + m;
	return 0;
}
