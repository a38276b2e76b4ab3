/*
 * test_cgi.c - unit tests of src/cgi (deepprof-cgi's pieces): the request taken from the
 * CGI environment and its security verdicts, the mangled names, the pipe messages, the
 * CGI responses, and the lock / want / pipe files in a scratch protocol directory. The
 * processes talking to each other are tests/integration/test_cgi.py's.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgi/cgi_int.h"
#include "core/err.h"
#include "core/url.h"
#include "display/display.h"
#include "display/render_opts.h"
#include "harness.h"

static char scratch[256]; /* a fresh directory for the test */

static void path_in(char *out, size_t len, const char *name)
{
	snprintf(out, len, "%s/%s", scratch, name);
}

static void touch(const char *name, const char *text)
{
	char p[1024];
	FILE *f;

	path_in(p, sizeof(p), name);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A configuration with root = scratch/root and dir = scratch/run. */
static int conf(struct dp_cgi_conf *c)
{
	char root[1024], run[1024];

	path_in(root, sizeof(root), "root");
	path_in(run, sizeof(run), "run");
	setenv("DEEPPROF_CGI_ROOT", root, 1);
	setenv("DEEPPROF_CGI_DIR", run, 1);
	unsetenv("DEEPPROF_CGI_TIMEOUT");
	unsetenv("DEEPPROF_CGI_LOG");
	unsetenv("DEEPPROF_CGI_NO_DETACH");
	return dp_cgi_conf_load(c, false);
}

static int parse(const char *qs, struct dp_cgi_req *r)
{
	struct dp_cgi_conf c;

	if (conf(&c) < 0)
		return -1;
	setenv("QUERY_STRING", qs, 1);
	setenv("SCRIPT_NAME", "/cgi-bin/deepprof-cgi", 1);
	return dp_cgi_req_parse(&c, r);
}

/* Each kind of bad request gets its status before anything is opened; good ones resolve. */
TEST(req_verdicts)
{
	static struct dp_cgi_req r;
	char real[PATH_MAX + 16], big[DP_CGI_QS_MAX + 64];

	CHECK_EQ(parse("file=wf.data&page=clique&id=3", &r), 0);
	snprintf(real, sizeof(real), "%s/root/wf.data", scratch);
	CHECK_STR(r.path, real);
	CHECK_STR(r.query, "page=clique&id=3"); /* file= taken out, the rest verbatim */
	CHECK_EQ(r.ctl, DP_CGI_CTL_QUERY);
	CHECK_EQ(parse("page=top&file=%2Fnope%2F..%2Fx", &r), 403);
	CHECK_EQ(parse("file=../x.data", &r), 403);
	CHECK_EQ(parse("file=sub/../wf.data", &r), 403); /* '..' refused even inside */
	CHECK_EQ(parse("file=/etc/passwd", &r), 403);
	CHECK_EQ(parse("file=/no/such/file", &r), 403);	     /* outside: no probing */
	CHECK_EQ(parse("file=out.data", &r), 403);	     /* a symlink out */
	CHECK_EQ(parse("file=updir/outside.data", &r), 403); /* through a symlinked dir */
	CHECK_EQ(parse("file=updir/nonexistent", &r), 403);  /* ... missing: no probing */
	CHECK_EQ(parse("file=updir/no/such/dir/x", &r), 403);
	CHECK_EQ(parse("file=sub/no/such/x", &r), 404);
	CHECK_EQ(parse("file=missing.data", &r), 404);
	CHECK_EQ(parse("file=sub", &r), 404);	/* a directory */
	CHECK_EQ(parse("file=in.data", &r), 0); /* a symlink that stays inside */
	CHECK_STR(r.path, real);
	CHECK_EQ(parse("page=menu", &r), 400);
	CHECK_EQ(parse("file=wf.data&file=in.data", &r), 400);
	CHECK_EQ(parse("file=wf.data&page=menu&file=wf.data", &r), 0); /* the same file */
	CHECK_STR(r.query, "page=menu");
	CHECK_EQ(parse("file=wf.data&page=menu&timeout=5", &r), 400); /* not page=timeout */
	CHECK_EQ(parse("format=json&file=wf.data&file=x", &r), 400);
	CHECK_EQ(r.fmt, DP_FMT_JSON); /* read first: the error page is JSON */
	CHECK_EQ(parse("file=wf.data%00x", &r), 400);
	CHECK_EQ(parse("file=wf.data%4", &r), 400);
	CHECK_EQ(parse("file=wf.data&page=timeout", &r), 400);
	CHECK_EQ(parse("file=wf.data&page=clique&id=3&download=pprof", &r), 400);
	CHECK(strstr(dp_errmsg(), "deepprof serve") != NULL); /* downloads: serve's, not here */
	CHECK_EQ(parse("file=wf.data&page=timeout&timeout=0", &r), 400);
	CHECK_EQ(parse("file=wf.data&page=timeout&timeout=12", &r), 0);
	CHECK_EQ(r.ctl, DP_CGI_CTL_TIMEOUT);
	CHECK_EQ(r.timeout, 12);
	CHECK_EQ(parse("file=wf.data&page=quit&format=json", &r), 0);
	CHECK_EQ(r.ctl, DP_CGI_CTL_QUIT);
	CHECK_EQ(r.fmt, DP_FMT_JSON);
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	memcpy(big, "file=wf.data&x=", 15);
	CHECK_EQ(parse(big, &r), 414);
	unsetenv("DEEPPROF_CGI_ROOT");
	{
		struct dp_cgi_conf c;

		CHECK_EQ(dp_cgi_conf_load(&c, false), 0);
		setenv("QUERY_STRING", "file=wf.data", 1);
		CHECK_EQ(dp_cgi_req_parse(&c, &r), 403); /* no root: nothing may be opened */
	}
}

/* DEEPPROF_CGI_TIMEOUT: seconds, or milliseconds with "ms" (the tests' short timeouts). */
TEST(conf_timeout)
{
	static const struct {
		const char *env;
		int rc;
		unsigned ms;
	} cases[] = {
		{NULL, 0, 1800000},    {"60", 0, 60000},      {"300ms", 0, 300},
		{"1ms", 0, 1},	       {"0", -DP_EUSAGE, 0},  {"0ms", -DP_EUSAGE, 0},
		{"ms", -DP_EUSAGE, 0}, {"5s", -DP_EUSAGE, 0}, {"2000001", -DP_EUSAGE, 0},
	};
	struct dp_cgi_conf c;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_EQ(conf(&c), 0);
		if (cases[i].env)
			setenv("DEEPPROF_CGI_TIMEOUT", cases[i].env, 1);
		CHECK_EQ(dp_cgi_conf_load(&c, false), cases[i].rc);
		if (cases[i].rc == 0)
			CHECK_EQ(c.timeout_ms, cases[i].ms);
	}
	unsetenv("DEEPPROF_CGI_TIMEOUT");
}

