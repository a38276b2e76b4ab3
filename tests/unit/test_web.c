/*
 * tests/unit/test_web.c - unit tests of src/web: the router (method, length, path and
 * file= checks, the index, the session's answers passed through), the URL decoding it
 * uses (core/url.c), and the libmicrohttpd server started on a free port and spoken to
 * over a plain socket (with every one of dp_http_headers).
 */
#define _GNU_SOURCE /* mkdtemp */

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "analysis/merge.h"
#include "core/err.h"
#include "core/url.h"
#include "deepprof/format.h"
#include "display/display.h"
#include "export/export.h"
#include "format/reader.h"
#include "format/writer.h"
#include "front/request.h"
#include "front/session.h"
#include "harness.h"
#include "sample_profile.h"
#include "web/serve.h"
#include "web/web_int.h"

static char dir[64];
static char path_a[128], path_b[128];

/* Writes the sample profile twice, the second under a name holding HTML. */
static int make_files(void)
{
	struct dp_profile p;
	int rc;

	snprintf(dir, sizeof(dir), "/tmp/dp_test_web.XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path_a, sizeof(path_a), "%s/a.data", dir);
	snprintf(path_b, sizeof(path_b), "%s/<b>&.data", dir);
	if (dp_sample_profile(&p, DP_FEAT_SYMBOLIZED) < 0)
		return -1;
	rc = dp_write_file(&p, path_a);
	if (rc == 0)
		rc = dp_write_file(&p, path_b);
	dp_profile_release(&p);
	return rc;
}

static void remove_files(void)
{
	unlink(path_a);
	unlink(path_b);
	rmdir(dir);
}

/* Routes GET @uri through @rt; returns the status, the body in @body (released by caller). */
static int get(struct dp_web_router *rt, const char *uri, struct dp_web_reply *r)
{
	CHECK_EQ(dp_web_route(rt, "GET", uri, strlen(uri), r), 0);
	return r->status;
}

static int has(const struct dp_web_reply *r, const char *s)
{
	return strstr(dp_buf_cstr(&r->body), s) != NULL;
}

/* dp_url_decode (core/url.c, which the router uses for file= and format=): %XX and '+';
 * bad escapes, NULs, control bytes (on request) and overflow refused, with the offset. */
TEST(url_decode)
{
	char out[8], in_place[16];
	size_t at = 99;

	CHECK_EQ(dp_url_decode("a%20b+c", 7, out, sizeof(out), 0, NULL), 5);
	CHECK_STR(out, "a b c");
	CHECK_EQ(dp_url_decode("%2e%2E", 6, out, sizeof(out), 0, NULL), 2);
	CHECK_STR(out, "..");
	CHECK_EQ(dp_url_decode("x%zz", 4, out, sizeof(out), 0, &at), DP_URL_BAD_ESCAPE);
	CHECK_EQ(at, 1);
	CHECK_EQ(dp_url_decode("ab%2", 4, out, sizeof(out), 0, &at), DP_URL_BAD_ESCAPE);
	CHECK_EQ(at, 2);
	CHECK_EQ(dp_url_decode("%", 1, out, sizeof(out), 0, NULL), DP_URL_BAD_ESCAPE);
	CHECK_EQ(dp_url_decode("a%00", 4, out, sizeof(out), DP_URL_NO_CONTROL, &at), DP_URL_NUL);
	CHECK_EQ(at, 1);
	CHECK_EQ(dp_url_decode("a\x01%01", 5, out, sizeof(out), 0, NULL), 3); /* allowed */
	CHECK(out[1] == 1 && out[2] == 1);
	CHECK_EQ(dp_url_decode("ab%7F", 5, out, sizeof(out), DP_URL_NO_CONTROL, &at),
		 DP_URL_CONTROL);
	CHECK_EQ(at, 2);
	CHECK_EQ(dp_url_decode("a\tb", 3, out, sizeof(out), DP_URL_NO_CONTROL, &at),
		 DP_URL_CONTROL);
	CHECK_EQ(at, 1);
	CHECK_EQ(dp_url_decode("a\0b", 3, out, sizeof(out), 0, &at), DP_URL_NUL);
	CHECK_EQ(at, 1);
	CHECK_EQ(dp_url_decode("12345678", 8, out, sizeof(out), 0, &at), DP_URL_NO_ROOM);
	CHECK_EQ(at, 7); /* no room for the NUL */
	CHECK_EQ(dp_url_decode("1234567", 7, out, sizeof(out), 0, NULL), 7);
	CHECK_EQ(dp_url_decode("", 0, out, sizeof(out), 0, NULL), 0);
	CHECK_STR(out, "");
	CHECK_EQ(dp_url_decode("", 0, out, 0, 0, NULL), DP_URL_NO_ROOM);
	/* in place: the output trails the input */
	memcpy(in_place, "%41%42c+%44&", 13);
	CHECK_EQ(dp_url_decode(in_place, 11, in_place, 12, DP_URL_NO_CONTROL, NULL), 5);
	CHECK_STR(in_place, "ABc D");
	CHECK_EQ(dp_hexval('0'), 0);
	CHECK_EQ(dp_hexval('f'), 15);
	CHECK_EQ(dp_hexval('F'), 15);
	CHECK_EQ(dp_hexval('g'), -1);
	CHECK_EQ(dp_hexval('/'), -1);
}

/* The request core: format= read first (the first valid one), file= split off and
 * checked, the rest verbatim, and the one JSON error shape. */
TEST(request_core)
{
	struct dp_request q;
	struct dp_buf b;
	const char *ct = NULL;

	CHECK_EQ(dp_request_format("page=bogus&format=json", DP_FMT_HTML), DP_FMT_JSON);
	CHECK_EQ(dp_request_format("format=xml&%66ormat=text", DP_FMT_HTML), DP_FMT_TEXT);
	CHECK_EQ(dp_request_format("format=xml", DP_FMT_HTML), DP_FMT_HTML);
	CHECK_EQ(dp_request_format(NULL, DP_FMT_TEXT), DP_FMT_TEXT);
	CHECK_EQ(dp_request_split("page=x&file=a%2Fb&&format=json&file=a/b", DP_FMT_HTML, 100, &q),
		 0);
	CHECK_EQ(q.fmt, DP_FMT_JSON);
	CHECK(q.fmt_given && q.has_file);
	CHECK_STR(q.file, "a/b");
	CHECK_STR(dp_buf_cstr(&q.rest), "page=x&format=json");
	CHECK_EQ(q.n_query, 1); /* format= is no query */
	dp_request_release(&q);
	CHECK_EQ(dp_request_split("file=1&format=text&file=2", DP_FMT_HTML, 100, &q), 400);
	CHECK_EQ(q.fmt, DP_FMT_TEXT); /* the refusal is still written in it */
	CHECK(strstr(q.msg, "twice") != NULL);
	dp_request_release(&q);
	CHECK_EQ(dp_request_split("file=%zz", DP_FMT_HTML, 100, &q), 400);
	CHECK(!q.fmt_given);
	dp_request_release(&q);
	CHECK_EQ(dp_request_split("page=menu&x=12345", DP_FMT_HTML, 10, &q), 414);
	dp_request_release(&q);
	CHECK_EQ(dp_request_split("file=0&asset=deep%70rof.js&v=1", DP_FMT_HTML, 100, &q), 0);
	CHECK(q.has_asset);
	CHECK_STR(q.asset, "deepprof.js");
	CHECK_STR(dp_buf_cstr(&q.rest), "v=1");
	dp_request_release(&q);
	dp_buf_init(&b, 1u << 16);
	CHECK_EQ(dp_error_body(&b, 400, "bad \"q\"", NULL, DP_FMT_JSON, NULL, &ct), 0);
	CHECK_STR(dp_buf_cstr(&b), "{\"status\": 400, \"error\": \"bad \\\"q\\\"\"}\n");
	CHECK_STR(ct, "application/json");
	dp_buf_release(&b);
}

/* The checks made before the session is asked anything. */
static void route_errors(struct dp_web_router *rt)
{
	struct dp_web_reply r;
	char big[DP_WEB_URI_MAX + 2];

	CHECK_EQ(dp_web_route(rt, "POST", "/", 1, &r), 0);
	CHECK_EQ(r.status, 405);
	CHECK_STR(r.allow, "GET, HEAD");
	dp_web_reply_release(&r);
	CHECK_EQ(dp_web_route(rt, "HEAD", "/", 1, &r), 0);
	CHECK_EQ(r.status, 200);
	dp_web_reply_release(&r);
	memset(big, 'a', sizeof(big) - 1);
	big[0] = '/';
	big[1] = '?';
	big[sizeof(big) - 1] = '\0';
	CHECK_EQ(get(rt, big, &r), 414);
	dp_web_reply_release(&r);
	big[DP_WEB_URI_MAX] = '\0'; /* exactly at the limit: an ordinary bad query */
	CHECK_EQ(get(rt, big, &r), 400);
	dp_web_reply_release(&r);
	CHECK_EQ(dp_web_route(rt, "GET", NULL, 100000, &r), 0);
	CHECK_EQ(r.status, 414);
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/x", &r), 404);
	CHECK(has(&r, "no such page"));
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/../etc/passwd", &r), 404);
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/%2e%2e/?file=0", &r), 404);
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/favicon.ico", &r), 204);
	CHECK_EQ(r.body.len, 0);
	dp_web_reply_release(&r);
}

/* One file: the menu at /, file= checks, the session's statuses and formats. */
static void route_one(struct dp_web_router *rt)
{
	struct dp_web_reply r;

	CHECK_EQ(get(rt, "/", &r), 200);
	CHECK_STR(r.content_type, "text/html; charset=utf-8");
	CHECK(has(&r, "href=\"/?file=0&amp;page=root"));
	CHECK(has(&r, "a.data"));
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?file=0&page=root", &r), 200);
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?page=root&file=0&file=0", &r), 200);
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?file=0&file=1", &r), 400);
	CHECK(has(&r, "twice"));
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?file=1", &r), 404);
	CHECK(has(&r, "href=\"/?file=0\""));
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?file=%3Cscript%3E", &r), 404);
	CHECK(has(&r, "&lt;script&gt;"));
	CHECK(!has(&r, "<script>"));
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?file=%zz", &r), 400);
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?file=0&page=nope", &r), 400);
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?file=0&page=clique&id=999999", &r), 404);
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?file=0&page=quit", &r), 400);
	dp_web_reply_release(&r);
	/* format= first: a query the parser refuses is answered in JSON all the same */
	CHECK_EQ(get(rt, "/?page=bogus&format=json", &r), 400);
	CHECK_STR(r.content_type, "application/json");
	{
		static const char want[] = "{\"status\": 400, \"error\": \"unknown page 'bogus'";

		CHECK(strncmp(dp_buf_cstr(&r.body), want, sizeof(want) - 1) == 0);
	}
	CHECK(!has(&r, "quit")); /* the CGI program's pages are not the query language's */
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/x?format=text", &r), 404);
	CHECK_STR(r.content_type, "text/plain; charset=utf-8");
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?format=json", &r), 200);
	CHECK_STR(r.content_type, "application/json");
	CHECK(has(&r, "\"page\": \"menu\""));
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?format=json&file=9", &r), 404);
	CHECK_STR(dp_buf_cstr(&r.body),
		  "{\"status\": 404, \"error\": \"No file \\\"9\\\" here: file= is the number (0 "
		  "to 0) of one of the profiles this server shows.\"}\n");
	dp_web_reply_release(&r);
}

static int to_buf(void *arg, const void *data, size_t len)
{
	dp_buf_add(arg, data, len);
	return dp_buf_error(arg);
}

/* What `deepprof export --format=@f a.data 'page=clique&id=@clique'` writes, into @out. */
static void cli_export(enum dp_export_format f, uint32_t clique, struct dp_buf *out)
{
	struct dp_profile raw, merged;
	struct dp_export_opts o;
	struct dp_analysis *a;
	int rc;

	CHECK_EQ(dp_read_file(path_a, &raw), 0);
	CHECK_EQ(dp_profile_merge_threads(&raw, &merged), 0);
	a = dp_analysis_new(&merged, &rc);
	CHECK(a != NULL);
	dp_export_opts_init(&o);
	o.format = f;
	o.root = DP_EXPORT_CLIQUE;
	o.id = clique;
	o.version = "deepprof " DP_VERSION;
	CHECK_EQ(dp_export(a, &o, to_buf, out), 0);
	dp_analysis_free(a);
	dp_profile_release(&merged);
	dp_profile_release(&raw);
}

/* download=FMT: the page's subtree exported, as a file; the menu links to it; bad
 * formats and ids are 400 pages in the format asked for. */
static void route_download(struct dp_web_router *rt)
{
	struct dp_web_reply r;
	struct dp_buf want;

	CHECK_EQ(get(rt, "/?file=0&page=clique&id=1", &r), 200);
	CHECK(has(&r, "<summary>Download as</summary>"));
	for (const char *const *f = dp_session_downloads; *f; f++) {
		char href[128];

		snprintf(href, sizeof(href),
			 "<a download href=\"/?file=0&amp;page=clique&amp;id=1&amp;download=%s\">",
			 *f);
		CHECK(has(&r, href));
	}
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?file=0&page=clique&id=1&sort=name&download=folded", &r), 200);
	CHECK_STR(r.content_type, "text/plain; charset=utf-8");
	CHECK_STR(r.disposition, "attachment; filename=\"a-clique1.folded\"");
	dp_buf_init(&want, (size_t)1 << 20);
	cli_export(DP_EXPORT_FOLDED, 1, &want);
	CHECK(want.len > 0 && r.body.len == want.len &&
	      memcmp(r.body.data, want.data, want.len) == 0);
	dp_buf_release(&want);
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?file=0&download=pprof", &r), 200);
	CHECK_STR(r.content_type, "application/octet-stream");
	CHECK_STR(r.disposition, "attachment; filename=\"a.pb.gz\"");
	CHECK(r.body.len > 2 && (uint8_t)r.body.data[0] == 0x1f && (uint8_t)r.body.data[1] == 0x8b);
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?file=0&page=clique&id=1&download=nope", &r), 400);
	CHECK_STR(r.content_type, "text/html; charset=utf-8");
	CHECK_STR(r.disposition, "");
	CHECK(has(&r, "unknown format &#39;nope&#39;"));
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?file=0&download=&format=json", &r), 400);
	CHECK(strncmp(dp_buf_cstr(&r.body), "{\"status\": 400, \"error\": \"unknown format", 40) ==
	      0);
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?file=0&page=clique&id=999999&download=dot", &r), 400);
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?file=0&page=bogus&download=dot", &r), 400);
	CHECK(has(&r, "unknown page"));
	dp_web_reply_release(&r);
}

/* Two files: the index (names escaped), file=1, and no file= with a query. */
static void route_two(struct dp_web_router *rt)
{
	struct dp_web_reply r;

	CHECK_EQ(get(rt, "/", &r), 200);
	CHECK(has(&r, "href=\"/?file=0\""));
	CHECK(has(&r, "href=\"/?file=1\""));
	CHECK(has(&r, "/&lt;b&gt;&amp;.data</a>"));
	CHECK(!has(&r, "<b>&"));
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?page=menu", &r), 400);
	CHECK(has(&r, "file=N"));
	dp_web_reply_release(&r);
	/* the index and its refusals in the format asked for */
	CHECK_EQ(get(rt, "/?format=json", &r), 200);
	CHECK_STR(r.content_type, "application/json");
	CHECK(has(&r, "\"files\": [") && has(&r, "{\"file\":1,") && has(&r, "a.data\""));
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?page=menu&format=json", &r), 400);
	CHECK(strncmp(dp_buf_cstr(&r.body), "{\"status\": 400, \"error\": ", 25) == 0);
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?format=text", &r), 200);
	CHECK(has(&r, "file=0\t") && has(&r, "file=1\t"));
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?file=1", &r), 200);
	CHECK(has(&r, "href=\"/?file=1&amp;page=root"));
	CHECK(has(&r, "&lt;b&gt;&amp;.data"));
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?file=2", &r), 404);
	CHECK(has(&r, "(0 to 1)"));
	dp_web_reply_release(&r);
}

/*
 * The pages' script: served at ?asset=deepprof.js whatever else the query holds (a file,
 * a version), cached for good, and loaded by the pages from there (a flame page also
 * carries its JSON); an unknown asset is a 404. Not routing asset= fails it.
 */
static void route_asset(struct dp_web_router *rt)
{
	struct dp_web_reply r;
	size_t len = 0;
	const char *ct, *js = dp_html_asset("deepprof.js", &len, &ct);
	char want[96];

	CHECK_EQ(get(rt, "/?asset=deepprof.js&v=0123", &r), 200);
	CHECK_STR(r.content_type, "text/javascript; charset=utf-8");
	CHECK(r.cache);
	CHECK_EQ(r.body.len, len);
	CHECK(js && r.body.len == len && memcmp(r.body.data, js, len) == 0);
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?file=7&asset=deepprof.js", &r), 200);
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?asset=..%2Fa.data", &r), 404);
	CHECK(!r.cache);
	dp_web_reply_release(&r);
	snprintf(want, sizeof(want), "<script src=\"/?asset=deepprof.js&amp;v=%s\" defer>",
		 dp_html_asset_version());
	CHECK_EQ(get(rt, "/?file=0&page=flame", &r), 200);
	CHECK(has(&r, want));
	CHECK(has(&r, "<script type=\"application/json\" id=\"dp-data\" "
		      "data-prefix=\"/?file=0&amp;\">{\"schema\":2,\"page\":\"flame\""));
	dp_web_reply_release(&r);
	CHECK_EQ(get(rt, "/?file=0&page=menu", &r), 200);
	CHECK(has(&r, want));
	CHECK(!has(&r, "dp-data"));
	dp_web_reply_release(&r);
}

/* The router with no file, one file, then two (one named with HTML). */
TEST(route)
{
	struct dp_session *s = dp_session_new(DP_SESSION_QUIET);
	struct dp_web_router rt;

	CHECK(s != NULL);
	CHECK_EQ(dp_web_router_init(&rt, s), 0);
	route_errors(&rt);
	if (dp_session_open(s, path_a, NULL) != 0) {
		fprintf(stderr, "cannot open %s: %s\n", path_a, dp_errmsg());
		CHECK(0);
	} else {
		route_one(&rt);
		route_download(&rt);
		route_asset(&rt);
		CHECK_EQ(dp_session_open(s, path_b, NULL), 1);
		route_two(&rt);
	}
	dp_web_router_release(&rt);
	dp_session_free(s);
}

/* Sends @req to 127.0.0.1:@port and reads the whole reply into @out; returns its length,
 * or -errno when the connection fails. */
static long exchange(uint16_t port, const char *req, char *out, size_t cap)
{
	struct sockaddr_in sa = {0};
	size_t n = 0;
	ssize_t k;
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	sa.sin_family = AF_INET;
	sa.sin_port = htons(port);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		k = -errno;
		close(fd);
		return (long)k;
	}
	if (write(fd, req, strlen(req)) < 0) {
		close(fd);
		return -EIO;
	}
	while (n + 1 < cap && (k = read(fd, out + n, cap - n - 1)) > 0)
		n += (size_t)k;
	out[n] = '\0';
	close(fd);
	return (long)n;
}

