/*
 * query/query_text.c - the text level of the query language: percent-decoding and
 * -encoding, strict number parsing (every byte must belong to the number) with
 * shortest round-tripping output, vocabularies, and quoting bad text safely in messages.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/suggest.h"
#include "../core/url.h"
#include "query_int.h"

#define DP_Q_QUOTE_SHOWN 48 /* bytes of a bad value shown in a message */

void dp_q_quote(const char *s, size_t len, char out[DP_Q_QUOTE_MAX])
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0, shown = len < DP_Q_QUOTE_SHOWN ? len : DP_Q_QUOTE_SHOWN;

	for (size_t i = 0; i < shown; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\') {
			out[o++] = (char)c;
			continue;
		}
		out[o++] = '\\';
		out[o++] = 'x';
		out[o++] = hex[c >> 4];
		out[o++] = hex[c & 15];
	}
	if (shown < len) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = 0;
}

int dp_q_decode(char *s, size_t len, const char *what)
{
	char qb[DP_Q_QUOTE_MAX];
	size_t at = 0;
	long n = dp_url_decode(s, len, s, len + 1, DP_URL_NO_CONTROL, &at);
	int c;

	switch (n) {
	case DP_URL_BAD_ESCAPE:
		dp_q_quote(s + at, len - at < 3 ? len - at : 3, qb);
		return dp_error(DP_EUSAGE,
				"bad percent-escape '%s' in %s (write %%XX, two hex digits)", qb,
				what);
	case DP_URL_NUL:
		return dp_error(DP_EUSAGE, "%%00 (a NUL byte) in %s", what);
	case DP_URL_CONTROL:
		c = s[at] != '%' ? (unsigned char)s[at]
				 : dp_hexval((unsigned char)s[at + 1]) << 4 |
					   dp_hexval((unsigned char)s[at + 2]);
		return dp_error(DP_EUSAGE, "control character \\x%02x in %s", c, what);
	default:
		return (int)n; /* never DP_URL_NO_ROOM: decoding only shrinks */
	}
}

int dp_q_uint(const char *key, const char *val, uint64_t lo, uint64_t hi, uint64_t *out)
{
	char qb[DP_Q_QUOTE_MAX];
	uint64_t v = 0;
	const char *p = val;
	bool big = false;

	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			big = true;
		else
			v = v * 10 + d;
	}
	dp_q_quote(val, strlen(val), qb);
	if (p == val || *p)
		return dp_error(DP_EUSAGE, "bad %s '%s': expected a whole number %llu..%llu", key,
				qb, (unsigned long long)lo, (unsigned long long)hi);
	if (big || v < lo || v > hi)
		return dp_error(DP_EUSAGE, "%s '%s' out of range %llu..%llu", key, qb,
				(unsigned long long)lo, (unsigned long long)hi);
	*out = v;
	return 0;
}

/* plain decimal syntax: digits, optional fraction, optional exponent; no sign */
static bool real_syntax(const char *s)
{
	size_t digits = 0;

	for (; *s >= '0' && *s <= '9'; s++)
		digits++;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			digits++;
	if (!digits)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(*s >= '0' && *s <= '9'))
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == 0;
}

int dp_q_real(const char *key, const char *val, double lo, double hi, double *out)
{
	char qb[DP_Q_QUOTE_MAX];
	char *end = NULL;
	double v = 0;

	dp_q_quote(val, strlen(val), qb);
	if (real_syntax(val))
		v = strtod(val, &end);
	if (!end || *end)
		return dp_error(DP_EUSAGE, "bad %s '%s': expected a number %g..%g", key, qb, lo,
				hi);
	if (!isfinite(v) || v < lo || v > hi)
		return dp_error(DP_EUSAGE, "%s '%s' out of range %g..%g", key, qb, lo, hi);
	*out = v;
	return 0;
}

void dp_q_join(const char *const *names, unsigned n, char *out, size_t size)
{
	size_t o = 0;

	out[0] = 0;
	for (unsigned i = 0; i < n && o < size; i++) {
		int w = snprintf(out + o, size - o, "%s%s", i ? ", " : "", names[i]);

		if (w < 0)
			break;
		o += (size_t)w;
	}
}

int dp_q_enum(const char *key, const char *val, const char *const *names, unsigned n, unsigned *out)
{
	char qb[DP_Q_QUOTE_MAX], list[400];

	for (unsigned i = 0; i < n; i++) {
		if (strcmp(val, names[i]) == 0) {
			*out = i;
			return 0;
		}
	}
	const char *near = dp_suggest(val, names, n);

	dp_q_quote(val, strlen(val), qb);
	dp_q_join(names, n, list, sizeof(list));
	if (near)
		return dp_error(DP_EUSAGE, "unknown %s '%s'; did you mean '%s'? %s is one of: %s",
				key, qb, near, key, list);
	return dp_error(DP_EUSAGE, "unknown %s '%s'; %s is one of: %s", key, qb, key, list);
}

int dp_q_add_encoded(struct dp_buf *b, const char *s)
{
	return dp_url_encode(b, s, ":/");
}

int dp_q_add_real(struct dp_buf *b, double v)
{
	char text[48];
	char *e;

	/* plain decimals while they stay short: 80, 0.00001, 590830300.5 */
	for (int decimals = 0; decimals <= 20; decimals++) {
		int n = snprintf(text, sizeof(text), "%.*f", decimals, v);

		if (n > 0 && n < 32 && strtod(text, NULL) == v)
			return dp_buf_adds(b, text);
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(text, sizeof(text), "%.*g", prec, v);
		if (strtod(text, NULL) == v)
			break;
	}
	/* '+' would read back as a space: 1e+300 is written 1e300 */
	e = strchr(text, '+');
	if (e)
		memmove(e, e + 1, strlen(e));
	return dp_buf_adds(b, text);
}