/* Mangled names are injective, and long paths are cut to a hashed, bounded name. */
TEST(mangle)
{
	char a[DP_CGI_MANGLE_MAX + 24], b[DP_CGI_MANGLE_MAX + 24], longp[900];

	dp_cgi_mangle("/a/b:c", a, sizeof(a));
	CHECK_STR(a, ":.a:.b::c");
	dp_cgi_mangle("/a:/b", a, sizeof(a));
	dp_cgi_mangle("/a/:b", b, sizeof(b));
	CHECK(strcmp(a, b) != 0); /* ":.a:::.b" vs ":.a:.::b" */
	memset(longp, 'x', sizeof(longp) - 1);
	longp[sizeof(longp) - 1] = '\0';
	longp[0] = '/';
	dp_cgi_mangle(longp, a, sizeof(a));
	longp[1] = 'y'; /* differs far from the kept tail */
	dp_cgi_mangle(longp, b, sizeof(b));
	CHECK(strlen(a) <= DP_CGI_MANGLE_MAX);
	CHECK(strchr(a, '~') != NULL);
	CHECK(strcmp(a, b) != 0);
}

/* Requests survive the pipe byte for byte, incomplete ones wait, the biggest fits. */
TEST(request_messages)
{
	static struct dp_cgi_req r, back;
	struct dp_buf b;

	memset(&r, 0, sizeof(r));
	snprintf(r.path, sizeof(r.path), "/p/with\nnewline & space.data");
	snprintf(r.script, sizeof(r.script), "/cgi-bin/x");
	snprintf(r.query, sizeof(r.query), "page=clique&id=7");
	r.ctl = DP_CGI_CTL_TIMEOUT;
	r.timeout = 99;
	r.fmt = -1;
	r.nonce = 0x0123456789abcdefu;
	r.pid = 4242;
	dp_buf_init(&b, 1u << 16);
	CHECK_EQ(dp_cgi_req_encode(&r, &b), 0);
	CHECK(b.len <= PIPE_BUF);
	for (size_t cut = 0; cut < b.len; cut += 7)
		CHECK_EQ(dp_cgi_req_decode(b.data, cut, &back), 0); /* incomplete */
	CHECK_EQ(dp_cgi_req_decode(b.data, b.len, &back), (long)b.len);
	CHECK_STR(back.path, r.path);
	CHECK_STR(back.script, r.script);
	CHECK_STR(back.query, r.query);
	CHECK_EQ(back.ctl, r.ctl);
	CHECK_EQ(back.timeout, 99);
	CHECK_EQ(back.fmt, -1);
	CHECK_EQ(back.nonce, r.nonce);
	CHECK_EQ(back.pid, 4242);
	CHECK(dp_cgi_req_decode((const uint8_t *)"GET / HTTP/1.0\n", 15, &back) < 0);
	CHECK(dp_cgi_req_decode((const uint8_t *)"DPQ1 1 2 9 0 0 1 0 0\nx", 22, &back) < 0);
	dp_buf_release(&b);
	/* the longest request the limits allow still fits in one atomic pipe write */
	memset(r.path, 'p', sizeof(r.path) - 1);
	memset(r.query, 'q', sizeof(r.query) - 1);
	memset(r.script, 's', sizeof(r.script) - 1);
	r.pid = INT32_MAX;
	r.nonce = UINT64_MAX;
	r.timeout = DP_CGI_TIMEOUT_MAX;
	CHECK_EQ(dp_cgi_req_encode(&r, &b), 0);
	CHECK(b.len <= PIPE_BUF);
	CHECK_EQ(dp_cgi_req_decode(b.data, b.len, &back), (long)b.len);
	CHECK_EQ(strlen(back.query), sizeof(r.query) - 1);
	dp_buf_release(&b);
}

