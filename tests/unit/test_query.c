/*
 * tests/unit/test_query.c - the query language (src/query): every page and parameter
 * parses to the documented values, every kind of bad query gets its message (quoted,
 * with the valid choices), and dp_query_format()/dp_query_link() write canonical text.
 * The random round trip and the random-bytes run are in test_query_prop.c.
 */
#include <stdlib.h>
#include <string.h>

#include "../../src/core/err.h"
#include "../../src/query/query.h"
#include "harness.h"

static struct dp_query q;

/* parse @s expecting success */
static int ok(const char *s)
{
	int rc = dp_query_parse(s, true, &q);

	if (rc != 0)
		fprintf(stderr, "unexpected error for '%s': %s\n", s, dp_errmsg());
	return rc == 0;
}

/* parse @s expecting -DP_EUSAGE with exactly message @msg */
#define CHECK_ERR(s, msg)                                            \
	do {                                                         \
		CHECK_EQ(dp_query_parse((s), true, &q), -DP_EUSAGE); \
		CHECK_STR(dp_errmsg(), (msg));                       \
	} while (0)

/* parse @s expecting -DP_EUSAGE with a message that contains @part */
#define CHECK_ERR_HAS(s, part)                                                             \
	do {                                                                               \
		CHECK_EQ(dp_query_parse((s), true, &q), -DP_EUSAGE);                       \
		if (!strstr(dp_errmsg(), (part))) {                                        \
			fprintf(stderr, "message '%s' lacks '%s'\n", dp_errmsg(), (part)); \
			CHECK(0);                                                          \
		}                                                                          \
	} while (0)

/* format @qq and compare with @want */
static void check_format(const struct dp_query *qq, const char *want)
{
	struct dp_buf b;

	dp_buf_init(&b, 1 << 16);
	CHECK_EQ(dp_query_format(qq, &b), 0);
	CHECK_STR(dp_buf_cstr(&b), want);
	dp_buf_release(&b);
}

/* the empty query: the menu with every default; a leading ? and empty pairs are skipped */
TEST(defaults)
{
	CHECK(ok(""));
	CHECK_EQ(q.page, DP_PAGE_MENU);
	CHECK_EQ(q.prefs.fields,
		 DP_FIELD_PORTS | DP_FIELD_TIME | DP_FIELD_CALLSEQS | DP_FIELD_BYTES);
	CHECK(q.time_default);
	CHECK_EQ(q.prefs.sort, DP_SORT_COST);
	CHECK_EQ(q.prefs.sort_metric, DP_METRIC_TIME);
	CHECK(q.sort_default);
	CHECK_EQ(q.prefs.ancestors, 5);
	CHECK(!q.prefs.summarise && !q.prefs.contour);
	CHECK_EQ(q.prefs.inactive, 0);
	CHECK_EQ(q.prefs.time_unit, DP_TIME_AUTO);
	CHECK_EQ(q.prefs.mq, DP_MQ_DIFF);
	CHECK_EQ(q.prefs.view, DP_VIEW_MERGED);
	CHECK_EQ(q.prefs.libs, DP_LIBS_SHOW);
	CHECK_EQ(q.percent, 90);
	CHECK_EQ(q.group, DP_GROUP_SITE);
	CHECK_EQ(q.bunch, 1);
	CHECK_EQ(q.size, 20);
	CHECK_EQ(q.limit_kind, DP_LIMIT_RANKS);
	CHECK_EQ(q.limit_lo, 1);
	CHECK_EQ(q.limit_hi, 100);
	CHECK_EQ(q.metric, DP_METRIC_TIME);
	CHECK(q.min_pct == 0.1);
	CHECK_EQ(q.format, (uint64_t)(int64_t)-1);
	CHECK_STR(q.file, "");
	check_format(&q, "page=menu");
	CHECK_EQ(dp_query_parse("", false, &q), 0);
	CHECK_EQ(q.prefs.fields, DP_FIELD_PORTS | DP_FIELD_CALLSEQS | DP_FIELD_BYTES);
	check_format(&q, "page=menu");
	CHECK(ok("?page=root"));
	CHECK_EQ(q.page, DP_PAGE_ROOT);
	CHECK(ok("&&page=modules&"));
	CHECK_EQ(q.page, DP_PAGE_MODULES);
}

