/*
 * cli/cmd_report.c - `deepprof report`, and its shorthands `deepprof top`, `deepprof
 * tree` and `deepprof find`: open a data file in a session (./Deep.data when none is
 * given), answer one query (or two for top) and print the page, or an error as one line. The pages
 * are made by src/front (query -> report -> display -> text, JSON or HTML); this file parses
 * options, prints and chooses the exit status.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/err.h"
#include "../core/url.h"
#include "../front/session.h"
#include "cmd_common.h"
#include "commands.h"

static const char report_usage[] =
	"usage: deepprof report [OPTIONS] [FILE] [QUERY]\n"
	"\n"
	"Answer one query about a deepprof data file (default ./Deep.data). QUERY is a\n"
	"URL query string, the same as in the web server: page=NAME&param=value&...\n"
	"(default: the menu), or a page's name alone. Pages: menu root action clique\n"
	"proc callers modules module top site threads flame flame_callers sandwich\n"
	"search dump_ps dump_pd dump_css dump_csd dump_clique; rows sort by sort=\n"
	"(cost, name or source, :asc or :desc); see docs/QUERIES.md. Examples:\n"
	"  deepprof report Deep.data top\n"
	"  deepprof report Deep.data 'page=top&metric=time&limit=1-20&sort=name'\n"
	"  deepprof report Deep.data 'page=proc&name=main'\n"
	"  deepprof report --format=json Deep.data 'page=clique&id=3'\n"
	"\n"
	"  --format=text|json|html  output format (default text)\n"
	"  --contour FILE           contour exclusion file (default: FILE's .contour)\n"
	"  --width N                text width (default: the terminal's, or 100)\n"
	"  --base BASE              compare with the same page of profile BASE: base, new,\n"
	"                           change and relative change in every table, the change\n"
	"                           of each node in the flame tree (docs/MERGE.md)\n"
	"  --absolute               with --base: time in seconds, not as a share of each run\n"
	"  -h, --help               show this help\n"
	"\n"
	"Exit status: 0 success; 2 bad usage, bad query or unreadable file; 1 output error.\n"
	"Errors are one line on stderr.\n";

static const char find_usage[] =
	"usage: deepprof find [OPTIONS] [FILE] PATTERN\n"
	"\n"
	"The procedures, modules (source files) and objects whose names contain\n"
	"PATTERN (ASCII case ignored), with their costs; FILE defaults to ./Deep.data.\n"
	"Shorthand for deepprof report FILE 'page=search&q=PATTERN'.\n"
	"\n"
	"  --regex                  PATTERN is a POSIX extended regular expression\n"
	"  --format, --contour, --width   as for deepprof report\n"
	"  -h, --help               show this help\n";

static const char top_usage[] =
	"usage: deepprof top [OPTIONS] [FILE]\n"
	"\n"
	"The procedures that cost most: by time (when the profile has samples), then by\n"
	"calls; FILE defaults to ./Deep.data. Shorthand for deepprof report FILE\n"
	"'page=top&metric=...&limit=1-N'; with --format=json, a JSON array of the two\n"
	"reports. A procedure's total is the cost with it on the stack, counted once.\n"
	"\n"
	"  --limit N                how many procedures (default 20)\n"
	"  --total                  rank by total cost (self + callees), not self (by\n"
	"                           total callseqs when the profile has no samples)\n"
	"  --fold-libs              time in libraries as their callers' own (libs=fold)\n"
	"  --format, --contour, --width, --base, --absolute   as for deepprof report\n"
	"  -h, --help               show this help\n";

static const char tree_usage[] =
	"usage: deepprof tree [OPTIONS] [FILE]\n"
	"\n"
	"The calling-context tree, recursion folded into cliques, as an indented tree\n"
	"with costs; FILE defaults to ./Deep.data. Shorthand for deepprof report FILE\n"
	"'page=flame&depth=N&min=PCT'.\n"
	"\n"
	"  --depth N                levels shown (default 0 = all)\n"
	"  --min PCT                hide subtrees under PCT% of the total (default 1);\n"
	"                           at most 2,000 nodes are shown, the widest: past that\n"
	"                           the minimum is raised, and the page says so\n"
	"  --metric M               time, calls, callseqs, allocs or bytes (default time,\n"
	"                           or callseqs when the profile has no samples)\n"
	"  --fold-libs              time in libraries as their callers' own (libs=fold)\n"
	"  --format, --contour, --width, --base, --absolute   as for deepprof report\n"
	"  -h, --help               show this help\n";

/* Answers @query about file 0 of @s and prints it; returns the exit status. */
static int report_print(struct dp_session *s, const struct dp_cli_report_opts *o, const char *query)
{
	struct dp_render_opts ro = {0};
	struct dp_answer ans;
	int rc, status;

	ro.width = o->width;
	rc = dp_session_answer(s, 0, query, o->format, &ro, &ans);
	if (rc < 0) {
		fprintf(stderr, "deepprof: %s\n", dp_errmsg());
		dp_buf_release(&ans.body);
		return 2;
	}
	if (ans.status == 200) {
		status = fwrite(ans.body.data, 1, ans.body.len, stdout) == ans.body.len ? 0 : 1;
	} else if (strcmp(ans.content_type, "application/json") == 0) {
		/* a JSON error is the document alone, for the programs that asked for JSON */
		fwrite(ans.body.data, 1, ans.body.len, stderr);
		status = 2;
	} else { /* one plain line: the message, which lists the valid choices */
		for (char *c = ans.error; *c; c++)
			*c = *c == '\n' ? ' ' : *c;
		fprintf(stderr, "deepprof: %s\n", ans.error);
		status = 2;
	}
	dp_buf_release(&ans.body);
	if (fflush(stdout) != 0 && status == 0)
		status = 1;
	return status;
}

