/*
 * query/query_parse.c - dp_query_parse(): splits a query string into key=value pairs,
 * decodes them, refuses repeats with different values, hands each value to its parser
 * (query_values.c), then checks the whole: every page parameter belongs to the page,
 * the page has what it needs, and the combinations make sense.
 */
#include <stdio.h>
#include <string.h>

#include "../core/err.h"
#include "../core/suggest.h"
#include "query_int.h"

/* The decoded value of each key seen so far (NULL = not given), into the scratch copy. */
struct dp_qseen {
	const char *val[DP_QK_COUNT];
};

static int unknown_key(const char *key)
{
	char qb[DP_Q_QUOTE_MAX], params[300], prefs[200];
	const char *names[DP_QK_COUNT];

	for (unsigned k = 0; k < DP_QK_COUNT; k++)
		names[k] = dp_qkeys[k].key;
	const char *near = dp_suggest(key, names, DP_QK_COUNT);

	dp_q_quote(key, strlen(key), qb);
	dp_q_join(names, DP_QK_FIELDS, params, sizeof(params));
	dp_q_join(names + DP_QK_FIELDS, DP_QK_FORMAT - DP_QK_FIELDS, prefs, sizeof(prefs));
	return dp_error(DP_EUSAGE,
			"unknown parameter '%s'; %s%s%sparameters: %s, format, file; "
			"preferences: %s",
			qb, near ? "did you mean '" : "", near ? near : "", near ? "'? " : "",
			params, prefs);
}

static int lookup_key(const char *key, const char *val, enum dp_qkey *out)
{
	unsigned k = 0;

	while (k < DP_QK_COUNT && strcmp(key, dp_qkeys[k].key))
		k++;
	if (k == DP_QK_COUNT)
		return unknown_key(key);
	/* page=K, K a number, is the callers page's bunch */
	if (k == DP_QK_PAGE && val[0] >= '0' && val[0] <= '9')
		k = DP_QK_BUNCH;
	*out = (enum dp_qkey)k;
	return 0;
}

/* One "key=value" of @len bytes at @s (decoded in place). */
static int parse_pair(char *s, size_t len, struct dp_query *q, struct dp_qseen *seen)
{
	char qb[DP_Q_QUOTE_MAX], qb2[DP_Q_QUOTE_MAX], what[80];
	char *eq = memchr(s, '=', len);
	size_t klen = eq ? (size_t)(eq - s) : len;
	enum dp_qkey k = DP_QK_PAGE;
	int rc;

	if (!eq) {
		dp_q_quote(s, len, qb);
		return dp_error(DP_EUSAGE, "parameter '%s' has no value (write NAME=VALUE)", qb);
	}
	if (klen == 0)
		return dp_error(DP_EUSAGE, "a parameter without a name ('=' first)");
	rc = dp_q_decode(s, klen, "a parameter name");
	if (rc < 0)
		return rc;
	dp_q_quote(s, strlen(s), qb);
	snprintf(what, sizeof(what), "the value of %.60s=", qb);
	rc = dp_q_decode(eq + 1, len - klen - 1, what);
	if (rc < 0)
		return rc;
	if (rc == 0)
		return dp_error(DP_EUSAGE, "empty value for %s", what + 13);
	rc = lookup_key(s, eq + 1, &k);
	if (rc < 0)
		return rc;
	if (seen->val[k]) {
		if (strcmp(seen->val[k], eq + 1) == 0)
			return 0;
		dp_q_quote(seen->val[k], strlen(seen->val[k]), qb);
		dp_q_quote(eq + 1, strlen(eq + 1), qb2);
		return dp_error(DP_EUSAGE, "%s= given twice with different values ('%s', '%s')",
				dp_qkeys[k].key, qb, qb2);
	}
	seen->val[k] = eq + 1;
	return dp_q_parse_value(q, k, eq + 1);
}

static void page_list(uint32_t pages, char *out, size_t size)
{
	const char *names[DP_PAGE_COUNT];
	unsigned n = 0;

	for (unsigned p = 0; p < DP_PAGE_COUNT; p++)
		if (pages & DP_QPAGE(p))
			names[n++] = dp_q_page_names[p];
	dp_q_join(names, n, out, size);
}

