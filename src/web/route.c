/*
 * web/route.c - the built-in server's router: checks the method, the length and the path
 * of a request, splits its query string with the request core (front/request.h), picks
 * the data file from file=N, passes the rest to dp_session_answer() (a page) or
 * dp_session_export() (download=FMT: the page's subtree as a file), and makes the
 * server's own pages (the index of several files, and the 4xx pages for what never
 * reaches the session). No HTTP library here: see web_int.h.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "../core/err.h"
#include "../core/json.h"
#include "../display/display.h"
#include "../front/request.h"
#include "../front/session.h"
#include "web_int.h"

int dp_web_router_init(struct dp_web_router *rt, struct dp_session *s)
{
	rt->s = s;
	if (pthread_mutex_init(&rt->lock, NULL) != 0)
		return dp_error(DP_EIO, "cannot create the web server's lock");
	return 0;
}

void dp_web_router_release(struct dp_web_router *rt)
{
	pthread_mutex_destroy(&rt->lock);
}

void dp_web_reply_release(struct dp_web_reply *r)
{
	dp_buf_release(&r->body);
}

static void page_head(struct dp_buf *b, const char *title)
{
	dp_html_page_start(b, NULL, title,
			   "body{font-family:sans-serif;margin:2em;max-width:60em}"
			   "li{margin:.3em 0}.warn{color:#a50}");
	dp_buf_adds(b, "<h1>");
	dp_html_escape(b, title);
	dp_buf_adds(b, "</h1>\n");
}

/* The list of files, as links, for the index and the "which file?" pages. */
static void file_list(struct dp_buf *b, const struct dp_session *s)
{
	uint32_t i, n = dp_session_n_files(s);

	dp_buf_adds(b, "<ul>\n");
	for (i = 0; i < n; i++) {
		const char *w = dp_session_warnings(s, i);

		dp_buf_addf(b, "<li><a href=\"/?file=%u\">", i);
		dp_html_escape(b, dp_session_path(s, i));
		dp_buf_adds(b, "</a>");
		if (w && *w) {
			dp_buf_adds(b, " <span class=\"warn\">");
			dp_html_escape(b, w);
			dp_buf_adds(b, "</span>");
		}
		dp_buf_adds(b, "</li>\n");
	}
	dp_buf_adds(b, "</ul>\n");
}

/* The index in JSON: {"files": [{"file": N, "path": P, "warnings": W}, ...]}. */
static int index_json(struct dp_buf *b, const struct dp_session *s)
{
	struct dp_json j;

	dp_json_init(&j, b, 2); /* a file a line */
	dp_json_begin_object(&j);
	dp_json_key(&j, "files");
	dp_json_begin_array(&j);
	for (uint32_t i = 0; s && i < dp_session_n_files(s); i++) {
		dp_json_begin_object(&j);
		dp_json_kv_u64(&j, "file", i);
		dp_json_kv_str(&j, "path", dp_session_path(s, i));
		dp_json_kv_str(&j, "warnings", dp_session_warnings(s, i));
		dp_json_end_object(&j);
	}
	dp_json_end_array(&j);
	dp_json_end_object(&j);
	dp_buf_addc(b, '\n');
	return dp_buf_error(b);
}

/* A page of the server's own: @status and a message; in HTML, the list of files too
 * (the index, and the pages that ask which file), in JSON and text the request core's
 * error body. */
static int own_page(struct dp_web_reply *r, const struct dp_session *s, int status,
		    enum dp_format fmt, const char *msg)
{
	char title[64];

	r->status = status;
	if (fmt != DP_FMT_HTML && status != 200)
		return dp_error_body(&r->body, status, msg, NULL, fmt, NULL, &r->content_type);
	if (fmt == DP_FMT_TEXT) {
		r->content_type = dp_format_content_type(fmt);
		dp_buf_addf(&r->body, "%s\n", msg);
		for (uint32_t i = 0; s && i < dp_session_n_files(s); i++)
			dp_buf_addf(&r->body, "file=%u\t%s\n", i, dp_session_path(s, i));
		return dp_buf_error(&r->body);
	}
	if (fmt == DP_FMT_JSON) {
		r->content_type = dp_format_content_type(fmt);
		return index_json(&r->body, s);
	}
	r->content_type = dp_format_content_type(fmt);
	if (status == 200)
		snprintf(title, sizeof(title), "Profiles");
	else
		snprintf(title, sizeof(title), "%d %s", status, dp_http_reason(status));
	page_head(&r->body, title);
	dp_buf_adds(&r->body, "<p>");
	dp_html_escape(&r->body, msg);
	dp_buf_adds(&r->body, "</p>\n");
	if (s && dp_session_n_files(s))
		file_list(&r->body, s);
	else if (status != 200)
		dp_buf_adds(&r->body, "<p><a href=\"/\">Start page</a></p>\n");
	dp_buf_adds(&r->body, "</body></html>\n");
	return dp_buf_error(&r->body);
}

