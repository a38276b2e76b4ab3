/*
 * query/query.c - the tables of the query language (keys and the pages each applies to,
 * the value vocabularies), the defaults, and the way back from struct dp_query to text:
 * dp_query_format() writes the canonical query string that links carry.
 */
#include <string.h>

#include "../core/err.h"
#include "query_int.h"

const char *const dp_q_page_names[DP_PAGE_COUNT] = {
	[DP_PAGE_MENU] = "menu",
	[DP_PAGE_ROOT] = "root",
	[DP_PAGE_ACTION] = "action",
	[DP_PAGE_CLIQUE] = "clique",
	[DP_PAGE_PROC] = "proc",
	[DP_PAGE_CALLERS] = "callers",
	[DP_PAGE_MODULES] = "modules",
	[DP_PAGE_MODULE] = "module",
	[DP_PAGE_TOP] = "top",
	[DP_PAGE_SITE] = "site",
	[DP_PAGE_THREADS] = "threads",
	[DP_PAGE_FLAME] = "flame",
	[DP_PAGE_FLAME_CALLERS] = "flame_callers",
	[DP_PAGE_SANDWICH] = "sandwich",
	[DP_PAGE_SEARCH] = "search",
	[DP_PAGE_DUMP_PS] = "dump_ps",
	[DP_PAGE_DUMP_PD] = "dump_pd",
	[DP_PAGE_DUMP_CSS] = "dump_css",
	[DP_PAGE_DUMP_CSD] = "dump_csd",
	[DP_PAGE_DUMP_CLIQUE] = "dump_clique",
};

const char *const dp_q_metric_names[DP_METRIC_COUNT] = {"time", "calls", "callseqs", "allocs",
							"bytes"};
const char *const dp_q_scope_names[2] = {"self", "total"};
const char *const dp_q_per_names[2] = {"overall", "call"};
const char *const dp_q_group_names[4] = {"site", "proc", "module", "clique"};
const char *const dp_q_unit_names[5] = {"auto", "s", "ms", "us", "ticks"};
const char *const dp_q_mq_names[3] = {"diff", "always", "never"};
const char *const dp_q_view_names[2] = {"merged", "threads"};
const char *const dp_q_libs_names[2] = {"show", "fold"};
const char *const dp_q_format_names[3] = {"text", "json", "html"};
const char *const dp_q_sort_names[3] = {"source", "name", "cost"};
const char *const dp_q_match_names[2] = {"substring", "regex"};

#define DP_QP_DUMPS                                                                           \
	(DP_QPAGE(DP_PAGE_DUMP_PS) | DP_QPAGE(DP_PAGE_DUMP_PD) | DP_QPAGE(DP_PAGE_DUMP_CSS) | \
	 DP_QPAGE(DP_PAGE_DUMP_CSD) | DP_QPAGE(DP_PAGE_DUMP_CLIQUE))
#define DP_QP_FLAMES \
	(DP_QPAGE(DP_PAGE_FLAME) | DP_QPAGE(DP_PAGE_FLAME_CALLERS) | DP_QPAGE(DP_PAGE_SANDWICH))
/* the pages about one procedure's graphs (proc= or name=) */
#define DP_QP_PROC_GRAPHS \
	(DP_QPAGE(DP_PAGE_FLAME_CALLERS) | DP_QPAGE(DP_PAGE_FLAME) | DP_QPAGE(DP_PAGE_SANDWICH))
/* the pages shown one bunch of rows at a time */
#define DP_QP_PAGED                                                                       \
	(DP_QPAGE(DP_PAGE_CALLERS) | DP_QPAGE(DP_PAGE_SITE) | DP_QPAGE(DP_PAGE_MODULES) | \
	 DP_QPAGE(DP_PAGE_MODULE) | DP_QPAGE(DP_PAGE_SEARCH))