/* Reply headers: inline and file forms, incomplete ones wait, bad ones are refused. */
TEST(reply_headers)
{
	struct dp_cgi_reply_hdr h;
	const char *in = "DPR1 00000000000000ff I 5\nhello";
	const char *file = "DPR1 0000000000000001 F 123456 9\nreply-x.7";

	CHECK_EQ(dp_cgi_reply_hdr_decode((const uint8_t *)in, strlen(in), &h), 1);
	CHECK_EQ(h.nonce, 255);
	CHECK(!h.in_file);
	CHECK_EQ(h.len, 5);
	CHECK_EQ(h.hdr_len, 26);
	CHECK_EQ(dp_cgi_reply_hdr_decode((const uint8_t *)file, strlen(file), &h), 1);
	CHECK(h.in_file);
	CHECK_EQ(h.len, 123456);
	CHECK_STR(h.name, "reply-x.7");
	CHECK_EQ(dp_cgi_reply_hdr_decode((const uint8_t *)file, strlen(file) - 1, &h), 0);
	CHECK_EQ(dp_cgi_reply_hdr_decode((const uint8_t *)"DPR1 0", 6, &h), 0);
	CHECK(dp_cgi_reply_hdr_decode((const uint8_t *)"DPR1 01 X 5\n", 12, &h) < 0);
	CHECK(dp_cgi_reply_hdr_decode((const uint8_t *)"DPR1 01 F 5 4\n../x", 18, &h) < 0);
}

