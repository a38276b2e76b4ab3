/*
 * analysis/diff_int.h - what diff.c (procedures, rows) shares with diff_ctx.c (calling
 * contexts). Not for users of the module; they include diff.h.
 */
#ifndef DP_ANALYSIS_DIFF_INT_H
#define DP_ANALYSIS_DIFF_INT_H

#include <stddef.h>
#include <stdint.h>

#include "../core/hash.h"
#include "../format/profile.h"

/* The contexts of both profiles: id k > 0 is procedure proc[k] (a key id of diff.c's
 * procedure table) called in context parent[k] (0 = the root). */
struct dp_diff_ctx {
	struct dp_map64 ids; /* parent << 32 | proc -> id */
	uint32_t n;	     /* contexts + 1 (ids 1 .. n - 1) */
	uint32_t *parent, *proc;
	uint64_t *raw[2]; /* [side][context]: the metric's self cost */
	uint8_t *seen[2];
	size_t cap;
};

/* dp_diff_ctx_init - room for @cap contexts (the PDs of both profiles); 0 or -DP_ENOMEM
 * (release it anyway). */
int dp_diff_ctx_init(struct dp_diff_ctx *c, size_t cap);

/* dp_diff_ctx_release - free what @c holds. */
void dp_diff_ctx_release(struct dp_diff_ctx *c);

/*
 * dp_diff_ctx_collect - the contexts of @p (side 0 base, 1 new) from the root, breadth
 * first, procedures keyed by @kid[PS] (0 for artificial PSs, which are skipped), and each
 * context's self cost (@counter(csd, @m) over the CSDs calling its PDs).
 * Return: 0 or -DP_ENOMEM.
 */
int dp_diff_ctx_collect(struct dp_diff_ctx *c, const struct dp_profile *p, int side,
			const uint32_t *kid, uint64_t (*counter)(const struct dp_csd *, int),
			int m);

#endif /* DP_ANALYSIS_DIFF_INT_H */
