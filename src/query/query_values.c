/*
 * query/query_values.c - the value of each key: one parser per key that checks the text
 * and stores it in struct dp_query, and the canonical text of the structured preference
 * values (fields= letter sets, sort= orders) for the formatter.
 */
#include <string.h>

#include "../core/err.h"
#include "query_int.h"

const struct dp_qfield dp_q_fields[DP_Q_N_FIELDS] = {
	{'p', DP_FIELD_PORTS},	  {'q', DP_FIELD_TICKS},
	{'t', DP_FIELD_TIME},	  {'T', DP_FIELD_TIME | DP_FIELD_TIME_PC},
	{'s', DP_FIELD_CALLSEQS}, {'S', DP_FIELD_CALLSEQS | DP_FIELD_CALLSEQS_PC},
	{'a', DP_FIELD_ALLOCS},	  {'A', DP_FIELD_ALLOCS | DP_FIELD_ALLOCS_PC},
	{'b', DP_FIELD_BYTES},	  {'B', DP_FIELD_BYTES | DP_FIELD_BYTES_PC},
};

static int parse_fields(struct dp_query *q, const char *val)
{
	char qb[DP_Q_QUOTE_MAX];
	unsigned bits = 0;

	if (strcmp(val, "_") == 0)
		goto out;
	for (const char *c = val; *c; c++) {
		unsigned i = 0;

		while (i < DP_Q_N_FIELDS && dp_q_fields[i].letter != *c)
			i++;
		if (i == DP_Q_N_FIELDS) {
			dp_q_quote(c, 1, qb);
			return dp_error(
				DP_EUSAGE,
				"bad fields letter '%s'; letters: p ports, q ticks, t time, "
				"T time + per call, s callseqs, S callseqs + per call, "
				"a allocs, A allocs + per call, b bytes, B bytes + per "
				"call; or fields=_ for none",
				qb);
		}
		bits |= dp_q_fields[i].bits;
	}
out:
	q->prefs.fields = bits;
	q->time_default = false;
	return 0;
}

int dp_q_add_fields(struct dp_buf *b, unsigned fields)
{
	size_t before = b->len;

	for (unsigned i = 0; i < DP_Q_N_FIELDS; i++) {
		unsigned bits = dp_q_fields[i].bits;

		/* a group with its per-call column is written as the capital letter only */
		if (i + 1 < DP_Q_N_FIELDS &&
		    dp_q_fields[i + 1].letter == dp_q_fields[i].letter - 32 &&
		    (fields & dp_q_fields[i + 1].bits) == dp_q_fields[i + 1].bits)
			continue;
		if ((fields & bits) == bits)
			dp_buf_addc(b, (uint8_t)dp_q_fields[i].letter);
	}
	if (b->len == before)
		dp_buf_addc(b, '_');
	return dp_buf_error(b);
}

/* One option of sort=: a metric (kind 0), a scope (1), a per (2) or a direction (3, only
 * kind for name and source orders) into @p. Return: its kind, or -1 if unknown. */
static int sort_option(struct dp_prefs *p, const char *tok)
{
	unsigned idx;

	if (!strcmp(tok, "asc") || !strcmp(tok, "desc")) {
		/* the natural direction: descending costs, ascending names and positions */
		p->sort_rev = (tok[0] == 'a') == (p->sort == DP_SORT_COST);
		return 3;
	}
	if (p->sort != DP_SORT_COST)
		return -1;
	for (idx = 0; idx < DP_METRIC_COUNT && strcmp(tok, dp_q_metric_names[idx]); idx++)
		;
	if (idx < DP_METRIC_COUNT) {
		p->sort_metric = (enum dp_metric)idx;
		return 0;
	}
	if (!strcmp(tok, "self") || !strcmp(tok, "total")) {
		p->sort_scope = tok[0] == 's' ? DP_SCOPE_SELF : DP_SCOPE_TOTAL;
		return 1;
	}
	if (!strcmp(tok, "overall") || !strcmp(tok, "call")) {
		p->sort_per = tok[0] == 'o' ? DP_PER_OVERALL : DP_PER_CALL;
		return 2;
	}
	return -1;
}

