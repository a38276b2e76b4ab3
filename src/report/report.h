/*
 * report/report.h - reports: for one query, a plain structure holding everything the
 * page may show, built from an analysis with array lookups (no formatting, no units).
 * The display step (src/display) turns it into tables; its JSON form (report_json.c) is
 * the stable, documented interface for other tools (docs/REPORTS.md).
 *
 * Every page is made of the same pieces: a subject row (the node the page is about, with
 * its totals), sections of rows (each row one node or a sum of nodes, with own and
 * inherited costs and the ids to link to), facts (named values) and links. Adding a page:
 * docs/internals/reports.md. Depends on analysis/, query/, format/ and core/.
 */
#ifndef DP_REPORT_REPORT_H
#define DP_REPORT_REPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "../analysis/analysis.h"
#include "../analysis/contour.h"
#include "../core/arena.h"
#include "../query/query.h"

/* What a row (or fact) is about. */
enum dp_ent {
	DP_ENT_NONE = 0,
	DP_ENT_PS,	/* a procedure (all its contexts, or those of one clique) */
	DP_ENT_CSS,	/* a static call site (all its contexts) */
	DP_ENT_PD,	/* a procedure in one context */
	DP_ENT_CSD,	/* a call site in one context, to one callee */
	DP_ENT_CLIQUE,	/* a clique (recursion folded) */
	DP_ENT_MODULE,	/* a source file */
	DP_ENT_OBJECT,	/* an executable or shared library */
	DP_ENT_THREAD,	/* a thread */
	DP_ENT_PROGRAM, /* the whole program (totals) */
	DP_ENT_COUNT
};

/* Row flags. */
#define DP_ROW_RECURSIVE 0x01u /* a call that stays inside its clique: no inherited cost */
#define DP_ROW_INACTIVE                                                    \
	0x02u /* never called / zero cost: the display hides it unless the \
		 matching DP_SHOW_INACTIVE_* preference is on */
#define DP_ROW_MULTI                                                                  \
	0x04u		      /* a call site with several callees: a summary row, its \
				 callees follow at depth + 1 (unless summarise is on) */
#define DP_ROW_SUM     0x08u  /* a sum over several nodes (n says how many) */
#define DP_ROW_CONTOUR 0x10u  /* regrouped by contour exclusion */
#define DP_ROW_SELF    0x20u  /* the subject itself (a recursive caller, a clique member) */
#define DP_ROW_TAIL    0x40u  /* a call through a tail-call site (docs/FORMAT.md, CSS kind tail) */
#define DP_ROW_REGION  0x80u  /* the row's procedure is a region (deepprof_enter/leave) */
#define DP_ROW_THREAD  0x100u /* a thread's root, named by its entry (dp_rep_thread_name) */

/*
 * One row. The costs are the row's node's (or the sum over the nodes it stands for):
 * own = the counters of the calls it stands for, desc = cost inherited from below;
 * total = own (inheritable counters) + desc. Ids are the analysis's; 0 = none/unknown.
 */
struct dp_rep_row {
	enum dp_ent kind;
	uint32_t id;	    /* of the node of that kind (PS, CSS, PD, CSD, clique, module, ...) */
	uint32_t depth;	    /* 0 = top level of its section; k + 1 = under the last row of k */
	unsigned flags;	    /* DP_ROW_* */
	const char *name;   /* the label: procedure name (qualified as prefs.mq says), module
			       path, thread name, ... never NULL */
	const char *callee; /* call-site rows: the callee's name (NULL if several/none) */
	const char *file;   /* source position of the row's node (a call site's position, a
			       procedure's definition); NULL = unknown */
	uint32_t line;
	/* what to link to */
	uint32_t ps;	 /* procedure (a call site's: the callee) */
	uint32_t css;	 /* static call site */
	uint32_t clique; /* clique to open (a call site's: the callee's clique) */
	uint32_t module; /* module of ps */
	uint32_t thread; /* 1-based thread, 0 = several/none */
	uint64_t n;	 /* DP_ROW_SUM: how many nodes were summed */
	struct dp_costs own;
	struct dp_inherit desc;
	const char *path; /* rows that can repeat (a context of a callers or site page): the
			     call path to it ("main > parse > expr", dp_rep_path), else NULL
			     or "" */
};

struct dp_rep_section {
	const char *title; /* NULL: the page's main table */
	const char *id;	   /* a stable key for JSON and HTML anchors ("ancestors", "sites"...) */
	uint32_t n_rows;
	struct dp_rep_row *rows;
	bool costless; /* its rows name things and carry no costs (a flame page's "members"):
			  a comparison with a base leaves them out */
};