/* Which file the request is about: 0..n-1, or -1 after making the reply. */
static long pick_file(struct dp_web_reply *r, const struct dp_session *s,
		      const struct dp_request *q, int *rc)
{
	uint32_t n = dp_session_n_files(s);
	char msg[160];
	unsigned long v = 0;
	const char *p;

	if (!q->has_file) {
		if (n == 1)
			return 0;
		if (q->n_query == 0) /* nothing asked but a format: the index in it */
			*rc = own_page(r, s, 200, q->fmt,
				       n ? "The profiles this server shows:"
					 : "This server shows no profiles.");
		else
			*rc = own_page(
				r, s, 400, q->fmt,
				"This server shows several profiles: say which with file=N.");
		return -1;
	}
	if (strlen(q->file) > 15) {
		*rc = own_page(r, s, 400, q->fmt,
			       "file= is malformed: it is the number of a profile");
		return -1;
	}
	for (p = q->file; *p >= '0' && *p <= '9' && p - q->file < 9; p++)
		v = v * 10 + (unsigned long)(*p - '0');
	if (*p || p == q->file || v >= n) {
		snprintf(msg, sizeof(msg),
			 "No file \"%.16s\" here: file= is the number (0 to %u) "
			 "of one of the profiles this server shows.",
			 q->file, n ? n - 1 : 0);
		*rc = own_page(r, s, 404, q->fmt, msg);
		return -1;
	}
	return (long)v;
}

/* A basename for page titles. */
static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash && slash[1] ? slash + 1 : path;
}

/* Answers the query @q about file @i through the session. */
static int session_page(struct dp_web_router *rt, struct dp_web_reply *r, uint32_t i,
			const struct dp_request *q)
{
	struct dp_render_opts opts = {0};
	struct dp_answer a;
	char prefix[32];
	int rc;

	snprintf(prefix, sizeof(prefix), "/?file=%u&", i);
	opts.link_prefix = prefix;
	opts.asset_prefix = "/?";
	opts.title = base_name(dp_session_path(rt->s, i));
	opts.downloads = dp_session_downloads;
	pthread_mutex_lock(&rt->lock);
	if (q->has_download)
		rc = dp_session_export(rt->s, i, dp_buf_cstr(&q->rest), q->download, DP_FMT_HTML,
				       &opts, &a);
	else
		rc = dp_session_answer(rt->s, i, dp_buf_cstr(&q->rest), DP_FMT_HTML, &opts, &a);
	pthread_mutex_unlock(&rt->lock);
	if (rc < 0)
		return own_page(r, NULL, 500, q->fmt, dp_errmsg());
	if (a.filename[0]) /* a download: the browser saves it under this name */
		snprintf(r->disposition, sizeof(r->disposition), "attachment; filename=\"%s\"",
			 a.filename);
	r->status = a.status;
	r->content_type = a.content_type;
	dp_buf_release(&r->body);
	r->body = a.body; /* the session's buffer moves into the reply */
	return 0;
}

/* The file the pages load (asset=NAME, dp_html_asset()), or the 404 page. */
static int asset_page(struct dp_web_reply *r, const struct dp_session *s,
		      const struct dp_request *q)
{
	size_t len;
	const char *body = dp_html_asset(q->asset, &len, &r->content_type);

	if (!body)
		return own_page(r, s, 404, q->fmt,
				"There is no such file: asset= names a file "
				"the pages load (deepprof.js).");
	r->status = 200;
	r->cache = true;
	return dp_buf_add(&r->body, body, len);
}

int dp_web_route(struct dp_web_router *rt, const char *method, const char *uri, size_t uri_len,
		 struct dp_web_reply *r)
{
	struct dp_request q;
	enum dp_format fmt = DP_FMT_HTML;
	const char *qs = uri ? strchr(uri, '?') : NULL;
	size_t path_len;
	long file;
	int rc = 0;

	memset(r, 0, sizeof(*r));
	dp_buf_init(&r->body, DP_WEB_BODY_MAX);
	if (qs && uri_len <= DP_WEB_URI_MAX)
		fmt = dp_request_format(qs + 1, fmt); /* first: every page is in it */
	if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
		r->allow = "GET, HEAD";
		return own_page(r, NULL, 405, fmt,
				"This server only answers GET and HEAD requests.");
	}
	if (!uri || uri_len > DP_WEB_URI_MAX)
		return own_page(r, NULL, 414, fmt, "The request's URL is too long.");
	path_len = qs ? (size_t)(qs - uri) : strlen(uri);
	if (path_len == 12 && strncmp(uri, "/favicon.ico", 12) == 0) {
		r->status = 204; /* no icon, and no error in the browser's console */
		r->content_type = "text/plain; charset=utf-8";
		return 0;
	}
	if (path_len != 1 || uri[0] != '/')
		return own_page(r, rt->s, 404, fmt,
				"There is no such page: every page of this server is at / "
				"with a query string (/?file=N&page=...).");
	if (dp_request_split(qs ? qs + 1 : NULL, fmt, DP_WEB_URI_MAX, &q) != 0)
		rc = own_page(r, q.status == 414 ? NULL : rt->s, q.status, q.fmt, q.msg);
	else if (q.has_asset)
		rc = asset_page(r, rt->s, &q);
	else if ((file = pick_file(r, rt->s, &q, &rc)) >= 0)
		rc = session_page(rt, r, (uint32_t)file, &q);
	dp_request_release(&q);
	return rc;
}
