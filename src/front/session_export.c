/*
 * front/session_export.c - downloads: the export (src/export) of the subtree a page is
 * about, from the session's already analysed views, as dp_session_export() says. The
 * front ends only route the request here (download=FMT) and send the answer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../export/export.h"
#include "request.h"
#include "session_int.h"

#ifndef DP_VERSION
#define DP_VERSION "unknown"
#endif

#define DP_EXPORT_BODY_MAX ((size_t)256 << 20) /* as a page's body */

const char *const dp_session_downloads[] = {"callgrind", "pprof", "folded", "speedscope",
					    "dot",	 "json",  NULL};

/* The Content-Type and file name extension of each export format. */
static const struct {
	const char *ctype, *prefix, *ext;
} dp_dl_kinds[DP_EXPORT_COUNT] = {
	[DP_EXPORT_CALLGRIND] = {"text/plain; charset=utf-8", "callgrind.out.", ""},
	[DP_EXPORT_PPROF] = {"application/octet-stream", "", ".pb.gz"},
	[DP_EXPORT_FOLDED] = {"text/plain; charset=utf-8", "", ".folded"},
	[DP_EXPORT_SPEEDSCOPE] = {"application/json", "", ".speedscope.json"},
	[DP_EXPORT_DOT] = {"text/vnd.graphviz; charset=utf-8", "", ".dot"},
	[DP_EXPORT_JSON] = {"application/json", "", ".json"},
};

static int dp_dl_write(void *arg, const void *data, size_t len)
{
	struct dp_buf *b = arg;

	dp_buf_add(b, data, len);
	return dp_buf_error(b) ? dp_error(DP_ENOMEM, "the export does not fit in memory") : 0;
}

/* The export's root from query @q; -DP_EUSAGE (message set) for a procedure by name. */
static int dp_dl_root(const struct dp_query *q, struct dp_export_opts *o)
{
	o->per_thread = q->prefs.view == DP_VIEW_THREADS;
	o->root = DP_EXPORT_ALL;
	if (q->page != DP_PAGE_CLIQUE && q->page != DP_PAGE_PROC)
		return 0;
	if (!q->id)
		return dp_error(DP_EUSAGE, "a download of page=%s needs id=N",
				dp_query_page_name(q->page));
	o->root = q->page == DP_PAGE_CLIQUE ? DP_EXPORT_CLIQUE : DP_EXPORT_PROC;
	o->id = q->id;
	return 0;
}

/* out->filename: the data file's base name without ".data", the subtree, the extension;
 * bytes other than [A-Za-z0-9._-] become '_' (the name goes into a header). */
static void dp_dl_filename(struct dp_answer *out, const char *path, const struct dp_export_opts *o)
{
	const char *base = strrchr(path, '/');
	char stem[64], sub[32] = "";
	size_t n;

	base = base && base[1] ? base + 1 : path;
	n = strlen(base);
	if (n > 5 && strcmp(base + n - 5, ".data") == 0)
		n -= 5;
	if (n >= sizeof(stem))
		n = sizeof(stem) - 1;
	for (size_t k = 0; k < n; k++) {
		char c = base[k];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';

		stem[k] = ok ? c : '_';
	}
	stem[n] = '\0';
	if (o->root != DP_EXPORT_ALL)
		snprintf(sub, sizeof(sub), "-%s%u", o->root == DP_EXPORT_CLIQUE ? "clique" : "proc",
			 o->id);
	snprintf(out->filename, sizeof(out->filename), "%s%s%s%s%s", dp_dl_kinds[o->format].prefix,
		 stem[0] ? stem : "profile", sub, o->per_thread ? "-threads" : "",
		 dp_dl_kinds[o->format].ext);
}

/* Fill @out with an error answer: @status and the message of dp_errmsg(). */
static int dp_dl_error(struct dp_answer *out, int status, const struct dp_query *q,
		       enum dp_format fmt, const struct dp_render_opts *opts)
{
	dp_buf_reset(&out->body);
	out->status = status;
	out->filename[0] = '\0';
	return dp_error_body(&out->body, status, dp_errmsg(), q, fmt, opts, &out->content_type);
}

/* The export of file @f as @o says, into @out; the view is made if needed. */
static int dp_dl_run(struct dp_sfile *f, struct dp_export_opts *o, const struct dp_query *q,
		     enum dp_format fmt, const struct dp_render_opts *opts, struct dp_answer *out)
{
	int rc = dp_sfile_prepare(f, &q->prefs);

	if (rc == 0)
		rc = dp_export(dp_sfile_pick(f, &q->prefs)->a, o, dp_dl_write, &out->body);
	if (rc == -DP_ENOMEM)
		return rc;
	if (rc < 0)
		return dp_dl_error(out, rc == -DP_EUSAGE ? 400 : 500, q, fmt, opts);
	out->status = 200;
	out->content_type = dp_dl_kinds[o->format].ctype;
	dp_dl_filename(out, f->path, o);
	return 0;
}

int dp_session_export(struct dp_session *s, uint32_t i, const char *query, const char *format,
		      enum dp_format fmt, const struct dp_render_opts *opts, struct dp_answer *out)
{
	struct dp_export_opts o;
	struct dp_query *q;
	bool parsed;
	int rc;

	memset(out, 0, sizeof(*out));
	dp_buf_init(&out->body, DP_EXPORT_BODY_MAX);
	fmt = dp_request_format(query, fmt); /* first: every error is in it */
	if (i >= s->n) {
		dp_error(DP_ENOENT, "no such file");
		return dp_dl_error(out, 404, NULL, fmt, opts);
	}
	q = malloc(sizeof(*q));
	if (!q)
		return dp_error(DP_ENOMEM, "out of memory answering a query");
	dp_export_opts_init(&o);
	o.version = "deepprof " DP_VERSION;
	rc = dp_query_parse(query ? query : "", s->files[i]->has_time, q);
	parsed = rc == 0;
	if (rc == 0)
		rc = dp_export_format_parse(format ? format : "", &o.format);
	if (rc == 0 && o.format != DP_EXPORT_JSON) /* json: always the whole file */
		rc = dp_dl_root(q, &o);
	if (rc == 0)
		rc = dp_dl_run(s->files[i], &o, q, fmt, opts, out);
	else if (rc != -DP_ENOMEM)
		rc = dp_dl_error(out, 400, parsed ? q : NULL, fmt, opts);
	free(q);
	return rc;
}
