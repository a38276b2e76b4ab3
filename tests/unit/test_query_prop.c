/*
 * tests/unit/test_query_prop.c - properties of the query language on random input:
 * format then parse gives back an equal query (random canonical queries); whatever
 * parses formats to text that parses to the same query (mutated queries); random bytes
 * never crash and every refusal is -DP_EUSAGE with a printable-ASCII message.
 * TEST_QUERY_SEED and TEST_QUERY_N (iterations) change the run; run it under ASan.
 */
#include <stdlib.h>
#include <string.h>

#include "../../src/core/err.h"
#include "../../src/query/query.h"
#include "harness.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static unsigned n_iter = 5000;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static uint32_t below(uint32_t n)
{
	return (uint32_t)(rnd() % n);
}

/* a random real as queries carry them: often short decimals, sometimes any double */
static double real_in(double hi)
{
	switch (below(3)) {
	case 0:
		return (double)below((uint32_t)hi + 1);
	case 1:
		return (double)below((uint32_t)(hi * 100) + 1) / 100;
	default:
		return (double)(rnd() >> 11) / (double)(UINT64_C(1) << 53) * hi;
	}
}

/* a random name: any bytes but NUL and control characters, 1..max bytes */
static void rand_name(char *out, size_t max)
{
	static const char common[] = "abcXYZ09_:<>.,/ +%&=?#~()*";
	size_t len = 1 + below((uint32_t)max);

	for (size_t i = 0; i < len; i++) {
		unsigned c;

		do
			c = below(2) ? (unsigned char)common[below(sizeof(common) - 1)]
				     : 1 + below(255);
		while (c < 0x20 || c == 0x7f);
		out[i] = (char)c;
	}
	out[len] = 0;
}

static uint32_t rand_u32(void)
{
	return below(2) ? 1 + below(100) : 1 + below(UINT32_MAX);
}

static void rand_params(struct dp_query *q)
{
	switch (q->page) {
	case DP_PAGE_CLIQUE:
	case DP_PAGE_SITE:
	case DP_PAGE_DUMP_PS:
	case DP_PAGE_DUMP_PD:
	case DP_PAGE_DUMP_CSS:
	case DP_PAGE_DUMP_CSD:
	case DP_PAGE_DUMP_CLIQUE:
		q->id = rand_u32();
		break;
	case DP_PAGE_PROC:
	case DP_PAGE_MODULE:
		if (below(2))
			q->id = rand_u32();
		if (!q->id || below(4) == 0)
			rand_name(q->name, below(8) ? 20 : 1023);
		break;
	case DP_PAGE_FLAME: /* a zoom, a procedure's callees, or the whole graph */
		if (below(3) == 0)
			q->root = rand_u32();
		else if (below(2) == 0)
			q->proc = rand_u32();
		break;
	case DP_PAGE_CALLERS:
	case DP_PAGE_FLAME_CALLERS:
	case DP_PAGE_SANDWICH:
		if (below(2))
			q->proc = rand_u32();
		if (!q->proc || below(4) == 0)
			rand_name(q->name, 30);
		break;
	case DP_PAGE_ACTION:
		q->percent = real_in(100);
		break;
	default:
		break;
	}
	if (q->page == DP_PAGE_CALLERS) {
		q->group = (enum dp_group)below(4);
		q->bunch = rand_u32();
		q->size = 1 + below(1000);
	}
	if (q->page == DP_PAGE_TOP) {
		q->limit_kind = (enum dp_limit_kind)below(3);
		if (q->limit_kind == DP_LIMIT_RANKS) {
			q->limit_lo = 1 + below(UINT32_MAX - 10001);
			q->limit_hi = q->limit_lo + below(10001);
		} else {
			q->limit_lo = q->limit_hi = 0;
			q->limit_value = real_in(q->limit_kind == DP_LIMIT_PCT ? 100 : 1e9);
		}
		q->metric = (enum dp_metric)below(DP_METRIC_COUNT);
		if (q->metric != DP_METRIC_CALLS) {
			q->scope = (enum dp_scope)below(2);
			q->per = (enum dp_per)below(2);
		}
		if (q->limit_kind == DP_LIMIT_PCT && q->metric == DP_METRIC_CALLS)
			q->metric = DP_METRIC_CALLSEQS;
		if (q->limit_kind == DP_LIMIT_PCT)
			q->per = DP_PER_OVERALL;
	}
	if (q->page == DP_PAGE_FLAME || q->page == DP_PAGE_FLAME_CALLERS ||
	    q->page == DP_PAGE_SANDWICH) {
		q->metric = (enum dp_metric)below(DP_METRIC_COUNT);
		q->min_pct = real_in(100);
		q->depth = below(100001);
	}
	if (q->page == DP_PAGE_SEARCH) {
		rand_name(q->text, 40);
		if (!q->text[0])
			memcpy(q->text, "x", 2);
		q->regex = below(2);
	}
	if ((q->page == DP_PAGE_FLAME && !q->proc) || q->page == DP_PAGE_FLAME_CALLERS ||
	    q->page == DP_PAGE_THREADS)
		q->thread = below(2) ? 0 : rand_u32();
}

