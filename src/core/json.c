/*
 * core/json.c - the JSON emitter: comma placement from the last token, string escaping
 * with UTF-8 validation (overlong forms, surrogates and code points past U+10FFFF are
 * invalid; plain ASCII copied in one go), numbers printed exactly without printf, and
 * a one-shot path for the members of compact objects.
 */
#include "json.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes that go into a JSON string as they are: printable ASCII but '"' and '\\'. */
static inline bool json_plain(uint8_t c)
{
	return c >= 0x20 && c < 0x7F && c != '"' && c != '\\';
}

/*
 * The fast path of a compact member: the comma, the quoted key (plain ASCII) and the
 * colon written at once, with room for @extra more bytes after them. Return: where the
 * value goes, or NULL when the layout needs the general path (an indented level, a key
 * to escape, or the buffer's error).
 */
static char *json_member(struct dp_json *j, const char *key, size_t extra)
{
	size_t klen = strlen(key);
	char *p, *o;

	if (j->last == ':' || (j->depth && j->depth <= j->pretty))
		return NULL;
	p = dp_buf_room(j->out, klen + 4 + extra);
	if (!p)
		return NULL;
	o = p;
	if (j->last == 'v')
		*o++ = ',';
	*o++ = '"';
	for (size_t i = 0; i < klen; i++) {
		if (!json_plain((uint8_t)key[i]))
			return NULL;
		*o++ = key[i];
	}
	*o++ = '"';
	*o++ = ':';
	return o;
}

void dp_json_init(struct dp_json *j, struct dp_buf *out, unsigned pretty)
{
	j->out = out;
	j->depth = 0;
	j->pretty = pretty;
	j->last = 0;
}

/* A newline and @n indents, if items at nesting level @level (1 = the outermost
 * container's items) are laid out one per line. */
static void json_indent(struct dp_json *j, unsigned level, unsigned n)
{
	if (level == 0 || level > j->pretty)
		return;
	dp_buf_addc(j->out, '\n');
	for (unsigned i = 0; i < n; i++)
		dp_buf_add(j->out, "  ", 2);
}

/* Before a value or a key: a comma after a previous value, and the indent. */
static void json_sep(struct dp_json *j)
{
	if (j->last == ':')
		return;
	if (j->last == 'v')
		dp_buf_addc(j->out, ',');
	json_indent(j, j->depth, j->depth);
}

static int json_open(struct dp_json *j, char c)
{
	json_sep(j);
	dp_buf_addc(j->out, (uint8_t)c);
	j->depth++;
	j->last = c;
	return dp_buf_error(j->out);
}

static int json_close(struct dp_json *j, char c)
{
	bool empty = j->last == '{' || j->last == '[';

	if (!empty && j->depth)
		json_indent(j, j->depth, j->depth - 1);
	if (j->depth)
		j->depth--;
	dp_buf_addc(j->out, (uint8_t)c);
	j->last = 'v';
	return dp_buf_error(j->out);
}

int dp_json_begin_object(struct dp_json *j)
{
	return json_open(j, '{');
}

int dp_json_end_object(struct dp_json *j)
{
	return json_close(j, '}');
}

int dp_json_begin_array(struct dp_json *j)
{
	return json_open(j, '[');
}

int dp_json_end_array(struct dp_json *j)
{
	return json_close(j, ']');
}

int dp_json_key(struct dp_json *j, const char *key)
{
	json_sep(j);
	dp_json_escape(j->out, key, strlen(key));
	if (j->depth && j->depth <= j->pretty)
		dp_buf_add(j->out, ": ", 2);
	else
		dp_buf_addc(j->out, ':');
	j->last = ':';
	return dp_buf_error(j->out);
}

/* Emits an already formatted scalar token. */
static int json_raw(struct dp_json *j, const char *tok)
{
	json_sep(j);
	dp_buf_adds(j->out, tok);
	j->last = 'v';
	return dp_buf_error(j->out);
}

int dp_json_strn(struct dp_json *j, const char *s, size_t len)
{
	json_sep(j);
	dp_json_escape(j->out, s, len);
	j->last = 'v';
	return dp_buf_error(j->out);
}

int dp_json_str(struct dp_json *j, const char *s)
{
	return s ? dp_json_strn(j, s, strlen(s)) : dp_json_null(j);
}

int dp_json_u64(struct dp_json *j, uint64_t v)
{
	json_sep(j);
	dp_buf_addu(j->out, v);
	j->last = 'v';
	return dp_buf_error(j->out);
}

int dp_json_i64(struct dp_json *j, int64_t v)
{
	json_sep(j);
	if (v < 0) {
		dp_buf_addc(j->out, '-');
		dp_buf_addu(j->out, (uint64_t)0 - (uint64_t)v);
	} else {
		dp_buf_addu(j->out, (uint64_t)v);
	}
	j->last = 'v';
	return dp_buf_error(j->out);
}

