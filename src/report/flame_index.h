/*
 * report/flame_index.h - the flame pages' index of wide cliques and wide procedures. For
 * every clique with many children in the clique tree: its children's totals of each
 * inheritable metric in one contiguous array, the sums of all its children's own and desc
 * costs (the "(other)" row by subtraction), and, for each metric, which children are
 * among the widest DP_FLAME_MAX_NODES (a capped page reads those only). For every
 * procedure with many contexts: each context's own and desc costs and first step up, in
 * one contiguous array, which the callers' flame graph reads instead of three arrays and
 * the profile's CSDs all over memory; the first levels of that graph's tree, unpruned,
 * which its climb starts from; and each of its caller CSDs with its group keys, and apart
 * its costs, which the callers page reads the same way. This is the inside of the
 * opaque struct dp_report_index of report.h: built once per analysis by whoever owns the
 * analysis (the session, with dp_report_index_build()) and handed to the report pages in
 * struct dp_report_ctx. Private to the pages that read it (and their tests): nothing
 * outside src/report includes it.
 */
#ifndef DP_REPORT_FLAME_INDEX_H
#define DP_REPORT_FLAME_INDEX_H

#include <stdint.h>

#include "../analysis/analysis.h"
#include "../format/profile.h"
#include "report_int.h"

/* Cliques with fewer children than this are scanned directly (default of min_kids). */
#define DP_FLAME_IX_MIN_KIDS 256

/* One wide clique. */
struct dp_flame_wide {
	uint32_t clique, n_kids; /* n_kids = dp_csr_count(&a->clique_kids, clique) */
	const uint64_t *val;	 /* [4 * n_kids]: val[s * n_kids + i] = own + desc of the
				    i-th child CSD (clique_kids order) for inheritable
				    slot s: 0 samples, 1 callseqs, 2 allocs, 3 alloc_bytes */
	struct dp_costs own;	 /* sum of the own costs of all the children CSDs */
	struct dp_inherit desc;	 /* sum of their desc costs */
	/* for each slot s, when the clique has more children than the index's top (k) and
	   the k-th largest value is not 0: cut[s] = that value, and top[s][0..n_top[s]) =
	   the children (their i, increasing) of a value of at least cut[s], k or more of
	   them; else cut[s] = n_top[s] = 0 */
	uint64_t cut[4];
	uint32_t n_top[4];
	const uint32_t *top[4];
};

/* Procedures with fewer contexts than this are not indexed (default of min_ctx): 117 MB
 * (40 for the contexts, 77 for the caller CSDs) for the 32 procedures of 8,192 contexts
 * or more of the 10-million generator profile, whose callers' flame graphs took 2 ms and
 * more to read their contexts. */
#define DP_FLAME_IX_MIN_CTX 8192

/* A context (PD) as the callers' flame graph first reads it: its own costs (the CSDs
 * calling it), its desc costs and its step up the clique tree. */
struct dp_flame_ctx {
	struct dp_costs own;
	struct dp_inherit desc;
	struct dp_pd_step up;
};

/* How many levels of a wide procedure's callers tree the index holds (its prefix): the
 * first two take 60 % of the climb of the widest procedure at 10 million contexts (33,358
 * contexts, then 25,791 groups at the second level; 20,474 go on to the third). */
#define DP_FLAME_PRE_LEVELS 2

/* A node of a prefix (flame_climb.c builds them as the page would with nothing
 * pruned): its procedure, its parent (a tree node: 1 is the root, 2 + i the prefix's node
 * i), how many of the procedure's contexts pass through it and the sums of their costs
 * (which no pruning below the prefix changes). */
struct dp_flame_pnode {
	uint32_t ps, parent, n, pad;
	struct dp_costs own;
	struct dp_inherit desc;
};

/* The contexts at the same PD @cur and last-level node @node of a prefix (those the climb
 * merged): how many, and the sums of their costs. */
struct dp_flame_unit {
	uint32_t cur, node, n, pad;
	struct dp_costs own;
	struct dp_inherit desc;
};

/* The first DP_FLAME_PRE_LEVELS levels of a procedure's callers tree, unpruned: the nodes
 * in the order the climb makes them (those of level 1 first: n_node1 of the n_node), and
 * the units climbing on from the last level, in the climb's order. levels = 0: none (out
 * of memory when built). */
struct dp_flame_prefix {
	uint32_t levels, n_node1, n_node, n_unit;
	struct dp_flame_pnode *node;
	struct dp_flame_unit *unit;
};

/* A caller CSD of a wide procedure as the callers page reads it: its call site, the
 * caller's procedure and clique (the group keys but the module, a small array away); its
 * costs are apart (struct dp_flame_costs), read only when the groups' costs are summed. */
struct dp_flame_caller {
	uint32_t css, ps, clique, pad;
};

/* Costs of the index: own and desc. */
struct dp_flame_costs {
	struct dp_costs own;
	struct dp_inherit desc;
};

/* One wide procedure: its contexts, in the order of a->ps_pds, its caller CSDs and their
 * costs (own: dp_csd_costs(); desc: dp_analysis_csd_desc()), in the order of
 * a->ps_callers, and the prefix of its callers tree. */
struct dp_flame_proc {
	uint32_t ps, n, n_callers;
	const struct dp_flame_ctx *ctx;
	const struct dp_flame_caller *callers;
	const struct dp_flame_costs *caller_costs;
	struct dp_flame_prefix pre;
};

