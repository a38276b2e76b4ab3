/*
 * tests/fuzz/fuzz_query.c - libFuzzer target for the query parser, which every front end
 * hands what the network sends: any input must be accepted or refused cleanly, with a
 * message; an accepted one must write a canonical query string (dp_query_format()) that
 * parses again to a query writing the same string (the canonical form is a fixed point).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/err.h"
#include "query/query.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_QUERY_MAX 10000 /* past the parser's limit, to reach its refusal */

static void check_one(const char *qs, bool has_time)
{
	static struct dp_query q, q2;
	struct dp_buf b, c;

	if (dp_query_parse(qs, has_time, &q) < 0) {
		if (!dp_errmsg()[0]) {
			fprintf(stderr, "a refused query without a message\n");
			abort();
		}
		return;
	}
	dp_buf_init(&b, 1u << 20);
	dp_buf_init(&c, 1u << 20);
	if (dp_query_format(&q, &b) < 0) {
		fprintf(stderr, "an accepted query does not format\n");
		abort();
	}
	if (dp_query_parse(dp_buf_cstr(&b), has_time, &q2) < 0) {
		fprintf(stderr, "the canonical form '%s' of '%s' does not parse: %s\n",
			dp_buf_cstr(&b), qs, dp_errmsg());
		abort();
	}
	if (dp_query_format(&q2, &c) < 0 || c.len != b.len || memcmp(c.data, b.data, b.len)) {
		fprintf(stderr, "the canonical form is not a fixed point: '%s' -> '%s'\n",
			dp_buf_cstr(&b), dp_buf_cstr(&c));
		abort();
	}
	dp_buf_release(&b);
	dp_buf_release(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char qs[FUZZ_QUERY_MAX + 1];

	if (size > FUZZ_QUERY_MAX)
		return 0;
	memcpy(qs, data, size);
	qs[size] = '\0'; /* a NUL inside ends the string, as in a C caller */
	check_one(qs, false);
	check_one(qs, true);
	return 0;
}
