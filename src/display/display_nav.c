/*
 * display/display_nav.c - the links around a page's content: navigation (the starting
 * pages, and the pages about this page's procedure), preference toggles (each a link
 * that changes one preference and keeps every other), and the pager of long lists.
 */
#include <string.h>

#include "../core/err.h"
#include "display_int.h"

#define DP_NAV_MAX	 16
#define DP_TOGGLE_GROUPS 13
#define DP_TOGGLE_MAX	 12
#define DP_PAGER_MAX	 16

/* A link to @q labelled @label into @l; the current page (same page and id) gets no href. */
static int dp_nav_add(struct dp_display *d, const struct dp_report *r, struct dp_dlink *l,
		      const char *label, enum dp_page page, uint32_t id)
{
	l->label = label;
	l->href = NULL;
	if (r->q.page == page && (r->q.id == id || r->q.proc == id) &&
	    !(page == DP_PAGE_FLAME && (r->q.root || r->q.proc || r->q.name[0])))
		return 0;
	l->href = dp_disp_link_to(d, &r->q, page, id);
	return l->href ? 0 : -DP_ENOMEM;
}

/* The pages about procedure @ps: procedure, callers, callers graph (proc= is a page
 * parameter of the last two, so they are made by hand). */
static int dp_nav_proc(struct dp_display *d, const struct dp_report *r, uint32_t ps, uint32_t *n)
{
	static const enum dp_page pages[3] = {DP_PAGE_CALLERS, DP_PAGE_FLAME_CALLERS,
					      DP_PAGE_SANDWICH};
	static const char *const labels[3] = {"callers", "callers graph", "sandwich"};
	struct dp_query q;

	if (dp_nav_add(d, r, &d->nav[(*n)++], "procedure", DP_PAGE_PROC, ps) < 0)
		return -DP_ENOMEM;
	for (int i = 0; i < 3; i++) {
		struct dp_dlink *l = &d->nav[(*n)++];

		l->label = labels[i];
		l->href = NULL;
		if (r->q.page == pages[i] && r->q.proc == ps)
			continue;
		q = r->q;
		dp_query_reset_params(&q, pages[i]);
		q.proc = ps;
		if (!(l->href = dp_disp_href(d, &q)))
			return -DP_ENOMEM;
	}
	return 0;
}

int dp_disp_nav(struct dp_display *d, const struct dp_report *r)
{
	static const struct {
		const char *label;
		enum dp_page page;
	} gen[] = {{"menu", DP_PAGE_MENU},	  {"root", DP_PAGE_ROOT},
		   {"action", DP_PAGE_ACTION},	  {"modules", DP_PAGE_MODULES},
		   {"top", DP_PAGE_TOP},	  {"threads", DP_PAGE_THREADS},
		   {"flame graph", DP_PAGE_FLAME}};
	const struct dp_rep_row *s = r->has_subject ? &r->subject : NULL;
	uint32_t n = 0;

	d->nav = dp_arena_array(&d->arena, DP_NAV_MAX, sizeof(*d->nav));
	if (!d->nav)
		return dp_error(DP_ENOMEM, "out of memory building a page");
	for (size_t i = 0; i < sizeof(gen) / sizeof(gen[0]); i++)
		if (dp_nav_add(d, r, &d->nav[n++], gen[i].label, gen[i].page, 0) < 0)
			return -DP_ENOMEM;
	d->n_nav_general = n;
	if (r->q.page == DP_PAGE_FLAME && !r->q.root && !r->q.proc && !r->q.name[0])
		s = NULL; /* the subject is the graph's root: no page about it to offer */
	if (s && s->ps && dp_nav_proc(d, r, s->ps, &n) < 0)
		return -DP_ENOMEM;
	if (s && s->module &&
	    dp_nav_add(d, r, &d->nav[n++], "module", DP_PAGE_MODULE, s->module) < 0)
		return -DP_ENOMEM;
	if (s && s->clique && r->q.page != DP_PAGE_CLIQUE &&
	    dp_nav_add(d, r, &d->nav[n++], "clique", DP_PAGE_CLIQUE, s->clique) < 0)
		return -DP_ENOMEM;
	d->n_nav = n;
	return 0;
}

