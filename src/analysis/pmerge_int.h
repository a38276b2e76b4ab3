/*
 * analysis/pmerge_int.h - what the parts of dp_profile_merge() share: pmerge.c builds
 * the union of the inputs (static tables matched by key, nodes concatenated),
 * pmerge_canon.c numbers the merged profile canonically, pmerge_files.c folds files.
 * Not for users of the module; they include profile_merge.h.
 */
#ifndef DP_ANALYSIS_PMERGE_INT_H
#define DP_ANALYSIS_PMERGE_INT_H

#include <stdint.h>

#include "../core/arena.h"
#include "../core/buf.h"
#include "../core/strtab.h"
#include "../format/profile.h"

/*
 * The content keys of the merged static tables: object, PS, CSS and thread k of the
 * union have key k in the matching table (bytes that depend only on what the node is,
 * never on ids), so sorting by key gives an order independent of the inputs' order.
 */
struct dp_pm_keys {
	struct dp_strtab obj, ps, css, thr;
};

/* One input: maps of its ids to the union's, and where its nodes go. */
struct dp_pm_in {
	const struct dp_profile *p;
	const char *name;
	uint32_t *obj, *ps, *css, *thr; /* input id -> union id (0: none) */
	uint32_t *thr_unit;		/* input thread -> unit key id */
	uint32_t unit;			/* single-program input: its unit key id; else 0 */
	uint32_t pd_base, csd_base;	/* union PD and CSD ids before this input's */
	uint32_t prog_ps, prog_pd;	/* the program node made for a single-program input */
	uint32_t prog_thr_css;		/* the CSS its thread roots are called from */
	uint32_t root_prog_css;		/* the CSS the root calls it from */
};

/* The instance of a union node its fields are taken from: input @in's node @id (0 for a
 * node the merge makes: a program node or its call sites). */
struct dp_pm_src {
	uint32_t in, id;
	uint32_t ps, kind; /* a CSS the merge makes: its union PS and kind */
};

struct dp_pm {
	unsigned flags;
	uint32_t n_in;
	struct dp_pm_in *in;
	struct dp_profile *u;
	struct dp_pm_keys k;
	struct dp_strtab units; /* unit keys: one per program */
	struct dp_pm_src *obj_src, *ps_src, *css_src;
	uint32_t *ps_seen, *ps_last; /* inputs holding each PS, the last one counted */
	uint64_t *thr_dur;	     /* summed thread run times */
	int multi;		     /* several programs: program nodes */
	struct dp_buf key;	     /* scratch */
	struct dp_arena tmp;
};

/* The steps of dp_profile_merge(), in order (pmerge.c, pmerge_union.c); each returns 0
 * or a negative error with the message set. */
int dp_pm_map_objects(struct dp_pm *m, uint32_t i);
int dp_pm_find_units(struct dp_pm *m, struct dp_pm_in *x);
int dp_pm_map_ps(struct dp_pm *m, uint32_t i);
int dp_pm_map_css(struct dp_pm *m, uint32_t i);
int dp_pm_map_threads(struct dp_pm *m, uint32_t i, const uint32_t *rank, uint64_t *pairs);
int dp_pm_nodes(struct dp_pm *m);
int dp_pm_info(struct dp_pm *m);

/* Helpers: big-endian and length-prefixed key bytes appended to a buffer; interning
 * m->key; a profile's main object and program key; the object holding an address. */
uint32_t dp_pm_obj_at(const struct dp_profile *p, uint64_t a);
uint32_t dp_pm_obj_of(const struct dp_profile *p, uint32_t o, uint64_t a);
int dp_pm_put_u32(struct dp_buf *b, uint32_t v);
int dp_pm_put_u64(struct dp_buf *b, uint64_t v);
int dp_pm_put_str(struct dp_buf *b, const struct dp_profile *p, uint32_t id);
int dp_pm_put_key(struct dp_buf *b, const struct dp_strtab *t, uint32_t id);
int64_t dp_pm_intern(struct dp_pm *m, struct dp_strtab *t, int *fresh);
uint32_t dp_pm_main_object(const struct dp_profile *p);
int64_t dp_pm_unit_key(struct dp_pm *m, const struct dp_profile *p, uint32_t path, uint32_t o);

/*
 * dp_pm_canon - @out (uninitialised) := @m renumbered canonically: strings by content
 * (only those in use), objects, PSs, CSSs and threads by their keys in @k (@m's static
 * tables are those the keys describe), PDs and CSDs breadth-first from the root, each
 * PD's CSDs in order of (CSS, callee PS, callee thread). PDs the root does not reach
 * (none in files the runtime writes) follow in @m's order.
 * Return: 0 or -DP_ENOMEM (@out released).
 */
int dp_pm_canon(const struct dp_profile *m, const struct dp_pm_keys *k, struct dp_profile *out);

/* dp_pm_sort_keys - the ids 1..t->n-1 of @t sorted by their bytes into @order[0..n-1),
 * and @rank[id] = position + 1 (both sized t->n). */
void dp_pm_sort_keys(const struct dp_strtab *t, uint32_t *order, uint32_t *rank);

#endif /* DP_ANALYSIS_PMERGE_INT_H */