/* every page parses alone or with the parameter it needs, and refuses to go without it */
TEST(every_page)
{
	static const char *const need[DP_PAGE_COUNT] = {
		[DP_PAGE_CLIQUE] = "&id=1",	[DP_PAGE_PROC] = "&id=1",
		[DP_PAGE_CALLERS] = "&proc=1",	[DP_PAGE_MODULE] = "&name=a.c",
		[DP_PAGE_SITE] = "&id=1",	[DP_PAGE_FLAME_CALLERS] = "&name=f",
		[DP_PAGE_SANDWICH] = "&proc=2", [DP_PAGE_DUMP_PS] = "&id=1",
		[DP_PAGE_DUMP_PD] = "&id=1",	[DP_PAGE_DUMP_CSS] = "&id=1",
		[DP_PAGE_DUMP_CSD] = "&id=1",	[DP_PAGE_DUMP_CLIQUE] = "&id=1",
		[DP_PAGE_SEARCH] = "&q=json",
	};
	char s[200];

	for (unsigned p = 0; p < DP_PAGE_COUNT; p++) {
		snprintf(s, sizeof(s), "page=%s%s", dp_query_page_name((enum dp_page)p),
			 need[p] ? need[p] : "");
		CHECK(ok(s));
		CHECK_EQ(q.page, p);
		check_format(&q, s);
		if (need[p]) { /* without its parameter the page is refused */
			snprintf(s, sizeof(s), "page=%s", dp_query_page_name((enum dp_page)p));
			CHECK_EQ(dp_query_parse(s, true, &q), -DP_EUSAGE);
			CHECK(strstr(dp_errmsg(), "needs") != NULL);
		}
	}
	CHECK_STR(dp_query_page_name(DP_PAGE_FLAME_CALLERS), "flame_callers");
	CHECK_STR(dp_query_page_name(DP_PAGE_COUNT), "?");
	CHECK_STR(dp_metric_name(DP_METRIC_CALLSEQS), "callseqs");
}

/* every page parameter parses to its value */
TEST(page_params)
{
	CHECK(ok("page=clique&id=4294967295"));
	CHECK_EQ(q.id, 4294967295u);
	CHECK(ok("page=proc&name=std%3A%3Avector%3Cint%3E%3A%3Apush_back"));
	CHECK_STR(q.name, "std::vector<int>::push_back");
	CHECK(ok("page=proc&name=operator%2B+%28int%29&id=3"));
	CHECK_STR(q.name, "operator+ (int)");
	CHECK_EQ(q.id, 3);
	CHECK(ok("page=action&percent=12.5"));
	CHECK(q.percent == 12.5);
	CHECK(ok("page=action&percent=0"));
	CHECK(q.percent == 0);
	CHECK(ok("page=callers&proc=7&group=module&page=3&size=50"));
	CHECK_EQ(q.page, DP_PAGE_CALLERS);
	CHECK_EQ(q.proc, 7);
	CHECK_EQ(q.group, DP_GROUP_MODULE);
	CHECK_EQ(q.bunch, 3);
	CHECK_EQ(q.size, 50);
	CHECK(ok("page=2&group=clique&name=work&page=callers&bunch=2"));
	CHECK_EQ(q.bunch, 2);
	CHECK_EQ(q.group, DP_GROUP_CLIQUE);
	CHECK_STR(q.name, "work");
	CHECK(ok("page=top&limit=5-25&metric=bytes&scope=total&per=call"));
	CHECK_EQ(q.limit_kind, DP_LIMIT_RANKS);
	CHECK_EQ(q.limit_lo, 5);
	CHECK_EQ(q.limit_hi, 25);
	CHECK_EQ(q.metric, DP_METRIC_BYTES);
	CHECK_EQ(q.scope, DP_SCOPE_TOTAL);
	CHECK_EQ(q.per, DP_PER_CALL);
	CHECK(ok("page=top&limit=30"));
	CHECK_EQ(q.limit_lo, 1);
	CHECK_EQ(q.limit_hi, 30);
	CHECK(ok("page=top&limit=10-10010&metric=calls"));
	CHECK_EQ(q.limit_hi, 10010);
	CHECK(ok("page=top&limit=pct:1.5&metric=callseqs"));
	CHECK_EQ(q.limit_kind, DP_LIMIT_PCT);
	CHECK(q.limit_value == 1.5);
	CHECK(ok("page=top&limit=val:2.5e-3"));
	CHECK_EQ(q.limit_kind, DP_LIMIT_VAL);
	CHECK(q.limit_value == 0.0025);
	CHECK(ok("page=flame&metric=allocs&min=0.5&depth=12&thread=2"));
	CHECK_EQ(q.metric, DP_METRIC_ALLOCS);
	CHECK(q.min_pct == 0.5);
	CHECK_EQ(q.depth, 12);
	CHECK_EQ(q.thread, 2);
	CHECK(ok("page=flame_callers&proc=3&min=0&depth=0"));
	CHECK_EQ(q.proc, 3);
	CHECK(q.min_pct == 0);
	CHECK(ok("page=threads&thread=4"));
	CHECK_EQ(q.thread, 4);
	CHECK(ok("page=module&name=src/main.c"));
	CHECK_STR(q.name, "src/main.c");
	CHECK(ok("page=module&id=2"));
	CHECK_EQ(q.id, 2);
	CHECK(ok("page=clique&id=007"));
	CHECK_EQ(q.id, 7);
	CHECK(ok("page=clique&id=1&id=1")); /* a repeat with the same value is fine */
	CHECK(ok("format=json&file=%2Ftmp%2Fx.data"));
	CHECK_EQ(q.format, 1);
	CHECK_STR(q.file, "/tmp/x.data");
	CHECK(ok("format=html&page=menu"));
	CHECK_EQ(q.format, 2);
}

