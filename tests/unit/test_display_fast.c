/*
 * tests/unit/test_display_fast.c - the fast paths big pages take, checked against plain
 * reference code or exact expected bytes: inline buffer appends and their ceiling,
 * number formatting, JSON and HTML escaping (word-at-a-time and worst-case-room paths),
 * UTF-8 widths and control-character scans, and link templates (one format per page).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/err.h"
#include "../../src/core/json.h"
#include "../../src/display/display_int.h"
#include "../../src/display/html_int.h"
#include "harness.h"

/* A small deterministic generator (xorshift). */
static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

TEST(buf_ceiling)
{
	struct dp_buf b;

	dp_buf_init(&b, 10);
	CHECK_EQ(dp_buf_add(&b, "12345678", 8), 0);
	CHECK(b.cap <= 11); /* never past the ceiling: the inline appends trust cap */
	CHECK_EQ(dp_buf_add(&b, "abc", 3), -DP_ENOMEM);
	CHECK_EQ(b.len, 8);
	CHECK_EQ(dp_buf_addc(&b, 'x'), -DP_ENOMEM); /* sticky */
	CHECK_STR(dp_buf_cstr(&b), "12345678");
	dp_buf_release(&b);

	dp_buf_init(&b, 50);
	dp_buf_hint(&b, 1000); /* capped by the ceiling, not an error */
	CHECK_EQ(dp_buf_error(&b), 0);
	for (int i = 0; i < 50; i++)
		CHECK_EQ(dp_buf_addc(&b, (uint8_t)('a' + i % 26)), 0);
	CHECK_EQ(b.len, 50);
	CHECK_EQ(dp_buf_addc(&b, 'z'), -DP_ENOMEM);
	dp_buf_release(&b);
}

TEST(buf_room)
{
	struct dp_buf b;
	char *p;

	dp_buf_init(&b, 1 << 20);
	p = dp_buf_room(&b, 5);
	CHECK(p != NULL);
	if (p) {
		memcpy(p, "hello", 5);
		dp_buf_commit(&b, p + 5);
	}
	dp_buf_adds(&b, ", world");
	CHECK_STR(dp_buf_cstr(&b), "hello, world");
	CHECK_EQ(b.len, 12);
	dp_buf_release(&b);
	dp_buf_init(&b, 4);
	CHECK(dp_buf_room(&b, 5) == NULL);
	CHECK_EQ(dp_buf_error(&b), -DP_ENOMEM);
	dp_buf_release(&b);
}

TEST(buf_numbers)
{
	uint64_t seed = 88172645463325252ull, v = 1;
	struct dp_buf b, ref;
	char want[32];

	dp_buf_init(&b, 1 << 20);
	dp_buf_init(&ref, 1 << 20);
	dp_buf_addu(&b, UINT64_MAX);
	CHECK_STR(dp_buf_cstr(&b), "18446744073709551615");
	dp_buf_reset(&b);
	for (int i = 0; i < 20; i++, v *= 10) { /* each power of ten and its neighbours */
		dp_buf_addu(&b, v - 1);
		dp_buf_addu(&b, v);
		dp_buf_addu(&b, v + 1);
		dp_buf_addc(&b, ' ');
		dp_buf_addf(&ref, "%" PRIu64 "%" PRIu64 "%" PRIu64 " ", v - 1, v, v + 1);
	}
	for (int i = 0; i < 2000; i++) {
		uint64_t x = rnd(&seed) >> (i % 64);

		dp_buf_addu(&b, x);
		dp_buf_addc(&b, ',');
		dp_buf_addf(&ref, "%" PRIu64 ",", x);
	}
	CHECK_EQ(b.len, ref.len);
	CHECK_STR(dp_buf_cstr(&b), dp_buf_cstr(&ref));
	CHECK_EQ(dp_fmt_u64(want, 0), 1);
	CHECK_STR(want, "0");
	CHECK_EQ(dp_fmt_u64(want, 4096), 4);
	CHECK_STR(want, "4096");
	dp_buf_release(&b);
	dp_buf_release(&ref);
}

/* dp_json_escape of @s (@len bytes) is @want. */
static void json_is(const char *s, size_t len, const char *want)
{
	struct dp_buf b;

	dp_buf_init(&b, 1 << 20);
	CHECK_EQ(dp_json_escape(&b, s, len), 0);
	CHECK_STR(dp_buf_cstr(&b), want);
	dp_buf_release(&b);
}

