/*
 * cli/cmd_diff.c - `deepprof diff [--format=text|json|html] [--metric=M] [--absolute]
 * [--limit N] BASE NEW`: compare two profiles per procedure and per context
 * (src/analysis/diff.c computes; this file parses the command line and prints text or
 * JSON; diff_html.c writes HTML).
 */
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analysis/diff.h"
#include "../core/buf.h"
#include "../core/err.h"
#include "../core/json.h"
#include "../format/reader.h"
#include "commands.h"
#include "diff_html.h"

static const char diff_usage[] =
	"usage: deepprof diff [--format=text|json|html] [--metric=M] [--absolute]\n"
	"                     [--limit N] BASE NEW\n"
	"\n"
	"Compare two profiles procedure by procedure, then calling context by context: the\n"
	"self cost of each in BASE and in NEW, the change and the relative change, the one\n"
	"that changed most first. Procedures are matched by name and source file, contexts\n"
	"by their chain of procedures from the root; those in one profile only are marked.\n"
	"Time is compared as a share of each run's total samples. For the same comparison\n"
	"on every page of the web UI, see deepprof serve --base.\n"
	"\n"
	"  --format=text|json|html  output format (default text; JSON in docs/MERGE.md;\n"
	"                      HTML: one page with both tables, changes tinted)\n"
	"  --metric=M          time (default), calls, callseqs, allocs or bytes\n"
	"  --absolute          compare time in seconds instead of shares\n"
	"  --limit N           print at most N procedures and N contexts (text and HTML\n"
	"                      default 40, JSON all; 0 = all)\n"
	"  -h, --help          show this help\n"
	"\n"
	"Exit status: 0 success, 2 bad usage or an unreadable file (named).\n";

static const char *const metric_names[] = {"time", "calls", "callseqs", "allocs", "bytes"};

struct diff_opts {
	int json, html, absolute;
	long limit;
	enum dp_diff_metric metric;
	const char *base, *new_;
};

static int diff_usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "deepprof diff: %s%s\n", what, arg);
	fputs(diff_usage, stderr);
	return 2;
}

static const char *side_name(enum dp_diff_side s)
{
	return s == DP_DIFF_BOTH ? "both" : s == DP_DIFF_ONLY_BASE ? "base" : "new";
}

/* One value as text: a share in percent, seconds, or a count; @sign: with its sign. */
static void put_value(struct dp_buf *b, const struct diff_opts *o, double v, int sign)
{
	if (o->metric == DP_DIFF_TIME && !o->absolute)
		dp_buf_addf(b, sign ? "%+10.1f%%" : "%10.1f%%", v * 100.0);
	else if (o->metric == DP_DIFF_TIME)
		dp_buf_addf(b, sign ? "%+10.3fs" : "%10.3fs", v / 1e9);
	else
		dp_buf_addf(b, sign ? "%+11.0f" : "%11.0f", v);
}

/* One table of the @n rows kept of @n_all; contexts print their chain. */
static void text_rows(struct dp_buf *b, const struct dp_diff *d, const struct diff_opts *o,
		      const struct dp_diff_row *rows, uint32_t n, uint32_t n_all, const char *what)
{
	struct dp_buf path;

	dp_buf_init(&path, (size_t)1 << 20);
	dp_buf_addf(b, "%11s%11s%11s%10s  %s\n", "base", "new", "change", "relative", what);
	for (uint32_t i = 0; i < n; i++) {
		const struct dp_diff_row *r = &rows[i];

		put_value(b, o, r->base, 0);
		put_value(b, o, r->new_, 0);
		put_value(b, o, r->change, 1);
		if (isnan(r->rel))
			dp_buf_addf(b, "%10s", "-");
		else
			dp_buf_addf(b, "%+9.1f%%", r->rel * 100.0);
		if (r->ctx)
			dp_buf_addf(b, "  %s", dp_diff_ctx_path(d, r->ctx, &path));
		else
			dp_buf_addf(b, "  %s", r->name);
		if (!r->ctx && r->file[0])
			dp_buf_addf(b, " (%s:%" PRIu32 ")", r->file, r->line);
		if (r->side != DP_DIFF_BOTH)
			dp_buf_addf(b, " [only in %s]", side_name(r->side));
		dp_buf_addc(b, '\n');
	}
	if (n < n_all)
		dp_buf_addf(b, "(%" PRIu32 " more; --limit 0 shows all)\n", n_all - n);
	dp_buf_release(&path);
}