/* CGI responses: status line, exact Content-Length, escaped HTML and JSON bodies. */
TEST(responses)
{
	struct dp_buf b;
	const char *s;

	dp_buf_init(&b, 1u << 20);
	CHECK_EQ(dp_cgi_error_response(&b, 404, -1, "<script>&\"x'"), 0);
	s = dp_buf_cstr(&b);
	CHECK(strncmp(s, "Status: 404 Not Found\r\nContent-Type: text/html;", 47) == 0);
	CHECK(strstr(s, "&lt;script&gt;&amp;&quot;x&#39;") != NULL);
	CHECK(strstr(s, "<script>&") == NULL); /* the message, escaped */
	/* the web server's security headers, the same policy for both front ends */
	CHECK(strstr(s, "\r\nContent-Security-Policy: default-src 'none';") != NULL);
	for (size_t i = 0; dp_http_headers[i][0]; i++) {
		char line[512];

		snprintf(line, sizeof(line), "\r\n%s: %s\r\n", dp_http_headers[i][0],
			 dp_http_headers[i][1]);
		CHECK(strstr(s, line) != NULL && strstr(s, line) < strstr(s, "\r\n\r\n"));
	}
	CHECK(strstr(s, "\r\nCache-Control: no-cache\r\n\r\n") != NULL);
	{
		const char *body = strstr(s, "\r\n\r\n") + 4;
		char want[64];

		snprintf(want, sizeof(want), "Content-Length: %zu\r\n", strlen(body));
		CHECK(strstr(s, want) != NULL);
	}
	dp_buf_reset(&b);
	CHECK_EQ(dp_cgi_error_response(&b, 400, DP_FMT_JSON, "a \"b\"\n"), 0);
	CHECK(strstr(dp_buf_cstr(&b),
		     "\r\n\r\n{\"status\": 400, \"error\": \"a \\\"b\\\"\\n\"}\n") != NULL);
	dp_buf_reset(&b);
	/* file= in the CGI's links: everything but the unreserved characters encoded */
	CHECK_EQ(dp_url_encode(&b, "/a b/c&d=e%~x.y", NULL), 0);
	CHECK_STR(dp_buf_cstr(&b), "%2Fa%20b%2Fc%26d%3De%25~x.y");
	dp_buf_reset(&b);
	CHECK_EQ(dp_url_encode(&b, "/a b:\xe9+", ":/"), 0);
	CHECK_STR(dp_buf_cstr(&b), "/a%20b:%E9%2B");
	dp_buf_reset(&b);
	/* the pages' script: no file= needed, the security headers, cached for good; an
	 * unknown one is the caller's 404; a page is not an asset */
	CHECK_EQ(dp_cgi_asset("asset=deepprof.js&v=1", &b), 0);
	s = dp_buf_cstr(&b);
	CHECK(strstr(s, "Status: 200 OK\r\nContent-Type: text/javascript; charset=utf-8\r\n") == s);
	CHECK(strstr(s, "script-src 'self'; connect-src 'self';") != NULL);
	CHECK(strstr(s, "\r\nCache-Control: max-age=31536000, immutable\r\n\r\n/*\n") != NULL);
	dp_buf_reset(&b);
	CHECK_EQ(dp_cgi_asset("asset=nope.js", &b), -1);
	CHECK_EQ(dp_cgi_asset("file=a.data&page=menu", &b), 1);
	CHECK_EQ(b.len, 0);
	dp_buf_release(&b);
}

static pid_t dead_pid(void)
{
	pid_t p = fork();

	if (p == 0)
		_exit(0);
	waitpid(p, NULL, 0);
	return p;
}

