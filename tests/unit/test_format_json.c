/*
 * tests/unit/test_format_json.c - the byte buffer (ceiling, sticky errors), the JSON
 * emitter (commas, layout, escaping of control characters and invalid UTF-8, numbers)
 * and both renderings of `deepprof dump` on the sample profile (golden fragments).
 * Writes the sample's JSON dump to sample_dump.json for the python schema check.
 */
#include <math.h>
#include <stdlib.h>

#include "core/err.h"
#include "core/json.h"
#include "deepprof/format.h"
#include "format/dump.h"
#include "harness.h"
#include "sample_profile.h"

TEST(buf_ceiling)
{
	struct dp_buf b;

	dp_buf_init(&b, 10);
	CHECK_STR(dp_buf_cstr(&b), "");
	CHECK_EQ(dp_buf_add(&b, "0123456789", 10), 0);
	CHECK_EQ(b.len, 10);
	CHECK_EQ(dp_buf_addc(&b, 'x'), -DP_ENOMEM);
	CHECK(strstr(dp_errmsg(), "limit of 10 bytes") != NULL);
	CHECK_EQ(dp_buf_adds(&b, ""), -DP_ENOMEM); /* sticky, even for nothing */
	CHECK_EQ(dp_buf_error(&b), -DP_ENOMEM);
	CHECK_STR(dp_buf_cstr(&b), "0123456789");
	dp_buf_reset(&b);
	CHECK_EQ(dp_buf_addf(&b, "%d-%s", 42, "ab"), 0);
	CHECK_STR(dp_buf_cstr(&b), "42-ab");
	CHECK_EQ(dp_buf_addf(&b, "%s", "123456"), -DP_ENOMEM); /* 5 + 6 > 10 */
	CHECK_STR(dp_buf_cstr(&b), "42-ab");
	dp_buf_release(&b);
	dp_buf_init(&b, 1 << 20);
	for (int i = 0; i < 10000; i++)
		dp_buf_addf(&b, "%04d", i % 10000);
	CHECK_EQ(b.len, 40000);
	CHECK(memcmp(b.data + 4 * 9999, "9999", 4) == 0);
	dp_buf_release(&b);
}

static void check_escape(const char *in, size_t len, const char *want)
{
	struct dp_buf b;

	dp_buf_init(&b, 1 << 16);
	CHECK_EQ(dp_json_escape(&b, in, len), 0);
	CHECK_STR(dp_buf_cstr(&b), want);
	dp_buf_release(&b);
}
#define ESC(lit, want) check_escape(lit, sizeof(lit) - 1, want)