/* the options of sort=ORDER[:OPT...] after ORDER: in any order, each kind at most once */
static int parse_sort_opts(struct dp_prefs *p, const char *opts, const char *val)
{
	char qb[DP_Q_QUOTE_MAX], tok[32];
	bool seen[4] = {false, false, false, false};
	static const char *const kinds[4] = {"the metric", "the scope", "per", "the direction"};

	while (*opts == ':') {
		size_t len = strcspn(++opts, ":");
		int kind;

		dp_q_quote(opts, len, qb);
		if (len >= sizeof(tok))
			goto bad;
		memcpy(tok, opts, len);
		tok[len] = 0;
		opts += len;
		kind = sort_option(p, tok);
		if (kind < 0)
			goto bad;
		if (seen[kind]) {
			dp_q_quote(val, strlen(val), qb);
			return dp_error(DP_EUSAGE, "bad sort '%s': %s given twice", qb,
					kinds[kind]);
		}
		seen[kind] = true;
	}
	return 0;
bad:
	if (p->sort != DP_SORT_COST)
		return dp_error(DP_EUSAGE, "bad sort option '%s'; after sort=%s: comes asc or desc",
				qb, dp_q_sort_names[p->sort]);
	return dp_error(DP_EUSAGE,
			"bad sort option '%s'; after sort=cost: come a metric (time, calls, "
			"callseqs, allocs, bytes), self or total, overall or call, asc or desc",
			qb);
}

static int parse_sort(struct dp_query *q, const char *val)
{
	static const char *const choices[] = {
		"source[:asc|desc]", "name[:asc|desc]",
		"cost[:METRIC][:self|total][:overall|call][:asc|desc]"};
	char qb[DP_Q_QUOTE_MAX], list[200];
	size_t len = strcspn(val, ":");

	for (unsigned i = 0; i < 3; i++) {
		const char *n = dp_q_sort_names[i];

		/* "context" is the old name of the source order */
		if (i == DP_SORT_SOURCE && len == 7 && !memcmp(val, "context", 7))
			n = "context";
		if (strlen(n) != len || memcmp(val, n, len))
			continue;
		q->prefs.sort = (enum dp_sort)i;
		q->sort_default = false;
		return parse_sort_opts(&q->prefs, val + len, val);
	}
	dp_q_quote(val, strlen(val), qb);
	dp_q_join(choices, 3, list, sizeof(list));
	return dp_error(DP_EUSAGE, "unknown sort '%s'; sort is one of: %s", qb, list);
}

int dp_q_add_sort(struct dp_buf *b, const struct dp_prefs *p, bool has_time)
{
	enum dp_metric def = has_time ? DP_METRIC_TIME : DP_METRIC_CALLSEQS;

	dp_buf_adds(b, dp_q_sort_names[p->sort]);
	if (p->sort == DP_SORT_COST) {
		if (p->sort_metric != def)
			dp_buf_addf(b, ":%s", dp_q_metric_names[p->sort_metric]);
		if (p->sort_scope != DP_SCOPE_TOTAL)
			dp_buf_adds(b, ":self");
		if (p->sort_per != DP_PER_OVERALL)
			dp_buf_adds(b, ":call");
	}
	if (p->sort_rev)
		dp_buf_adds(b, p->sort == DP_SORT_COST ? ":asc" : ":desc");
	return dp_buf_error(b);
}