/* every preference parses to its value, on any page */
TEST(prefs)
{
	CHECK(ok("fields=pqTSaB"));
	CHECK_EQ(q.prefs.fields, DP_FIELD_PORTS | DP_FIELD_TICKS | DP_FIELD_TIME |
					 DP_FIELD_TIME_PC | DP_FIELD_CALLSEQS |
					 DP_FIELD_CALLSEQS_PC | DP_FIELD_ALLOCS | DP_FIELD_BYTES |
					 DP_FIELD_BYTES_PC);
	CHECK(!q.time_default);
	CHECK(ok("fields=_"));
	CHECK_EQ(q.prefs.fields, 0);
	CHECK(ok("fields=bp"));
	CHECK_EQ(q.prefs.fields, DP_FIELD_PORTS | DP_FIELD_BYTES);
	CHECK(ok("sort=name"));
	CHECK_EQ(q.prefs.sort, DP_SORT_NAME);
	CHECK(ok("sort=cost"));
	CHECK_EQ(q.prefs.sort, DP_SORT_COST);
	CHECK_EQ(q.prefs.sort_metric, DP_METRIC_TIME);
	CHECK_EQ(q.prefs.sort_scope, DP_SCOPE_TOTAL);
	CHECK_EQ(q.prefs.sort_per, DP_PER_OVERALL);
	CHECK(ok("sort=cost:bytes:self:call"));
	CHECK_EQ(q.prefs.sort_metric, DP_METRIC_BYTES);
	CHECK_EQ(q.prefs.sort_scope, DP_SCOPE_SELF);
	CHECK_EQ(q.prefs.sort_per, DP_PER_CALL);
	CHECK(ok("sort=cost:call:calls"));
	CHECK_EQ(q.prefs.sort_metric, DP_METRIC_CALLS);
	CHECK_EQ(q.prefs.sort_per, DP_PER_CALL);
	/* both directions of every order; "context" is the source order's old name */
	CHECK(ok("sort=cost:asc:calls"));
	CHECK(q.prefs.sort_rev && !q.sort_default);
	CHECK(ok("sort=cost:desc"));
	CHECK(!q.prefs.sort_rev);
	CHECK(ok("sort=name:desc"));
	CHECK(q.prefs.sort == DP_SORT_NAME && q.prefs.sort_rev);
	CHECK(ok("sort=name:asc"));
	CHECK(!q.prefs.sort_rev);
	CHECK(ok("sort=context"));
	CHECK(q.prefs.sort == DP_SORT_SOURCE && !q.prefs.sort_rev);
	check_format(&q, "page=menu&sort=source");
	CHECK(ok("sort=source:desc"));
	CHECK(q.prefs.sort == DP_SORT_SOURCE && q.prefs.sort_rev);
	check_format(&q, "page=menu&sort=source:desc");
	CHECK(ok("sort=cost:bytes:asc"));
	check_format(&q, "page=menu&sort=cost:bytes:asc");
	/* without samples the default sort is by callseqs, and links say time when asked */
	CHECK_EQ(dp_query_parse("sort=cost", false, &q), 0);
	CHECK_EQ(q.prefs.sort_metric, DP_METRIC_CALLSEQS);
	check_format(&q, "page=menu&sort=cost");
	CHECK_EQ(dp_query_parse("sort=cost:time", false, &q), 0);
	check_format(&q, "page=menu&sort=cost:time");
	CHECK_EQ(dp_query_parse("page=top", false, &q), 0);
	check_format(&q, "page=top");
	/* the search page */
	CHECK(ok("page=search&q=Json%3A%3A&match=regex&bunch=2"));
	CHECK(q.regex && q.bunch == 2);
	CHECK_STR(q.text, "Json::");
	check_format(&q, "page=search&bunch=2&q=Json::&match=regex");
	CHECK(ok("anc=all"));
	CHECK_EQ(q.prefs.ancestors, (uint64_t)(int64_t)-1);
	CHECK(ok("anc=0"));
	CHECK_EQ(q.prefs.ancestors, 0);
	CHECK(ok("anc=10000&sum=1&contour=1"));
	CHECK_EQ(q.prefs.ancestors, 10000);
	CHECK(q.prefs.summarise && q.prefs.contour);
	CHECK(ok("sum=0&contour=0&inactive=shs"));
	CHECK(!q.prefs.summarise && !q.prefs.contour);
	CHECK_EQ(q.prefs.inactive, DP_SHOW_INACTIVE_SITES | DP_SHOW_INACTIVE_MODULES);
	CHECK(ok("unit=ms&mq=never&view=threads&libs=fold"));
	CHECK_EQ(q.prefs.time_unit, DP_TIME_MS);
	CHECK_EQ(q.prefs.mq, DP_MQ_NEVER);
	CHECK_EQ(q.prefs.view, DP_VIEW_THREADS);
	CHECK_EQ(q.prefs.libs, DP_LIBS_FOLD);
	check_format(&q, "page=menu&unit=ms&mq=never&view=threads&libs=fold");
	CHECK(ok("unit=ticks&mq=always"));
	CHECK_EQ(q.prefs.time_unit, DP_TIME_TICKS);
	CHECK_EQ(q.prefs.mq, DP_MQ_ALWAYS);
	/* preferences, format and file are accepted on every page */
	CHECK(ok("page=clique&id=3&fields=p&sort=name&anc=2&unit=us&format=text&file=a"));
}

