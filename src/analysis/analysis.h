/*
 * analysis/analysis.h - the load-time analysis of one profile: node indexes (CSR),
 * cliques (strongly connected components of the PD graph, numbered bottom-up), own and
 * inherited costs propagated through the cliques, and summaries per PS, CSS, module
 * (source file) and object. Built once by dp_analysis_new(); afterwards every question
 * is an array lookup. See docs/internals/analysis.md. Depends on format/ and core/.
 */
#ifndef DP_ANALYSIS_ANALYSIS_H
#define DP_ANALYSIS_ANALYSIS_H

#include <stdint.h>

#include "../core/arena.h"
#include "../format/profile.h"

/* Every counter of a CSD; "own" costs of any node are sums of these. */
struct dp_costs {
	uint64_t calls, exits, unwinds, samples, callseqs, allocs, alloc_bytes;
};

/* The inheritable counters ("desc" costs): summing port counts across procedures is
 * meaningless, so only these four are propagated up the call graph. */
struct dp_inherit {
	uint64_t samples, callseqs, allocs, alloc_bytes;
};

/* A step up the clique tree: the PD it reaches (0: none, the top) and that PD's
 * procedure (0 with it). */
struct dp_pd_step {
	uint32_t pd, ps;
};

/*
 * A compressed sparse row index: the items of key k (1 <= k <= n) are
 * ids[start[k]] .. ids[start[k + 1] - 1], in increasing item id unless said otherwise.
 * start has n + 2 entries (start[0] = start[1] = 0).
 */
struct dp_csr {
	uint32_t n;
	uint32_t *start;
	uint32_t *ids;
};

/* dp_csr_count - how many items key @k has. */
static inline uint32_t dp_csr_count(const struct dp_csr *c, uint32_t k)
{
	return c->start[k + 1] - c->start[k];
}

/* dp_csr_items - the first of key @k's items (dp_csr_count() of them). */
static inline const uint32_t *dp_csr_items(const struct dp_csr *c, uint32_t k)
{
	return c->ids + c->start[k];
}

/* The own costs of the CSDs entering @clique that are not its entry, summed. */
struct dp_clique_in {
	uint32_t clique;
	struct dp_inherit own;
};

/*
 * The analysis. Every array is indexed by the profile's ids (index 0 unused) unless
 * said otherwise, allocated from @arena, and read-only for users. Sums of counters are
 * modulo 2^64 (so identities between them hold exactly even if a hostile file overflows).
 */
struct dp_analysis {
	const struct dp_profile *p; /* borrowed; must outlive the analysis */
	struct dp_arena arena;
	struct dp_arena side_arena; /* what the build's second thread allocates */

	/* 1. indexes */
	struct dp_csr pd_csds;	  /* PD -> CSDs it makes (caller == PD) */
	uint32_t *pd_succ;	  /* parallel to pd_csds.ids: the callee PD of each CSD */
	struct dp_csr pd_callers; /* PD -> CSDs calling it (callee == PD) */
	struct dp_csr ps_pds;	  /* PS -> its PDs */
	struct dp_csr ps_callers; /* PS -> CSDs calling any of its PDs */
	struct dp_csr css_csds;	  /* CSS -> its CSDs */
	struct dp_csr ps_csss;	  /* PS -> the CSSs it contains */