/* limit=M-N | N (= 1-N) | pct:X | val:X */
static int parse_limit(struct dp_query *q, const char *val)
{
	char qb[DP_Q_QUOTE_MAX], lo_text[24];
	const char *dash = strchr(val, '-');
	uint64_t lo = 1, hi;
	int rc;

	if (!strncmp(val, "pct:", 4) || !strncmp(val, "val:", 4)) {
		q->limit_kind = val[0] == 'p' ? DP_LIMIT_PCT : DP_LIMIT_VAL;
		q->limit_lo = q->limit_hi = 0;
		return dp_q_real(val[0] == 'p' ? "limit pct:" : "limit val:", val + 4, 0,
				 val[0] == 'p' ? 100.0 : 1e18, &q->limit_value);
	}
	if (dash) {
		size_t n = (size_t)(dash - val);

		if (n >= sizeof(lo_text))
			n = sizeof(lo_text) - 1;
		memcpy(lo_text, val, n);
		lo_text[n] = 0;
		rc = dp_q_uint("limit (first rank)", lo_text, 1, UINT32_MAX, &lo);
		if (rc < 0)
			return rc;
	}
	rc = dp_q_uint(dash ? "limit (last rank)" : "limit", dash ? dash + 1 : val, 1, UINT32_MAX,
		       &hi);
	if (rc < 0)
		return rc;
	dp_q_quote(val, strlen(val), qb);
	if (lo > hi || hi - lo > DP_Q_LIMIT_SPAN_MAX)
		return dp_error(DP_EUSAGE,
				"bad limit '%s': need M-N with M <= N and at most %u ranks", qb,
				DP_Q_LIMIT_SPAN_MAX + 1);
	q->limit_kind = DP_LIMIT_RANKS;
	q->limit_lo = (uint32_t)lo;
	q->limit_hi = (uint32_t)hi;
	q->limit_value = 0;
	return 0;
}

static int parse_inactive(struct dp_query *q, const char *val)
{
	char qb[DP_Q_QUOTE_MAX];
	unsigned bits = 0;

	for (unsigned i = 0; i < 3; i++) {
		if (val[i] == 's')
			bits |= 1u << i;
		else if (val[i] != 'h')
			goto bad;
	}
	if (val[3])
		goto bad;
	q->prefs.inactive = bits;
	return 0;
bad:
	dp_q_quote(val, strlen(val), qb);
	return dp_error(DP_EUSAGE,
			"bad inactive '%s': three letters h (hide) or s (show), for call sites, "
			"procedures and modules, e.g. inactive=shh",
			qb);
}

static int parse_anc(struct dp_query *q, const char *val)
{
	uint64_t v;
	int rc;

	if (!strcmp(val, "all")) {
		q->prefs.ancestors = -1;
		return 0;
	}
	rc = dp_q_uint("anc", val, 0, DP_Q_ANC_MAX, &v);
	if (rc < 0) {
		char qb[DP_Q_QUOTE_MAX];

		dp_q_quote(val, strlen(val), qb);
		return dp_error(DP_EUSAGE, "bad anc '%s': a number 0..%d or all", qb, DP_Q_ANC_MAX);
	}
	q->prefs.ancestors = (int)v;
	return 0;
}

static int parse_bool(const char *key, const char *val, bool *out)
{
	static const char *const names[] = {"0", "1"};
	unsigned i;
	int rc = dp_q_enum(key, val, names, 2, &i);

	if (rc == 0)
		*out = i == 1;
	return rc;
}

/* key -> an integer field with its range */
static int parse_u32(const char *key, const char *val, uint64_t lo, uint64_t hi, uint32_t *out)
{
	uint64_t v;
	int rc = dp_q_uint(key, val, lo, hi, &v);

	if (rc == 0)
		*out = (uint32_t)v;
	return rc;
}

