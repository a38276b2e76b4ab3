/*
 * core/url.c - hex digits, percent-decoding of one query-string component and
 * percent-encoding for links: the one copy the query language, the web server and the
 * CGI program share (see url.h).
 */
#include "url.h"

#include <string.h>

int dp_hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * The byte at @s[*i] of @len bytes, decoded (a '%' escape moves *i past its digits), or
 * a negative enum dp_url_fault (*i left on the byte or escape at fault).
 */
static int decode_byte(const char *s, size_t len, size_t *i, unsigned flags)
{
	int c = (unsigned char)s[*i];

	if (c == '+') {
		c = ' ';
	} else if (c == '%') {
		int hi = *i + 2 < len ? dp_hexval((unsigned char)s[*i + 1]) : -1;
		int lo = hi >= 0 ? dp_hexval((unsigned char)s[*i + 2]) : -1;

		if (lo < 0)
			return DP_URL_BAD_ESCAPE;
		c = hi * 16 + lo;
		if (c == 0)
			return DP_URL_NUL; /* %00, whatever the flags */
		*i += 2;
	}
	if ((flags & DP_URL_NO_CONTROL) && (c < 0x20 || c == 0x7f))
		return DP_URL_CONTROL;
	return c == 0 ? DP_URL_NUL : c;
}

long dp_url_decode(const char *s, size_t len, char *out, size_t cap, unsigned flags, size_t *at)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		size_t start = i;
		int c = decode_byte(s, len, &i, flags);

		if (c >= 0 && n + 1 >= cap)
			c = DP_URL_NO_ROOM;
		if (c < 0) {
			if (at)
				*at = start;
			return c;
		}
		out[n++] = (char)c; /* n <= start: in place, nothing unread is overwritten */
	}
	if (cap == 0) { /* only when @len is 0 too */
		if (at)
			*at = 0;
		return DP_URL_NO_ROOM;
	}
	out[n] = '\0';
	return (long)n;
}

int dp_url_encode(struct dp_buf *b, const char *s, const char *keep)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    strchr("-._~", c) || (keep && strchr(keep, c))) {
			dp_buf_addc(b, c);
		} else {
			char e[3] = {'%', hex[c >> 4], hex[c & 15]};

			dp_buf_add(b, e, 3);
		}
	}
	return dp_buf_error(b);
}