	/* 2. cliques, ids 1..n_cliques in bottom-up order: a CSD crossing cliques always
	 * goes from a higher clique id to a lower one */
	uint32_t n_cliques;
	uint32_t root_clique;	       /* the clique of the program root PD */
	uint32_t *pd_clique;	       /* [1..n_pd] */
	struct dp_csr clique_pds;      /* members: the entry PD first, then by increasing id */
	uint32_t *clique_entry;	       /* [1..n_cliques] entry CSD; 0 for the root clique and
					  cliques nothing enters. Cliques 1..root_clique are
					  those reachable from the root PD */
	uint32_t *csd_child_clique;    /* [1..n_csd] the callee's clique if the CSD crosses
					  cliques, else 0 */
	uint32_t *clique_entry_caller; /* [1..n_cliques] the caller PD of clique_entry, 0 if
					  none */
	struct dp_pd_step *pd_up;      /* [1..n_pd] the next PD up the clique tree: for a
					  clique's entry (its first member) its
					  clique_entry_caller, for the other members the entry;
					  with its procedure (one load per step for the callers'
					  flame graph) */
	uint32_t *clique_first;	       /* [1..n_cliques] cliques clique_first[c]..c are those
					  completed during c's search: if n_extra_entries == 0
					  and root_clique == n_cliques (runtime files), c's
					  subtree in the clique tree */
	struct dp_csr clique_kids;     /* the clique tree: clique -> the entry CSDs of the
					  cliques entered from its members, in increasing
					  child clique id */
	uint32_t n_extra_entries;      /* crossing CSDs that are not their clique's entry (never
					  in files the runtime writes; see the docs) */
	uint32_t *extra_csds;	       /* [0..n_extra_entries) those CSDs, by clique then id */

	/* 3. costs */
	struct dp_inherit *pd_desc;	 /* [1..n_pd] */
	struct dp_inherit *clique_total; /* [1..n_cliques] own + desc of all members */
	uint32_t n_clique_in;		 /* cliques entered by extra CSDs (see above) ... */
	struct dp_clique_in *clique_in;	 /* ... by clique: what those CSDs carry */
	struct dp_inherit root_total;	 /* the 100% denominator: clique_total[root_clique]
					    (minus the own of CSDs entering the root clique
					    from PDs unreachable from the root, if any) */

	/* 4. summaries */
	struct dp_costs *ps_own;	/* [1..n_ps] sum over its PDs */
	struct dp_inherit *ps_desc;	/* [1..n_ps] */
	struct dp_costs *ps_self_own;	/* [1..n_ps] the part of ps_own from self-recursive
					   CSDs (the caller's PS is the PS itself) ... */
	uint32_t *ps_self_n;		/* [1..n_ps] ... and how many of its callers they are */
	struct dp_inherit *ps_in_desc;	/* [1..n_ps] the desc of the CSDs calling it that are
					   not self-recursive (dp_analysis_csd_desc summed) */
	struct dp_inherit *ps_total;	/* [1..n_ps] the procedure's total: the cost with it
					   on the stack, counted once whatever the recursion,
					   a recursion (clique) counting whole for each of
					   its procedures (grouptotal.c); ps_desc is
					   Mercury's, which leaves out the rest of a
					   clique */
	struct dp_costs *css_own;	/* [1..n_css] sum over its CSDs */
	struct dp_inherit *css_desc;	/* [1..n_css] */
	uint32_t n_modules;		/* one per distinct PS file string, see below */
	uint32_t *module_file;		/* [1..n_modules] string id; 0 = "<unknown>" bucket */
	uint32_t *ps_module;		/* [1..n_ps] */
	struct dp_csr module_pss;	/* module -> its PSs */
	struct dp_costs *module_own;	/* [1..n_modules] */
	struct dp_inherit *module_desc; /* [1..n_modules] total - own, where the total counts
					   nested calls once: see grouptotal.c */
	struct dp_costs *object_own;	/* [0..n_objects]; 0 = unknown object */
	struct dp_inherit *object_desc; /* [0..n_objects] likewise */
};

/*
 * dp_analysis_new - analyse @p (borrowed: it must stay alive and unchanged while the
 * analysis is used). Checks every id it follows; a profile with an id out of range gives
 * -DP_EFORMAT.
 * Return: the analysis (owned by the caller, free it with dp_analysis_free()), or NULL
 * with *@err set to a negative enum dp_err (the message made by dp_error()).
 */
struct dp_analysis *dp_analysis_new(const struct dp_profile *p, int *err);

/* dp_analysis_free - free @a and everything it owns (NULL is fine); @a->p is untouched. */
void dp_analysis_free(struct dp_analysis *a);

/* dp_analysis_widest_ps - the procedure with the most PDs (contexts) in the view of @a,
 * the lowest id on ties (1 when there are no procedures). */
uint32_t dp_analysis_widest_ps(const struct dp_analysis *a);

