/*
 * query/query_int.h - private to src/query: the parameter table (which key applies to
 * which pages), the value vocabularies shared by the parser and the formatter, and the
 * text helpers (percent-decoding and -encoding, quoting bad text in messages, strict
 * number parsing and shortest round-tripping number formatting).
 */
#ifndef DP_QUERY_QUERY_INT_H
#define DP_QUERY_QUERY_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/buf.h"
#include "query.h"

#define DP_QUERY_MAX 8192u /* longest query string accepted, in bytes */
#define DP_QPAGE(p)  (1u << (unsigned)(p))

/* Page parameter defaults (dp_query_reset_params()). */
#define DP_Q_PERCENT_DEF    90.0
#define DP_Q_SIZE_DEF	    20u
#define DP_Q_SIZE_MAX	    1000u
#define DP_Q_LIMIT_LO_DEF   1u
#define DP_Q_LIMIT_HI_DEF   100u
#define DP_Q_LIMIT_SPAN_MAX 10000u /* N - M of limit=M-N */
#define DP_Q_MIN_DEF	    0.1
#define DP_Q_DEPTH_MAX	    100000u
#define DP_Q_ANC_DEF	    5
#define DP_Q_ANC_MAX	    10000
#define DP_Q_FIELDS_BASE    (DP_FIELD_PORTS | DP_FIELD_CALLSEQS | DP_FIELD_BYTES)

/* Every key; the order is the canonical order of dp_query_format(). */
enum dp_qkey {
	DP_QK_PAGE = 0,
	DP_QK_ID,
	DP_QK_PROC,
	DP_QK_NAME,
	DP_QK_PERCENT,
	DP_QK_GROUP,
	DP_QK_BUNCH,
	DP_QK_SIZE,
	DP_QK_LIMIT,
	DP_QK_METRIC,
	DP_QK_SCOPE,
	DP_QK_PER,
	DP_QK_THREAD,
	DP_QK_MIN,
	DP_QK_DEPTH,
	DP_QK_ROOT,
	DP_QK_Q,
	DP_QK_MATCH,
	DP_QK_FIELDS, /* preferences from here */
	DP_QK_SORT,
	DP_QK_ANC,
	DP_QK_SUM,
	DP_QK_CONTOUR,
	DP_QK_SPLIT,
	DP_QK_INACTIVE,
	DP_QK_UNIT,
	DP_QK_MQ,
	DP_QK_VIEW,
	DP_QK_LIBS,
	DP_QK_FORMAT, /* front-end choices, last */
	DP_QK_FILE,
	DP_QK_COUNT
};

/* One key: its token and the pages it applies to (DP_QPAGE bits; 0 = every page). */
struct dp_qkey_desc {
	const char *key;
	uint32_t pages;
};

extern const struct dp_qkey_desc dp_qkeys[DP_QK_COUNT];

/* The value vocabularies, indexed by the enums of query.h. */
extern const char *const dp_q_page_names[DP_PAGE_COUNT];
extern const char *const dp_q_metric_names[DP_METRIC_COUNT];
extern const char *const dp_q_scope_names[2];
extern const char *const dp_q_per_names[2];
extern const char *const dp_q_group_names[4];
extern const char *const dp_q_unit_names[5];
extern const char *const dp_q_mq_names[3];
extern const char *const dp_q_view_names[2];
extern const char *const dp_q_libs_names[2];
extern const char *const dp_q_format_names[3];
extern const char *const dp_q_sort_names[3];
extern const char *const dp_q_match_names[2];

/* The letters of fields=, in canonical order, with the bits each sets. */
struct dp_qfield {
	char letter;
	unsigned bits;
};
#define DP_Q_N_FIELDS 10
extern const struct dp_qfield dp_q_fields[DP_Q_N_FIELDS];

#define DP_Q_QUOTE_MAX 200 /* size of a quoted-text buffer */

/* dp_q_quote - @s (@len bytes) made safe to quote in a message into @out: bytes outside
 * printable ASCII, quote and backslash become \xNN; text past 48 bytes becomes "...". */
void dp_q_quote(const char *s, size_t len, char out[DP_Q_QUOTE_MAX]);

/* dp_q_decode - percent-decode @s (@len bytes, not NUL-terminated) in place, '+' as
 * space, and NUL-terminate it; @what names it in messages ("parameter name", "value of
 * id="). Return: the decoded length, or -DP_EUSAGE for a bad or %00 escape or a control
 * character. */
int dp_q_decode(char *s, size_t len, const char *what);

/* dp_q_uint - @val as a decimal integer in @lo..@hi into *@out (digits only, fully
 * parsed). Return: 0 or -DP_EUSAGE naming @key and the range. */
int dp_q_uint(const char *key, const char *val, uint64_t lo, uint64_t hi, uint64_t *out);

/* dp_q_real - @val as a plain decimal number (digits, optional fraction and exponent, no
 * sign) in @lo..@hi into *@out. Return: 0 or -DP_EUSAGE naming @key and the range. */
int dp_q_real(const char *key, const char *val, double lo, double hi, double *out);

/* dp_q_enum - the index of @val in @names (@n of them) into *@out. Return: 0 or
 * -DP_EUSAGE "bad KEY 'VAL'; KEY is one of: a, b, c". */
int dp_q_enum(const char *key, const char *val, const char *const *names, unsigned n,
	      unsigned *out);

/* dp_q_join - @names (@n of them) joined by ", " into @out (@size bytes, truncated). */
void dp_q_join(const char *const *names, unsigned n, char *out, size_t size);

/* dp_q_add_encoded - append @s percent-encoded (only A-Z a-z 0-9 - . _ ~ : / kept). */
int dp_q_add_encoded(struct dp_buf *b, const char *s);

/* dp_q_add_real - append the shortest decimal text that dp_q_real() reads back as @v. */
int dp_q_add_real(struct dp_buf *b, double v);

/* dp_q_parse_value - parse value @val of key @k into @q (no page checks). Return: 0 or
 * -DP_EUSAGE with the message set. (query_values.c) */
int dp_q_parse_value(struct dp_query *q, enum dp_qkey k, const char *val);

/* dp_q_add_fields / dp_q_add_sort - append the canonical value of fields= / sort= (the
 * metric of a cost sort is written when it is not the default of @has_time). */
int dp_q_add_fields(struct dp_buf *b, unsigned fields);
int dp_q_add_sort(struct dp_buf *b, const struct dp_prefs *p, bool has_time);

#endif /* DP_QUERY_QUERY_INT_H */