/* unknown pages and keys, misplaced, missing and repeated parameters */
TEST(errors_page_and_keys)
{
	CHECK_ERR("page=foo",
		  "unknown page 'foo'; page is one of: menu, root, action, clique, proc, "
		  "callers, modules, module, top, site, threads, flame, flame_callers, sandwich, "
		  "search, dump_ps, dump_pd, dump_css, dump_csd, dump_clique");
	CHECK_ERR_HAS("page=tpo", "unknown page 'tpo'; did you mean 'top'? page is one of:");
	CHECK_ERR_HAS("page=flame_caller", "did you mean 'flame_callers'?");
	CHECK_ERR("pgae=menu",
		  "unknown parameter 'pgae'; did you mean 'page'? parameters: page, id, proc, "
		  "name, percent, group, bunch, size, limit, metric, scope, per, thread, min, "
		  "depth, root, q, match, format, file; preferences: fields, sort, anc, sum, "
		  "contour, split, inactive, unit, mq, view, libs");
	CHECK_ERR("page=search", "page=search needs q=TEXT (a part of a name, or a regular "
				 "expression with match=regex)");
	CHECK_ERR("page=menu&q=x", "q= does not apply to page=menu; pages that take it: search");
	CHECK_ERR_HAS("page=search&q=x&match=glob", "unknown match 'glob'");
	CHECK_ERR("page=clique", "page=clique needs id=N");
	CHECK_ERR("page=proc", "page=proc needs id=N or name=FUNCTION");
	CHECK_ERR("page=module", "page=module needs id=N or name=FILE");
	CHECK_ERR("page=callers&group=proc", "page=callers needs proc=N or name=FUNCTION");
	CHECK_ERR("page=menu&id=3",
		  "id= does not apply to page=menu; pages that take it: clique, proc, module, "
		  "site, dump_ps, dump_pd, dump_css, dump_csd, dump_clique");
	CHECK_ERR("percent=50&page=root",
		  "percent= does not apply to page=root; pages that take it: action");
	CHECK_ERR("page=2", "bunch= (or page=K) does not apply to page=menu; pages that take "
			    "it: callers, modules, module, site, search");
	CHECK_ERR("page=flame&limit=1-5",
		  "limit= does not apply to page=flame; pages that take it: top");
	CHECK_ERR("page=clique&id=1&id=2", "id= given twice with different values ('1', '2')");
	CHECK_ERR("page=clique&page=proc&id=1",
		  "page= given twice with different values ('clique', 'proc')");
	CHECK_ERR("page=callers&proc=1&page=2&bunch=3",
		  "bunch= given twice with different values ('2', '3')");
	CHECK_ERR("page", "parameter 'page' has no value (write NAME=VALUE)");
	CHECK_ERR("=3", "a parameter without a name ('=' first)");
	CHECK_ERR("page=clique&id=", "empty value for id=");
	CHECK_ERR("page=top&metric=calls&scope=total",
		  "metric=calls takes only scope=self and per=overall (a call has no "
		  "descendants' calls, and one call per call)");
	CHECK_ERR("page=top&metric=calls&limit=pct:5",
		  "limit=pct:X needs a metric with a root total and per=overall; use limit=M-N "
		  "or limit=val:X");
	CHECK_ERR_HAS("page=top&per=call&limit=pct:5", "limit=pct:X needs");
	CHECK(ok("page=top&metric=calls&limit=val:1000"));
	CHECK(ok("page=flame&metric=calls"));
}