int dp_json_double(struct dp_json *j, double v)
{
	char tmp[40];

	if (isnan(v) || isinf(v))
		return json_raw(j, "null");
	/* the shortest of 15..17 significant digits that reads back as the same double */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*g", prec, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	return json_raw(j, tmp);
}

int dp_json_bool(struct dp_json *j, bool v)
{
	return json_raw(j, v ? "true" : "false");
}

int dp_json_null(struct dp_json *j)
{
	return json_raw(j, "null");
}

int dp_json_hex(struct dp_json *j, uint64_t v)
{
	char tmp[32];

	snprintf(tmp, sizeof(tmp), "\"0x%" PRIx64 "\"", v);
	return json_raw(j, tmp);
}

int dp_json_kv_str(struct dp_json *j, const char *key, const char *s)
{
	char *o = s ? json_member(j, key, 0) : NULL;

	if (!o) {
		dp_json_key(j, key);
		return dp_json_str(j, s);
	}
	dp_buf_commit(j->out, o);
	dp_json_escape(j->out, s, strlen(s));
	j->last = 'v';
	return dp_buf_error(j->out);
}

int dp_json_kv_u64(struct dp_json *j, const char *key, uint64_t v)
{
	char *o = json_member(j, key, 20);

	if (!o) {
		dp_json_key(j, key);
		return dp_json_u64(j, v);
	}
	dp_buf_commit(j->out, o + dp_buf_fmt_u64(o, v));
	j->last = 'v';
	return dp_buf_error(j->out);
}

int dp_json_kv_hex(struct dp_json *j, const char *key, uint64_t v)
{
	dp_json_key(j, key);
	return dp_json_hex(j, v);
}

int dp_json_kv_bool(struct dp_json *j, const char *key, bool v)
{
	dp_json_key(j, key);
	return dp_json_bool(j, v);
}

int dp_json_kv_double(struct dp_json *j, const char *key, double v)
{
	dp_json_key(j, key);
	return dp_json_double(j, v);
}

/*
 * The length of the valid UTF-8 sequence starting at @s (at most @n bytes), or 0 if the
 * bytes there are not one (bad lead byte, bad continuation, truncated, overlong,
 * surrogate, or past U+10FFFF). Writes the code point to *@cp.
 */
static size_t utf8_seq(const uint8_t *s, size_t n, uint32_t *cp)
{
	uint32_t c = s[0], min;
	size_t len;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF) {
		len = 2;
		min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3;
		min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4;
		min = 0x10000;
	} else {
		return 0;
	}
	c &= 0x7Fu >> len; /* the lead byte's payload bits */
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return len;
}

static void json_escape_ascii(struct dp_buf *out, uint8_t c)
{
	static const char hex[] = "0123456789abcdef";
	char tmp[8];

	switch (c) {
	case '"':
		dp_buf_add(out, "\\\"", 2);
		return;
	case '\\':
		dp_buf_add(out, "\\\\", 2);
		return;
	case '\n':
		dp_buf_add(out, "\\n", 2);
		return;
	case '\r':
		dp_buf_add(out, "\\r", 2);
		return;
	case '\t':
		dp_buf_add(out, "\\t", 2);
		return;
	case '\b':
		dp_buf_add(out, "\\b", 2);
		return;
	case '\f':
		dp_buf_add(out, "\\f", 2);
		return;
	default:
		break;
	}
	if (c >= 0x20 && c != 0x7F) {
		dp_buf_addc(out, c);
		return;
	}
	memcpy(tmp, "\\u00", 4);
	tmp[4] = hex[c >> 4];
	tmp[5] = hex[c & 15];
	dp_buf_add(out, tmp, 6);
}

int dp_json_escape(struct dp_buf *out, const char *s, size_t len)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t i = 0, run = 0; /* p[run..i) is waiting to be copied as is */
	char *o = dp_buf_room(out, len + 2);

	if (!o)
		return dp_buf_error(out);
	*o++ = '"'; /* plain ASCII is copied at once; the first other byte ends the fast loop */
	while (i < len && json_plain(p[i]))
		*o++ = (char)p[i++];
	if (i == len) {
		*o++ = '"';
		dp_buf_commit(out, o);
		return 0;
	}
	dp_buf_commit(out, o);
	run = i;
	while (i < len) {
		uint32_t cp = 0;
		size_t n;

		if (json_plain(p[i])) {
			i++;
			continue;
		}
		n = p[i] < 0x80 ? 1 : utf8_seq(p + i, len - i, &cp);
		if (n > 1 && cp != 0x2028 && cp != 0x2029) {
			i += n; /* valid UTF-8 is copied as is */
			continue;
		}
		dp_buf_add(out, p + run, i - run);
		if (n == 0)
			dp_buf_add(out, "\\ufffd", 6);
		else if (n == 1)
			json_escape_ascii(out, p[i]);
		else
			dp_buf_add(out, cp == 0x2028 ? "\\u2028" : "\\u2029", 6);
		i += n ? n : 1;
		run = i;
	}
	dp_buf_add(out, p + run, i - run);
	dp_buf_addc(out, '"');
	return dp_buf_error(out);
}