static void print_text(struct dp_buf *b, const struct dp_diff *d, const struct diff_opts *o)
{
	dp_buf_addf(b, "Differences in %s%s, by change in self cost\n", metric_names[o->metric],
		    o->metric != DP_DIFF_TIME ? ""
		    : o->absolute	      ? " (CPU seconds)"
					      : " (share of each run's samples)");
	dp_buf_addf(b, "  base  %s (%" PRIu64 " in all)\n  new   %s (%" PRIu64 " in all)\n\n",
		    o->base, d->base_total, o->new_, d->new_total);
	text_rows(b, d, o, d->rows, d->n_rows, d->n_rows_all, "procedure");
	dp_buf_addc(b, '\n');
	text_rows(b, d, o, d->ctx_rows, d->n_ctx_rows, d->n_ctx_rows_all, "context");
}

/* One JSON array of rows under @key; contexts carry their chain as "path". */
static void json_rows(struct dp_json *j, const struct dp_diff *d, const struct dp_diff_row *rows,
		      uint32_t n, const char *key)
{
	struct dp_buf path;

	dp_buf_init(&path, (size_t)1 << 20);
	dp_json_key(j, key);
	dp_json_begin_array(j);
	for (uint32_t i = 0; i < n; i++) {
		const struct dp_diff_row *r = &rows[i];

		dp_json_begin_object(j);
		if (r->ctx)
			dp_json_kv_str(j, "path", dp_diff_ctx_path(d, r->ctx, &path));
		dp_json_kv_str(j, "name", r->name);
		dp_json_kv_str(j, "file", r->file);
		if (!r->ctx)
			dp_json_kv_u64(j, "line", r->line);
		dp_json_kv_str(j, "side", side_name(r->side));
		dp_json_kv_u64(j, "base_raw", r->base_raw);
		dp_json_kv_u64(j, "new_raw", r->new_raw);
		dp_json_kv_double(j, "base", r->base);
		dp_json_kv_double(j, "new", r->new_);
		dp_json_kv_double(j, "change", r->change);
		dp_json_kv_double(j, "relative", r->rel);
		dp_json_end_object(j);
	}
	dp_json_end_array(j);
	dp_buf_release(&path);
}

static void print_json(struct dp_buf *b, const struct dp_diff *d, const struct diff_opts *o)
{
	struct dp_json j;

	dp_json_init(&j, b, 0);
	dp_json_begin_object(&j);
	dp_json_kv_str(&j, "base", o->base);
	dp_json_kv_str(&j, "new", o->new_);
	dp_json_kv_str(&j, "metric", metric_names[o->metric]);
	dp_json_kv_str(&j, "unit",
		       o->metric != DP_DIFF_TIME ? "count"
		       : o->absolute		 ? "ns"
						 : "share");
	dp_json_kv_u64(&j, "base_total", d->base_total);
	dp_json_kv_u64(&j, "new_total", d->new_total);
	json_rows(&j, d, d->rows, d->n_rows, "procedures");
	json_rows(&j, d, d->ctx_rows, d->n_ctx_rows, "contexts");
	dp_json_end_object(&j);
	dp_buf_addc(b, '\n');
}

