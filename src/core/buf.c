/*
 * core/buf.c - growable byte buffer: capacity doubles, capped by the ceiling; failures
 * are sticky so that callers can check once after a run of appends.
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
	data = realloc(b->data, cap);
	if (!data) {
		b->err = dp_error(DP_ENOMEM, "out of memory growing a buffer to %zu bytes", cap);
		return b->err;
	}
	b->data = data;
	b->cap = cap;
	return 0;
}

int dp_buf_add(struct dp_buf *b, const void *data, size_t len)
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

int dp_buf_addc(struct dp_buf *b, uint8_t c)
{
	return dp_buf_add(b, &c, 1);
}

int dp_buf_adds(struct dp_buf *b, const char *s)
{
	return dp_buf_add(b, s, strlen(s));
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

int dp_buf_error(const struct dp_buf *b)
{
	return b->err;
}

const char *dp_buf_cstr(const struct dp_buf *b)
{
	return b->data ? (const char *)b->data : "";
}
