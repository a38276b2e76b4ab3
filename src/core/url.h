/*
 * core/url.h - the URL text every front end shares: hex digits, decoding one
 * query-string component (%XX and '+'), and percent-encoding a string for a link.
 * Pure functions over caller memory and dp_buf; no messages are made here (the callers
 * word their own). Depends on buf.
 */
#ifndef DP_CORE_URL_H
#define DP_CORE_URL_H

#include <stddef.h>

#include "buf.h"

/* What dp_url_decode() refuses, as its negative return values. */
enum dp_url_fault {
	DP_URL_BAD_ESCAPE = -1, /* '%' not followed by two hex digits */
	DP_URL_NUL = -2,	/* a NUL byte (%00, or a literal one) */
	DP_URL_CONTROL = -3,	/* a control byte, with DP_URL_NO_CONTROL */
	DP_URL_NO_ROOM = -4,	/* the output (with its NUL) does not fit */
};

/* dp_url_decode() flag: refuse bytes below 0x20 and 0x7f (after decoding). */
#define DP_URL_NO_CONTROL 1u

/* dp_hexval - the value 0..15 of hex digit @c (either case), or -1. */
int dp_hexval(int c);

/*
 * dp_url_decode - decode the query-string component @s (@len bytes, not NUL-terminated:
 * %XX is a byte, '+' a space) into @out (@cap bytes) and NUL-terminate it. @out may be
 * @s (decoding in place needs @len + 1 bytes there). @flags: 0 or DP_URL_NO_CONTROL.
 * Return: the decoded length, or a negative enum dp_url_fault; then *@at (if @at is not
 * NULL) is the offset in @s of the byte or escape at fault.
 */
long dp_url_decode(const char *s, size_t len, char *out, size_t cap, unsigned flags, size_t *at);

/*
 * dp_url_encode - append @s to @b percent-encoded (uppercase %XX): the unreserved
 * characters A-Z a-z 0-9 - . _ ~ and those in @keep (NULL = none) stay as they are.
 * Return: 0 or the buffer's sticky error.
 */
int dp_url_encode(struct dp_buf *b, const char *s, const char *keep);

#endif /* DP_CORE_URL_H */
