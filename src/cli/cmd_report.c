/*
 * cli/cmd_report.c - `deepprof report`, and its shorthands `deepprof top` and
 * `deepprof tree`: open a data file in a session, answer one query (or two for top) and
 * print the page. The pages are made by src/front (query -> report -> display -> text,
 * JSON or HTML); this file parses options, prints and chooses the exit status.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../front/session.h"
#include "cmd_common.h"
#include "commands.h"

static const char report_usage[] =
	"usage: deepprof report [OPTIONS] FILE [QUERY]\n"
	"\n"
	"Answer one query about a deepprof data file. QUERY is a URL query string,\n"
	"the same as in the web server: page=NAME&param=value&... (default: the menu).\n"
	"Pages: menu root action clique proc callers modules module top site threads\n"
	"flame flame_callers sandwich dump_ps dump_pd dump_css dump_csd dump_clique;\n"
	"see docs/QUERIES.md. Examples:\n"
	"  deepprof report Deep.data 'page=top&metric=time&limit=1-20'\n"
	"  deepprof report Deep.data 'page=proc&name=main'\n"
	"  deepprof report --format=json Deep.data 'page=clique&id=3'\n"
	"\n"
	"  --format=text|json|html  output format (default text)\n"
	"  --contour FILE           contour exclusion file (default: FILE's .contour)\n"
	"  --width N                text width (default: $COLUMNS or 100)\n"
	"  --base BASE              compare with the same page of profile BASE: base, new,\n"
	"                           change and relative change in every table, the change\n"
	"                           of each node in the flame tree (docs/MERGE.md)\n"
	"  --absolute               with --base: time in seconds, not as a share of each run\n"
	"  -h, --help               show this help\n"
	"\n"
	"Exit status: 0 success; 2 bad usage, bad query or unreadable file; 1 output error.\n";

static const char top_usage[] =
	"usage: deepprof top [OPTIONS] FILE\n"
	"\n"
	"The procedures that cost most: by time (when the profile has samples), then by\n"
	"calls. Shorthand for deepprof report FILE 'page=top&metric=...&limit=1-N';\n"
	"with --format=json, a JSON array of the two reports.\n"
	"\n"
	"  --limit N                how many procedures (default 20)\n"
	"  --total                  rank by total cost (self + callees), not self\n"
	"  --fold-libs              time in libraries as their callers' own (libs=fold)\n"
	"  --format, --contour, --width, --base, --absolute   as for deepprof report\n"
	"  -h, --help               show this help\n";

static const char tree_usage[] =
	"usage: deepprof tree [OPTIONS] FILE\n"
	"\n"
	"The calling-context tree, recursion folded into cliques, as an indented tree\n"
	"with costs. Shorthand for deepprof report FILE 'page=flame&depth=N&min=PCT'.\n"
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
	} else {
		/* a JSON error is the document alone, for the programs that asked for JSON */
		if (strcmp(ans.content_type, "application/json") != 0)
			fprintf(stderr, "deepprof: %s (query '%s'):\n", o->file, query);
		fwrite(ans.body.data, 1, ans.body.len, stderr);
		status = 2;
	}
	dp_buf_release(&ans.body);
	if (fflush(stdout) != 0 && status == 0)
		status = 1;
	return status;
}

int dp_cmd_report(int argc, char **argv)
{
	struct dp_cli_report_opts o;
	struct dp_session *s;
	const char *query;
	int rc;

	rc = dp_cli_report_args(argc, argv, report_usage, NULL, &o);
	if (rc >= 0)
		return rc;
	if (o.n_rest > 1)
		return dp_cli_usage_error(argv[0], report_usage,
					  "unexpected argument: ", o.rest[1]);
	query = o.n_rest ? o.rest[0] : "";
	if (query[0] == '?')
		query++;
	s = dp_cli_open(&o);
	if (!s)
		return 2;
	rc = report_print(s, &o, query);
	dp_session_free(s);
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
	if (dp_cli_has_samples(s)) {
		snprintf(q, sizeof(q), "page=top&metric=time&scope=%s&limit=1-%u%s",
			 sh.total ? "total" : "self", n, sh.fold ? "&libs=fold" : "");
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