/* A toggle group under construction. */
struct dp_tg {
	struct dp_display *d;
	const struct dp_report *r;
	struct dp_dtoggles *t;
};

static int dp_tg_begin(struct dp_tg *g, const char *label)
{
	struct dp_display *d = g->d;

	g->t = &d->toggles[d->n_toggles++];
	g->t->label = label;
	g->t->links = dp_arena_array(&d->arena, DP_TOGGLE_MAX, sizeof(*g->t->links));
	g->t->on = dp_arena_array(&d->arena, DP_TOGGLE_MAX, sizeof(*g->t->on));
	return g->t->links && g->t->on ? 0 : dp_error(DP_ENOMEM, "out of memory");
}

/* Whether preferences @a and @b are the same. */
static bool dp_prefs_eq(const struct dp_prefs *a, const struct dp_prefs *b)
{
	return a->fields == b->fields && a->sort == b->sort && a->sort_metric == b->sort_metric &&
	       a->sort_scope == b->sort_scope && a->sort_per == b->sort_per &&
	       a->sort_rev == b->sort_rev && a->ancestors == b->ancestors &&
	       a->summarise == b->summarise && a->contour == b->contour && a->split == b->split &&
	       a->inactive == b->inactive && a->time_unit == b->time_unit && a->mq == b->mq &&
	       a->view == b->view && a->libs == b->libs;
}

/* A choice: the page's query with prefs @p; current when @p equals the page's prefs. */
static int dp_tg_add(struct dp_tg *g, const char *label, const struct dp_prefs *p, bool on)
{
	struct dp_query q = g->r->q;
	uint32_t i = g->t->n_links++;

	g->t->links[i].label = label;
	g->t->on[i] = on;
	g->t->links[i].href = NULL;
	if (dp_prefs_eq(p, &q.prefs))
		return 0;
	if (p->fields != q.prefs.fields)
		q.time_default = false; /* the fields are chosen now, not the profile's default */
	if (p->sort != q.prefs.sort)
		q.sort_default = false; /* so is the order */
	q.prefs = *p;
	g->t->links[i].href = dp_disp_href(g->d, &q);
	return g->t->links[i].href ? 0 : -DP_ENOMEM;
}

/* Fields: one toggle per field group flipping its bit. */
static int dp_tg_fields(struct dp_tg *g)
{
	static const struct {
		const char *label;
		unsigned bit;
	} f[] = {{"ports", DP_FIELD_PORTS},	      {"time", DP_FIELD_TIME},
		 {"ticks", DP_FIELD_TICKS},	      {"callseqs", DP_FIELD_CALLSEQS},
		 {"allocs", DP_FIELD_ALLOCS},	      {"bytes", DP_FIELD_BYTES},
		 {"time/call", DP_FIELD_TIME_PC},     {"callseqs/call", DP_FIELD_CALLSEQS_PC},
		 {"allocs/call", DP_FIELD_ALLOCS_PC}, {"bytes/call", DP_FIELD_BYTES_PC}};
	const struct dp_prefs *cur = &g->r->q.prefs;

	if (dp_tg_begin(g, "fields") < 0)
		return -DP_ENOMEM;
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		struct dp_prefs p = *cur;

		p.fields ^= f[i].bit;
		if (dp_tg_add(g, f[i].label, &p, cur->fields & f[i].bit) < 0)
			return -DP_ENOMEM;
	}
	return 0;
}

/* Inactive rows: each kind shown or hidden. */
static int dp_tg_inactive(struct dp_tg *g)
{
	static const char *const labels[3] = {"sites", "procedures", "modules"};
	const struct dp_prefs *cur = &g->r->q.prefs;

	if (dp_tg_begin(g, "inactive") < 0)
		return -DP_ENOMEM;
	for (unsigned i = 0; i < 3; i++) {
		struct dp_prefs p = *cur;

		p.inactive ^= 1u << i;
		if (dp_tg_add(g, labels[i], &p, cur->inactive & (1u << i)) < 0)
			return -DP_ENOMEM;
	}
	return 0;
}