/* each malformed or out-of-range value, with its message */
TEST(errors_values)
{
	CHECK_ERR("page=clique&id=abc", "bad id 'abc': expected a whole number 1..4294967295");
	CHECK_ERR("page=clique&id=0", "id '0' out of range 1..4294967295");
	CHECK_ERR("page=clique&id=4294967296", "id '4294967296' out of range 1..4294967295");
	CHECK_ERR("page=clique&id=99999999999999999999999",
		  "id '99999999999999999999999' out of range 1..4294967295");
	CHECK_ERR("page=clique&id=%2B3", "bad id '+3': expected a whole number 1..4294967295");
	CHECK_ERR("page=clique&id=+3", "bad id ' 3': expected a whole number 1..4294967295");
	CHECK_ERR("page=clique&id=3%20", "bad id '3 ': expected a whole number 1..4294967295");
	CHECK_ERR("page=clique&id=-1", "bad id '-1': expected a whole number 1..4294967295");
	CHECK_ERR("page=action&percent=101", "percent '101' out of range 0..100");
	CHECK_ERR("page=action&percent=1e400", "percent '1e400' out of range 0..100");
	CHECK_ERR("page=action&percent=nan", "bad percent 'nan': expected a number 0..100");
	CHECK_ERR("page=action&percent=.", "bad percent '.': expected a number 0..100");
	CHECK_ERR("page=action&percent=1e", "bad percent '1e': expected a number 0..100");
	CHECK(ok("page=action&percent=5."));
	CHECK(q.percent == 5);
	CHECK(ok("page=action&percent=.5"));
	CHECK(q.percent == 0.5);
	CHECK_ERR("page=callers&proc=1&size=0", "size '0' out of range 1..1000");
	CHECK_ERR("page=callers&proc=1&size=1001", "size '1001' out of range 1..1000");
	CHECK_ERR("page=callers&proc=1&group=cs",
		  "unknown group 'cs'; group is one of: site, proc, module, clique");
	CHECK_ERR("page=top&limit=5-3",
		  "bad limit '5-3': need M-N with M <= N and at most 10001 ranks");
	CHECK_ERR("page=top&limit=1-10002",
		  "bad limit '1-10002': need M-N with M <= N and at most 10001 ranks");
	CHECK_ERR("page=top&limit=0-3", "limit (first rank) '0' out of range 1..4294967295");
	CHECK_ERR("page=top&limit=pct:200", "limit pct: '200' out of range 0..100");
	CHECK_ERR("page=top&limit=top5", "bad limit 'top5': expected a whole number 1..4294967295");
	CHECK_ERR("page=top&metric=words",
		  "unknown metric 'words'; metric is one of: time, calls, callseqs, allocs, bytes");
	CHECK_ERR("page=top&scope=both", "unknown scope 'both'; scope is one of: self, total");
	CHECK_ERR("page=top&per=pc", "unknown per 'pc'; per is one of: overall, call");
	CHECK_ERR("page=flame&depth=100001", "depth '100001' out of range 0..100000");
	CHECK_ERR("page=flame&thread=0", "thread '0' out of range 1..4294967295");
	CHECK_ERR_HAS("fields=ptx", "bad fields letter 'x'; letters: p ports, q ticks,");
	CHECK_ERR("sort=size",
		  "unknown sort 'size'; sort is one of: source[:asc|desc], "
		  "name[:asc|desc], cost[:METRIC][:self|total][:overall|call][:asc|desc]");
	CHECK_ERR("sort=context:time", "bad sort option 'time'; after sort=source: comes asc or "
				       "desc");
	CHECK_ERR("sort=name:asc:desc", "bad sort 'name:asc:desc': the direction given twice");
	CHECK_ERR_HAS("sort=cost:foo", "bad sort option 'foo'; after sort=cost: come a metric");
	CHECK_ERR_HAS("sort=cost:", "bad sort option ''");
	CHECK_ERR("sort=cost:self:total", "bad sort 'cost:self:total': the scope given twice");
	CHECK_ERR("anc=-1", "bad anc '-1': a number 0..10000 or all");
	CHECK_ERR("anc=10001", "bad anc '10001': a number 0..10000 or all");
	CHECK_ERR("sum=yes", "unknown sum 'yes'; sum is one of: 0, 1");
	CHECK_ERR_HAS("inactive=hh", "bad inactive 'hh': three letters h (hide) or s (show)");
	CHECK_ERR_HAS("inactive=hhhh", "bad inactive 'hhhh'");
	CHECK_ERR("unit=min", "unknown unit 'min'; unit is one of: auto, s, ms, us, ticks");
	CHECK_ERR("mq=mqa", "unknown mq 'mqa'; mq is one of: diff, always, never");
	CHECK_ERR("view=all", "unknown view 'all'; view is one of: merged, threads");
	CHECK_ERR("libs=hide", "unknown libs 'hide'; libs is one of: show, fold");
	CHECK_ERR("format=xml", "unknown format 'xml'; format is one of: text, json, html");
}