static void rand_prefs(struct dp_query *q)
{
	struct dp_prefs *p = &q->prefs;
	static const unsigned groups[4][2] = {
		{DP_FIELD_TIME, DP_FIELD_TIME_PC},
		{DP_FIELD_CALLSEQS, DP_FIELD_CALLSEQS_PC},
		{DP_FIELD_ALLOCS, DP_FIELD_ALLOCS_PC},
		{DP_FIELD_BYTES, DP_FIELD_BYTES_PC},
	};

	if (below(2)) { /* explicit fields: per-call bits only with their group */
		p->fields = (below(2) ? DP_FIELD_PORTS : 0) | (below(2) ? DP_FIELD_TICKS : 0);
		for (unsigned g = 0; g < 4; g++)
			p->fields |= below(2) ? groups[g][0] | (below(2) ? groups[g][1] : 0) : 0;
		q->time_default = false;
	}
	if (below(2)) {
		p->sort = (enum dp_sort)below(3);
		if (p->sort == DP_SORT_COST) {
			p->sort_metric = (enum dp_metric)below(DP_METRIC_COUNT);
			p->sort_scope = (enum dp_scope)below(2);
			p->sort_per = (enum dp_per)below(2);
		}
		p->sort_rev = below(2);
		q->sort_default = false;
	}
	if (below(2))
		p->ancestors = below(5) ? (int)below(10001) : -1;
	p->summarise = below(4) == 0;
	p->contour = below(4) == 0;
	p->split = below(4) == 0;
	p->inactive = below(8);
	p->time_unit = (enum dp_time_unit)below(5);
	p->mq = (enum dp_mq)below(3);
	p->view = (enum dp_view_kind)below(2);
	p->libs = (enum dp_libs)below(2);
	q->format = (int)below(4) - 1;
	if (below(3) == 0)
		rand_name(q->file, 60);
}

static void rand_query(struct dp_query *q, bool has_time)
{
	memset(q, 0, sizeof(*q));
	dp_query_reset_params(q, (enum dp_page)below(DP_PAGE_COUNT));
	dp_prefs_default(&q->prefs, has_time);
	q->time_default = true;
	q->sort_default = true;
	q->has_time = has_time;
	q->format = -1;
	rand_params(q);
	rand_prefs(q);
}

static bool prefs_equal(const struct dp_prefs *a, const struct dp_prefs *b)
{
	return a->fields == b->fields && a->sort == b->sort && a->sort_metric == b->sort_metric &&
	       a->sort_scope == b->sort_scope && a->sort_per == b->sort_per &&
	       a->sort_rev == b->sort_rev && a->ancestors == b->ancestors &&
	       a->summarise == b->summarise && a->contour == b->contour && a->split == b->split &&
	       a->inactive == b->inactive && a->time_unit == b->time_unit && a->mq == b->mq &&
	       a->view == b->view;
}

static bool query_equal(const struct dp_query *a, const struct dp_query *b)
{
	return a->page == b->page && a->id == b->id && a->proc == b->proc &&
	       !strcmp(a->name, b->name) && a->percent == b->percent && a->group == b->group &&
	       a->bunch == b->bunch && a->size == b->size && a->limit_kind == b->limit_kind &&
	       a->limit_lo == b->limit_lo && a->limit_hi == b->limit_hi &&
	       a->limit_value == b->limit_value && a->metric == b->metric && a->scope == b->scope &&
	       a->per == b->per && a->thread == b->thread && a->min_pct == b->min_pct &&
	       a->depth == b->depth && a->format == b->format && !strcmp(a->file, b->file) &&
	       !strcmp(a->text, b->text) && a->regex == b->regex &&
	       prefs_equal(&a->prefs, &b->prefs) && a->time_default == b->time_default &&
	       a->sort_default == b->sort_default;
}

static bool printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			return false;
	return true;
}

static struct dp_query qa, qb;