/* Whether operand @a is a query rather than a file: no such file, and a query string
 * or a word (a page's name). */
static bool is_query(const char *a)
{
	if (access(a, F_OK) == 0)
		return false;
	if (strchr(a, '='))
		return true;
	for (const char *c = a; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || *c == '_'))
			return false;
	return a[0] != 0;
}

int dp_cmd_report(int argc, char **argv)
{
	struct dp_cli_report_opts o;
	struct dp_session *s;
	const char *query;
	char page[256];
	int rc;

	rc = dp_cli_report_args(argc, argv, report_usage, NULL, &o);
	if (rc >= 0)
		return rc;
	if (o.n_rest > 1)
		return dp_cli_usage_error(argv[0], report_usage,
					  "unexpected argument: ", o.rest[1]);
	query = o.n_rest ? o.rest[0] : "";
	if (!o.n_rest && is_query(o.file)) { /* deepprof report QUERY: ./Deep.data */
		query = o.file;
		o.file = DP_CLI_DEFAULT_FILE;
	}
	if (query[0] == '?')
		query++;
	if (query[0] && !strchr(query, '=') && !strchr(query, '&')) { /* a page's name */
		snprintf(page, sizeof(page), "page=%.200s", query);
		query = page;
	}
	s = dp_cli_open(&o);
	if (!s)
		return 2;
	rc = report_print(s, &o, query);
	dp_session_free(s);
	return rc;
}

/* --regex of deepprof find */
static int find_opt(const char *arg, const char *val, void *ctx)
{
	(void)val;
	if (strcmp(arg, "--regex") != 0)
		return -1;
	*(bool *)ctx = true;
	return 0;
}

int dp_cmd_find(int argc, char **argv)
{
	struct dp_cli_report_opts o = {.extra = find_opt};
	struct dp_session *s;
	const char *pattern;
	struct dp_buf q;
	bool regex = false;
	int rc;

	o.extra_ctx = &regex;
	rc = dp_cli_report_args(argc, argv, find_usage, "--regex", &o);
	if (rc >= 0)
		return rc;
	if (o.n_rest > 1)
		return dp_cli_usage_error(argv[0], find_usage, "unexpected argument: ", o.rest[1]);
	if (o.n_rest == 0 && !strcmp(o.file, DP_CLI_DEFAULT_FILE))
		return dp_cli_usage_error(argv[0], find_usage, "missing PATTERN", "");
	pattern = o.n_rest ? o.rest[0] : o.file;
	if (!o.n_rest)
		o.file = DP_CLI_DEFAULT_FILE;
	dp_buf_init(&q, 1 << 16);
	dp_buf_adds(&q, "page=search&q=");
	dp_url_encode(&q, pattern, ":/");
	if (regex)
		dp_buf_adds(&q, "&match=regex");
	s = dp_buf_error(&q) == 0 ? dp_cli_open(&o) : NULL;
	rc = s ? report_print(s, &o, dp_buf_cstr(&q)) : 2;
	dp_session_free(s);
	dp_buf_release(&q);
	return rc;
}