/* key -> an enum field: the vocabulary and where the index goes */
static int parse_enum(struct dp_query *q, enum dp_qkey k, const char *val)
{
	static const struct {
		const char *const *names;
		unsigned n;
	} vocab[DP_QK_COUNT] = {
		[DP_QK_PAGE] = {dp_q_page_names, DP_PAGE_COUNT},
		[DP_QK_GROUP] = {dp_q_group_names, 4},
		[DP_QK_METRIC] = {dp_q_metric_names, DP_METRIC_COUNT},
		[DP_QK_SCOPE] = {dp_q_scope_names, 2},
		[DP_QK_PER] = {dp_q_per_names, 2},
		[DP_QK_UNIT] = {dp_q_unit_names, 5},
		[DP_QK_MQ] = {dp_q_mq_names, 3},
		[DP_QK_VIEW] = {dp_q_view_names, 2},
		[DP_QK_LIBS] = {dp_q_libs_names, 2},
		[DP_QK_FORMAT] = {dp_q_format_names, 3},
		[DP_QK_MATCH] = {dp_q_match_names, 2},
	};
	unsigned i;
	int rc;

	if (!vocab[k].names)
		return dp_error(DP_EUSAGE, "%s= takes no word", dp_qkeys[k].key);
	rc = dp_q_enum(dp_qkeys[k].key, val, vocab[k].names, vocab[k].n, &i);
	if (rc < 0)
		return rc;
	switch (k) {
	case DP_QK_PAGE:
		q->page = (enum dp_page)i;
		break;
	case DP_QK_GROUP:
		q->group = (enum dp_group)i;
		break;
	case DP_QK_METRIC:
		q->metric = (enum dp_metric)i;
		break;
	case DP_QK_SCOPE:
		q->scope = (enum dp_scope)i;
		break;
	case DP_QK_PER:
		q->per = (enum dp_per)i;
		break;
	case DP_QK_UNIT:
		q->prefs.time_unit = (enum dp_time_unit)i;
		break;
	case DP_QK_MQ:
		q->prefs.mq = (enum dp_mq)i;
		break;
	case DP_QK_VIEW:
		q->prefs.view = (enum dp_view_kind)i;
		break;
	case DP_QK_MATCH:
		q->regex = i == 1;
		break;
	case DP_QK_LIBS:
		q->prefs.libs = (enum dp_libs)i;
		break;
	default:
		q->format = (int)i;
		break;
	}
	return 0;
}

static int parse_name(const char *key, const char *val, char *out)
{
	size_t len = strlen(val);

	if (len >= DP_QUERY_NAME_MAX)
		return dp_error(DP_EUSAGE, "%s= is %zu bytes long; at most %u are accepted", key,
				len, DP_QUERY_NAME_MAX - 1);
	memcpy(out, val, len + 1);
	return 0;
}

int dp_q_parse_value(struct dp_query *q, enum dp_qkey k, const char *val)
{
	switch (k) {
	case DP_QK_ID:
		return parse_u32("id", val, 1, UINT32_MAX, &q->id);
	case DP_QK_PROC:
		return parse_u32("proc", val, 1, UINT32_MAX, &q->proc);
	case DP_QK_NAME:
		return parse_name("name", val, q->name);
	case DP_QK_PERCENT:
		return dp_q_real("percent", val, 0, 100, &q->percent);
	case DP_QK_BUNCH:
		return parse_u32("bunch", val, 1, UINT32_MAX, &q->bunch);
	case DP_QK_SIZE:
		return parse_u32("size", val, 1, DP_Q_SIZE_MAX, &q->size);
	case DP_QK_LIMIT:
		return parse_limit(q, val);
	case DP_QK_THREAD:
		return parse_u32("thread", val, 1, UINT32_MAX, &q->thread);
	case DP_QK_MIN:
		return dp_q_real("min", val, 0, 100, &q->min_pct);
	case DP_QK_DEPTH:
		return parse_u32("depth", val, 0, DP_Q_DEPTH_MAX, &q->depth);
	case DP_QK_ROOT:
		return parse_u32("root", val, 1, UINT32_MAX, &q->root);
	case DP_QK_FIELDS:
		return parse_fields(q, val);
	case DP_QK_SORT:
		return parse_sort(q, val);
	case DP_QK_ANC:
		return parse_anc(q, val);
	case DP_QK_SUM:
		return parse_bool("sum", val, &q->prefs.summarise);
	case DP_QK_CONTOUR:
		return parse_bool("contour", val, &q->prefs.contour);
	case DP_QK_SPLIT:
		return parse_bool("split", val, &q->prefs.split);
	case DP_QK_INACTIVE:
		return parse_inactive(q, val);
	case DP_QK_FILE:
		return parse_name("file", val, q->file);
	case DP_QK_Q:
		return parse_name("q", val, q->text);
	default:
		return parse_enum(q, k, val);
	}
}
