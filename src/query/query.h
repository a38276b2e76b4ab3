/*
 * query/query.h - the one query language of every front end: a URL query string
 * "page=NAME&param=value&..." parsed into struct dp_query (the page, its parameters and
 * the preferences), and formatted back into canonical query strings for links, so that
 * every generated link carries every preference that differs from its default.
 * The pages, parameters and preference tokens are documented in docs/QUERIES.md (the
 * reports they produce in docs/REPORTS.md). format= survives dp_query_reset_params();
 * per-call field bits come with their group bit; dp_query_format() drops parameters the
 * page does not take. Depends on core/.
 */
#ifndef DP_QUERY_QUERY_H
#define DP_QUERY_QUERY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/buf.h"

/* The pages (the value of page=). Keep dp_query_page_name() in step. */
enum dp_page {
	DP_PAGE_MENU = 0,      /* totals, counts, starting links */
	DP_PAGE_ROOT,	       /* the clique page of the root clique */
	DP_PAGE_ACTION,	       /* descend from the root while one callee clique has >= percent */
	DP_PAGE_CLIQUE,	       /* id=N, up to prefs.ancestors ancestor call sites */
	DP_PAGE_PROC,	       /* id=N or name=F: all contexts, per call site */
	DP_PAGE_CALLERS,       /* proc=N (or name=F), group=, bunch (page=K), size= */
	DP_PAGE_MODULES,       /* every module (source file) */
	DP_PAGE_MODULE,	       /* name=FILE (or id=N): the procedures of a module */
	DP_PAGE_TOP,	       /* limit=, metric=, scope=, per= */
	DP_PAGE_SITE,	       /* id=N: a static call site in every context */
	DP_PAGE_THREADS,       /* every thread with its totals */
	DP_PAGE_FLAME,	       /* flame graph / tree of the calling-context tree (metric=,
				  min=, depth=; root=C from clique C, proc=N the callees of
				  procedure N) */
	DP_PAGE_FLAME_CALLERS, /* inverted flame graph of proc=N's callers (metric=) */
	DP_PAGE_SANDWICH,      /* proc=N (or name=F): its callers graph and callees graph */
	DP_PAGE_SEARCH,	       /* q=TEXT (match=substring|regex): procedures, modules and
				  objects whose names match */
	DP_PAGE_DUMP_PS,       /* id=N raw dumps */
	DP_PAGE_DUMP_PD,
	DP_PAGE_DUMP_CSS,
	DP_PAGE_DUMP_CSD,
	DP_PAGE_DUMP_CLIQUE,
	DP_PAGE_COUNT
};

/* Metrics (metric=, sort=cost:...). */
enum dp_metric {
	DP_METRIC_TIME = 0, /* samples, shown as seconds */
	DP_METRIC_CALLS,
	DP_METRIC_CALLSEQS,
	DP_METRIC_ALLOCS,
	DP_METRIC_BYTES,
	DP_METRIC_COUNT
};

enum dp_scope { DP_SCOPE_SELF = 0, DP_SCOPE_TOTAL }; /* own, or own + desc */
enum dp_per { DP_PER_OVERALL = 0, DP_PER_CALL };     /* value, or value / calls */
enum dp_group { DP_GROUP_SITE = 0, DP_GROUP_PROC, DP_GROUP_MODULE, DP_GROUP_CLIQUE };

/* top's limit=: M-N (ranks, 1-based, inclusive), pct:X (>= X% of the root total),
 * val:X (value >= X, in the metric's unit: seconds for time) */
enum dp_limit_kind { DP_LIMIT_RANKS = 0, DP_LIMIT_PCT, DP_LIMIT_VAL };

/* Field groups shown in cost tables (fields=, a set of letters; see docs/REPORTS.md). */
#define DP_FIELD_PORTS	     0x01u /* calls, exits, unwinds */
#define DP_FIELD_TIME	     0x02u /* time and % */
#define DP_FIELD_CALLSEQS    0x04u
#define DP_FIELD_ALLOCS	     0x08u
#define DP_FIELD_BYTES	     0x10u
#define DP_FIELD_TIME_PC     0x20u /* per-call columns of each group */
#define DP_FIELD_CALLSEQS_PC 0x40u
#define DP_FIELD_ALLOCS_PC   0x80u
#define DP_FIELD_BYTES_PC    0x100u
#define DP_FIELD_TICKS	     0x200u /* raw sample counts beside time */

/* Row orders (sort=); each has a natural direction, which prefs.sort_rev reverses. */
enum dp_sort {
	DP_SORT_SOURCE = 0, /* source order (file:line, ascending), mdprof's default */
	DP_SORT_NAME,	    /* name, ascending */
	DP_SORT_COST	    /* by sort_metric / sort_scope / sort_per, descending: the default */
};

enum dp_time_unit { DP_TIME_AUTO = 0, DP_TIME_S, DP_TIME_MS, DP_TIME_US, DP_TIME_TICKS };
enum dp_mq { DP_MQ_DIFF = 0, DP_MQ_ALWAYS, DP_MQ_NEVER };  /* module qualification */
enum dp_view_kind { DP_VIEW_MERGED = 0, DP_VIEW_THREADS }; /* thread view */
/* library leaves (procedures of kind library: samples outside instrumented code) shown,
 * or folded into their callers' own cost */
enum dp_libs { DP_LIBS_SHOW = 0, DP_LIBS_FOLD };

/* Inactive (never called / zero-cost) rows shown (inactive=, 3 letters h|s). */
#define DP_SHOW_INACTIVE_SITES	 0x1u
#define DP_SHOW_INACTIVE_PROCS	 0x2u
#define DP_SHOW_INACTIVE_MODULES 0x4u

