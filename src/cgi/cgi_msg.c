/*
 * cgi/cgi_msg.c - the bytes deepprof-cgi makes: CGI responses (headers and body, error
 * and confirmation pages in HTML, JSON or text), the answer to a request through the
 * session, and the messages on the named pipes (requests, reply headers). Pure functions
 * over buffers: no file descriptors here.
 */
#define _POSIX_C_SOURCE 200809L

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/json.h"
#include "../core/url.h"
#include "../display/display.h"
#include "../front/request.h"
#include "../front/session.h"
#include "cgi_int.h"

/* dp_cgi_response: see cgi_int.h. */
int dp_cgi_response(struct dp_buf *out, int status, const char *ctype, const void *body, size_t len)
{
	dp_buf_addf(out, "Status: %d %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n", status,
		    dp_http_reason(status), ctype, len);
	for (size_t i = 0; dp_http_headers[i][0]; i++)
		dp_buf_addf(out, "%s: %s\r\n", dp_http_headers[i][0], dp_http_headers[i][1]);
	dp_buf_adds(out, "Cache-Control: no-cache\r\n\r\n");
	return dp_buf_add(out, body, len);
}

/* dp_cgi_error_response: see cgi_int.h. */
int dp_cgi_error_response(struct dp_buf *out, int status, int fmt, const char *msg)
{
	enum dp_format f = fmt < 0 ? DP_FMT_HTML : (enum dp_format)fmt;
	const char *ctype = dp_format_content_type(f);
	struct dp_buf body;
	int rc;

	dp_buf_init(&body, 1u << 20);
	if (status != 200) {
		dp_error_body(&body, status, msg, NULL, f, NULL, &ctype);
	} else if (f == DP_FMT_JSON) { /* a server-control page's confirmation */
		dp_buf_addf(&body, "{\"status\": %d, \"message\": ", status);
		dp_json_escape(&body, msg, strlen(msg)); /* quotes included */
		dp_buf_adds(&body, "}\n");
	} else if (f == DP_FMT_TEXT) {
		dp_buf_addf(&body, "%s\n", msg);
	} else {
		dp_html_page_start(&body, NULL, "200 OK", NULL);
		dp_buf_adds(&body, "<h1>200 OK</h1>\n<p>");
		dp_html_escape(&body, msg);
		dp_buf_adds(&body, "</p>\n</body></html>\n");
	}
	rc = dp_buf_error(&body);
	if (rc == 0)
		rc = dp_cgi_response(out, status, ctype, body.data, body.len);
	dp_buf_release(&body);
	return rc;
}

/* dp_cgi_answer: see cgi_int.h. */
int dp_cgi_answer(struct dp_session *s, uint32_t file, const struct dp_cgi_req *r,
		  struct dp_buf *out)
{
	struct dp_render_opts opts = {0};
	struct dp_answer ans;
	struct dp_buf link;
	char msg[DP_CGI_PATH_MAX + 128], script[DP_CGI_SCRIPT_MAX + 2];
	int rc;

	snprintf(script, sizeof(script), "%s?", r->script);
	if (r->ctl == DP_CGI_CTL_QUIT || r->ctl == DP_CGI_CTL_TIMEOUT) {
		if (r->ctl == DP_CGI_CTL_QUIT)
			snprintf(msg, sizeof(msg), "the server for %s has stopped", r->path);
		else
			snprintf(msg, sizeof(msg), "the server for %s now stops after %u s idle",
				 r->path, r->timeout);
		return dp_cgi_error_response(out, 200, r->fmt, msg);
	}
	dp_buf_init(&link, 4 * DP_CGI_PATH_MAX + DP_CGI_SCRIPT_MAX);
	dp_buf_adds(&link, r->script);
	dp_buf_adds(&link, "?file=");
	dp_url_encode(&link, r->path, NULL);
	dp_buf_addc(&link, '&');
	rc = dp_buf_error(&link);
	if (rc < 0)
		goto out_link;
	opts.link_prefix = dp_buf_cstr(&link);
	opts.title = r->path;
	opts.asset_prefix = script;
	rc = dp_session_answer(s, file, r->query, DP_FMT_HTML, &opts, &ans);
	if (rc < 0)
		goto out_link;
	rc = dp_cgi_response(out, ans.status, ans.content_type, ans.body.data, ans.body.len);
	dp_buf_release(&ans.body);
out_link:
	dp_buf_release(&link);
	return rc;
}

/* dp_cgi_asset: see cgi_int.h. */
int dp_cgi_asset(const char *qs, struct dp_buf *out)
{
	struct dp_request req;
	const char *ctype, *body = NULL;
	size_t len = 0;
	int rc = 1;

	if (dp_request_split(qs, DP_FMT_HTML, DP_CGI_QS_MAX, &req) == 0 && req.has_asset) {
		body = dp_html_asset(req.asset, &len, &ctype);
		rc = body ? 0 : -1;
	}
	dp_request_release(&req);
	if (rc)
		return rc;
	dp_buf_addf(out, "Status: 200 OK\r\nContent-Type: %s\r\nContent-Length: %zu\r\n", ctype,
		    len);
	for (size_t i = 0; dp_http_headers[i][0]; i++)
		dp_buf_addf(out, "%s: %s\r\n", dp_http_headers[i][0], dp_http_headers[i][1]);
	dp_buf_adds(out, "Cache-Control: max-age=31536000, immutable\r\n\r\n");
	dp_buf_add(out, body, len);
	return dp_buf_error(out);
}