/* The real server on a free port: a page, a 405, a taken port, refused after stop. */
TEST(server)
{
	struct dp_session *s = dp_session_new(DP_SESSION_QUIET);
	struct dp_web_opts o = {0}, o2 = {0};
	struct dp_web *w = NULL, *w2 = NULL;
	char reply[1 << 16], url[64];
	uint16_t port;

	CHECK_EQ(dp_session_open(s, path_a, NULL), 0);
	CHECK_EQ(dp_web_start(s, &o, &w), 0);
	if (!w) {
		dp_session_free(s);
		return;
	}
	port = dp_web_port(w);
	CHECK(port != 0);
	snprintf(url, sizeof(url), "http://127.0.0.1:%u/", port);
	CHECK_STR(dp_web_url(w), url);
	CHECK(exchange(port,
		       "GET /?file=0&page=root HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
		       reply, sizeof(reply)) > 0);
	CHECK(strncmp(reply, "HTTP/1.1 200 OK\r\n", 17) == 0);
	CHECK(strstr(reply, "\r\nContent-Security-Policy: default-src 'none';") != NULL);
	/* no inline script may run: the pages' script comes from the server itself */
	CHECK(strstr(reply, "script-src 'self'; connect-src 'self';") != NULL);
	CHECK(strstr(reply, "unsafe-inline'; img") == NULL);
	for (size_t i = 0; dp_http_headers[i][0]; i++) {
		char line[512];

		snprintf(line, sizeof(line), "\r\n%s: %s\r\n", dp_http_headers[i][0],
			 dp_http_headers[i][1]);
		CHECK(strstr(reply, line) != NULL);
	}
	CHECK(strstr(reply, "href=\"/?file=0&amp;page=menu") != NULL);
	CHECK(exchange(port, "DELETE / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", reply,
		       sizeof(reply)) > 0);
	CHECK(strncmp(reply, "HTTP/1.1 405 ", 13) == 0);
	CHECK(strstr(reply, "\r\nAllow: GET, HEAD\r\n") != NULL);
	o2.port = port; /* taken */
	CHECK_EQ(dp_web_start(s, &o2, &w2), -DP_EIO);
	CHECK(w2 == NULL);
	CHECK(strstr(dp_errmsg(), "Address already in use") != NULL);
	o2.port = 0;
	o2.bind = "no.such.host.invalid";
	CHECK_EQ(dp_web_start(s, &o2, &w2), -DP_EUSAGE);
	dp_web_stop(w);
	CHECK_EQ(exchange(port, "GET / HTTP/1.0\r\n\r\n", reply, sizeof(reply)), -ECONNREFUSED);
	dp_session_free(s);
}

int main(void)
{
	if (make_files() != 0) {
		fprintf(stderr, "cannot write the sample profiles: %s\n", dp_errmsg());
		return 1;
	}
	test_url_decode();
	test_request_core();
	test_route();
	test_server();
	remove_files();
	if (dp_test_failures)
		fprintf(stderr, "%d check(s) failed\n", dp_test_failures);
	return dp_test_failures ? 1 : 0;
}
