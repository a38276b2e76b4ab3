/*
 * format/reader_int.h - private to the reader (reader.c: container, TOC, file input;
 * reader_chunks.c, reader_syms.c: chunk payloads): the reading state and the bounded
 * cursor that decodes fields and reports errors with their absolute file offset.
 */
#ifndef DP_FORMAT_READER_INT_H
#define DP_FORMAT_READER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "profile.h"

enum dp_rd_chunk {
	DP_RD_INFO,
	DP_RD_THRD,
	DP_RD_OBJS,
	DP_RD_PSTA,
	DP_RD_CSST,
	DP_RD_PDYN,
	DP_RD_CSDY,
	DP_RD_SYMS,
	DP_RD_ORIG, /* optional, after the required ones and SYMS */
	DP_RD_SPCS, /* optional */
	DP_RD_N_CHUNKS
};

struct dp_rd {
	const uint8_t *data; /* the whole file */
	size_t size;
	const char *name;
	struct dp_profile *p;
	bool have[DP_RD_N_CHUNKS];
	size_t off[DP_RD_N_CHUNKS]; /* payload offset */
	size_t len[DP_RD_N_CHUNKS]; /* payload length */
	size_t root_pd_at;	    /* offset of INFO root_pd, checked once PDs are known */
	size_t *thread_root_at;	    /* [1..n_threads] offsets of THRD root_pd fields */
};

/* A bounded view of one chunk payload: [pos, end) with pos and end absolute offsets. */
struct dp_cur {
	struct dp_rd *rd;
	size_t pos, end;
	const char *chunk; /* "INFO", ... for messages */
};

/* dp_rd_fail - set "NAME: <fmt> at byte @at" (DP_EFORMAT) and return -DP_EFORMAT. */
int dp_rd_fail(struct dp_rd *rd, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* dp_rd_num_slow - decode one num at the cursor; errors name @what. Return 0 or
 * -DP_EFORMAT. Use dp_rd_num(), which decodes the common short forms inline. */
int dp_rd_num_slow(struct dp_cur *c, uint64_t *v, const char *what);

/*
 * dp_rd_fast - decode the num at @p inline when it is canonical and at most 9 bytes (63
 * bits: no overflow possible) and 10 bytes are left (no bounds check per byte). Returns
 * its length, or 0 for anything else, which the slow paths decode and report.
 */
static inline size_t dp_rd_fast(const uint8_t *p, size_t left, uint64_t *v)
{
	uint64_t acc;

	if (left < 10)
		return 0;
	if (p[0] < 0x80) { /* most numbers of a profile are one byte */
		*v = p[0];
		return 1;
	}
	if (p[0] == 0x80)
		return 0;
	acc = p[0] & 0x7F;
	for (size_t i = 1; i < 9; i++) {
		acc = acc << 7 | (p[i] & 0x7F);
		if (p[i] < 0x80) {
			*v = acc;
			return i + 1;
		}
	}
	return 0;
}

/*
 * dp_rd_fast_at - dp_rd_fast() for callers that checked that 10 bytes are left: decodes
 * at *@p and advances it. Returns false (and leaves *@p anywhere) for the cases the slow
 * path must decode and report.
 */
static inline bool dp_rd_fast_at(const uint8_t **p, uint64_t *v)
{
	const uint8_t *q = *p;
	uint64_t acc;

	if (q[0] < 0x80) {
		*v = q[0];
		*p = q + 1;
		return true;
	}
	if (q[0] == 0x80)
		return false;
	acc = q[0] & 0x7F;
	for (size_t i = 1; i < 9; i++) {
		acc = acc << 7 | (q[i] & 0x7F);
		if (q[i] < 0x80) {
			*v = acc;
			*p = q + i + 1;
			return true;
		}
	}
	return false;
}

/* dp_rd_num - dp_rd_num_slow() with the common forms decoded inline (dp_rd_fast()):
 * loading is dominated by these fields (bench/load.sh). */
static inline int dp_rd_num(struct dp_cur *c, uint64_t *v, const char *what)
{
	size_t n = dp_rd_fast(c->rd->data + c->pos, c->end - c->pos, v);

	if (n == 0)
		return dp_rd_num_slow(c, v, what);
	c->pos += n;
	return 0;
}

/* dp_rd_u32 - a num that must be below 2^32 - 1. */
int dp_rd_u32(struct dp_cur *c, uint32_t *v, const char *what);

/* dp_rd_count - a record count; each record needs at least @min_bytes more bytes, which
 * must be left in the payload. */
int dp_rd_count(struct dp_cur *c, uint32_t *n, size_t min_bytes, const char *what);

/* dp_rd_bytes - a str: sets *@s to its bytes (inside the file) and *@len. */
int dp_rd_bytes(struct dp_cur *c, const uint8_t **s, size_t *len, const char *what);

/* dp_rd_str - a str interned into the profile's string table; *@id its id. */
int dp_rd_str(struct dp_cur *c, uint32_t *id, const char *what);

/* dp_rd_id_slow - a node id that must be in [@lo, @n]; @fmt/@who describe the record for
 * the message ("CSD 17 has callee PD 99 but there are 12 PDs"). Use dp_rd_id(). */
int dp_rd_id_slow(struct dp_cur *c, uint32_t *id, uint32_t lo, uint32_t n, const char *who,
		  uint32_t who_id, const char *field, const char *plural);

/* dp_rd_id - dp_rd_id_slow() with valid ids decoded inline; any other case (malformed,
 * out of range) is decoded again by the slow path, which reports it. */
static inline int dp_rd_id(struct dp_cur *c, uint32_t *id, uint32_t lo, uint32_t n, const char *who,
			   uint32_t who_id, const char *field, const char *plural)
{
	uint64_t v;
	size_t len = dp_rd_fast(c->rd->data + c->pos, c->end - c->pos, &v);

	if (len == 0 || v < lo || v > n)
		return dp_rd_id_slow(c, id, lo, n, who, who_id, field, plural);
	*id = (uint32_t)v;
	c->pos += len;
	return 0;
}

/* dp_rd_end - the payload must be consumed exactly. */
int dp_rd_end(struct dp_cur *c);

/* dp_rd_alloc - zeroed array of @n elements of @size from the profile's arena. */
void *dp_rd_alloc(struct dp_rd *rd, size_t n, size_t size);

/* Chunk parsers, called in this order by dp_read_buffer once the TOC is valid. */
int dp_rd_info(struct dp_rd *rd);
int dp_rd_objs(struct dp_rd *rd);
int dp_rd_psta(struct dp_rd *rd);
int dp_rd_csst(struct dp_rd *rd);
int dp_rd_thrd(struct dp_rd *rd);
int dp_rd_pdyn(struct dp_rd *rd);
int dp_rd_csdy(struct dp_rd *rd);
int dp_rd_syms(struct dp_rd *rd);
int dp_rd_orig(struct dp_rd *rd); /* reader_syms.c; nothing to do without the chunk */
int dp_rd_spcs(struct dp_rd *rd); /* reader_syms.c; nothing to do without the chunk */
/* dp_rd_roots - the root PD and thread root PDs have the right PS kinds and threads. */
int dp_rd_roots(struct dp_rd *rd);

#endif /* DP_FORMAT_READER_INT_H */