/* every page parameter given belongs to the page */
static int check_pages(const struct dp_query *q, const struct dp_qseen *seen)
{
	char list[300];

	for (unsigned k = DP_QK_ID; k < DP_QK_FIELDS; k++) {
		uint32_t pages = dp_qkeys[k].pages;

		if (!seen->val[k] || (pages & DP_QPAGE(q->page)))
			continue;
		if (k == DP_QK_ID && q->page == DP_PAGE_FLAME)
			return dp_error(DP_EUSAGE, "id= does not apply to page=flame: it starts at "
						   "a clique with root=CLIQUE, and shows a "
						   "procedure's callees with proc=N or name=F");
		page_list(pages, list, sizeof(list));
		return dp_error(DP_EUSAGE,
				"%s=%s does not apply to page=%s; pages that take it: %s",
				dp_qkeys[k].key, k == DP_QK_BUNCH ? " (or page=K)" : "",
				dp_query_page_name(q->page), list);
	}
	return 0;
}

/* the page has what it needs; metric=calls is counted, not measured */
static int check_needs(const struct dp_query *q)
{
	const char *page = dp_query_page_name(q->page);

	switch (q->page) {
	case DP_PAGE_PROC:
	case DP_PAGE_MODULE:
		if (!q->id && !q->name[0])
			return dp_error(DP_EUSAGE, "page=%s needs id=N or name=%s", page,
					q->page == DP_PAGE_PROC ? "FUNCTION" : "FILE");
		break;
	case DP_PAGE_CALLERS:
	case DP_PAGE_FLAME_CALLERS:
	case DP_PAGE_SANDWICH:
		if (!q->proc && !q->name[0])
			return dp_error(DP_EUSAGE, "page=%s needs proc=N or name=FUNCTION", page);
		break;
	case DP_PAGE_SEARCH:
		if (!q->text[0])
			return dp_error(DP_EUSAGE, "page=search needs q=TEXT (a part of a name, "
						   "or a regular expression with match=regex)");
		break;
	default:
		if ((dp_qkeys[DP_QK_ID].pages & DP_QPAGE(q->page)) && !q->id)
			return dp_error(DP_EUSAGE, "page=%s needs id=N", page);
		break;
	}
	if (q->page == DP_PAGE_FLAME && q->root && (q->proc || q->name[0]))
		return dp_error(DP_EUSAGE, "page=flame takes root=CLIQUE or proc=N (name=F), "
					   "not both");
	if (q->page == DP_PAGE_FLAME && q->thread && (q->proc || q->name[0]))
		return dp_error(DP_EUSAGE, "page=flame with proc=N or name=F takes no thread=: "
					   "its graph gathers every context of the procedure");
	if (q->page == DP_PAGE_TOP && q->metric == DP_METRIC_CALLS &&
	    (q->scope != DP_SCOPE_SELF || q->per != DP_PER_OVERALL))
		return dp_error(DP_EUSAGE,
				"metric=calls takes only scope=self and per=overall (a call has "
				"no descendants' calls, and one call per call)");
	if (q->page == DP_PAGE_TOP && q->limit_kind == DP_LIMIT_PCT &&
	    (q->metric == DP_METRIC_CALLS || q->per == DP_PER_CALL))
		return dp_error(DP_EUSAGE,
				"limit=pct:X needs a metric with a root total and per=overall; "
				"use limit=M-N or limit=val:X");
	return 0;
}

static void query_init(struct dp_query *q, bool has_time)
{
	memset(q, 0, sizeof(*q));
	dp_query_reset_params(q, DP_PAGE_MENU);
	dp_prefs_default(&q->prefs, has_time);
	q->time_default = true;
	q->sort_default = true;
	q->has_time = has_time;
	q->format = -1;
}

int dp_query_parse(const char *qs, bool has_time, struct dp_query *q)
{
	char scratch[DP_QUERY_MAX + 1];
	struct dp_qseen seen;
	size_t len = 0, pos = 0;
	int rc;

	while (len <= DP_QUERY_MAX && qs[len])
		len++;
	query_init(q, has_time);
	memset(&seen, 0, sizeof(seen));
	if (len > DP_QUERY_MAX)
		return dp_error(DP_EUSAGE, "query too long (over %u bytes)", DP_QUERY_MAX);
	memcpy(scratch, qs, len);
	scratch[len] = 0;
	if (scratch[0] == '?')
		pos = 1;
	while (pos < len) {
		size_t seg = strcspn(scratch + pos, "&");

		if (seg) {
			rc = parse_pair(scratch + pos, seg, q, &seen);
			if (rc < 0)
				return rc;
		}
		pos += seg + 1;
	}
	rc = check_pages(q, &seen);
	if (rc == 0)
		rc = check_needs(q);
	return rc;
}