/* percent-escapes, control characters, quoting, the length bounds */
TEST(errors_text)
{
	static char big[9000], name[1100];

	CHECK_ERR("page=%zz", "bad percent-escape '%zz' in the value of page= (write %XX, two "
			      "hex digits)");
	CHECK_ERR("page=ab%4", "bad percent-escape '%4' in the value of page= (write %XX, two "
			       "hex digits)");
	CHECK_ERR("pa%ge=menu", "bad percent-escape '%ge' in a parameter name (write %XX, two "
				"hex digits)");
	CHECK_ERR("page=%00", "%00 (a NUL byte) in the value of page=");
	CHECK_ERR("page=%0a", "control character \\x0a in the value of page=");
	CHECK_ERR("page=a\tb", "control character \\x09 in the value of page=");
	CHECK(ok("p%61ge=cl%69que&%69d=5")); /* names may be encoded too */
	CHECK_EQ(q.page, DP_PAGE_CLIQUE);
	/* bad text is quoted safely: non-ASCII, quotes and backslashes as \xNN, cut at 48 */
	CHECK_ERR_HAS("page=%FFx%27%5C", "unknown page '\\xffx\\x27\\x5c';");
	CHECK_ERR_HAS("page=x0123456789012345678901234567890123456789abcdefghijkl",
		      "unknown page 'x0123456789012345678901234567890123456789abcdefg...';");
	memset(big, 'a', sizeof(big) - 1);
	memcpy(big, "page=", 5);
	CHECK_ERR(big, "query too long (over 8192 bytes)");
	big[8192] = 0; /* exactly 8192 bytes is accepted by the reader (a bad page here) */
	CHECK_ERR_HAS(big, "unknown page 'aaaa");
	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = 0;
	memcpy(name, "page=proc&name=", 15);
	name[15 + 1023] = 0;
	CHECK(ok(name));
	CHECK_EQ(strlen(q.name), 1023);
	name[15 + 1023] = 'x';
	name[15 + 1024] = 0;
	CHECK_ERR(name, "name= is 1024 bytes long; at most 1023 are accepted");
}