/*
 * The preferences. Each has a default (dp_prefs_default()); a link carries only those
 * that differ. The time field group's default depends on the profile (on when it has
 * more than 10 samples): the caller of dp_prefs_default() says which.
 */
struct dp_prefs {
	unsigned fields; /* DP_FIELD_* */
	enum dp_sort sort;
	enum dp_metric sort_metric; /* default: time, or callseqs when the profile has no
				       time (dp_prefs_default's has_time) */
	enum dp_scope sort_scope;
	enum dp_per sort_per;
	bool sort_rev;	   /* the other direction: ascending costs, descending names */
	int ancestors;	   /* ancestor call sites on clique pages; -1 = all */
	bool summarise;	   /* one row per indirect call site, not per callee */
	bool contour;	   /* apply contour exclusion on callers pages */
	bool split;	   /* call sites of one source line and callee apart (else merged) */
	unsigned inactive; /* DP_SHOW_INACTIVE_* */
	enum dp_time_unit time_unit;
	enum dp_mq mq;
	enum dp_view_kind view;
	enum dp_libs libs;
};

#define DP_QUERY_NAME_MAX 1024 /* longest name= / module name / file= accepted */

/* A parsed query. Parameters that do not apply to the page keep their defaults. */
struct dp_query {
	enum dp_page page;
	uint32_t id;		       /* id= (clique, PS, CSS, PD, CSD, module); 0 = none */
	uint32_t proc;		       /* proc= of callers / flame_callers / flame / sandwich;
					  0 = none */
	char name[DP_QUERY_NAME_MAX];  /* name= (procedure or module), "" = none */
	double percent;		       /* action: percent= (default 90) */
	enum dp_group group;	       /* callers: group= (default site) */
	uint32_t bunch;		       /* callers: page=K or bunch=K, 1-based (default 1) */
	uint32_t size;		       /* callers: size= rows per page (default 20) */
	enum dp_limit_kind limit_kind; /* top: limit= (default 1-100) */
	uint32_t limit_lo, limit_hi;   /* ranks, for DP_LIMIT_RANKS */
	double limit_value;	       /* for DP_LIMIT_PCT / DP_LIMIT_VAL */
	enum dp_metric metric;	       /* top, flame: metric= (default time) */
	enum dp_scope scope;	       /* top: scope= (default self) */
	enum dp_per per;	       /* top: per= (default overall) */
	uint32_t thread; /* thread=N (1-based) restricts flame/threads views; 0 = all */
	double min_pct;	 /* flame, flame_callers: min= smallest node kept, % of
			    the total (default 0.1) */
	uint32_t depth;	 /* flame, flame_callers: depth= levels kept (0 = all) */
	uint32_t root;	 /* flame: root= the clique the graph starts at (0 = the root's) */
	int format;	 /* format=text|json|html: enum dp_format, -1 = not given */
	char file[DP_QUERY_NAME_MAX]; /* file= (front ends choose the data file), "" = none */
	char text[DP_QUERY_NAME_MAX]; /* search: q= the text looked for, "" = none */
	bool regex;		      /* search: match=regex (else substring) */
	struct dp_prefs prefs;
	bool time_default; /* whether prefs.fields' time bit is still the default */
	bool sort_default; /* whether sort= was not given: then the page's own order (the
			      top page: its ranking), and links leave sort= out unless the
			      prefs' sort differs from the default */
	bool has_time;	   /* the has_time the query was parsed with (the defaults') */
};

/* dp_prefs_default - the default preferences; @has_time: the profile has > 10 samples
 * (then time is a default field and the default sort is by total time, else by total
 * callseqs). */
void dp_prefs_default(struct dp_prefs *p, bool has_time);

/*
 * dp_query_parse - parse query string @qs (no leading '?'; "" is the menu) into @q.
 * Percent-decoding and '+' as space are applied to values. Unknown parameters, unknown
 * pages, malformed numbers and out-of-range values are errors; so are parameters
 * repeated with different values (except page=NAME then page=K, K a number: the bunch).
 * @has_time: as for dp_prefs_default().
 * Return: 0, or -DP_EUSAGE with a message (dp_errmsg()) that quotes the bad parameter and
 * lists the valid choices (e.g. every page name). Never reads past @qs's NUL; @qs may be
 * any bytes.
 */
int dp_query_parse(const char *qs, bool has_time, struct dp_query *q);

/*
 * dp_query_format - append to @out the canonical query string of @q: page= first, then
 * the page's parameters, then every preference that differs from its default, in a fixed
 * order, values percent-encoded. Parsing the result gives back an equal query (the
 * round trip is a property test). file= is included when q->file is set.
 * Return: 0 or the buffer's sticky error.
 */
int dp_query_format(const struct dp_query *q, struct dp_buf *out);

/*
 * dp_query_link - @base's preferences and file with a new page: resets every page
 * parameter to its default, sets page = @page and id = @id (0 = none), and formats the
 * result into @out as dp_query_format() does. For links with more parameters, copy
 * @base, set the fields, and call dp_query_format().
 */
int dp_query_link(const struct dp_query *base, enum dp_page page, uint32_t id, struct dp_buf *out);

/* dp_query_reset_params - set every page parameter of @q (not prefs, not file) to its
 * default and page to @page. */
void dp_query_reset_params(struct dp_query *q, enum dp_page page);

/* dp_query_page_name - the page= token of @page ("menu", "clique", ...). */
const char *dp_query_page_name(enum dp_page page);

/* dp_metric_name - the metric= token ("time", "calls", "callseqs", "allocs", "bytes"). */
const char *dp_metric_name(enum dp_metric m);

#endif /* DP_QUERY_QUERY_H */
