/*
 * core/buf.h - growable byte buffer with a byte ceiling fixed at init (curl's dynbuf).
 *
 * Appends past the ceiling or a failed malloc make the buffer "failed": the error is
 * sticky, later appends do nothing, and dp_buf_error() returns it, so a long run of
 * appends can be checked once. The contents are always NUL-terminated. Depends on err.
 */
#ifndef DP_CORE_BUF_H
#define DP_CORE_BUF_H

#include <stddef.h>
#include <stdint.h>

struct dp_buf {
	uint8_t *data; /* len bytes plus a NUL; NULL until the first append */
	size_t len;
	size_t cap; /* bytes allocated */
	size_t max; /* ceiling on len */
	int err;    /* 0, or the negative dp_err of the first failed append */
};

/* dp_buf_init - an empty buffer that will never hold more than @max bytes. Allocates
 * nothing. */
void dp_buf_init(struct dp_buf *b, size_t max);

/* dp_buf_release - free the contents; the buffer is empty (same ceiling) and reusable. */
void dp_buf_release(struct dp_buf *b);

/* dp_buf_reset - drop the contents but keep the memory; clears the sticky error. */
void dp_buf_reset(struct dp_buf *b);

/*
 * dp_buf_grow - make room for @extra more bytes (plus the NUL).
 * Return: 0, or -DP_ENOMEM (message set) when the ceiling or malloc fails; sticky.
 */
int dp_buf_grow(struct dp_buf *b, size_t extra);

/* dp_buf_add - append @len bytes from @data. Return: 0 or the sticky error. */
int dp_buf_add(struct dp_buf *b, const void *data, size_t len);

/* dp_buf_addc - append one byte. Return: 0 or the sticky error. */
int dp_buf_addc(struct dp_buf *b, uint8_t c);

/* dp_buf_adds - append a NUL-terminated string (without its NUL). */
int dp_buf_adds(struct dp_buf *b, const char *s);

/* dp_buf_addf - append printf-style formatted text. Return: 0 or the sticky error. */
int dp_buf_addf(struct dp_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* dp_buf_error - 0, or the sticky error of the first failed append. */
int dp_buf_error(const struct dp_buf *b);

/* dp_buf_cstr - the contents as a NUL-terminated string ("" when empty), owned by @b. */
const char *dp_buf_cstr(const struct dp_buf *b);

#endif /* DP_CORE_BUF_H */