/* dp_analysis_module_name - the name of module @m: its file, or "<unknown>". */
const char *dp_analysis_module_name(const struct dp_analysis *a, uint32_t m);

/* dp_analysis_is_entry - whether CSD @csd is the entry CSD of its callee's clique. */
static inline int dp_analysis_is_entry(const struct dp_analysis *a, uint32_t csd)
{
	uint32_t c = a->csd_child_clique[csd];

	return c != 0 && a->clique_entry[c] == csd;
}

/* dp_analysis_pd_own_inherit - the inheritable part of dp_analysis_pd_own(). */
struct dp_inherit dp_analysis_pd_own_inherit(const struct dp_analysis *a, uint32_t pd);

/*
 * dp_analysis_csd_desc - the desc (inherited) costs of CSD @csd: 0 unless it is a
 * clique's entry, then the clique's total minus the own of every CSD entering the clique
 * (just the entry's own in files the runtime writes). Reads the CSD's record.
 */
struct dp_inherit dp_analysis_csd_desc(const struct dp_analysis *a, uint32_t csd);

/* dp_csd_costs - the counters of CSD @d as a struct dp_costs. */
static inline struct dp_costs dp_csd_costs(const struct dp_csd *d)
{
	struct dp_costs c = {d->calls,	  d->exits,  d->unwinds,    d->samples,
			     d->callseqs, d->allocs, d->alloc_bytes};

	return c;
}

/* dp_csd_inherit - the inheritable counters of CSD @d. */
static inline struct dp_inherit dp_csd_inherit(const struct dp_csd *d)
{
	struct dp_inherit c = {d->samples, d->callseqs, d->allocs, d->alloc_bytes};

	return c;
}

/* dp_costs_inherit - the inheritable counters of costs @c. */
static inline struct dp_inherit dp_costs_inherit(const struct dp_costs *c)
{
	struct dp_inherit i = {c->samples, c->callseqs, c->allocs, c->alloc_bytes};

	return i;
}

/* dp_costs_add - @dst += @src, every counter (modulo 2^64); inline: the pages' hot loops
 * add costs per context. */
static inline void dp_costs_add(struct dp_costs *dst, const struct dp_costs *src)
{
	dst->calls += src->calls;
	dst->exits += src->exits;
	dst->unwinds += src->unwinds;
	dst->samples += src->samples;
	dst->callseqs += src->callseqs;
	dst->allocs += src->allocs;
	dst->alloc_bytes += src->alloc_bytes;
}

/* dp_inherit_add - @dst += @src, every counter (modulo 2^64); inline, as dp_costs_add. */
static inline void dp_inherit_add(struct dp_inherit *dst, const struct dp_inherit *src)
{
	dst->samples += src->samples;
	dst->callseqs += src->callseqs;
	dst->allocs += src->allocs;
	dst->alloc_bytes += src->alloc_bytes;
}

/* dp_costs_add_csd - @o += the counters of CSD @d (modulo 2^64). */
static inline void dp_costs_add_csd(struct dp_costs *o, const struct dp_csd *d)
{
	struct dp_costs c = dp_csd_costs(d);

	dp_costs_add(o, &c);
}

/* dp_analysis_pd_own - the own costs of PD @pd: the sum of the CSDs calling it (most PDs
 * have one); inline, for the pages that read it for every context of a procedure. */
static inline struct dp_costs dp_analysis_pd_own(const struct dp_analysis *a, uint32_t pd)
{
	const uint32_t *ids = dp_csr_items(&a->pd_callers, pd);
	struct dp_costs o = {0};

	for (uint32_t k = 0, n = dp_csr_count(&a->pd_callers, pd); k < n; k++)
		dp_costs_add_csd(&o, &a->p->csd[ids[k]]);
	return o;
}

/* dp_costs_sub / dp_inherit_sub - @dst -= @src, every counter (modulo 2^64, as the sums
 * were made: a part taken back from a total). */
void dp_costs_sub(struct dp_costs *dst, const struct dp_costs *src);
void dp_inherit_sub(struct dp_inherit *dst, const struct dp_inherit *src);

#endif /* DP_ANALYSIS_ANALYSIS_H */
