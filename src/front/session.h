/*
 * front/session.h - what every front end (command line, built-in web server, CGI server)
 * shares: a set of loaded profiles, each read, symbol-checked and analysed once, and one
 * call that answers a query string about one of them in text, JSON or HTML.
 *
 * The pipeline behind dp_session_answer(): query (src/query) -> report (src/report) ->
 * display (src/display) -> text | HTML; JSON is the report itself. Depends on every
 * module below it; nothing in src/ but the front ends (cli/, web/, cgi/) includes it.
 */
#ifndef DP_FRONT_SESSION_H
#define DP_FRONT_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/buf.h"
#include "../display/render_opts.h"

struct dp_session; /* opaque */

#define DP_ANSWER_NAME_MAX  128	 /* room for a download's file name, NUL included */
#define DP_ANSWER_ERROR_MAX 1024 /* room for an error's message, NUL included */

/* The answer to one query. body is NUL-terminated; content_type is a static string. */
struct dp_answer {
	int status;		  /* 200; 400 bad query; 404 unknown id/name; 500 internal */
	const char *content_type; /* "text/plain; charset=utf-8", "application/json", ... */
	struct dp_buf body;	  /* owned by the caller: dp_buf_release() it */
	char filename[DP_ANSWER_NAME_MAX]; /* a download's file name (Content-Disposition),
					      "" for pages and errors */
	char error[DP_ANSWER_ERROR_MAX];   /* an error's message alone (what the body says,
					      for a command line's one line), "" if none */
};

/* The export formats a front end offers as downloads (dp_session_export()), in the order
 * of the pages' "download as" menu; NULL-terminated. */
extern const char *const dp_session_downloads[];

/* Flags of dp_session_new(). */
#define DP_SESSION_QUIET 1u /* no progress display on stderr even on a terminal */
/* build the flame pages' index of a file's merged view, then analyse its per-thread
 * view, on a background thread right after it is loaded (servers: the index then makes
 * the flame and callers pages of the widest cliques and procedures faster, and the first
 * per-thread query need not wait); without it no index is built for the merged view (a
 * one-shot query answers sooner without) and the per-thread view is analysed on its first
 * query. Not for processes that fork after the load (the CGI server) */
#define DP_SESSION_BACKGROUND 2u

/*
 * dp_session_new - an empty session.
 * @flags: DP_SESSION_* bits.
 * Return: the session (free it with dp_session_free()), or NULL on out of memory.
 */
struct dp_session *dp_session_new(unsigned flags);

/* dp_session_background - start, on background threads, what DP_SESSION_BACKGROUND does
 * at load for @s's files that lack it: for a process that has just forked and will
 * serve queries, like the CGI server. */
void dp_session_background(struct dp_session *s);

/* dp_session_wait - wait for the background threads of @s's files to finish (benchmarks
 * and tests: the session as a server has it a few seconds after the load). */
void dp_session_wait(struct dp_session *s);

/* dp_session_free - free @s and every profile it holds (NULL is fine). */
void dp_session_free(struct dp_session *s);

/*
 * dp_session_open - read the data file @path, analyse it (both thread views), and read
 * its contour file: @contour if not NULL, else PATH-without-.data + ".contour" if it
 * exists. A load over a second shows progress on stderr when it is a terminal (unless
 * DP_SESSION_QUIET).
 * Return: the file's index (0, 1, ... in opening order), or a negative dp_err with the
 * message naming the file, position and problem (dp_errmsg()). Contour warnings (unknown
 * modules) do not fail the open: see dp_session_warnings().
 */
int dp_session_open(struct dp_session *s, const char *path, const char *contour);

/* Flags of dp_session_set_base(). */
#define DP_BASE_ABSOLUTE 1u /* compare time in seconds, not as a share of each run's samples */

/*
 * dp_session_set_base - open data file @path (and its contour, as dp_session_open()) as
 * the base profile every file of @s is compared with: from then on each answer (text,
 * HTML, JSON; not downloads) shows its page beside the same page of the base
 * (dp_report_compare() of src/report: each table's Base, New, Change and Rel. columns of
 * one metric, the JSON rows' "base" costs, a differential flame graph). The base is not
 * one of the files (dp_session_n_files() does not count it); set it once.
 * Return: 0, or a negative dp_err with the message naming the file (the session is then
 * as before).
 */