const struct dp_qkey_desc dp_qkeys[DP_QK_COUNT] = {
	[DP_QK_PAGE] = {"page", 0},
	[DP_QK_ID] = {"id", DP_QPAGE(DP_PAGE_CLIQUE) | DP_QPAGE(DP_PAGE_PROC) |
				    DP_QPAGE(DP_PAGE_MODULE) | DP_QPAGE(DP_PAGE_SITE) |
				    DP_QP_DUMPS},
	[DP_QK_PROC] = {"proc", DP_QPAGE(DP_PAGE_CALLERS) | DP_QP_PROC_GRAPHS},
	[DP_QK_NAME] = {"name", DP_QPAGE(DP_PAGE_PROC) | DP_QPAGE(DP_PAGE_CALLERS) |
					DP_QP_PROC_GRAPHS | DP_QPAGE(DP_PAGE_MODULE)},
	[DP_QK_PERCENT] = {"percent", DP_QPAGE(DP_PAGE_ACTION)},
	[DP_QK_GROUP] = {"group", DP_QPAGE(DP_PAGE_CALLERS)},
	[DP_QK_BUNCH] = {"bunch", DP_QP_PAGED},
	[DP_QK_SIZE] = {"size", DP_QP_PAGED},
	[DP_QK_LIMIT] = {"limit", DP_QPAGE(DP_PAGE_TOP)},
	[DP_QK_METRIC] = {"metric",
			  DP_QPAGE(DP_PAGE_TOP) | DP_QPAGE(DP_PAGE_ACTION) | DP_QP_FLAMES},
	[DP_QK_SCOPE] = {"scope", DP_QPAGE(DP_PAGE_TOP)},
	[DP_QK_PER] = {"per", DP_QPAGE(DP_PAGE_TOP)},
	[DP_QK_THREAD] = {"thread", DP_QPAGE(DP_PAGE_THREADS) | DP_QPAGE(DP_PAGE_FLAME) |
					    DP_QPAGE(DP_PAGE_FLAME_CALLERS)},
	[DP_QK_MIN] = {"min", DP_QP_FLAMES},
	[DP_QK_DEPTH] = {"depth", DP_QP_FLAMES},
	[DP_QK_ROOT] = {"root", DP_QPAGE(DP_PAGE_FLAME)},
	[DP_QK_Q] = {"q", DP_QPAGE(DP_PAGE_SEARCH)},
	[DP_QK_MATCH] = {"match", DP_QPAGE(DP_PAGE_SEARCH)},
	[DP_QK_FIELDS] = {"fields", 0},
	[DP_QK_SORT] = {"sort", 0},
	[DP_QK_ANC] = {"anc", 0},
	[DP_QK_SUM] = {"sum", 0},
	[DP_QK_CONTOUR] = {"contour", 0},
	[DP_QK_SPLIT] = {"split", 0},
	[DP_QK_INACTIVE] = {"inactive", 0},
	[DP_QK_UNIT] = {"unit", 0},
	[DP_QK_MQ] = {"mq", 0},
	[DP_QK_VIEW] = {"view", 0},
	[DP_QK_LIBS] = {"libs", 0},
	[DP_QK_FORMAT] = {"format", 0},
	[DP_QK_FILE] = {"file", 0},
};

const char *dp_query_page_name(enum dp_page page)
{
	return (unsigned)page < DP_PAGE_COUNT ? dp_q_page_names[page] : "?";
}

const char *dp_metric_name(enum dp_metric m)
{
	return (unsigned)m < DP_METRIC_COUNT ? dp_q_metric_names[m] : "?";
}

void dp_prefs_default(struct dp_prefs *p, bool has_time)
{
	memset(p, 0, sizeof(*p));
	p->fields = DP_Q_FIELDS_BASE | (has_time ? DP_FIELD_TIME : 0);
	p->sort = DP_SORT_COST;
	p->sort_metric = has_time ? DP_METRIC_TIME : DP_METRIC_CALLSEQS;
	p->sort_scope = DP_SCOPE_TOTAL;
	p->sort_per = DP_PER_OVERALL;
	p->ancestors = DP_Q_ANC_DEF;
	p->summarise = false;
	p->contour = false;
	p->inactive = 0;
	p->time_unit = DP_TIME_AUTO;
	p->mq = DP_MQ_DIFF;
	p->view = DP_VIEW_MERGED;
	p->libs = DP_LIBS_SHOW;
}