enum dp_fact_type { DP_FACT_U64 = 0, DP_FACT_STR, DP_FACT_F64 };

/* A named value (menu statistics, raw dump fields). */
struct dp_rep_fact {
	const char *key;   /* stable identifier ("n_cliques"), also the JSON key */
	const char *label; /* for people ("cliques") */
	enum dp_fact_type type;
	uint64_t u;
	double f;
	const char *s;
};

/* A link to another page (menu's starting links, the action page's path, pager). */
struct dp_rep_link {
	const char *label;
	struct dp_query *q; /* the target (prefs and file as the report's query) */
};

/*
 * The report index: what the flame, flame_callers and callers pages of the widest
 * cliques and procedures read instead of scanning the analysis (their children's values
 * per metric in one array, the procedures' contexts and caller CSDs, the first levels of
 * their callers trees). Optional: every page answers the same without it, more slowly.
 * Opaque: its inside is private to the pages.
 */
struct dp_report_index;

/* What dp_report_index_build() indexes; zero-initialised means the defaults. */
struct dp_report_index_opts {
	uint32_t min_kids; /* the fewest children of an indexed clique (0: 256) */
	uint32_t min_ctx;  /* the fewest contexts of an indexed procedure (0: 8,192) */
	uint32_t k;	   /* the widest children kept per clique and metric (0: the flame
			      pages' node cap, DP_FLAME_MAX_NODES) */
};

/*
 * dp_report_index_build - the report index of analysis @a of profile @p (both borrowed:
 * the index reads them only while it is built, but describes them, so free it before
 * them), as @o (NULL: the defaults) says; on two cores, in any thread.
 * Return: 0 with *@out set (free it with dp_report_index_free()), or -DP_ENOMEM (message
 * set; the pages still answer without an index).
 */
int dp_report_index_build(const struct dp_profile *p, const struct dp_analysis *a,
			  const struct dp_report_index_opts *o, struct dp_report_index **out);

/* dp_report_index_free - free @ix (NULL is fine). */
void dp_report_index_free(struct dp_report_index *ix);

/* How much an index holds (for tests and statistics). */
struct dp_report_index_size {
	uint32_t cliques; /* wide cliques indexed */
	uint32_t procs;	  /* wide procedures indexed */
};

/* dp_report_index_size - what @ix (NULL: none) holds. */
struct dp_report_index_size dp_report_index_size(const struct dp_report_index *ix);

/* Everything a report may need besides the query; all borrowed. */

struct dp_report_ctx {
	const struct dp_profile *p;		/* the profile of the view asked for */
	const struct dp_analysis *a;		/* its analysis */
	const struct dp_contour *contour;	/* NULL: no contour file */
	const char *contour_error;		/* why the contour file is unusable, or NULL */
	const struct dp_report_index *flame_ix; /* the analysis's report index, or NULL: the
						   pages scan */
	uint32_t flame_max_nodes; /* the most nodes a flame page keeps (0: the default,
				     DP_FLAME_MAX_NODES of report_int.h) */
	bool has_libs;		  /* the file has library leaves (libs=fold makes a difference) */
	/* what comparisons keep of this profile's contexts from one query to the next
	   (dp_cmp_memo_new()), or NULL: each comparison works it out again */
	struct dp_cmp_memo *cmp_memo;
};

/* dp_cmp_memo_new - an empty memo of one analysis's contexts for comparisons
 * (dp_report_ctx.cmp_memo: each clique's paths from its entry, found once); free it
 * with dp_cmp_memo_free() before the analysis. NULL on out of memory. Not thread-safe:
 * one query at a time. */
struct dp_cmp_memo *dp_cmp_memo_new(void);

/* dp_cmp_memo_free - free @m (NULL is fine). */
void dp_cmp_memo_free(struct dp_cmp_memo *m);

/* A row's counterpart in the base profile of a comparison (dp_report_compare()). */
struct dp_rep_base {
	bool found;	     /* the row's node is in the base profile */
	struct dp_costs own; /* its costs there (zero when not found) */
	struct dp_inherit desc;
};