TEST(json_escape)
{
	ESC("plain", "\"plain\"");
	ESC("q\"b\\s/", "\"q\\\"b\\\\s/\"");
	ESC("\n\r\t\b\f", "\"\\n\\r\\t\\b\\f\"");
	ESC("\x01\x1f\x7f", "\"\\u0001\\u001f\\u007f\"");
	ESC("a\0b", "\"a\\u0000b\"");
	ESC("\xc3\xbc\xe2\x82\xac\xf0\x9f\x98\x80", "\"\xc3\xbc\xe2\x82\xac\xf0\x9f\x98\x80\"");
	ESC("\xff", "\"\\ufffd\"");
	ESC("\xc0\x80", "\"\\ufffd\\ufffd\"");			     /* overlong NUL */
	ESC("\xe0\x80\xaf", "\"\\ufffd\\ufffd\\ufffd\"");	     /* overlong '/' */
	ESC("\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"");	     /* surrogate D800 */
	ESC("\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\""); /* > U+10FFFF */
	ESC("\xe2\x82", "\"\\ufffd\\ufffd\"");			     /* truncated */
	ESC("x\xe2\x82y", "\"x\\ufffd\\ufffdy\"");
	ESC("\xe2\x80\xa8|\xe2\x80\xa9", "\"\\u2028|\\u2029\"");
}

TEST(json_structure)
{
	struct dp_buf b;
	struct dp_json j;

	dp_buf_init(&b, 1 << 16);
	dp_json_init(&j, &b, 0);
	dp_json_begin_object(&j);
	dp_json_kv_u64(&j, "a", UINT64_MAX);
	dp_json_key(&j, "b");
	dp_json_begin_array(&j);
	dp_json_i64(&j, INT64_MIN);
	dp_json_double(&j, 0.5);
	dp_json_double(&j, (double)NAN);
	dp_json_bool(&j, true);
	dp_json_null(&j);
	dp_json_str(&j, NULL);
	dp_json_begin_object(&j);
	dp_json_end_object(&j);
	dp_json_begin_array(&j);
	dp_json_end_array(&j);
	dp_json_end_array(&j);
	dp_json_kv_hex(&j, "h", 0xABCDEF);
	dp_json_kv_str(&j, "s\n", "v");
	dp_json_kv_bool(&j, "f", false);
	dp_json_kv_double(&j, "d", -1.25e-7);
	dp_json_kv_double(&j, "p", 0.1 + 1e-17);
	CHECK_EQ(dp_json_end_object(&j), 0);
	CHECK_STR(dp_buf_cstr(&b), "{\"a\":18446744073709551615,\"b\":[-9223372036854775808,0.5,"
				   "null,true,null,null,{},[]],\"h\":\"0xabcdef\",\"s\\n\":\"v\","
				   "\"f\":false,\"d\":-1.25e-07,\"p\":0.10000000000000002}");
	dp_buf_reset(&b);
	dp_json_init(&j, &b, 2);
	dp_json_begin_object(&j);
	dp_json_key(&j, "x");
	dp_json_begin_array(&j);
	dp_json_begin_object(&j);
	dp_json_kv_u64(&j, "id", 1);
	dp_json_kv_u64(&j, "n", 2);
	dp_json_end_object(&j);
	dp_json_u64(&j, 3);
	dp_json_end_array(&j);
	dp_json_key(&j, "e");
	dp_json_begin_array(&j);
	dp_json_end_array(&j);
	dp_json_end_object(&j);
	CHECK_STR(dp_buf_cstr(&b), "{\n  \"x\": [\n    {\"id\":1,\"n\":2},\n    3\n  ],\n"
				   "  \"e\": []\n}");
	dp_buf_release(&b);
}

static int count_flush(struct dp_buf *out, void *arg)
{
	struct dp_buf *all = arg;

	dp_buf_add(all, out->data, out->len);
	dp_buf_reset(out);
	return dp_buf_error(all);
}

TEST(dump_json_sample)
{
	struct dp_profile p;
	struct dp_buf b;
	const char *s;
	FILE *f;

	dp_buf_init(&b, 1 << 20);
	CHECK_EQ(dp_sample_profile(&p, DP_FEAT_SYMBOLIZED | DP_FEAT_COVERAGE), 0);
	CHECK_EQ(dp_dump_json(&p, &b, NULL, NULL), 0);
	s = dp_buf_cstr(&b);
	CHECK(strncmp(s, "{\n  \"version\": 1,\n", 18) == 0);
	CHECK(strstr(s, "\n  \"root_pd\": 1,\n") != NULL);
	CHECK(strstr(s, "\n  \"sample_period_ns\": 1000123,\n") != NULL);
	CHECK(strstr(s, "\n  \"argv\": [\n    \"prog\",\n    \"--n=30\",\n    \"\xc3\xbcn\xc3\xaf"
			"code \\\"q\\\"\\n\\u0001\"\n  ],\n") != NULL);
	CHECK(strstr(s, "\"lost\": {\n    \"calls\": 0,\n    \"samples\": 0,\n    \"allocs\": 0\n"
			"  },\n") != NULL);
	CHECK(strstr(s, "\n    {\"index\":2,\"tid\":101,\"name\":\"worker-1\",\"root_pd\":3,") !=
	      NULL);
	CHECK(strstr(s, "\"bias\":\"0x555500000000\",\"build_id\":\"deadbeef0102030405060708090a"
			"0b0c0d0e0fff\",\"segments\":[{\"start\":\"0x555500001000\",\"size\":8192,"
			"\"flags\":5},") != NULL);
	CHECK(strstr(s,
		     "\n    {\"id\":7,\"kind\":\"function\",\"addr\":\"0x555500001500\",\"name\":"
		     "\"ns::Widget::area() const\",\"linkage_name\":\"_ZNK2ns6Widget4areaEv\","
		     "\"file\":\"src/w\\ufffd\\ufffdidget.cc\",\"line\":7,\"linkage\":\"global\","
		     "\"object\":1,\"cp\":[]},\n") != NULL);
	CHECK(strstr(s,
		     "{\"id\":4,\"kind\":\"function\",\"addr\":\"0x555500001200\",\"name\":\"fib\""
		     ",\"linkage_name\":\"\",\"file\":\"src/prog.c\",\"line\":10,\"linkage\":"
		     "\"global\",\"object\":1,\"cp\":[{\"kind\":1,\"line\":10},{\"kind\":2,\"line\""
		     ":12},{\"kind\":1,\"line\":14}]}") != NULL);
	CHECK(strstr(s, "{\"id\":1,\"kind\":\"root\",\"addr\":\"0x0\",\"name\":\"\",") != NULL);
	CHECK(strstr(s, "{\"id\":5,\"ps\":3,\"addr\":\"0x7f0000041b2c\",\"file\":\"src/prog.c\","
			"\"line\":105,\"kind\":\"callback\",\"callee_ps\":0}") != NULL);
	CHECK(strstr(s, "{\"id\":5,\"ps\":4,\"thread\":1,\"cp\":[180,120,60]}") != NULL);
	CHECK(strstr(s,
		     "\n    {\"id\":8,\"caller\":4,\"css\":6,\"callee\":8,\"calls\":2,\"exits\":2,"
		     "\"unwinds\":0,\"samples\":0,\"callseqs\":0,\"allocs\":1,\"alloc_bytes\":"
		     "18446744073709551615},\n") != NULL);
	CHECK(strstr(s, "\"callseqs\":9,\"allocs\":0,\"alloc_bytes\":0}\n  ]\n}\n") != NULL);
	f = fopen("sample_dump.json", "w");
	CHECK(f != NULL);
	if (f) {
		fwrite(b.data, 1, b.len, f);
		fclose(f);
	}
	dp_buf_release(&b);
	dp_profile_release(&p);
}

TEST(dump_flush_and_text)
{
	struct dp_profile p;
	struct dp_buf b, all, whole;
	const char *s;

	dp_buf_init(&b, 1 << 20);
	dp_buf_init(&all, 1 << 24);
	dp_buf_init(&whole, 1 << 24);
	CHECK_EQ(dp_sample_profile(&p, DP_FEAT_SYMBOLIZED | DP_FEAT_STOPPED), 0);
	/* a flushed dump is the same bytes as an unflushed one */
	CHECK_EQ(dp_dump_json(&p, &whole, NULL, NULL), 0);
	CHECK_EQ(dp_dump_json(&p, &b, count_flush, &all), 0);
	count_flush(&b, &all);
	CHECK(all.len == whole.len && memcmp(all.data, whole.data, all.len) == 0);
	CHECK(strstr(dp_buf_cstr(&whole),
		     "\"stop_reason\": \"out of memory (DEEPPROF_MAX_MB=1)\""));
	dp_buf_reset(&b);
	CHECK_EQ(dp_dump_text(&p, "Deep.data", &b, NULL, NULL), 0);
	s = dp_buf_cstr(&b);
	CHECK(strncmp(s, "deepprof data file Deep.data (format version 1, ELF machine 62)\n", 64) ==
	      0);
	CHECK(strstr(s, "\n  argv              prog --n=30 \xc3\xbcn\xc3\xaf"
			"code \"q\"??\n") != NULL);
	CHECK(strstr(s, "\n  stop reason       out of memory (DEEPPROF_MAX_MB=1)\n") != NULL);
	CHECK(strstr(s, "\nps (8)\n") != NULL);
	CHECK(strstr(s, "\ncsd (10)\n") != NULL);
	CHECK(strstr(s, "  fib -> fib\n") != NULL);
	CHECK(strstr(s, "  main -> ns::Widget::area() const\n") != NULL);
	CHECK(strstr(s, "  <program> -> <thread>\n") != NULL);
	CHECK(strstr(s, " 12345678901 12345678901 ") != NULL);
	dp_buf_release(&b);
	dp_buf_release(&all);
	dp_buf_release(&whole);
	dp_profile_release(&p);
}

DP_TEST_MAIN(test_buf_ceiling, test_json_escape, test_json_structure, test_dump_json_sample,
	     test_dump_flush_and_text)