void dp_query_reset_params(struct dp_query *q, enum dp_page page)
{
	q->page = page;
	q->id = 0;
	q->proc = 0;
	q->name[0] = 0;
	q->percent = DP_Q_PERCENT_DEF;
	q->group = DP_GROUP_SITE;
	q->bunch = 1;
	q->size = DP_Q_SIZE_DEF;
	q->limit_kind = DP_LIMIT_RANKS;
	q->limit_lo = DP_Q_LIMIT_LO_DEF;
	q->limit_hi = DP_Q_LIMIT_HI_DEF;
	q->limit_value = 0;
	q->metric = DP_METRIC_TIME;
	q->scope = DP_SCOPE_SELF;
	q->per = DP_PER_OVERALL;
	q->thread = 0;
	q->min_pct = DP_Q_MIN_DEF;
	q->depth = 0;
	q->root = 0;
	q->text[0] = 0;
	q->regex = false;
}

static void add_key(struct dp_buf *b, enum dp_qkey k)
{
	dp_buf_addc(b, '&');
	dp_buf_adds(b, dp_qkeys[k].key);
	dp_buf_addc(b, '=');
}

/* "&KEY=" and @v in decimal (no printf: links are made by the thousand) */
static void add_uint(struct dp_buf *b, enum dp_qkey k, uint64_t v)
{
	add_key(b, k);
	dp_buf_addu(b, v);
}

/* "&KEY=" and the word @v */
static void add_word(struct dp_buf *b, enum dp_qkey k, const char *v)
{
	add_key(b, k);
	dp_buf_adds(b, v);
}

/* the page's parameters that differ from their defaults */
static void format_params(const struct dp_query *q, struct dp_buf *b)
{
	uint32_t bit = DP_QPAGE(q->page);

	if (q->id && (dp_qkeys[DP_QK_ID].pages & bit))
		add_uint(b, DP_QK_ID, q->id);
	if (q->proc && (dp_qkeys[DP_QK_PROC].pages & bit))
		add_uint(b, DP_QK_PROC, q->proc);
	if (q->name[0] && (dp_qkeys[DP_QK_NAME].pages & bit)) {
		add_key(b, DP_QK_NAME);
		dp_q_add_encoded(b, q->name);
	}
	if (q->page == DP_PAGE_ACTION && q->percent != DP_Q_PERCENT_DEF) {
		add_key(b, DP_QK_PERCENT);
		dp_q_add_real(b, q->percent);
	}
	if (q->page == DP_PAGE_CALLERS && q->group != DP_GROUP_SITE)
		add_word(b, DP_QK_GROUP, dp_q_group_names[q->group]);
	if (dp_qkeys[DP_QK_BUNCH].pages & bit) {
		if (q->bunch != 1)
			add_uint(b, DP_QK_BUNCH, q->bunch);
		if (q->size != DP_Q_SIZE_DEF)
			add_uint(b, DP_QK_SIZE, q->size);
	}
	if (q->page == DP_PAGE_TOP) {
		if (q->limit_kind != DP_LIMIT_RANKS) {
			dp_buf_addf(b, "&limit=%s:", q->limit_kind == DP_LIMIT_PCT ? "pct" : "val");
			dp_q_add_real(b, q->limit_value);
		} else if (q->limit_lo != DP_Q_LIMIT_LO_DEF || q->limit_hi != DP_Q_LIMIT_HI_DEF) {
			dp_buf_addf(b, "&limit=%u-%u", q->limit_lo, q->limit_hi);
		}
	}
	if (q->metric != DP_METRIC_TIME && (dp_qkeys[DP_QK_METRIC].pages & bit))
		add_word(b, DP_QK_METRIC, dp_q_metric_names[q->metric]);
	if (q->page == DP_PAGE_TOP && q->scope != DP_SCOPE_SELF)
		add_word(b, DP_QK_SCOPE, dp_q_scope_names[q->scope]);
	if (q->page == DP_PAGE_TOP && q->per != DP_PER_OVERALL)
		add_word(b, DP_QK_PER, dp_q_per_names[q->per]);
	if (q->thread && (dp_qkeys[DP_QK_THREAD].pages & bit))
		add_uint(b, DP_QK_THREAD, q->thread);
	if ((dp_qkeys[DP_QK_MIN].pages & bit) && q->min_pct != DP_Q_MIN_DEF) {
		add_key(b, DP_QK_MIN);
		dp_q_add_real(b, q->min_pct);
	}
	if (q->depth && (dp_qkeys[DP_QK_DEPTH].pages & bit))
		add_uint(b, DP_QK_DEPTH, q->depth);
	if (q->root && (dp_qkeys[DP_QK_ROOT].pages & bit))
		add_uint(b, DP_QK_ROOT, q->root);
	if (q->page == DP_PAGE_SEARCH && q->text[0]) {
		add_key(b, DP_QK_Q);
		dp_q_add_encoded(b, q->text);
	}
	if (q->page == DP_PAGE_SEARCH && q->regex)
		add_word(b, DP_QK_MATCH, dp_q_match_names[1]);
}