TEST(json_escape)
{
	char big[3000], want[3100];

	json_is("plain text", 10, "\"plain text\"");
	json_is("", 0, "\"\"");
	json_is("a\"b\\c", 5, "\"a\\\"b\\\\c\"");
	json_is("\n\t\x01\x7f.", 5, "\"\\n\\t\\u0001\\u007f.\"");
	json_is("a\0b", 3, "\"a\\u0000b\"");
	json_is("caf\xc3\xa9 \xe2\x82\xac", 9, "\"caf\xc3\xa9 \xe2\x82\xac\"");
	json_is("x\xe2\x80\xa8y\xe2\x80\xa9", 8, "\"x\\u2028y\\u2029\"");
	json_is("\xff", 1, "\"\\ufffd\"");
	json_is("\xc0\xaf", 2, "\"\\ufffd\\ufffd\"");
	json_is("ab\xe2\x82", 4, "\"ab\\ufffd\\ufffd\"");
	json_is("\xed\xa0\x80", 3, "\"\\ufffd\\ufffd\\ufffd\""); /* a surrogate */
	memset(big, 'q', sizeof(big));
	big[1500] = '"';
	want[0] = '"';
	memset(want + 1, 'q', 1500);
	memcpy(want + 1501, "\\\"", 2);
	memset(want + 1503, 'q', 1499);
	memcpy(want + 3002, "\"", 2);
	json_is(big, sizeof(big), want);
}

TEST(json_members)
{
	struct dp_buf b;
	struct dp_json j;

	dp_buf_init(&b, 1 << 20);
	for (unsigned pretty = 0; pretty < 2; pretty++) {
		dp_buf_reset(&b);
		dp_json_init(&j, &b, pretty);
		dp_json_begin_object(&j);
		dp_json_kv_u64(&j, "a", 1);
		dp_json_kv_u64(&j, "b\"", 18446744073709551615ull);
		dp_json_kv_str(&j, "s", "x\ty");
		dp_json_kv_str(&j, "n", NULL);
		dp_json_key(&j, "o");
		dp_json_begin_object(&j);
		dp_json_kv_u64(&j, "z", 0);
		dp_json_end_object(&j);
		dp_json_key(&j, "i");
		dp_json_i64(&j, INT64_MIN);
		CHECK_EQ(dp_json_end_object(&j), 0);
		CHECK_STR(dp_buf_cstr(&b),
			  pretty ? "{\n  \"a\": 1,\n  \"b\\\"\": 18446744073709551615,\n"
				   "  \"s\": \"x\\ty\",\n  \"n\": null,\n  \"o\": {\"z\":0},\n"
				   "  \"i\": -9223372036854775808\n}"
				 : "{\"a\":1,\"b\\\"\":18446744073709551615,\"s\":\"x\\ty\","
				   "\"n\":null,\"o\":{\"z\":0},\"i\":-9223372036854775808}");
	}
	dp_buf_release(&b);
}

/* The plain reference: each special character by its entity, up to @len bytes. */
static void html_ref(struct dp_buf *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		switch (s[i]) {
		case '&':
			dp_buf_adds(out, "&amp;");
			break;
		case '<':
			dp_buf_adds(out, "&lt;");
			break;
		case '>':
			dp_buf_adds(out, "&gt;");
			break;
		case '"':
			dp_buf_adds(out, "&quot;");
			break;
		case '\'':
			dp_buf_adds(out, "&#39;");
			break;
		default:
			dp_buf_addc(out, (uint8_t)s[i]);
		}
	}
}

TEST(html_escape)
{
	static const char specials[] = "&<>\"'ab\xc3\xa9";
	uint64_t seed = 12345;
	struct dp_buf b, ref;
	char *s = malloc(10001);

	dp_buf_init(&b, 1 << 20);
	dp_buf_init(&ref, 1 << 20);
	dp_html_escape(&b, "a&b<c>d\"e'f");
	CHECK_STR(dp_buf_cstr(&b), "a&amp;b&lt;c&gt;d&quot;e&#39;f");
	dp_buf_reset(&b);
	dp_html_escapen(&b, "<x>\0<y>", 7); /* NULs are copied; the length rules */
	CHECK_EQ(b.len, 19);
	CHECK_MEM(b.data, "&lt;x&gt;\0&lt;y&gt;", 19);
	for (size_t n = 0; s && n <= 10000; n = n * 3 + 1) { /* both sides of the fast limit */
		for (size_t i = 0; i < n; i++)
			s[i] = specials[rnd(&seed) % (sizeof(specials) - 1)];
		s[n] = 0;
		dp_buf_reset(&b);
		dp_buf_reset(&ref);
		dp_html_escape(&b, s);
		html_ref(&ref, s, n);
		CHECK_STR(dp_buf_cstr(&b), dp_buf_cstr(&ref));
		dp_buf_reset(&b);
		dp_html_escapen(&b, s, n / 2);
		dp_buf_reset(&ref);
		html_ref(&ref, s, n / 2);
		CHECK_STR(dp_buf_cstr(&b), dp_buf_cstr(&ref));
	}
	dp_buf_release(&b);
	dp_buf_init(&b, 12); /* too little room for the worst case: the careful path */
	dp_html_escapen(&b, "a<b", 3);
	CHECK_STR(dp_buf_cstr(&b), "a&lt;b");
	CHECK_EQ(dp_buf_error(&b), 0);
	dp_html_escapen(&b, "<<", 2);
	CHECK_EQ(dp_buf_error(&b), -DP_ENOMEM);
	dp_buf_release(&b);
	dp_buf_release(&ref);
	free(s);
}