/* The lock, want files and pipes in a scratch directory, and the directory check. */
TEST(protocol_files)
{
	struct dp_cgi_conf c;
	struct dp_cgi_dir d, d2;
	char run[1024], name[600];
	struct stat st;

	CHECK_EQ(conf(&c), 0);
	CHECK_EQ(dp_cgi_dir_open(&d, &c, "/data/x.data"), 0);
	path_in(run, sizeof(run), "run");
	CHECK(stat(run, &st) == 0 && (st.st_mode & 0777) == 0700);
	/* the lock: exclusive, released, broken only when its holder is dead */
	CHECK_EQ(dp_cgi_lock(&d, 0), 0);
	CHECK_EQ(dp_cgi_lock(&d, 0), 1);
	CHECK_EQ(dp_cgi_lock(&d, 700), 1); /* held by us, alive: never broken */
	dp_cgi_unlock(&d);
	CHECK_EQ(dp_cgi_lock(&d, 0), 0);
	dp_cgi_unlock(&d);
	snprintf(name, sizeof(name), "run/lock-%s", d.mangled);
	{
		char pid[32];

		snprintf(pid, sizeof(pid), "%ld\n", (long)dead_pid());
		touch(name, pid);
	}
	CHECK_EQ(dp_cgi_lock(&d, 0), 1);
	CHECK_EQ(dp_cgi_lock(&d, 5000), 0); /* broken after a while */
	dp_cgi_unlock(&d);
	/* want files: ours do not count, a dead process's are swept, a live one's count */
	CHECK(!dp_cgi_want_any(&d));
	CHECK_EQ(dp_cgi_want_create(&d, getpid()), 0);
	CHECK(!dp_cgi_want_any(&d));
	CHECK_EQ(dp_cgi_want_create(&d, dead_pid()), 0);
	CHECK(!dp_cgi_want_any(&d));
	CHECK_EQ(dp_cgi_want_create(&d, getppid()), 0);
	CHECK(dp_cgi_want_any(&d));
	dp_cgi_want_remove(&d, getppid());
	dp_cgi_want_remove(&d, getpid());
	/* another file's names never match ours */
	CHECK_EQ(dp_cgi_dir_open(&d2, &c, "/data/x.data.1"), 0);
	CHECK_EQ(dp_cgi_want_create(&d2, getppid()), 0);
	CHECK(!dp_cgi_want_any(&d));
	dp_cgi_want_remove(&d2, getppid());
	dp_cgi_dir_close(&d2);
	/* pipes: both or none */
	CHECK(!dp_cgi_pipes_exist(&d));
	CHECK_EQ(dp_cgi_pipes_create(&d), 0);
	CHECK(dp_cgi_pipes_exist(&d));
	snprintf(name, sizeof(name), "%s/run/from-%s", scratch, d.mangled);
	unlink(name);
	CHECK(!dp_cgi_pipes_exist(&d)); /* half a pair is removed */
	snprintf(name, sizeof(name), "%s/run/to-%s", scratch, d.mangled);
	CHECK(access(name, F_OK) < 0);
	dp_cgi_dir_close(&d);
	/* a directory others can write to, or someone else's, or a symlink, is refused */
	CHECK(chmod(run, 0770) == 0);
	CHECK(dp_cgi_dir_open(&d, &c, "/data/x.data") < 0);
	CHECK(chmod(run, 0700) == 0);
	if (geteuid() == 0) {
		CHECK(chown(run, 65534, 65534) == 0);
		CHECK(dp_cgi_dir_open(&d, &c, "/data/x.data") < 0);
		CHECK(chown(run, 0, 0) == 0);
	}
	snprintf(name, sizeof(name), "%s/run2", scratch);
	CHECK(mkdir(name, 0700) == 0);
	CHECK(rmdir(run) == 0); /* everything above cleaned up after itself */
	CHECK(symlink(name, run) == 0);
	CHECK(dp_cgi_dir_open(&d, &c, "/data/x.data") < 0);
	CHECK(unlink(run) == 0);
	CHECK(dp_cgi_dir_open(&d, &c, "/data/x.data") == 0); /* created afresh */
	dp_cgi_dir_close(&d);
}

static void setup(void)
{
	char p[1024], q[1024];

	snprintf(scratch, sizeof(scratch), "/tmp/dp-test-cgi-%ld", (long)getpid());
	mkdir(scratch, 0700);
	path_in(p, sizeof(p), "root");
	mkdir(p, 0700);
	path_in(p, sizeof(p), "root/sub");
	mkdir(p, 0700);
	touch("root/wf.data", "x");
	touch("outside.data", "x");
	path_in(p, sizeof(p), "outside.data");
	path_in(q, sizeof(q), "root/out.data");
	if (symlink(p, q) < 0)
		fprintf(stderr, "symlink: %s\n", strerror(errno));
	path_in(q, sizeof(q), "root/updir");
	if (symlink(scratch, q) < 0)
		fprintf(stderr, "symlink: %s\n", strerror(errno));
	path_in(q, sizeof(q), "root/in.data");
	if (symlink("wf.data", q) < 0)
		fprintf(stderr, "symlink: %s\n", strerror(errno));
}

static void teardown(void)
{
	char cmd[1100];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", scratch);
}

static void run_all(void)
{
	setup();
	test_req_verdicts();
	test_conf_timeout();
	test_mangle();
	test_request_messages();
	test_reply_headers();
	test_responses();
	test_protocol_files();
	teardown();
}

DP_TEST_MAIN(run_all)