static int parse(int argc, char **argv, struct diff_opts *o)
{
	int i;
	char *end;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(diff_usage, stdout);
			return 0;
		}
		if (strcmp(a, "--format=json") == 0)
			o->json = 1, o->html = 0;
		else if (strcmp(a, "--format=text") == 0)
			o->json = 0, o->html = 0;
		else if (strcmp(a, "--format=html") == 0)
			o->json = 0, o->html = 1;
		else if (strncmp(a, "--metric=", 9) == 0 &&
			 dp_diff_metric_parse(a + 9, &o->metric) == 0)
			;
		else if (strcmp(a, "--absolute") == 0)
			o->absolute = 1;
		else if (strcmp(a, "--limit") == 0 && i + 1 < argc &&
			 (o->limit = strtol(argv[++i], &end, 10)) >= 0 && !*end && end != argv[i])
			;
		else
			return diff_usage_error("bad option: ", a);
	}
	if (argc - i != 2)
		return diff_usage_error("need two files, BASE and NEW", "");
	o->base = argv[i];
	o->new_ = argv[i + 1];
	return -1;
}

/* Reading one file, on a thread of its own: the error message is thread-local, so it is
 * copied for the main thread. */
struct read_job {
	const char *path;
	struct dp_profile p;
	int rc;
	char msg[1024];
};

static void *read_job_run(void *arg)
{
	struct read_job *j = arg;

	j->rc = dp_read_file(j->path, &j->p);
	if (j->rc < 0)
		snprintf(j->msg, sizeof(j->msg), "%s", dp_errmsg());
	return NULL;
}

/* Read BASE on a second thread while NEW is read on this one (each file's reading is one
 * pass; two large profiles load in the time of one). Returns 0, or 2 with the message
 * printed (both profiles released). */
static int read_both(struct read_job *base, struct read_job *new_)
{
	pthread_t th;
	int par = pthread_create(&th, NULL, read_job_run, base) == 0;

	read_job_run(new_);
	if (!par)
		read_job_run(base);
	else
		pthread_join(th, NULL);
	if (base->rc == 0 && new_->rc == 0)
		return 0;
	fprintf(stderr, "deepprof: %s\n", base->rc < 0 ? base->msg : new_->msg);
	if (base->rc == 0)
		dp_profile_release(&base->p);
	if (new_->rc == 0)
		dp_profile_release(&new_->p);
	return 2;
}

/* dp_cmd_diff - `deepprof diff`; returns the exit status (see commands.h). */
int dp_cmd_diff(int argc, char **argv)
{
	struct diff_opts o = {.limit = -1, .metric = DP_DIFF_TIME};
	struct read_job jb = {0}, jn = {0};
	struct dp_diff d;
	struct dp_buf out;
	int rc = parse(argc, argv, &o);

	if (rc >= 0)
		return rc;
	if (o.limit < 0)
		o.limit = o.json ? 0 : 40;
	jb.path = o.base;
	jn.path = o.new_;
	if (read_both(&jb, &jn))
		return 2;
	rc = dp_diff_procs(&jb.p, &jn.p, o.metric, o.absolute,
			   o.limit > UINT32_MAX ? 0 : (uint32_t)o.limit, &d);
	dp_buf_init(&out, (size_t)1 << 30);
	if (rc == 0) {
		struct dp_diff_page pg = {o.base, o.new_, metric_names[o.metric],
					  o.metric != DP_DIFF_TIME ? 0
					  : o.absolute		   ? 2
								   : 1};

		if (o.json)
			print_json(&out, &d, &o);
		else if (o.html)
			dp_diff_html(&out, &d, &pg);
		else
			print_text(&out, &d, &o);
		rc = dp_buf_error(&out) ? dp_error(DP_ENOMEM, "out of memory printing") : 0;
	}
	if (rc == 0)
		fwrite(out.data, 1, out.len, stdout);
	else
		fprintf(stderr, "deepprof: %s\n", dp_errmsg());
	dp_buf_release(&out);
	if (rc == 0)
		dp_diff_release(&d);
	dp_profile_release(&jb.p);
	dp_profile_release(&jn.p);
	return rc < 0 ? 2 : 0;
}