/* A report's page compared with the same page of a base profile. */
struct dp_rep_compare {
	const char *base_name;	      /* the base profile, as the front end names it */
	bool found;		      /* the base has the page (its subject): else no row is
					 found and every value is new */
	bool absolute;		      /* time in seconds, not as a share of each run's samples */
	enum dp_metric metric;	      /* what is compared: the page's metric (top, flame
					 graphs), its sort's when by cost, else total time */
	enum dp_scope scope;	      /* (total callseqs without samples) */
	struct dp_inherit base_total; /* the base's root total (the 100 % of its shares) */
	uint64_t base_period_ns;      /* the base's sampling period */
	struct dp_rep_base subject;   /* the subject's counterpart */
	struct dp_rep_base **rows;    /* [section][row]: each row's counterpart */
	uint32_t n_rows, n_found;     /* rows in all sections, and those found in the base */
};

struct dp_report {
	struct dp_arena arena; /* owns every pointer below */
	struct dp_query q;     /* the query answered, names resolved to ids */
	const char *title;     /* e.g. "Clique 12: fib" */
	bool has_subject;
	struct dp_rep_row subject; /* the page's node with its totals */
	uint32_t n_sections;
	struct dp_rep_section *sections;
	uint32_t n_facts;
	struct dp_rep_fact *facts;
	uint32_t n_links;
	struct dp_rep_link *links;
	const char *note; /* remarks for the reader (e.g. contour warnings), or NULL */
	/* for the display: the denominator of every percentage, and the time unit */
	struct dp_inherit root_total;
	uint64_t sample_period_ns;
	/* imported: the profile has an ORIG chunk; measured: then the DP_CSD_* bits of the
	   counters its source measured (DP_CSD_FIELDS_KNOWN otherwise). The display leaves
	   out the columns of the others, JSON lists them; when calls were not measured, rows
	   with any cost are not DP_ROW_INACTIVE (no calls is not no activity) */
	bool imported;
	uint32_t measured;
	bool has_libs; /* the file has library leaves: the display offers libs=fold */
	/* pages of long lists (callers, top): items in all, this page, pages in all */
	uint64_t n_items;
	uint32_t bunch, n_bunches;
	/* dp_rep_ps_name()'s names, made once per report: [q * (n_ps + 1) + ps], q = 1 when
	   module-qualified (NULL until first used; not part of the answer) */
	const char **ps_names;
	/* a failure met where none can be returned (a row maker naming a thread): the build
	   fails with it (0 = none) */
	int err;
	/* the comparison with a base profile (dp_report_compare()), NULL without one */
	struct dp_rep_compare *cmp;
};

/*
 * dp_report_build - the report answering @q about @ctx.
 * Return: 0 and *@out (free it with dp_report_free()), or -DP_EUSAGE (bad parameter for
 * this page), -DP_ENOENT (unknown id or name; the message gives the valid range or the
 * candidates) or -DP_ENOMEM, with the message set (dp_errmsg()).
 */
int dp_report_build(const struct dp_report_ctx *ctx, const struct dp_query *q,
		    struct dp_report **out);

/* How dp_report_compare() compares. */
struct dp_compare_opts {
	const char *base_name; /* the base's name for the pages (copied), NULL: "base" */
	bool absolute;	       /* time in seconds rather than as a share of each run */
};

/*
 * dp_report_compare - set r->cmp: report @r (built by dp_report_build() about @ctx) beside
 * the same page of the base profile @base (both borrowed for the call). The page's ids
 * are translated into @base's: procedures match by name and source file (unnamed ones by
 * address), contexts and cliques by the chain of procedures from the root (thread roots
 * by thread), call sites by caller, callee and line, modules by path. Each row of each
 * section is matched with the base's row of the same kind, name, callee and file under
 * the same chain of rows above it (of several, the one at the same line); lists (top,
 * callers, modules) are searched whole in the base, flame graphs with min=0 (to the node
 * cap). A page the base lacks (a procedure only the new profile has) compares with
 * nothing: r->cmp->found is false, and so is every row's.
 * Return: 0, or -DP_ENOMEM (r->cmp then unset).
 */
int dp_report_compare(struct dp_report *r, const struct dp_report_ctx *ctx,
		      const struct dp_report_ctx *base, const struct dp_compare_opts *o);

/* dp_report_free - free @r (NULL is fine). */
void dp_report_free(struct dp_report *r);

/*
 * dp_report_json - append @r as JSON (the schema of docs/REPORTS.md) to @out.
 * @pretty: indent. Return: 0 or the buffer's sticky error.
 */
int dp_report_json(const struct dp_report *r, bool pretty, struct dp_buf *out);

/* dp_ent_name - the JSON token of @k ("ps", "css", "pd", "csd", "clique", ...). */
const char *dp_ent_name(enum dp_ent k);

#endif /* DP_REPORT_REPORT_H */