/* The report index (report.h, opaque there). */
struct dp_report_index {
	uint32_t k; /* the top size (DP_FLAME_MAX_NODES by default) */
	uint32_t n_wide;
	struct dp_flame_wide *wide; /* by increasing clique id */
	uint64_t *vals;		    /* the storage of every wide clique's val */
	uint32_t *tops;		    /* and of their top */
	uint32_t n_procs;
	struct dp_flame_proc *procs;	 /* by increasing procedure id */
	struct dp_flame_ctx *ctxs;	 /* the storage of every wide procedure's ctx */
	struct dp_flame_caller *cls;	 /* and of their callers */
	struct dp_flame_costs *cl_costs; /* and of those's costs */
};

/* dp_flame_ctx_of - context @pd of analysis @a as struct dp_flame_ctx has it. */
static inline struct dp_flame_ctx dp_flame_ctx_of(const struct dp_analysis *a, uint32_t pd)
{
	struct dp_flame_ctx x = {dp_analysis_pd_own(a, pd), a->pd_desc[pd], a->pd_up[pd]};

	return x;
}

/* How many PDs ahead dp_flame_ctx_prefetch() prefetches (64 rather than the reports'
 * DP_REP_AHEAD: the loads are all over memory; 10 -> 9 ms for 33,000 contexts at 10
 * million) */
#define DP_FLAME_CTX_AHEAD 64

/* dp_flame_ctx_prefetch - in a pass of dp_flame_ctx_of() over the PDs @pds[0 .. @n), at
 * @i: prefetch what it reads for the PDs ahead, in three stages (DP_FLAME_CTX_AHEAD, 1/2
 * and 1/4 ahead): the PD's callers range, desc and step; its caller CSDs' ids; those CSDs
 * (the first four). */
DP_PREFETCHER void dp_flame_ctx_prefetch(const struct dp_analysis *a, const uint32_t *pds,
					 uint32_t i, uint32_t n)
{
	const struct dp_csr *c = &a->pd_callers;

	if (i + DP_FLAME_CTX_AHEAD < n) {
		__builtin_prefetch(&c->start[pds[i + DP_FLAME_CTX_AHEAD]]);
		__builtin_prefetch(&a->pd_desc[pds[i + DP_FLAME_CTX_AHEAD]]);
		__builtin_prefetch(&a->pd_up[pds[i + DP_FLAME_CTX_AHEAD]]);
	}
	if (i + DP_FLAME_CTX_AHEAD / 2 < n)
		__builtin_prefetch(&c->ids[c->start[pds[i + DP_FLAME_CTX_AHEAD / 2]]]);
	if (i + DP_FLAME_CTX_AHEAD / 4 < n) {
		uint32_t pd = pds[i + DP_FLAME_CTX_AHEAD / 4], m = dp_csr_count(c, pd);

		for (uint32_t k = 0; k < m && k < 4; k++) {
			const struct dp_csd *d = &a->p->csd[c->ids[c->start[pd] + k]];

			__builtin_prefetch(d); /* a CSD may span two cache lines */
			__builtin_prefetch((const char *)(d + 1) - 1);
		}
	}
}

/*
 * dp_flame_prefix_build - the prefix of the callers tree of the @n contexts @ctx of a
 * procedure (in the order of a->ps_pds) of analysis @a into *@out, as flame_climb.c
 * climbs when nothing is pruned; in any thread. Return: 0, or -1 out of memory (*@out
 * then empty, levels 0).
 */
int dp_flame_prefix_build(const struct dp_analysis *a, const struct dp_flame_ctx *ctx, uint32_t n,
			  struct dp_flame_prefix *out);

/* dp_flame_index_wide - the entry of clique @k in @ix, or NULL when @k is not indexed. */
const struct dp_flame_wide *dp_flame_index_wide(const struct dp_report_index *ix, uint32_t k);

/* dp_flame_index_proc - the entry of procedure @ps in @ix, or NULL when @ps is not
 * indexed. */
const struct dp_flame_proc *dp_flame_index_proc(const struct dp_report_index *ix, uint32_t ps);

/* dp_flame_kid_prefetch - in a scan of the @m children @ids, at child @i: stage 0 of
 * dp_rep_csd_prefetch() DP_REP_AHEAD children ahead, stage 1 half as far. */
DP_PREFETCHER void dp_flame_kid_prefetch(const struct dp_profile *p, const struct dp_analysis *a,
					 const uint32_t *ids, uint32_t i, uint32_t m)
{
	if (i + DP_REP_AHEAD < m)
		dp_rep_csd_prefetch(p, a, ids[i + DP_REP_AHEAD], 0);
	if (i + DP_REP_AHEAD / 2 < m)
		dp_rep_csd_prefetch(p, a, ids[i + DP_REP_AHEAD / 2], 1);
}

/*
 * dp_flame_kids_prime - before a scan of the @m children @ids with
 * dp_flame_kid_prefetch(), prefetch what that one would have fetched ahead for the first
 * ones, so that a short list (most cliques have a few children) has its loads in flight
 * together instead of one dependent chain after another.
 */
DP_PREFETCHER void dp_flame_kids_prime(const struct dp_profile *p, const struct dp_analysis *a,
				       const uint32_t *ids, uint32_t m)
{
	uint32_t n = m < DP_REP_AHEAD ? m : DP_REP_AHEAD;

	for (uint32_t i = 0; i < n; i++)
		dp_rep_csd_prefetch(p, a, ids[i], 0);
	for (uint32_t i = 0; i < n && i < DP_REP_AHEAD / 2; i++)
		dp_rep_csd_prefetch(p, a, ids[i], 1);
}

#endif /* DP_REPORT_FLAME_INDEX_H */
