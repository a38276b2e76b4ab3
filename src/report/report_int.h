/*
 * report/report_int.h - what the page builders (rep_*.c) share: the row builder, the
 * row makers for each kind of node, naming, sorting and bunches. Private to src/report.
 */
#ifndef DP_REPORT_REPORT_INT_H
#define DP_REPORT_REPORT_INT_H

#include "../core/prefetch.h"
#include "report.h"

/* DP_REP_AHEAD: how many items ahead the scans over a node's calls or contexts prefetch
 * them (they lie all over memory in big profiles: the loads are what costs). */
#define DP_REP_AHEAD 16

/*
 * dp_rep_csd_prefetch - prefetch what reading CSD @id's costs needs (its costs and
 * dp_analysis_csd_desc()), in two stages: @stage 0 the CSD's record and its child clique
 * id, @stage 1 (issued later, that id loaded) the clique's entry and total.
 */
DP_PREFETCHER void dp_rep_csd_prefetch(const struct dp_profile *p, const struct dp_analysis *a,
				       uint32_t id, int stage)
{
	if (stage == 0) {
		const struct dp_csd *d = &p->csd[id];

		__builtin_prefetch(d); /* a CSD may span two cache lines */
		__builtin_prefetch((const char *)(d + 1) - 1);
		__builtin_prefetch(&a->csd_child_clique[id]);
	} else {
		uint32_t k = a->csd_child_clique[id];

		__builtin_prefetch(&a->clique_entry[k]);
		__builtin_prefetch(&a->clique_total[k]);
	}
}

/* The flame pages (rep_flame.c) keep at most this many nodes, the widest: more cannot be
 * seen in a flame graph (a 1,200-pixel-wide one has room for about that many boxes a
 * pixel wide or more; on the 1.4-million-context generator profile the 2,000 widest are
 * every node wider than 0.028 % of the total, a third of a pixel), and more would take
 * longer than a query may (min=0 there: 2,000 nodes in 4-5 ms, 5,000 in 12-13 ms). Past
 * it, the minimum is raised to the smallest value that keeps at most this many nodes.
 * The number is also written in `deepprof tree --help`, the man page and the docs. */
#define DP_FLAME_MAX_NODES 2000u

/* A growing list of rows in the report's arena (a section under construction). */
struct dp_rep_rows {
	struct dp_report *r;
	struct dp_rep_row *rows;
	uint32_t n, cap;
};

/* dp_rep_rows_init - an empty list whose memory comes from @r's arena. */
void dp_rep_rows_init(struct dp_rep_rows *l, struct dp_report *r);

/* dp_rep_rows_add - a new zeroed row at the end (name ""), or NULL (-DP_ENOMEM set). */
struct dp_rep_row *dp_rep_rows_add(struct dp_rep_rows *l);

/* dp_rep_rows_room - room for @more rows in @l beyond its n (capacity at least doubles,
 * so that adding row by row stays linear). Return: 0 or -DP_ENOMEM. */
int dp_rep_rows_room(struct dp_rep_rows *l, uint32_t more);

/*
 * dp_rep_bunch - the bunch of a long list the query asks for (q.bunch, 1-based, of
 * q.size items, default 20): sets r->n_items = @n_items, r->n_bunches, r->bunch and the
 * item range [*@lo, *@hi). Return: 0, or -DP_ENOENT when the bunch does not exist
 * (message set).
 */
int dp_rep_bunch(struct dp_report *r, uint64_t n_items, uint64_t *lo, uint64_t *hi);

/* dp_rep_section - append a section made of @l's rows to @r; @title may be NULL.
 * Return: 0 or -DP_ENOMEM. */
int dp_rep_section(struct dp_report *r, const char *id, const char *title,
		   const struct dp_rep_rows *l);

/* dp_rep_section_bunch - like dp_rep_section() with only the bunch of @l's rows the query
 * asks for (dp_rep_bunch(), @l's rows are the items). Return: 0, -DP_ENOENT or -DP_ENOMEM. */
int dp_rep_section_bunch(struct dp_report *r, const char *id, const char *title,
			 const struct dp_rep_rows *l);

/* dp_rep_fact_u64 / _str / _f64 - append a fact. Return: 0 or -DP_ENOMEM. */
int dp_rep_fact_u64(struct dp_report *r, const char *key, const char *label, uint64_t v);
int dp_rep_fact_str(struct dp_report *r, const char *key, const char *label, const char *s);
int dp_rep_fact_f64(struct dp_report *r, const char *key, const char *label, double v);

/* dp_rep_link - append a link labelled @label to a copy of @target. Return: 0 or -DP_ENOMEM. */
int dp_rep_link(struct dp_report *r, const char *label, const struct dp_query *target);

