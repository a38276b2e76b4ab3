/*
 * tests/unit/test_report_json.c - the JSON form of reports: the exact text of a
 * hand-made report (every member of the schema), and for every page of the sample
 * profile: valid JSON (a small validator below), the pretty form equal to the compact
 * one but for whitespace, and one JSON row per report row.
 */
#include "report/report_int.h"
#include "test_report2_fix.h"

/* ------------------------------------------------------------ a validator --- */

struct jv {
	const char *s;
	size_t i, n;
	int depth;
};

static void jv_ws(struct jv *v)
{
	while (v->i < v->n && strchr(" \t\r\n", v->s[v->i]))
		v->i++;
}

static int jv_lit(struct jv *v, const char *lit)
{
	size_t len = strlen(lit);

	if (v->n - v->i < len || memcmp(v->s + v->i, lit, len) != 0)
		return -1;
	v->i += len;
	return 0;
}

static int jv_string(struct jv *v)
{
	if (v->i >= v->n || v->s[v->i++] != '"')
		return -1;
	while (v->i < v->n) {
		unsigned char c = (unsigned char)v->s[v->i++];

		if (c == '"')
			return 0;
		if (c < 0x20)
			return -1;
		if (c != '\\')
			continue;
		if (v->i >= v->n)
			return -1;
		c = (unsigned char)v->s[v->i++];
		if (c == 'u') {
			for (int k = 0; k < 4; k++)
				if (v->i >= v->n || !strchr("0123456789abcdefABCDEF", v->s[v->i++]))
					return -1;
		} else if (!strchr("\"\\/bfnrt", c)) {
			return -1;
		}
	}
	return -1;
}

static int jv_number(struct jv *v)
{
	size_t start = v->i;

	if (v->i < v->n && v->s[v->i] == '-')
		v->i++;
	while (v->i < v->n && strchr("0123456789.eE+-", v->s[v->i]))
		v->i++;
	return v->i > start ? 0 : -1;
}

static int jv_value(struct jv *v);

/* jv_items - the members (@obj) or elements after the opening bracket */
static int jv_items(struct jv *v, bool obj)
{
	char close = obj ? '}' : ']';

	jv_ws(v);
	if (v->i < v->n && v->s[v->i] == close) {
		v->i++;
		return 0;
	}
	for (;;) {
		jv_ws(v);
		if (obj) {
			if (jv_string(v) < 0)
				return -1;
			jv_ws(v);
			if (v->i >= v->n || v->s[v->i++] != ':')
				return -1;
		}
		if (jv_value(v) < 0)
			return -1;
		jv_ws(v);
		if (v->i >= v->n)
			return -1;
		if (v->s[v->i] == close) {
			v->i++;
			return 0;
		}
		if (v->s[v->i++] != ',')
			return -1;
	}
}

static int jv_value(struct jv *v)
{
	int rc;

	jv_ws(v);
	if (v->i >= v->n)
		return -1;
	switch (v->s[v->i]) {
	case '{':
	case '[':
		if (++v->depth > 32)
			return -1;
		rc = jv_items(v, v->s[v->i++] == '{');
		v->depth--;
		return rc;
	case '"':
		return jv_string(v);
	case 't':
		return jv_lit(v, "true");
	case 'f':
		return jv_lit(v, "false");
	case 'n':
		return jv_lit(v, "null");
	default:
		return jv_number(v);
	}
}

/* json_valid - whether @s is exactly one JSON value */
static bool json_valid(const char *s)
{
	struct jv v = {s, 0, strlen(s), 0};

	if (jv_value(&v) < 0)
		return false;
	jv_ws(&v);
	return v.i == v.n;
}

/* strip_ws - @s without the whitespace outside strings, into @out (same size) */
static void strip_ws(const char *s, char *out)
{
	bool in = false;

	for (; *s; s++) {
		if (in && *s == '\\') {
			*out++ = *s++;
			*out++ = *s;
			continue;
		}
		if (*s == '"')
			in = !in;
		if (in || !strchr(" \t\r\n", *s))
			*out++ = *s;
	}
	*out = 0;
}

