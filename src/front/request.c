/*
 * front/request.c - the request core (request.h): format= read first, file= split off,
 * and every error body in the format asked for.
 */
#include "request.h"

#include <stdio.h>
#include <string.h>

#include "../core/err.h"
#include "../core/json.h"
#include "../core/url.h"
#include "../display/display.h"

/* The format named by the decoded value @v, or -1. */
static int format_named(const char *v)
{
	static const char *const names[] = {
		[DP_FMT_TEXT] = "text", [DP_FMT_JSON] = "json", [DP_FMT_HTML] = "html"};

	for (int f = 0; f < (int)(sizeof(names) / sizeof(names[0])); f++)
		if (strcmp(v, names[f]) == 0)
			return f;
	return -1;
}

/* Whether parameter @p (@len bytes, "key=value") has the name @key; then *@v and *@vlen
 * are its (still encoded) value. */
static bool param_is(const char *p, size_t len, const char *key, const char **v, size_t *vlen)
{
	const char *eq = memchr(p, '=', len);
	size_t klen = eq ? (size_t)(eq - p) : len;
	char name[16];

	if (dp_url_decode(p, klen, name, sizeof(name), 0, NULL) < 0 || strcmp(name, key) != 0)
		return false;
	*v = eq ? eq + 1 : p + len;
	*vlen = (size_t)(p + len - *v);
	return true;
}

/* The next parameter of *@qs (skipping empty ones): its start, with its length in *@len;
 * NULL at the end. Advances *@qs past it. */
static const char *next_param(const char **qs, size_t *len)
{
	while (*qs && **qs) {
		const char *p = *qs;
		size_t n = strcspn(p, "&");

		*qs = p + n + (p[n] ? 1 : 0);
		if (n) {
			*len = n;
			return p;
		}
	}
	return NULL;
}

enum dp_format dp_request_format(const char *qs, enum dp_format def)
{
	const char *p, *v;
	size_t len, vlen;
	char val[8];

	while ((p = next_param(&qs, &len)) != NULL) {
		int f;

		if (!param_is(p, len, "format", &v, &vlen) ||
		    dp_url_decode(v, vlen, val, sizeof(val), 0, NULL) < 0)
			continue;
		f = format_named(val);
		if (f >= 0)
			return (enum dp_format)f;
	}
	return def;
}

static int refuse(struct dp_request *r, int status, const char *msg)
{
	if (!r->status) {
		r->status = status;
		snprintf(r->msg, sizeof(r->msg), "%s", msg);
	}
	return r->status;
}

/* Files the value @v (@vlen bytes, encoded) of a file= parameter into @r. */
static void file_param(struct dp_request *r, const char *v, size_t vlen)
{
	char val[DP_REQUEST_FILE_MAX + 1];
	char *tmp = r->has_file ? val : r->file;
	long n = dp_url_decode(v, vlen, tmp, DP_REQUEST_FILE_MAX + 1, 0, NULL);

	if (n == DP_URL_NO_ROOM) {
		refuse(r, 400, "file= is too long");
	} else if (n < 0) {
		refuse(r, 400, "file= is malformed (a bad %-escape or a NUL byte)");
	} else if (r->has_file && strcmp(r->file, tmp) != 0) {
		refuse(r, 400, "file= is given twice with different values");
	}
	r->has_file = true;
}

int dp_request_split(const char *qs, enum dp_format def, size_t rest_max, struct dp_request *r)
{
	const char *p, *v;
	size_t len, vlen;

	memset(r, 0, sizeof(*r));
	dp_buf_init(&r->rest, rest_max + 1); /* + its NUL */
	r->fmt = dp_request_format(qs, def);
	r->fmt_given = dp_request_format(qs, (enum dp_format) - 1) != (enum dp_format) - 1;
	while ((p = next_param(&qs, &len)) != NULL) {
		if (param_is(p, len, "file", &v, &vlen)) {
			file_param(r, v, vlen); /* the session never sees file= */
			continue;
		}
		if (param_is(p, len, "download", &v, &vlen)) {
			r->has_download = true; /* the session never sees download= either */
			if (dp_url_decode(v, vlen, r->download, sizeof(r->download), 0, NULL) < 0)
				r->download[0] = '\0';
			continue;
		}
		if (param_is(p, len, "asset", &v, &vlen)) {
			r->has_asset = true; /* a file, not a page: the rest does not matter */
			if (dp_url_decode(v, vlen, r->asset, sizeof(r->asset), 0, NULL) < 0)
				r->asset[0] = '\0';
			continue;
		}
		if (r->rest.len)
			dp_buf_addc(&r->rest, '&');
		dp_buf_add(&r->rest, p, len);
		r->n_query += !param_is(p, len, "format", &v, &vlen);
	}
	if (dp_buf_error(&r->rest) || r->rest.len > rest_max)
		refuse(r, 414, "the request's query string is too long");
	return r->status;
}

void dp_request_release(struct dp_request *r)
{
	dp_buf_release(&r->rest);
}

const char *dp_format_content_type(enum dp_format fmt)
{
	switch (fmt) {
	case DP_FMT_JSON:
		return "application/json";
	case DP_FMT_HTML:
		return "text/html; charset=utf-8";
	case DP_FMT_TEXT:
		break;
	}
	return "text/plain; charset=utf-8";
}

int dp_error_body(struct dp_buf *body, int status, const char *msg, const struct dp_query *q,
		  enum dp_format fmt, const struct dp_render_opts *opts, const char **ctype)
{
	static const struct dp_render_opts defaults;
	struct dp_display *d = NULL;
	int rc;

	if (ctype)
		*ctype = dp_format_content_type(fmt);
	if (!msg || !*msg)
		msg = "the query could not be answered";
	if (fmt == DP_FMT_JSON) {
		dp_buf_addf(body, "{\"status\": %d, \"error\": ", status);
		dp_json_escape(body, msg, strlen(msg)); /* quotes included */
		dp_buf_adds(body, "}\n");
		return dp_buf_error(body);
	}
	rc = dp_display_error(status, msg, q, &d);
	if (rc == 0)
		rc = fmt == DP_FMT_HTML ? dp_render_html(d, opts ? opts : &defaults, body)
					: dp_render_text(d, opts ? opts : &defaults, body);
	dp_display_free(d);
	return rc;
}