int dp_session_set_base(struct dp_session *s, const char *path, const char *contour,
			unsigned flags);

/* dp_session_n_files - how many files are open. */
uint32_t dp_session_n_files(const struct dp_session *s);

/* dp_session_path - the path file @i was opened with. */
const char *dp_session_path(const struct dp_session *s, uint32_t i);

/* dp_session_has_samples - whether file @i has more than 10 CPU-time samples (then time
 * is the natural metric; else call sequence counts are). */
bool dp_session_has_samples(const struct dp_session *s, uint32_t i);

/* dp_session_widest_ps - the procedure with the most contexts in file @i's default view
 * (threads merged, when that merges anything): dp_analysis_widest_ps() of that view's
 * analysis; 0 if there is no file @i. */
uint32_t dp_session_widest_ps(const struct dp_session *s, uint32_t i);

/* dp_session_warnings - the warnings of file @i's load, one per line ("" if none). */
const char *dp_session_warnings(const struct dp_session *s, uint32_t i);

/*
 * dp_session_answer - answer query string @query ("page=clique&id=3&...", no leading
 * '?', may be "" = the menu) about file @i in format @fmt, into @out (initialised by this
 * call; release out->body afterwards). A query that names a valid format=... overrides
 * @fmt, and is read before anything else (dp_request_format()): every answer, errors
 * included, is in it. Bad queries are answers, not failures: status 400/404 and a
 * readable body in the format asked for (dp_error_body()), that says what was wrong and
 * lists the valid choices.
 * Return: 0 (whatever the status), or a negative dp_err for out of memory.
 * Thread-compatible: one answer at a time per session.
 */
int dp_session_answer(struct dp_session *s, uint32_t i, const char *query, enum dp_format fmt,
		      const struct dp_render_opts *opts, struct dp_answer *out);

/*
 * dp_session_export - the export (src/export, docs/EXPORTS.md) in format @format (a
 * name of dp_export_format_parse(): "callgrind", "pprof", ...) of the subtree query
 * @query names about file @i: page=clique&id=N a clique and all below, page=proc&id=N
 * every context of a procedure and all below, any other page the whole profile; with
 * view=threads, of the per-thread view; other parameters are ignored. Format json (the
 * data file as `deepprof dump --format=json`) is always the whole file. The bytes are
 * those of `deepprof export --format=@format FILE QUERY` (the same view, defaults and
 * version). Into @out (initialised here): status 200, the format's Content-Type and
 * out->filename (the data file's base name, the subtree, the format's extension); or
 * 400 (unknown format, bad query, id out of range) / 500 with the request core's error
 * body in @fmt (format= in @query overrides it), whose links follow @opts.
 * Return: 0 (whatever the status), or a negative dp_err for out of memory.
 * Thread-compatible like dp_session_answer().
 */
int dp_session_export(struct dp_session *s, uint32_t i, const char *query, const char *format,
		      enum dp_format fmt, const struct dp_render_opts *opts, struct dp_answer *out);

/* What dp_session_check() did. */
struct dp_check_result {
	uint64_t pages;	      /* answers rendered (pages x formats x views) */
	uint64_t failures;    /* answers that failed or were not 200, and broken invariants */
	struct dp_buf report; /* one line per failure (at most 100 lines kept); release it */
};

/*
 * dp_session_check - like mdprof_test: render every page of file @i in every format and
 * both thread views (menu, root, action, modules, threads, flame, every top variant, and
 * every clique, procedure, callers grouping, call site, module and raw node, at most
 * @max_per_kind of each kind, 0 = all), and verify the analysis invariants in both views:
 * the root total is the sum of all own costs; every procedure's, call site's and module's
 * own cost is the sum over its nodes; every clique's total is the sum over its members;
 * every PD's inherited cost is the sum over its calls leaving the clique; both views
 * have the same totals and per-procedure costs. Fills @res (initialised here).
 * Return: 0 (failures are counted in @res), or -DP_ENOMEM.
 */
int dp_session_check(struct dp_session *s, uint32_t i, uint32_t max_per_kind,
		     struct dp_check_result *res);

#endif /* DP_FRONT_SESSION_H */