/* count - occurrences of @needle in @s */
static uint32_t count(const char *s, const char *needle)
{
	uint32_t n = 0;

	for (const char *p = strstr(s, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* ------------------------------------------------------------------ tests --- */

static const char golden[] =
	"{\"schema\":2,\"page\":\"clique\",\"query\":\"page=clique&id=3\",\"title\":\"Clique 3: "
	"f\",\"subject\":{\"kind\":\"clique\",\"id\":3,\"depth\":0,\"flags\":[],\"name\":\"f\","
	"\"callee\":null,\"file\":\"a.c\",\"line\":7,\"ps\":4,\"css\":0,\"clique\":3,\"module\":1,"
	"\"thread\":0,\"n\":0,\"own\":{\"calls\":2,\"exits\":1,\"unwinds\":1,\"samples\":5,"
	"\"callseqs\":6,\"allocs\":7,\"bytes\":18446744073709551615},\"desc\":{\"samples\":9,"
	"\"callseqs\":10,\"allocs\":11,\"bytes\":12},\"total\":{\"samples\":14,\"callseqs\":16,"
	"\"allocs\":18,\"bytes\":11}},\"sections\":[{\"id\":\"procs\",\"title\":"
	"null,\"rows\":[{\"kind\":\"csd\",\"id\":8,\"depth\":1,\"flags\":[\"recursive\","
	"\"inactive\",\"self\"],\"name\":\"g "
	"\\\"x\\\"\\n\",\"callee\":\"g\",\"file\":null,\"line\":"
	"0,\"ps\":5,\"css\":6,\"clique\":3,\"module\":1,\"thread\":2,\"n\":0,\"own\":{\"calls\":0,"
	"\"exits\":0,\"unwinds\":0,\"samples\":0,\"callseqs\":0,\"allocs\":0,\"bytes\":0},\"desc\":"
	"{\"samples\":0,\"callseqs\":0,\"allocs\":0,\"bytes\":0},\"total\":{\"samples\":0,"
	"\"callseqs\":0,\"allocs\":0,\"bytes\":0}}]},{\"id\":\"empty\",\"title\":"
	"\"Nothing\",\"rows\":[]}],\"facts\":[{\"key\":\"n\",\"label\":\"count\",\"value\":42},"
	"{\"key\":\"s\",\"label\":\"a string\",\"value\":\"bad \\ufffd\"},{\"key\":\"f\",\"label\":"
	"\"f\",\"value\":0.5}],\"links\":[{\"label\":\"menu\",\"query\":\"page=menu&sort=name\"}],"
	"\"note\":\"a note\",\"totals\":{\"samples\":100,\"callseqs\":200,\"allocs\":300,\"bytes\":"
	"400},\"sample_period_ns\":1000000,\"pager\":{\"n_items\":77,\"bunch\":2,\"n_bunches\":"
	"4}}";

/* a report with one of everything */
static struct dp_report *hand_made(void)
{
	struct dp_report *r = calloc(1, sizeof(*r));
	struct dp_rep_rows l;
	struct dp_rep_row *row;
	struct dp_query q;

	if (!r)
		return NULL;
	dp_arena_init(&r->arena, (size_t)1 << 20);
	dp_query_parse("page=clique&id=3", true, &r->q);
	r->title = "Clique 3: f";
	r->has_subject = true;
	r->subject = (struct dp_rep_row){.kind = DP_ENT_CLIQUE,
					 .id = 3,
					 .name = "f",
					 .file = "a.c",
					 .line = 7,
					 .ps = 4,
					 .clique = 3,
					 .module = 1,
					 .own = {2, 1, 1, 5, 6, 7, UINT64_MAX},
					 .desc = {9, 10, 11, 12}};
	dp_rep_rows_init(&l, r);
	row = dp_rep_rows_add(&l);
	if (!row)
		return r;
	*row = (struct dp_rep_row){.kind = DP_ENT_CSD,
				   .id = 8,
				   .depth = 1,
				   .flags = DP_ROW_RECURSIVE | DP_ROW_INACTIVE | DP_ROW_SELF,
				   .name = "g \"x\"\n",
				   .callee = "g",
				   .ps = 5,
				   .css = 6,
				   .clique = 3,
				   .module = 1,
				   .thread = 2};
	dp_rep_section(r, "procs", NULL, &l);
	dp_rep_section(r, "empty", "Nothing", NULL);
	dp_rep_fact_u64(r, "n", "count", 42);
	dp_rep_fact_str(r, "s", "a string", "bad \xff");
	dp_rep_fact_f64(r, "f", "f", 0.5);
	dp_query_parse("page=menu&sort=name", true, &q);
	dp_rep_link(r, "menu", &q);
	r->note = "a note";
	r->root_total = (struct dp_inherit){100, 200, 300, 400};
	r->sample_period_ns = 1000000;
	r->n_items = 77;
	r->bunch = 2;
	r->n_bunches = 4;
	return r;
}

TEST(golden)
{
	struct dp_report *r = hand_made();
	struct dp_buf b, pb;
	char *stripped;

	CHECK(r != NULL);
	if (!r)
		return;
	dp_buf_init(&b, (size_t)1 << 20);
	dp_buf_init(&pb, (size_t)1 << 20);
	CHECK_EQ(dp_report_json(r, false, &b), 0);
	CHECK_STR(dp_buf_cstr(&b), golden);
	CHECK(json_valid(dp_buf_cstr(&b)));
	CHECK_EQ(dp_report_json(r, true, &pb), 0);
	CHECK(json_valid(dp_buf_cstr(&pb)));
	CHECK(pb.len > b.len);
	CHECK(strstr(dp_buf_cstr(&pb), "\n  \"sections\": [\n") != NULL);
	stripped = malloc(pb.len + 1);
	if (stripped) {
		strip_ws(dp_buf_cstr(&pb), stripped);
		CHECK_STR(stripped, golden);
		free(stripped);
	}
	/* a full buffer is an error, not a truncated document */
	dp_buf_release(&b);
	dp_buf_init(&b, 100);
	CHECK_EQ(dp_report_json(r, false, &b), -DP_ENOMEM);
	/* no subject, no query to format */
	r->has_subject = false;
	r->note = NULL;
	dp_buf_release(&b);
	dp_buf_init(&b, (size_t)1 << 20);
	CHECK_EQ(dp_report_json(r, false, &b), 0);
	CHECK(strstr(dp_buf_cstr(&b), "\"subject\":null,\"sections\"") != NULL);
	CHECK(strstr(dp_buf_cstr(&b), "\"note\":null,\"totals\"") != NULL);
	dp_buf_release(&b);
	dp_buf_release(&pb);
	dp_report_free(r);
}

/* every page of the sample profile that the pages of this helper and the dumps build */
TEST(sample_pages)
{
	static const char *const qs[] = {
		"page=menu",
		"page=threads",
		"page=modules",
		"page=module&id=2",
		"page=top",
		"page=top&metric=calls",
		"page=dump_ps&id=7",
		"page=dump_pd&id=5",
		"page=dump_css&id=6",
		"page=dump_csd&id=8",
		"page=dump_clique&id=1",
		"page=menu&mq=always",
	};
	struct fix f;

	if (fix_sample(&f, DP_FEAT_STOPPED | DP_FEAT_COVERAGE) < 0) {
		CHECK(0);
		return;
	}
	for (size_t i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		struct dp_report *r = fix_report(&f, qs[i]);
		struct dp_buf b, pb;
		uint32_t rows = r && r->has_subject;
		char *stripped;

		if (!r)
			continue;
		for (uint32_t s = 0; s < r->n_sections; s++)
			rows += r->sections[s].n_rows;
		dp_buf_init(&b, (size_t)1 << 24);
		dp_buf_init(&pb, (size_t)1 << 24);
		CHECK_EQ(dp_report_json(r, false, &b), 0);
		CHECK_EQ(dp_report_json(r, true, &pb), 0);
		if (!json_valid(dp_buf_cstr(&b)))
			fprintf(stderr, "%s: invalid JSON: %s\n", qs[i], dp_buf_cstr(&b));
		CHECK(json_valid(dp_buf_cstr(&b)));
		CHECK(json_valid(dp_buf_cstr(&pb)));
		CHECK_EQ(count(dp_buf_cstr(&b), "\"kind\":"), rows);
		CHECK_EQ(count(dp_buf_cstr(&b), "{\"key\":"), r->n_facts);
		CHECK_EQ(count(dp_buf_cstr(&b), "{\"label\":"), r->n_links);
		CHECK(strncmp(dp_buf_cstr(&b), "{\"schema\":2,\"page\":\"", 20) == 0);
		stripped = malloc(pb.len + 1);
		if (stripped) {
			strip_ws(dp_buf_cstr(&pb), stripped);
			CHECK_STR(stripped, dp_buf_cstr(&b));
			free(stripped);
		}
		dp_buf_release(&b);
		dp_buf_release(&pb);
		dp_report_free(r);
	}
	fix_release(&f);
}

/* the invalid UTF-8 of the sample's widget file and the command line's control bytes */
TEST(escaping)
{
	struct fix f;
	struct dp_report *r;
	struct dp_buf b;

	if (fix_sample(&f, 0) < 0) {
		CHECK(0);
		return;
	}
	dp_buf_init(&b, (size_t)1 << 24);
	r = fix_report(&f, "page=module&id=3");
	CHECK_EQ(r ? dp_report_json(r, false, &b) : -1, 0);
	CHECK(strstr(dp_buf_cstr(&b), "\"name\":\"src/w\\ufffd\\ufffdidget.cc\"") != NULL);
	dp_report_free(r);
	dp_buf_reset(&b);
	r = fix_report(&f, "page=menu");
	CHECK_EQ(r ? dp_report_json(r, false, &b) : -1, 0);
	CHECK(strstr(dp_buf_cstr(&b), "\"value\":\"prog --n=30 \xc3\xbcn\xc3\xaf"
				      "code \\\"q\\\"\\n\\u0001\"") != NULL);
	CHECK(strstr(dp_buf_cstr(&b), "{\"label\":\"Modules (source files)\","
				      "\"query\":\"page=modules\"}") != NULL);
	dp_report_free(r);
	dp_buf_release(&b);
	fix_release(&f);
}

DP_TEST_MAIN(test_golden, test_sample_pages, test_escaping)
