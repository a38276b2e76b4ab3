/*
 * tests/fuzz/fuzz_cgi_req.c - libFuzzer target for what the CGI program decodes: the
 * request on its pipe (dp_cgi_req_decode(): any bytes are a request, incomplete, or
 * refused; a decoded one encodes and decodes again to the same request) and the query
 * string of the request core (dp_request_split(): file= split off, format= read first,
 * the rest verbatim, never longer than what came in), then the CGI program's own
 * parameters (dp_cgi_req_parse() with no profile directory: it must refuse with a status
 * and a message, never open anything).
 */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/cgi/cgi_int.h"
#include "core/buf.h"
#include "core/err.h"
#include "front/request.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_pipe(const uint8_t *data, size_t size)
{
	static struct dp_cgi_req r, back;
	struct dp_buf b;
	long n = dp_cgi_req_decode(data, size, &r);

	if (n <= 0)
		return;
	if ((size_t)n > size) {
		fprintf(stderr, "decoded %ld bytes of %zu\n", n, size);
		abort();
	}
	dp_buf_init(&b, 1u << 20);
	if (dp_cgi_req_encode(&r, &b) == 0 &&
	    (dp_cgi_req_decode(b.data, b.len, &back) != (long)b.len || strcmp(back.path, r.path) ||
	     strcmp(back.script, r.script) || strcmp(back.query, r.query) || back.ctl != r.ctl ||
	     back.timeout != r.timeout || back.fmt != r.fmt || back.nonce != r.nonce ||
	     back.pid != r.pid)) {
		fprintf(stderr, "a decoded request does not survive encoding\n");
		abort();
	}
	dp_buf_release(&b);
}

static void check_query(const char *qs)
{
	struct dp_request q;
	int st = dp_request_split(qs, DP_FMT_HTML, DP_CGI_QS_MAX, &q);
	static struct dp_cgi_req r;
	static struct dp_cgi_conf c;

	if ((st != 0 && st != 400 && st != 414) || (st && !q.msg[0]) || q.rest.len > strlen(qs) ||
	    q.fmt != dp_request_format(qs, DP_FMT_HTML) ||
	    (q.fmt_given && q.fmt == DP_FMT_HTML && !strstr(qs, "html"))) {
		fprintf(stderr, "dp_request_split(\"%s\"): %d, rest %zu bytes\n", qs, st,
			q.rest.len);
		abort();
	}
	dp_request_release(&q);
	memset(&c, 0, sizeof(c)); /* no DEEPPROF_CGI_ROOT: no file may be opened */
	c.log_fd = -1;
	setenv("QUERY_STRING", qs, 1);
	st = dp_cgi_req_parse(&c, &r);
	if (st != 400 && st != 403 && st != 414) {
		fprintf(stderr, "dp_cgi_req_parse(\"%s\") = %d without a root\n", qs, st);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char qs[DP_CGI_QS_MAX + 64];

	check_pipe(data, size);
	if (size < sizeof(qs)) {
		memcpy(qs, data, size);
		qs[size] = '\0';
		check_query(qs);
	}
	return 0;
}