/* dp_cgi_req_encode: see cgi_int.h. */
int dp_cgi_req_encode(const struct dp_cgi_req *r, struct dp_buf *out)
{
	size_t plen = strlen(r->path), slen = strlen(r->script), qlen = strlen(r->query);
	size_t start = out->len;

	dp_buf_addf(out, "DPQ1 %016llx %ld %d %u %d %zu %zu %zu\n", (unsigned long long)r->nonce,
		    (long)r->pid, (int)r->ctl, r->timeout, r->fmt, plen, slen, qlen);
	dp_buf_add(out, r->path, plen);
	dp_buf_add(out, r->script, slen);
	dp_buf_add(out, r->query, qlen);
	if (dp_buf_error(out))
		return dp_buf_error(out);
	if (out->len - start > PIPE_BUF)
		return dp_error(DP_ENOMEM, "a request of %zu bytes does not fit in a pipe buffer",
				out->len - start);
	return 0;
}

/* Copy the header line of @data (up to '\n', at most @cap - 1 bytes) into @line.
 * Return: its length with the '\n', 0 if not complete yet, -1 if too long. */
static long header_line(const uint8_t *data, size_t len, char *line, size_t cap)
{
	const uint8_t *nl = memchr(data, '\n', len < cap ? len : cap);
	size_t n;

	if (!nl)
		return len < cap ? 0 : -1;
	n = (size_t)(nl - data);
	memcpy(line, data, n);
	line[n] = '\0';
	return (long)n + 1;
}

/* dp_cgi_req_decode: see cgi_int.h. */
long dp_cgi_req_decode(const uint8_t *data, size_t len, struct dp_cgi_req *r)
{
	char line[160];
	unsigned long long nonce;
	long pid, h = header_line(data, len, line, sizeof(line));
	int ctl, fmt, used;
	unsigned timeout;
	size_t plen, slen, qlen;

	if (h <= 0)
		return h == 0 ? 0 : dp_error(DP_EFORMAT, "request: no header");
	if (sscanf(line, "DPQ1 %16llx %ld %d %u %d %zu %zu %zu%n", &nonce, &pid, &ctl, &timeout,
		   &fmt, &plen, &slen, &qlen, &used) != 8 ||
	    line[used] != '\0' || ctl < 0 || ctl > DP_CGI_CTL_TIMEOUT || plen == 0 ||
	    plen >= sizeof(r->path) || slen >= sizeof(r->script) || qlen >= sizeof(r->query))
		return dp_error(DP_EFORMAT, "request: malformed header");
	if (len - (size_t)h < plen + slen + qlen)
		return 0;
	memset(r, 0, sizeof(*r));
	r->nonce = nonce;
	r->pid = (pid_t)pid;
	r->ctl = (enum dp_cgi_ctl)ctl;
	r->timeout = timeout;
	r->fmt = fmt;
	data += h;
	memcpy(r->path, data, plen);
	memcpy(r->script, data + plen, slen);
	memcpy(r->query, data + plen + slen, qlen);
	if (memchr(r->path, '\0', plen) || memchr(r->script, '\0', slen) ||
	    memchr(r->query, '\0', qlen))
		return dp_error(DP_EFORMAT, "request: NUL in a field");
	return h + (long)(plen + slen + qlen);
}

/* dp_cgi_reply_hdr_decode: see cgi_int.h. */
int dp_cgi_reply_hdr_decode(const uint8_t *data, size_t len, struct dp_cgi_reply_hdr *h)
{
	char line[160], kind = 0;
	unsigned long long nonce;
	size_t n1, n2 = 0;
	int used = 0, f;
	long hl = header_line(data, len, line, sizeof(line));

	if (hl <= 0)
		return hl == 0 ? 0 : dp_error(DP_EFORMAT, "reply: no header");
	memset(h, 0, sizeof(*h));
	f = sscanf(line, "DPR1 %16llx %c %zu %zu%n", &nonce, &kind, &n1, &n2, &used);
	if (f == 3)
		sscanf(line, "DPR1 %16llx %c %zu%n", &nonce, &kind, &n1, &used);
	if ((kind == 'I' && f != 3) ||
	    (kind == 'F' && (f != 4 || n2 == 0 || n2 >= sizeof(h->name))) ||
	    (kind != 'I' && kind != 'F') || line[used] != '\0' || n1 > DP_CGI_RESP_MAX)
		return dp_error(DP_EFORMAT, "reply: malformed header");
	h->nonce = nonce;
	h->in_file = kind == 'F';
	h->len = n1;
	h->hdr_len = (size_t)hl + n2;
	if (len < h->hdr_len)
		return 0;
	memcpy(h->name, data + hl, n2);
	h->name[n2] = '\0';
	if (h->in_file && (memchr(h->name, '/', n2) || memchr(h->name, '\0', n2)))
		return dp_error(DP_EFORMAT, "reply: bad file name");
	return 1;
}
