/*
 * core/buf.c - growable byte buffer: capacity doubles, capped by the ceiling (so the
 * inline appends of buf.h need only check the room left); failures are sticky so that
 * callers can check once after a run of appends.
 */
#include "buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"

void dp_buf_init(struct dp_buf *b, size_t max)
{
	memset(b, 0, sizeof(*b));
	b->max = max;
}

void dp_buf_release(struct dp_buf *b)
{
	size_t max = b->max;

	free(b->data);
	dp_buf_init(b, max);
}

void dp_buf_reset(struct dp_buf *b)
{
	b->len = 0;
	b->err = 0;
	if (b->data)
		b->data[0] = 0;
}

int dp_buf_grow(struct dp_buf *b, size_t extra)
{
	size_t need, cap;
	uint8_t *data;

	if (b->err)
		return b->err;
	if (extra > b->max || b->len > b->max - extra) {
		b->err = dp_error(DP_ENOMEM, "buffer would exceed its limit of %zu bytes", b->max);
		return b->err;
	}
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 256;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	if (b->max < SIZE_MAX && cap > b->max + 1)
		cap = b->max + 1; /* the inline appends check only the room left */
	data = realloc(b->data, cap);
	if (!data) {
		b->err = dp_error(DP_ENOMEM, "out of memory growing a buffer to %zu bytes", cap);
		return b->err;
	}
	b->data = data;
	b->cap = cap;
	return 0;
}

int dp_buf_add_slow(struct dp_buf *b, const void *data, size_t len)
{
	int rc = dp_buf_grow(b, len);

	if (rc < 0)
		return rc;
	if (len)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = 0;
	return 0;
}

size_t dp_buf_fmt_u64(char *s, uint64_t v)
{
	static const char pairs[201] = "00010203040506070809101112131415161718192021222324"
				       "25262728293031323334353637383940414243444546474849"
				       "50515253545556575859606162636465666768697071727374"
				       "75767778798081828384858687888990919293949596979899";
	static const uint64_t p10[20] = {1u,
					 10u,
					 100u,
					 1000u,
					 10000u,
					 100000u,
					 1000000u,
					 10000000u,
					 100000000u,
					 1000000000u,
					 10000000000u,
					 100000000000u,
					 1000000000000u,
					 10000000000000u,
					 100000000000000u,
					 1000000000000000u,
					 10000000000000000u,
					 100000000000000000u,
					 1000000000000000000u,
					 10000000000000000000u};
	size_t n = 1;
	char *o;

	if (v < 10) {
		s[0] = (char)('0' + v);
		return 1;
	}
	while (n < 20 && v >= p10[n])
		n++;
	o = s + n;
	while (v >= 100) { /* two digits a division */
		size_t k = (size_t)(v % 100) * 2;

		v /= 100;
		*--o = pairs[k + 1];
		*--o = pairs[k];
	}
	if (v >= 10) {
		*--o = pairs[v * 2 + 1];
		*--o = pairs[v * 2];
	} else {
		*--o = (char)('0' + v);
	}
	return n;
}

void dp_buf_hint(struct dp_buf *b, size_t n)
{
	if (b->err || b->cap - b->len > n)
		return;
	if (n > b->max - b->len)
		n = b->max - b->len;
	dp_buf_grow(b, n);
}

int dp_buf_addu(struct dp_buf *b, uint64_t v)
{
	char s[20];

	return dp_buf_add(b, s, dp_buf_fmt_u64(s, v));
}

int dp_buf_addf(struct dp_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n, rc;

	if (b->err)
		return b->err;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->err = dp_error(DP_EUSAGE, "bad format string '%s'", fmt);
		return b->err;
	}
	rc = dp_buf_grow(b, (size_t)n);
	if (rc < 0)
		return rc;
	va_start(ap, fmt);
	vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

const char *dp_buf_cstr(const struct dp_buf *b)
{
	return b->data ? (const char *)b->data : "";
}
