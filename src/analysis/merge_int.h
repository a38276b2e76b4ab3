/*
 * analysis/merge_int.h - what merge.c (the union-find closure that decides which PDs
 * merge) shares with merge_out.c (copying the static tables and building the merged
 * nodes). Not for users of the module; they include merge.h.
 */
#ifndef DP_ANALYSIS_MERGE_INT_H
#define DP_ANALYSIS_MERGE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "../format/profile.h"

/* Profiles of fewer PDs are merged on one thread: a second is not worth starting. */
#define DP_MG_PAR_MIN 100000u

/* One entry of the (class, CSS, callee key) table; csd == 0 marks an empty slot. */
struct dp_mg_ent {
	uint64_t k;   /* callee PS << 32 | callee's thread signature class */
	uint32_t rep; /* the class (union-find representative) making the call */
	uint32_t css;
	uint32_t csd;	 /* the first CSD seen with this key in this class */
	uint32_t callee; /* its callee PD */
};

/*
 * The state of one merge. Arrays indexed by PD id are [1..n_pd]. The table holds, for
 * every current indexed class and every (CSS, key) its members call, one CSD; entries
 * whose rep is no longer a representative are stale and dropped when the table grows.
 * Two single PDs (neither indexed) unite without the table when their CSD lists are
 * short: their CSDs are matched pairwise, and the pair stays unindexed until it takes
 * part in another union (which indexes all its members).
 */
struct dp_mg {
	const struct dp_profile *in;
	int by_thread;			/* thread roots are keyed by their thread, not by
					   their entry functions (dp_mg_merge()) */
	uint32_t *parent;		/* union-find, path halving */
	uint32_t *size;			/* class size, valid at representatives */
	uint32_t *next;			/* circular list of a class's members */
	uint32_t *sig;			/* thread root PDs: signature class (>= 1); else 0 */
	uint64_t *key;			/* a PD's callee key: PS << 32 | sig */
	uint8_t *indexed;		/* at representatives: 1 = its CSDs are in the table;
					   0 = a single PD whose CSDs all differ in key */
	uint32_t n_indexed;		/* classes ever indexed */
	uint32_t n_unions;		/* unions made; 0 = nothing merges */
	uint32_t *csd_start, *csd_ids;	/* CSR: PD -> the CSDs it makes */
	uint32_t *pos_css, *pos_callee; /* CSS and callee PD of csd_ids[i], at i */
	uint32_t *grp;			/* [1..n_csd]: the CSD that CSD d merges into, as
					   the last table entry (or pair match) said; 0 =
					   itself. Final once the closure is done */
	struct dp_mg_ent *tab;		/* open addressing, linear probing */
	size_t n_tab, n_used;		/* slots (a power of two), used (stale included) */
	uint32_t *pend;			/* pairs of PDs still to unite */
	size_t n_pend;			/* in pairs */
	size_t cap_pend;		/* in elements (two a pair) */
};

/*
 * dp_mg_merge - dp_profile_merge_threads() when @by_thread is 0; when 1, thread root PDs
 * merge only with those of the same thread (their thread index is their signature), so
 * a profile whose PDs of one thread are spread over several root PDs (the union of
 * several files, profile_merge.c) becomes one tree per thread, merged top-down.
 */
int dp_mg_merge(const struct dp_profile *in, struct dp_profile *out, int by_thread);

/* dp_mg_find - the representative of @x's class (compresses the path on the way). */
uint32_t dp_mg_find(struct dp_mg *m, uint32_t x);

/*
 * dp_mg_copy_static - initialise @out (uninitialised) as a copy of @in without PD and CSD
 * arrays: header, INFO, strings (same ids), objects, segments, PS (coverage points
 * included), CSS and threads. Return: 0, or -DP_ENOMEM (then @out is released).
 */
int dp_mg_copy_static(const struct dp_profile *in, struct dp_profile *out);

/*
 * dp_mg_build_nodes - fill @out's PD and CSD arrays (and remap its root and thread root
 * PD ids) from the closed union-find of @m: classes numbered by their lowest PD id, CSDs
 * by the lowest CSD id of each group of m->grp (one per class, CSS and callee key),
 * counters summed.
 * Return: 0 or -DP_ENOMEM (@out is left for the caller to release).
 */
int dp_mg_build_nodes(struct dp_mg *m, struct dp_profile *out);

#endif /* DP_ANALYSIS_MERGE_INT_H */
