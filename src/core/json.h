/*
 * core/json.h - a small JSON emitter writing into a struct dp_buf: objects and arrays
 * with the commas placed automatically, escaped strings (control characters escaped,
 * invalid UTF-8 replaced by U+FFFD), exact u64/i64 numbers, doubles. No nesting limit
 * and no stack: the comma decision looks at the last token written. Depends on buf.
 */
#ifndef DP_CORE_JSON_H
#define DP_CORE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "buf.h"

struct dp_json {
	struct dp_buf *out; /* borrowed */
	unsigned depth;	    /* open objects and arrays */
	unsigned pretty;    /* levels laid out one item per line (2-space indent); 0 = compact */
	char last;	    /* last structural token: 0 (start), '{', '[', ':' or 'v' (value) */
};

/*
 * dp_json_init - emit into @out (borrowed; appended to). The members and elements of the
 * outermost @pretty levels go one per line, indented; deeper levels are compact (so 2
 * gives one line per record of a top-level array). 0 = all on one line, UINT_MAX = all
 * indented.
 */
void dp_json_init(struct dp_json *j, struct dp_buf *out, unsigned pretty);

/* Structure: each returns 0 or the buffer's sticky error. The caller pairs them. */
int dp_json_begin_object(struct dp_json *j);
int dp_json_end_object(struct dp_json *j);
int dp_json_begin_array(struct dp_json *j);
int dp_json_end_array(struct dp_json *j);

/* dp_json_key - an object member name (escaped); the next call emits its value. */
int dp_json_key(struct dp_json *j, const char *key);

/* Values (array elements, or member values after dp_json_key). */
int dp_json_str(struct dp_json *j, const char *s);		/* NULL emits null */
int dp_json_strn(struct dp_json *j, const char *s, size_t len); /* may hold NULs */
int dp_json_u64(struct dp_json *j, uint64_t v);
int dp_json_i64(struct dp_json *j, int64_t v);
int dp_json_double(struct dp_json *j, double v); /* NaN and infinities emit null */
int dp_json_bool(struct dp_json *j, bool v);
int dp_json_null(struct dp_json *j);
int dp_json_hex(struct dp_json *j, uint64_t v); /* the string "0x<lowercase hex>" */

/* Shorthands for a member: key then value. */
int dp_json_kv_str(struct dp_json *j, const char *key, const char *s);
int dp_json_kv_u64(struct dp_json *j, const char *key, uint64_t v);
int dp_json_kv_hex(struct dp_json *j, const char *key, uint64_t v);
int dp_json_kv_bool(struct dp_json *j, const char *key, bool v);
int dp_json_kv_double(struct dp_json *j, const char *key, double v);

/*
 * dp_json_escape - append @len bytes of @s to @out as a quoted JSON string: '"' and '\\'
 * escaped, control characters as \n, \t, ... or \u00XX, U+2028/U+2029 as \u escapes,
 * and every byte that is not part of a valid UTF-8 sequence as \ufffd.
 * Return: 0 or the buffer's sticky error.
 */
int dp_json_escape(struct dp_buf *out, const char *s, size_t len);

#endif /* DP_CORE_JSON_H */