/* canonical text: defaults left out, fixed order, encoded names; links */
TEST(format_canonical)
{
	struct dp_buf b;

	CHECK(ok("view=threads&id=3&page=clique&sort=cost:bytes&unit=us"));
	check_format(&q, "page=clique&id=3&sort=cost:bytes&unit=us&view=threads");
	dp_buf_init(&b, 4096);
	CHECK_EQ(dp_query_link(&q, DP_PAGE_PROC, 5, &b), 0);
	CHECK_STR(dp_buf_cstr(&b), "page=proc&id=5&sort=cost:bytes&unit=us&view=threads");
	dp_buf_reset(&b);
	CHECK_EQ(dp_query_link(&q, DP_PAGE_MENU, 0, &b), 0);
	CHECK_STR(dp_buf_cstr(&b), "page=menu&sort=cost:bytes&unit=us&view=threads");
	dp_buf_release(&b);
	/* every default is left out; everything else comes in the fixed order */
	CHECK(ok("page=top&per=overall&scope=self&metric=time&limit=1-100"));
	check_format(&q, "page=top");
	CHECK(ok("page=top&per=overall&scope=self&metric=time&limit=1-100&sort=context"));
	check_format(&q, "page=top&sort=source"); /* a sort given is kept, even the default */
	CHECK(ok("format=json&anc=all&contour=1&sum=1&inactive=hsh&mq=always&fields=Sp&"
		 "sort=cost:self:call:calls&page=top&limit=val:0.5&metric=calls&file=a+b.data"));
	check_format(&q, "page=top&limit=val:0.5&metric=calls&fields=pS&sort=cost:calls:self:"
			 "call&anc=all&sum=1&contour=1&inactive=hsh&mq=always&format=json&"
			 "file=a%20b.data");
	CHECK(ok("page=callers&name=operator%2B&group=clique&page=4&size=10"));
	check_format(&q, "page=callers&name=operator%2B&group=clique&bunch=4&size=10");
	CHECK(ok("page=flame_callers&proc=9&metric=bytes&min=1e-05&depth=3&thread=1"));
	check_format(&q, "page=flame_callers&proc=9&metric=bytes&thread=1&min=0.00001&depth=3");
	CHECK_ERR("page=flame&id=3", "id= does not apply to page=flame: it starts at a clique "
				     "with root=CLIQUE, and shows a procedure's callees with "
				     "proc=N or name=F");
	CHECK(ok("page=flame&root=3&metric=calls"));
	check_format(&q, "page=flame&metric=calls&root=3");
	CHECK(ok("page=sandwich&name=f&min=1"));
	check_format(&q, "page=sandwich&name=f&min=1");
	CHECK_ERR("page=flame&root=3&name=f",
		  "page=flame takes root=CLIQUE or proc=N (name=F), not both");
	CHECK_ERR("page=sandwich&proc=2&thread=1",
		  "thread= does not apply to page=sandwich; pages that take it: threads, flame, "
		  "flame_callers");
	CHECK_ERR("page=action&percent=75.25&name=x%C3%A9",
		  "name= does not apply to page=action; pages that take it: proc, callers, "
		  "module, flame, flame_callers, sandwich");
	CHECK_EQ(dp_query_parse("page=action&percent=75.25", true, &q), 0);
	check_format(&q, "page=action&percent=75.25");
	/* parameters of other pages left in the structure are not written */
	CHECK(ok("page=root"));
	q.id = 4;
	q.percent = 10;
	q.limit_hi = 5;
	check_format(&q, "page=root");
}

/* fields= letters in canonical order; the profile-dependent time default */
TEST(format_fields)
{
	CHECK(ok("fields=ps"));
	check_format(&q, "page=menu&fields=ps");
	CHECK(ok("fields=ptsb")); /* explicit: stays explicit, even when it is the default */
	check_format(&q, "page=menu&fields=ptsb");
	CHECK(ok("fields=BqtTApsSa"));
	check_format(&q, "page=menu&fields=pqTSAB");
	CHECK(ok("fields=_"));
	check_format(&q, "page=menu&fields=_");
	/* the default with a group added: the link names every group, time included */
	CHECK(ok(""));
	q.prefs.fields |= DP_FIELD_ALLOCS;
	check_format(&q, "page=menu&fields=ptsab");
	CHECK_EQ(dp_query_parse("", false, &q), 0);
	q.prefs.fields &= ~DP_FIELD_BYTES;
	check_format(&q, "page=menu&fields=ps");
}

DP_TEST_MAIN(test_defaults, test_every_page, test_page_params, test_prefs,
	     test_errors_page_and_keys, test_errors_values, test_errors_text, test_format_canonical,
	     test_format_fields)