/* The plain references of dp_text_width and dp_text_plain. */
static size_t width_ref(const char *s, size_t len)
{
	size_t w = 0;

	for (size_t i = 0; i < len && s[i]; i++)
		w += ((unsigned char)s[i] & 0xC0u) != 0x80u;
	return w;
}

static bool plain_ref(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] == 0x7f)
			return false;
	return true;
}

TEST(text_scans)
{
	static const char *const parts[] = {"a",   "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80",
					    " ",   "~",	       "\x7f",	       "\x1b",
					    "\x80"};
	uint64_t seed = 777;
	char s[64];

	for (int t = 0; t < 3000; t++) {
		size_t len = 0, target = rnd(&seed) % 40;

		while (len < target) {
			const char *p = parts[rnd(&seed) % (t % 2 ? 4 : 9)];
			size_t pl = strlen(p);

			memcpy(s + len, p, pl);
			len += pl;
		}
		s[len] = 0;
		CHECK_EQ(dp_text_width(s, len), width_ref(s, len));
		CHECK_EQ(dp_text_plain(s, len), plain_ref(s, len));
		if (len > 9) { /* a NUL inside the length ends the width count */
			s[9] = 0;
			CHECK_EQ(dp_text_width(s, len), width_ref(s, len));
		}
	}
	for (unsigned c = 0; c < 256; c++) /* every byte at every place of a 17-byte run */
		for (size_t at = 0; at < 17; at++) {
			memset(s, 'a', 17);
			s[at] = (char)c;
			CHECK_EQ(dp_text_plain(s, 17), plain_ref(s, 17));
		}
}

TEST(shorten_plain)
{
	struct dp_buf b;

	dp_buf_init(&b, 1 << 16);
	CHECK_EQ(dp_shorten_name(&b, "abcdefghij", 7), 0);
	CHECK_STR(dp_buf_cstr(&b), "ab...ij");
	CHECK_EQ(dp_shorten_name(&b, "abcdefghij", 10), 0);
	CHECK_STR(dp_buf_cstr(&b), "abcdefghij");
	CHECK_EQ(dp_shorten_name(&b, "abcdefghij", 3), 0);
	CHECK_STR(dp_buf_cstr(&b), "abc");
	CHECK_EQ(dp_shorten_name(&b, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9xyz", 7), 0);
	CHECK_STR(dp_buf_cstr(&b), "\xc3\xa9\xc3\xa9...yz");
	dp_buf_release(&b);
}

TEST(link_templates)
{
	static const char *const qs[] = {
		"page=flame&min=0",
		"page=top&limit=1-1000&fields=pqTSAB&inactive=sss&unit=ms&sort=name",
		"page=clique&id=3&anc=all&contour=1&mq=always&view=threads&format=html",
	};
	static const enum dp_page pages[] = {DP_PAGE_CLIQUE, DP_PAGE_PROC,    DP_PAGE_SITE,
					     DP_PAGE_MODULE, DP_PAGE_CALLERS, DP_PAGE_MENU,
					     DP_PAGE_FLAME};
	static const uint32_t ids[] = {1, 7, 10, 99999, 4294967295u, 0};
	struct dp_buf b;

	dp_buf_init(&b, 1 << 16);
	for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
		struct dp_query q, copy;
		struct dp_display *d = dp_disp_new();

		CHECK(d != NULL);
		CHECK_EQ(dp_query_parse(qs[k], true, &q), 0);
		if (!d)
			continue;
		copy = q;
		dp_disp_link_base(d, &q);
		for (size_t p = 0; p < sizeof(pages) / sizeof(pages[0]); p++)
			for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
				dp_buf_reset(&b);
				CHECK_EQ(dp_query_link(&q, pages[p], ids[i], &b), 0);
				CHECK_STR(dp_disp_link_to(d, &q, pages[p], ids[i]),
					  dp_buf_cstr(&b));
				CHECK_STR(dp_disp_link_to(d, &copy, pages[p], ids[i]),
					  dp_buf_cstr(&b));
			}
		dp_display_free(d);
	}
	dp_buf_release(&b);
}

DP_TEST_MAIN(test_buf_ceiling, test_buf_room, test_buf_numbers, test_json_escape, test_json_members,
	     test_html_escape, test_text_scans, test_shorten_plain, test_link_templates)
