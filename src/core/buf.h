/*
 * core/buf.h - growable byte buffer with a byte ceiling fixed at init (curl's dynbuf).
 *
 * Appends past the ceiling or a failed malloc make the buffer "failed": the error is
 * sticky, later appends do nothing, and dp_buf_error() returns it, so a long run of
 * appends can be checked once. The contents are always NUL-terminated. The appends are
 * inline (big pages make millions); dp_buf_room() lets a writer fill reserved room
 * directly. Depends on err.
 */
#ifndef DP_CORE_BUF_H
#define DP_CORE_BUF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

/*
 * dp_buf_add_slow - dp_buf_add() when the room is not there yet: grows, then appends.
 * Return: 0 or the sticky error. (Callers use dp_buf_add().)
 */
int dp_buf_add_slow(struct dp_buf *b, const void *data, size_t len);

/* dp_buf_add - append @len bytes from @data. Return: 0 or the sticky error. Inline: big
 * pages make millions of short appends; the room check is the only cost when it fits. */
static inline int dp_buf_add(struct dp_buf *b, const void *data, size_t len)
{
	if (b->cap - b->len > len && !b->err) {
		if (len)
			memcpy(b->data + b->len, data, len);
		b->len += len;
		b->data[b->len] = 0;
		return 0;
	}
	return dp_buf_add_slow(b, data, len);
}

/* dp_buf_addc - append one byte. Return: 0 or the sticky error. */
static inline int dp_buf_addc(struct dp_buf *b, uint8_t c)
{
	if (b->cap - b->len > 1 && !b->err) {
		b->data[b->len++] = c;
		b->data[b->len] = 0;
		return 0;
	}
	return dp_buf_add_slow(b, &c, 1);
}

/* dp_buf_adds - append a NUL-terminated string (without its NUL). */
static inline int dp_buf_adds(struct dp_buf *b, const char *s)
{
	return dp_buf_add(b, s, strlen(s));
}

/* dp_buf_room - room for @n more bytes (and the NUL) at the end: a pointer to write up
 * to @n bytes at, then dp_buf_commit(). NULL on the sticky error. */
static inline char *dp_buf_room(struct dp_buf *b, size_t n)
{
	if (b->err || (b->cap - b->len <= n && dp_buf_grow(b, n) < 0))
		return NULL;
	return (char *)b->data + b->len;
}

/* dp_buf_commit - end the contents at @end (within the room dp_buf_room() gave). */
static inline void dp_buf_commit(struct dp_buf *b, char *end)
{
	if (!b->data)
		return; /* no room was given */
	b->len = (size_t)((uint8_t *)end - b->data);
	b->data[b->len] = 0;
}

/* dp_buf_hint - make room for about @n more bytes at once (capped by the ceiling, so it
 * never fails on it): a writer that knows its output's size saves the copies of
 * repeated growth. */
void dp_buf_hint(struct dp_buf *b, size_t n);

/* dp_buf_addu - append @v in decimal (no printf). Return: 0 or the sticky error. */
int dp_buf_addu(struct dp_buf *b, uint64_t v);

/* dp_buf_fmt_u64 - the decimal digits of @v into @s (room for 20), no NUL.
 * Return: the number of digits. */
size_t dp_buf_fmt_u64(char *s, uint64_t v);

/* dp_buf_addf - append printf-style formatted text. Return: 0 or the sticky error. */
int dp_buf_addf(struct dp_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* dp_buf_error - 0, or the sticky error of the first failed append. */
static inline int dp_buf_error(const struct dp_buf *b)
{
	return b->err;
}

/* dp_buf_fail - make @b failed with @rc when it is a negative dp_err (and @b is not failed
 * yet): a failure met outside @b, in a scratch buffer whose contents @b was to receive,
 * ends @b's run of appends like its own. Return: @b's sticky error. */
static inline int dp_buf_fail(struct dp_buf *b, int rc)
{
	if (rc < 0 && !b->err)
		b->err = rc;
	return b->err;
}

/* dp_buf_cstr - the contents as a NUL-terminated string ("" when empty), owned by @b. */
const char *dp_buf_cstr(const struct dp_buf *b);

#endif /* DP_CORE_BUF_H */