/* dp_rep_link_id - append a link labelled @label to @page about @id (proc= on the
 * callers and flame_callers pages, else id=), keeping @r's preferences and file.
 * Return: 0 or -DP_ENOMEM. */
int dp_rep_link_id(struct dp_report *r, const char *label, enum dp_page page, uint32_t id);

/* dp_rep_strdup / dp_rep_printf - strings in @r's arena (NULL on out of memory, with
 * -DP_ENOMEM set). */
char *dp_rep_strdup(struct dp_report *r, const char *s);
char *dp_rep_printf(struct dp_report *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * dp_rep_ps_name - the name of procedure @ps as the prefs' module qualification says:
 * DP_MQ_ALWAYS: "file.c: name" (the file's base name); DP_MQ_DIFF: qualified when the
 * procedure's module differs from @ctx_module, bare when @ctx_module is 0 or the module
 * of the artificial (file-less) procedures; DP_MQ_NEVER: bare. Call-site rows pass the
 * caller's module. The string lives in the arena (or the profile). Never NULL (on out of
 * memory: the bare name).
 */
const char *dp_rep_ps_name(struct dp_report *r, const struct dp_report_ctx *c, uint32_t ps,
			   uint32_t ctx_module);

/*
 * dp_rep_thread_name - the name of thread root PD @pd: its entry function (the costliest
 * procedure it calls) and its thread numbers, "worker (thread 2)", "worker (threads
 * 2-5)"; in the arena (never NULL: "<thread>" on out of memory). The row makers name
 * thread PDs so.
 */
const char *dp_rep_thread_name(struct dp_report *r, const struct dp_report_ctx *c, uint32_t pd);

#define DP_REP_PATH_MAX 256 /* most procedures a path names (dp_rep_path) */

/*
 * dp_rep_path - the call path of PD @pd: the procedures from its thread's entry down to
 * @pd's, then @last_ps (0: none), joined by " > " ("main > parse > expr"); up the clique
 * tree (a recursion's members after its entry), at most DP_REP_PATH_MAX names ("... > "
 * first when cut); "" for a thread's root (no procedure above). In the arena; NULL on
 * out of memory (-DP_ENOMEM set).
 */
const char *dp_rep_path(struct dp_report *r, const struct dp_report_ctx *c, uint32_t pd,
			uint32_t last_ps);

/*
 * Row makers: fill @row (already zeroed, from dp_rep_rows_add()) for one node, with its
 * costs, name, position and links; depth and flags beyond the node's own are the
 * caller's. RECURSIVE and INACTIVE are set by the makers where they apply.
 */
/* a call site in a context: name = the callee's name, position = the call site's,
 * clique = the callee's clique, ps = the callee, own/desc = the CSD's */
void dp_rep_row_csd(struct dp_report *r, const struct dp_report_ctx *c, uint32_t csd,
		    struct dp_rep_row *row);
/* a procedure in one context: own = PD own, desc = PD desc, clique = its clique; in a
 * clique of several PDs (a recursion through several procedures), own + desc = the
 * clique's total (which member called which is not kept) */
void dp_rep_row_pd(struct dp_report *r, const struct dp_report_ctx *c, uint32_t pd,
		   struct dp_rep_row *row);
/* a procedure over all contexts: own = ps_own, own + desc = ps_total (its total: the
 * cost with it on the stack, counted once), position = its definition */
void dp_rep_row_ps(struct dp_report *r, const struct dp_report_ctx *c, uint32_t ps,
		   struct dp_rep_row *row);
/* a static call site over all contexts: css_own / css_desc; name = the statically known
 * callee or the single callee reached, else "(indirect)" / "(callback)" */
void dp_rep_row_css(struct dp_report *r, const struct dp_report_ctx *c, uint32_t css,
		    struct dp_rep_row *row);
/* a clique: name = its entry procedure, own = the entry PD's own, desc = clique total
 * minus that */
void dp_rep_row_clique(struct dp_report *r, const struct dp_report_ctx *c, uint32_t clique,
		       struct dp_rep_row *row);
/* the same without its costs (left as they are), for rows that sum costs of their own */
void dp_rep_row_clique_node(struct dp_report *r, const struct dp_report_ctx *c, uint32_t clique,
			    struct dp_rep_row *row);
/* a module: module_own / module_desc */
void dp_rep_row_module(struct dp_report *r, const struct dp_report_ctx *c, uint32_t module,
		       struct dp_rep_row *row);

/*
 * dp_rep_coalesce_sites - unless prefs.split, merge the call-site rows of @l from @first
 * on (rows of one depth, each maybe followed by deeper ones) that are one call as the
 * source says: the same file and line, the same callee procedure, the same kind (an
 * unrolled loop makes a dozen sites of one line): the first keeps its place and ids
 * (its links), gets the others' costs, SUM and n = the sites merged; rows with rows
 * under them (MULTI) stay apart. Return: 0 or -DP_ENOMEM.
 */
int dp_rep_coalesce_sites(struct dp_report *r, struct dp_rep_rows *l, uint32_t first);

/* dp_rep_row_add_costs - @dst's own and desc += @src's (for sums; sets DP_ROW_SUM, n++). */
void dp_rep_row_add_costs(struct dp_rep_row *dst, const struct dp_rep_row *src);

/* dp_rep_row_metric - @row's value of @m in @scope and @per (calls for DP_METRIC_CALLS
 * in any scope; per call divides by calls, 0 calls gives 0). */
double dp_rep_row_metric(const struct dp_rep_row *row, enum dp_metric m, enum dp_scope scope,
			 enum dp_per per);

/*
 * dp_rep_sort - sort rows [0, n) of @rows that are all at the same depth, keeping each
 * row's following deeper rows attached to it, as @prefs says: by position (file, line,
 * then name), by name, or by cost (descending, ties by name), each the other way round
 * when prefs->sort_rev is set (a reversed comparison: ties still keep their order).
 * Stable.
 * Return: 0 or -DP_ENOMEM.
 */
int dp_rep_sort(struct dp_report *r, struct dp_rep_row *rows, uint32_t n,
		const struct dp_prefs *prefs);

/* dp_rep_str_bytes - bytes [@off, @off + @n) of @s (n <= 8) as a big-endian number, 0
 * past its end; NULL gives the largest value (NULL sorts after every string). */
uint64_t dp_rep_str_bytes(const char *s, unsigned off, unsigned n);

/*
 * dp_rep_str_ranks - for the @n strings @s[i] (NULL allowed; equal strings are mostly one
 * interned pointer), their ranks in strcmp order (NULL last; equal strings, equal ranks)
 * into @rank, hashing pointers so that only the distinct strings are compared.
 * Return: 0 or -DP_ENOMEM.
 */
int dp_rep_str_ranks(struct dp_report *r, const char *const *s, uint32_t n, uint32_t *rank);

/* The page builders, one per page (or family); each fills @r (r->q is set) or returns a
 * negative dp_err with the message set. */
/* rep_compare_map.c: the nodes of profile @a found in profile @b (dp_report_compare()) */
/* dp_cmp_ps - the procedure of @b that is @a's procedure @ps (name and file), 0 if none */
uint32_t dp_cmp_ps(const struct dp_report_ctx *a, uint32_t ps, const struct dp_report_ctx *b);
/* What the chains of one profile's contexts keep from call to call (dp_cmp_memo_new()):
 * each clique's breadth-first search from its entry, done once. */
struct dp_cmp_memo {
	uint32_t *parent;	  /* [pd]: the member PD it is reached from in its clique (0 for an
				     entry or none), for the members of the cliques searched */
	uint8_t *done;		  /* [clique]: searched */
	uint32_t n_pd, n_cliques; /* the sizes the arrays were made for (0: not yet) */
};
/* dp_cmp_pd - into *@out the PD of @b reached from the root by the chain of procedures
 * that reaches @a's PD @pd (0 if none); @m is @a's memo. Return: 0 or -DP_ENOMEM. */
int dp_cmp_pd(const struct dp_report_ctx *a, struct dp_cmp_memo *m, uint32_t pd,
	      const struct dp_report_ctx *b, uint32_t *out);
/* dp_cmp_row_node - into *@out the id in @b of the node row @row of a report about @a
 * stands for (a PD, CSD, clique, call site, procedure or module; 0 if none or another
 * kind), found as dp_cmp_pd() and dp_cmp_query() find them; @m is @a's memo.
 * Return: 0 or -DP_ENOMEM. */
int dp_cmp_row_node(const struct dp_report_ctx *a, struct dp_cmp_memo *m,
		    const struct dp_rep_row *row, const struct dp_report_ctx *b, uint32_t *out);
/* dp_cmp_query - the query of report @r (about @a, memo @m) as a query about @b into @out: the
 * subject's ids translated, every item of a list (bunch 1 of any size, top's every rank),
 * flame graphs at min=0. Return: 1, 0 when @b has no counterpart of the subject, or
 * -DP_ENOMEM. */
int dp_cmp_query(const struct dp_report_ctx *a, struct dp_cmp_memo *m, const struct dp_report *r,
		 const struct dp_report_ctx *b, struct dp_query *out);

int dp_rep_menu(struct dp_report *r, const struct dp_report_ctx *c);	/* rep_menu.c */
int dp_rep_threads(struct dp_report *r, const struct dp_report_ctx *c); /* rep_menu.c */
int dp_rep_clique(struct dp_report *r, const struct dp_report_ctx *c);	/* rep_clique.c: */
int dp_rep_root(struct dp_report *r, const struct dp_report_ctx *c);	/* root, action too */
int dp_rep_action(struct dp_report *r, const struct dp_report_ctx *c);
int dp_rep_proc(struct dp_report *r, const struct dp_report_ctx *c);	/* rep_proc.c: */
int dp_rep_callers(struct dp_report *r, const struct dp_report_ctx *c); /* callers, site */
int dp_rep_site(struct dp_report *r, const struct dp_report_ctx *c);
int dp_rep_modules(struct dp_report *r, const struct dp_report_ctx *c); /* rep_list.c: */
int dp_rep_module(struct dp_report *r, const struct dp_report_ctx *c);	/* modules, top */
int dp_rep_top(struct dp_report *r, const struct dp_report_ctx *c);
int dp_rep_flame(struct dp_report *r, const struct dp_report_ctx *c); /* rep_flame.c */
int dp_rep_flame_callers(struct dp_report *r, const struct dp_report_ctx *c);
int dp_rep_sandwich(struct dp_report *r, const struct dp_report_ctx *c); /* rep_flame_callees.c */
int dp_rep_dump(struct dp_report *r, const struct dp_report_ctx *c);	 /* rep_dump.c: all 5 */
int dp_rep_search(struct dp_report *r, const struct dp_report_ctx *c);	 /* rep_search.c */

/* dp_rep_top_rows - the PS rows of the @n procedures (functions and regions) with the
 * largest non-zero value of @m in @scope, largest first, appended to @l, as the top page
 * ranks them (rep_list.c). Return: 0 or -DP_ENOMEM. */
int dp_rep_top_rows(struct dp_report *r, const struct dp_report_ctx *c, enum dp_metric m,
		    enum dp_scope scope, uint32_t n, struct dp_rep_rows *l);

/*
 * dp_rep_hot_path - the action page's descent (rep_clique.c): from the root clique, while
 * exactly one child clique holds at least @pct % of the root total of @m (not calls) and
 * fewer than @max_steps are made, a CSD row (dp_rep_row_csd) of the crossing call into
 * it appended to @path; *@end = the clique reached. Return: 0 or -DP_ENOMEM.
 */
int dp_rep_hot_path(struct dp_report *r, const struct dp_report_ctx *c, enum dp_metric m,
		    double pct, uint32_t max_steps, struct dp_rep_rows *path, uint32_t *end);

/* dp_rep_subject_proc - the procedure of a proc or callers page (@id, or r->q.name),
 * with r->subject set to its row. Return: its PS id, or a negative enum dp_err. */
int dp_rep_subject_proc(struct dp_report *r, const struct dp_report_ctx *c, uint32_t id);

/*
 * dp_rep_resolve_proc - the PS the query names for a procedure page: @id if non-zero
 * (checked against 1..n_ps), else the procedure q.name names (report_names.c): its name
 * (demangled or linkage) exactly, else as typed (dp_rep_name_like: without its parameter
 * list, "..." for any text), optionally after "file.c: " (a module's base name). Several
 * matching: -DP_EUSAGE listing up to 10 with their ids, names and files.
 * Return: the PS id (> 0) or a negative dp_err (-DP_ENOENT: "no procedure ...", with the
 * nearest name by edit distance when one is near), message set.
 */
int dp_rep_resolve_proc(struct dp_report *r, const struct dp_report_ctx *c, uint32_t id);

/* dp_rep_name_base - the length of @name without its parameter list and the qualifiers
 * after it ("ns::f(int) const" -> 4, "ns::f"); strlen(@name) when it has none. */
size_t dp_rep_name_base(const char *name);

/* dp_rep_name_like - whether @name answers to @pat as a user types it: equal, with "..."
 * (a run of three dots or more, as a shortened name may show "....)") in @pat standing
 * for any text, and, when @pat has no '(', up to @name's parameter list
 * ("Json::throwLogicError" answers for "Json::throwLogicError(std::string const&)"). */
bool dp_rep_name_like(const char *pat, const char *name);

/* dp_rep_check_id - 0 if 1 <= @id <= @n, else -DP_ENOENT "unknown WHAT id=ID (valid:
 * 1..N)"; id 0 gives -DP_EUSAGE "page P needs id=N". */
int dp_rep_check_id(const struct dp_report *r, const char *what, uint32_t id, uint32_t n);

#endif /* DP_REPORT_REPORT_INT_H */