/* random canonical queries: format, parse, compare; format again, same text */
TEST(round_trip)
{
	struct dp_buf b1, b2;
	unsigned bad = 0, long_ones = 0;

	dp_buf_init(&b1, 1 << 16);
	dp_buf_init(&b2, 1 << 16);
	for (unsigned i = 0; i < n_iter; i++) {
		bool has_time = below(2);

		rand_query(&qa, has_time);
		dp_buf_reset(&b1);
		CHECK_EQ(dp_query_format(&qa, &b1), 0);
		if (b1.len > 8192) { /* a 1023-byte name of escapes can exceed the bound */
			long_ones++;
			continue;
		}
		if (dp_query_parse(dp_buf_cstr(&b1), has_time, &qb) != 0 ||
		    !query_equal(&qa, &qb)) {
			if (bad++ < 5)
				fprintf(stderr, "round trip failed: %s (%s)\n", dp_buf_cstr(&b1),
					dp_errmsg());
			continue;
		}
		dp_buf_reset(&b2);
		CHECK_EQ(dp_query_format(&qb, &b2), 0);
		CHECK_STR(dp_buf_cstr(&b2), dp_buf_cstr(&b1));
	}
	CHECK_EQ(bad, 0);
	CHECK(long_ones < n_iter / 10);
	dp_buf_release(&b1);
	dp_buf_release(&b2);
}

/* mutate a valid query text; whatever still parses is stable under format/parse */
TEST(mutations)
{
	static const char alphabet[] = "=&%+:-_.0123456789abcdefpstTSqABx";
	struct dp_buf b1, b2;
	char text[9000];
	unsigned parsed = 0;

	dp_buf_init(&b1, 1 << 16);
	dp_buf_init(&b2, 1 << 16);
	for (unsigned i = 0; i < n_iter * 4; i++) {
		size_t len;

		rand_query(&qa, true);
		dp_buf_reset(&b1);
		dp_query_format(&qa, &b1);
		if (b1.len >= sizeof(text) - 8)
			continue;
		memcpy(text, dp_buf_cstr(&b1), b1.len + 1);
		len = b1.len;
		for (unsigned m = 1 + below(3); m; m--) {
			size_t at = below((uint32_t)len + 1);

			if (below(2) && at < len) {
				text[at] = alphabet[below(sizeof(alphabet) - 1)];
			} else if (below(2) && at < len) {
				memmove(text + at, text + at + 1, len - at);
				len--;
			} else {
				memmove(text + at + 1, text + at, len - at + 1);
				text[at] = alphabet[below(sizeof(alphabet) - 1)];
				len++;
			}
		}
		if (dp_query_parse(text, true, &qa) != 0) {
			CHECK_EQ(dp_errcode(), DP_EUSAGE);
			CHECK(printable(dp_errmsg()) && dp_errmsg()[0]);
			continue;
		}
		parsed++;
		dp_buf_reset(&b2);
		CHECK_EQ(dp_query_format(&qa, &b2), 0);
		CHECK_EQ(dp_query_parse(dp_buf_cstr(&b2), true, &qb), 0);
		CHECK(query_equal(&qa, &qb));
	}
	CHECK(parsed > n_iter / 10); /* the property was tested on many queries */
	dp_buf_release(&b1);
	dp_buf_release(&b2);
}

/* random bytes and pieces of queries: refused cleanly or parsed */
TEST(random_bytes)
{
	static const char *const pieces[] = {
		"page=",   "&",	     "=",	"%",   "%2",	 "%00",	      "+",
		"id=",	   "clique", "callers", "top", "limit=", "sort=cost", ":",
		"fields=", "name=",  "1",	"-",   "pct:",	 "proc="};
	static char text[9000];
	unsigned refused = 0;

	for (unsigned i = 0; i < n_iter * 10; i++) {
		size_t len = 0, want = below(8) ? below(120) : below(sizeof(text) - 40);

		while (len < want) {
			if (below(2)) {
				text[len++] = (char)(1 + below(255));
			} else {
				const char *p = pieces[below(sizeof(pieces) / sizeof(*pieces))];

				memcpy(text + len, p, strlen(p));
				len += strlen(p);
			}
		}
		text[len] = 0;
		if (dp_query_parse(text, below(2), &qa) == 0)
			continue;
		refused++;
		CHECK_EQ(dp_errcode(), DP_EUSAGE);
		if (!printable(dp_errmsg()) || !dp_errmsg()[0]) {
			fprintf(stderr, "bad message: '%s'\n", dp_errmsg());
			CHECK(0);
		}
	}
	CHECK(refused > 0);
}

static void setup(void)
{
	const char *seed = getenv("TEST_QUERY_SEED"), *n = getenv("TEST_QUERY_N");

	if (seed && *seed)
		rng_state = strtoull(seed, NULL, 0) | 1;
	if (n && *n)
		n_iter = (unsigned)strtoul(n, NULL, 0);
	fprintf(stderr, "test_query_prop: seed %llu, %u iterations\n",
		(unsigned long long)rng_state, n_iter);
}

DP_TEST_MAIN(setup, test_round_trip, test_mutations, test_random_bytes)