/* The extra options of top and tree (--limit, --total, --depth, --min, --metric,
 * --fold-libs). */
struct shorthand {
	unsigned limit, depth;
	int total, fold;
	const char *min, *metric;
};

static int shorthand_opt(const char *arg, const char *val, void *ctx)
{
	struct shorthand *sh = ctx;
	char *end;
	unsigned long v;

	if (strcmp(arg, "--total") == 0 || strcmp(arg, "--fold-libs") == 0) {
		*(arg[2] == 't' ? &sh->total : &sh->fold) = 1;
		return 0;
	}
	if (!val)
		return -1;
	if (strpbrk(val, "&=%#+ "))
		return 2; /* the values go into a query string verbatim */
	if (strcmp(arg, "--min") == 0)
		sh->min = val;
	else if (strcmp(arg, "--metric") == 0)
		sh->metric = val;
	else if (strcmp(arg, "--limit") == 0 || strcmp(arg, "--depth") == 0) {
		v = strtoul(val, &end, 10);
		if (*end || !*val || v > 100000)
			return 2;
		*(strcmp(arg, "--limit") == 0 ? &sh->limit : &sh->depth) = (unsigned)v;
	} else
		return -1;
	return 1;
}

/* Parses a shorthand's arguments and opens its file: returns the session, or NULL with
 * *@status set (0 after --help, 2 on errors). */
static struct dp_session *shorthand_open(int argc, char **argv, const char *usage,
					 const char *names, struct shorthand *sh,
					 struct dp_cli_report_opts *o, int *status)
{
	struct dp_session *s;
	int rc;

	o->extra = shorthand_opt;
	o->extra_ctx = sh;
	rc = dp_cli_report_args(argc, argv, usage, names, o);
	if (rc >= 0) {
		*status = rc;
		return NULL;
	}
	if (o->n_rest) {
		*status = dp_cli_usage_error(argv[0], usage, "unexpected argument: ", o->rest[0]);
		return NULL;
	}
	s = dp_cli_open(o);
	*status = 2;
	return s;
}

int dp_cmd_top(int argc, char **argv)
{
	struct shorthand sh = {.limit = 20};
	struct dp_cli_report_opts o;
	struct dp_session *s;
	unsigned n;
	char q[256];
	int rc = 0, json;

	s = shorthand_open(argc, argv, top_usage, "--limit --total --fold-libs", &sh, &o, &rc);
	if (!s)
		return rc;
	n = sh.limit ? sh.limit : 1;
	json = o.format == DP_FMT_JSON; /* two reports: one JSON array of them */
	rc = 0;
	if (json)
		fputs("[\n", stdout);
	if (dp_cli_has_samples(s) || sh.total) {
		snprintf(q, sizeof(q), "page=top&metric=%s&scope=%s&limit=1-%u%s",
			 dp_cli_has_samples(s) ? "time" : "callseqs", sh.total ? "total" : "self",
			 n, sh.fold ? "&libs=fold" : "");
		rc = report_print(s, &o, q);
		if (rc == 0)
			fputs(json ? ",\n" : "\n", stdout);
	}
	if (rc == 0) {
		snprintf(q, sizeof(q), "page=top&metric=calls&limit=1-%u%s", n,
			 sh.fold ? "&libs=fold" : "");
		rc = report_print(s, &o, q);
	}
	if (json)
		fputs("]\n", stdout);
	dp_session_free(s);
	return rc;
}

int dp_cmd_tree(int argc, char **argv)
{
	struct shorthand sh = {.min = "1"};
	struct dp_cli_report_opts o;
	struct dp_session *s;
	char q[512];
	int rc = 0;

	s = shorthand_open(argc, argv, tree_usage, "--depth --min --metric --fold-libs", &sh, &o,
			   &rc);
	if (!s)
		return rc;
	if (!sh.metric)
		sh.metric = dp_cli_has_samples(s) ? "time" : "callseqs";
	snprintf(q, sizeof(q), "page=flame&metric=%.32s&min=%.32s&depth=%u%s", sh.metric, sh.min,
		 sh.depth, sh.fold ? "&libs=fold" : "");
	rc = report_print(s, &o, q);
	dp_session_free(s);
	return rc;
}