/* An exclusive choice among @n values of an int-sized preference at @field. */
static int dp_tg_choice(struct dp_tg *g, const char *label, size_t off, const int *vals,
			const char *const *labels, unsigned n)
{
	const struct dp_prefs *cur = &g->r->q.prefs;
	int now;

	memcpy(&now, (const char *)cur + off, sizeof(now));
	if (dp_tg_begin(g, label) < 0)
		return -DP_ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		struct dp_prefs p = *cur;

		memcpy((char *)&p + off, &vals[i], sizeof(vals[i]));
		if (dp_tg_add(g, labels[i], &p, now == vals[i]) < 0)
			return -DP_ENOMEM;
	}
	return 0;
}

/* Booleans (summarise, contour): on / off. */
static int dp_tg_bool(struct dp_tg *g, const char *label, size_t off)
{
	const struct dp_prefs *cur = &g->r->q.prefs;
	bool now;

	memcpy(&now, (const char *)cur + off, sizeof(now));
	if (dp_tg_begin(g, label) < 0)
		return -DP_ENOMEM;
	for (int v = 1; v >= 0; v--) {
		struct dp_prefs p = *cur;
		bool b = v;

		memcpy((char *)&p + off, &b, sizeof(b));
		if (dp_tg_add(g, v ? "on" : "off", &p, now == b) < 0)
			return -DP_ENOMEM;
	}
	return 0;
}

/* Flame pages: the metric that sets the widths (a page parameter, not a preference). */
static int dp_tg_metric(struct dp_tg *g)
{
	if (dp_tg_begin(g, "width") < 0)
		return -DP_ENOMEM;
	for (int m = 0; m < DP_METRIC_COUNT; m++) {
		struct dp_query q = g->r->q;
		uint32_t i = g->t->n_links++;

		g->t->links[i].label = dp_metric_name((enum dp_metric)m);
		g->t->on[i] = q.metric == (enum dp_metric)m;
		g->t->links[i].href = NULL;
		if (g->t->on[i])
			continue;
		q.metric = (enum dp_metric)m;
		if (!(g->t->links[i].href = dp_disp_href(g->d, &q)))
			return -DP_ENOMEM;
	}
	return 0;
}

int dp_disp_toggles(struct dp_display *d, const struct dp_report *r)
{
	static const int sorts[] = {DP_SORT_COST, DP_SORT_NAME, DP_SORT_SOURCE};
	static const char *const sort_l[] = {"cost", "name", "source order"};
	static const int mqs[] = {DP_MQ_DIFF, DP_MQ_ALWAYS, DP_MQ_NEVER};
	static const char *const mq_l[] = {"when different", "always", "never"};
	static const int views[] = {DP_VIEW_MERGED, DP_VIEW_THREADS};
	static const char *const view_l[] = {"merged", "per thread"};
	static const int libs[] = {DP_LIBS_SHOW, DP_LIBS_FOLD};
	static const char *const libs_l[] = {"shown", "folded into callers"};
	static const int ancs[] = {1, 5, 10, -1};
	static const char *const anc_l[] = {"1", "5", "10", "all"};
	static const int units[] = {DP_TIME_AUTO, DP_TIME_S, DP_TIME_MS, DP_TIME_US, DP_TIME_TICKS};
	static const char *const unit_l[] = {"auto", "s", "ms", "us", "ticks"};
	enum dp_page pg = r->q.page;
	struct dp_tg g = {d, r, NULL};
	int rc;

	d->toggles = dp_arena_array(&d->arena, DP_TOGGLE_GROUPS, sizeof(*d->toggles));
	if (!d->toggles)
		return dp_error(DP_ENOMEM, "out of memory building a page");
	if (pg == DP_PAGE_FLAME || pg == DP_PAGE_FLAME_CALLERS || pg == DP_PAGE_SANDWICH) {
		rc = dp_tg_metric(&g);
	} else {
		rc = dp_tg_fields(&g);
		if (!rc)
			rc = dp_tg_choice(&g, "sort", offsetof(struct dp_prefs, sort), sorts,
					  sort_l, 3);
		if (!rc)
			rc = dp_tg_inactive(&g);
	}
	if (!rc && (r->q.prefs.fields & DP_FIELD_TIME))
		rc = dp_tg_choice(&g, "time unit", offsetof(struct dp_prefs, time_unit), units,
				  unit_l, 5);
	if (!rc)
		rc = dp_tg_choice(&g, "module names", offsetof(struct dp_prefs, mq), mqs, mq_l, 3);
	if (!rc)
		rc = dp_tg_choice(&g, "threads", offsetof(struct dp_prefs, view), views, view_l, 2);
	if (!rc && r->has_libs)
		rc = dp_tg_choice(&g, "libraries", offsetof(struct dp_prefs, libs), libs, libs_l,
				  2);
	if (!rc && (pg == DP_PAGE_CLIQUE || pg == DP_PAGE_ROOT || pg == DP_PAGE_ACTION))
		rc = dp_tg_choice(&g, "ancestors", offsetof(struct dp_prefs, ancestors), ancs,
				  anc_l, 4);
	if (!rc && (pg == DP_PAGE_CLIQUE || pg == DP_PAGE_ROOT || pg == DP_PAGE_ACTION ||
		    pg == DP_PAGE_PROC))
		rc = dp_tg_bool(&g, "summarise indirect calls",
				offsetof(struct dp_prefs, summarise));
	if (!rc && (pg == DP_PAGE_CLIQUE || pg == DP_PAGE_ROOT || pg == DP_PAGE_ACTION ||
		    pg == DP_PAGE_PROC))
		rc = dp_tg_bool(&g, "call sites of one line apart",
				offsetof(struct dp_prefs, split));
	if (!rc && pg == DP_PAGE_CALLERS)
		rc = dp_tg_bool(&g, "contour exclusion", offsetof(struct dp_prefs, contour));
	return rc;
}