/* whether the sort of @p differs from the default one @d */
static bool sort_differs(const struct dp_prefs *p, const struct dp_prefs *d)
{
	return p->sort != d->sort || p->sort_rev != d->sort_rev ||
	       (p->sort == DP_SORT_COST &&
		(p->sort_metric != d->sort_metric || p->sort_scope != d->sort_scope ||
		 p->sort_per != d->sort_per));
}

/* the preferences that differ from their defaults */
static void format_prefs(const struct dp_query *q, struct dp_buf *b)
{
	const struct dp_prefs *p = &q->prefs;
	struct dp_prefs d;
	unsigned fields = p->fields;

	dp_prefs_default(&d, q->has_time);
	d.fields = DP_Q_FIELDS_BASE;
	if (q->time_default)
		fields &= ~DP_FIELD_TIME; /* the profile decides the time bit */
	if (!q->time_default || fields != d.fields) {
		add_key(b, DP_QK_FIELDS);
		dp_q_add_fields(b, p->fields);
	}
	if (!q->sort_default || sort_differs(p, &d)) {
		add_key(b, DP_QK_SORT);
		dp_q_add_sort(b, p, q->has_time);
	}
	if (p->ancestors != d.ancestors) {
		if (p->ancestors < 0)
			dp_buf_adds(b, "&anc=all");
		else
			dp_buf_addf(b, "&anc=%d", p->ancestors);
	}
	if (p->summarise)
		dp_buf_adds(b, "&sum=1");
	if (p->contour)
		dp_buf_adds(b, "&contour=1");
	if (p->split)
		dp_buf_adds(b, "&split=1");
	if (p->inactive & 7u)
		dp_buf_addf(b, "&inactive=%c%c%c", p->inactive & 1u ? 's' : 'h',
			    p->inactive & 2u ? 's' : 'h', p->inactive & 4u ? 's' : 'h');
	if (p->time_unit != d.time_unit)
		add_word(b, DP_QK_UNIT, dp_q_unit_names[p->time_unit]);
	if (p->mq != d.mq)
		add_word(b, DP_QK_MQ, dp_q_mq_names[p->mq]);
	if (p->view != d.view)
		add_word(b, DP_QK_VIEW, dp_q_view_names[p->view]);
	if (p->libs != d.libs)
		add_word(b, DP_QK_LIBS, dp_q_libs_names[p->libs]);
}

int dp_query_format(const struct dp_query *q, struct dp_buf *out)
{
	dp_buf_adds(out, "page=");
	dp_buf_adds(out, dp_query_page_name(q->page));
	format_params(q, out);
	format_prefs(q, out);
	if (q->format >= 0 && q->format < 3)
		add_word(out, DP_QK_FORMAT, dp_q_format_names[q->format]);
	if (q->file[0]) {
		add_key(out, DP_QK_FILE);
		dp_q_add_encoded(out, q->file);
	}
	return dp_buf_error(out);
}

int dp_query_link(const struct dp_query *base, enum dp_page page, uint32_t id, struct dp_buf *out)
{
	struct dp_query q = *base;

	dp_query_reset_params(&q, page);
	q.id = id;
	return dp_query_format(&q, out);
}