/* Pager link to bunch @k (callers) or ranks starting at @k (top). */
static int dp_pager_link(struct dp_display *d, const struct dp_report *r, struct dp_dlink *l,
			 const char *label, uint32_t k, uint32_t cur)
{
	struct dp_query q = r->q;

	l->label = label;
	l->href = NULL;
	if (k == cur)
		return 0;
	if (r->q.page == DP_PAGE_TOP) {
		uint32_t size = r->q.limit_hi - r->q.limit_lo + 1;

		q.limit_lo = (k - 1) * size + 1;
		q.limit_hi = k * size;
	} else {
		q.bunch = k;
	}
	l->href = dp_disp_href(d, &q);
	return l->href ? 0 : -DP_ENOMEM;
}

int dp_disp_pager(struct dp_display *d, const struct dp_report *r)
{
	uint32_t cur = r->bunch, n = r->n_bunches, lo, hi;
	struct dp_dblock *b;

	if (r->q.page == DP_PAGE_TOP) {
		uint64_t size = (uint64_t)r->q.limit_hi - r->q.limit_lo + 1;

		if (r->q.limit_kind != DP_LIMIT_RANKS || r->q.limit_hi < r->q.limit_lo ||
		    r->q.limit_lo < 1 || (r->q.limit_lo - 1) % size)
			return 0;
		cur = (uint32_t)((r->q.limit_lo - 1) / size + 1);
		n = (uint32_t)((r->n_items + size - 1) / size);
		if (n < cur)
			n = cur;
	}
	if (n <= 1 || cur < 1 || cur > n)
		return 0;
	b = dp_disp_link_block(d, DP_DB_PAGER, "pager", DP_PAGER_MAX);
	if (!b)
		return -DP_ENOMEM;
	b->title = dp_disp_printf(d, "Page %u of %u (%llu items)", cur, n,
				  (unsigned long long)r->n_items);
	if (!b->title)
		return dp_error(DP_ENOMEM, "out of memory building a page");
	lo = cur > 3 ? cur - 3 : 1;
	hi = n - cur > 3 ? cur + 3 : n;
	if (cur > 1 && (dp_pager_link(d, r, &b->links[b->n_links++], "first", 1, cur) < 0 ||
			dp_pager_link(d, r, &b->links[b->n_links++], "prev", cur - 1, cur) < 0))
		return -DP_ENOMEM;
	for (uint32_t k = lo; k <= hi; k++) {
		const char *label = dp_disp_printf(d, "%u", k);

		if (!label || dp_pager_link(d, r, &b->links[b->n_links++], label, k, cur) < 0)
			return -DP_ENOMEM;
	}
	if (cur < n && (dp_pager_link(d, r, &b->links[b->n_links++], "next", cur + 1, cur) < 0 ||
			dp_pager_link(d, r, &b->links[b->n_links++], "last", n, cur) < 0))
		return -DP_ENOMEM;
	return 0;
}
