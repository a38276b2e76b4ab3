/*
 * analysis/analysis_int.h - what the files of src/analysis share: the build steps that
 * dp_analysis_new() runs (own sums and side indexes, the graph index and cliques, costs,
 * summaries) and the CSR builder. Not for users of the module; they include analysis.h.
 */
#ifndef DP_ANALYSIS_ANALYSIS_INT_H
#define DP_ANALYSIS_ANALYSIS_INT_H

#include <stddef.h>
#include <stdint.h>

#include "analysis.h"

/*
 * dp_csr_build - fill @c (arrays from @arena) with, for each key 1..@n_keys, the items
 * 1..@n_items whose key is the uint32_t at (const char *)@key0 + item * @stride (so
 * @key0 points at item 0's key, which is not read), in increasing item id. Keys must
 * be in 1..@n_keys (checked by the caller). Returns 0 or -DP_ENOMEM.
 */
int dp_csr_build(struct dp_arena *arena, struct dp_csr *c, uint32_t n_keys, uint32_t n_items,
		 const void *key0, size_t stride);

/* @dst -= @src. */
static inline void dp_inh_sub(struct dp_inherit *dst, const struct dp_inherit *src)
{
	dst->samples -= src->samples;
	dst->callseqs -= src->callseqs;
	dst->allocs -= src->allocs;
	dst->alloc_bytes -= src->alloc_bytes;
}

/* The inheritable part of PD @pd's own costs (dp_analysis_pd_own_inherit), inline: the
 * counters not kept are never summed once this is inlined. */
static inline struct dp_inherit dp_pd_own_inh(const struct dp_analysis *a, uint32_t pd)
{
	struct dp_costs o = dp_analysis_pd_own(a, pd);

	return dp_costs_inherit(&o);
}

/*
 * The build steps, in dependency order. dp_analysis_side() (own sums, the indexes other
 * than pd_csds, module numbering; allocating from side_arena) depends on nothing else:
 * dp_analysis_new() runs it on a second thread beside dp_analysis_graph() then
 * dp_analysis_cliques(); dp_analysis_costs() then dp_analysis_summaries() need its first
 * part (dp_analysis_own(), pd_callers, dp_analysis_side_summaries()) and the cliques;
 * dp_analysis_side_index() builds what only reports use. Each returns 0 or < 0.
 */
int dp_analysis_side(struct dp_analysis *a);
int dp_analysis_graph(struct dp_analysis *a);	  /* pd_csds, pd_succ */
int dp_analysis_cliques(struct dp_analysis *a);	  /* cliques, entries, the clique tree */
int dp_analysis_costs(struct dp_analysis *a);	  /* desc of PDs, PSs, CSSs; clique totals */
int dp_analysis_summaries(struct dp_analysis *a); /* module and object desc */

/* Parts of dp_analysis_side(): own costs of CSSs and PSs, filling the CSD keys
 * (@callee, @css, @callee_ps, n_csd + 1 each); module numbering and module and object own
 * sums; the indexes built from the keys (but pd_callers). */
int dp_analysis_own(struct dp_analysis *a, uint32_t *callee, uint32_t *css, uint32_t *callee_ps);
int dp_analysis_side_summaries(struct dp_analysis *a);
int dp_analysis_side_index(struct dp_analysis *a, const uint32_t *css, const uint32_t *callee_ps);

/*
 * dp_analysis_group_totals - module_desc and object_desc: total - own, where a group's
 * total counts each PD's own cost once if the PD or a PD making a call on its chain of
 * ancestor contexts is in the group (grouptotal.c; the calls of the artificial root and
 * thread procedures open no group); and ps_total: per procedure, the totals of the
 * cliques holding a PD of it, but those below another such clique. One walk of the
 * clique tree for all three. Return: 0 or -DP_ENOMEM.
 */
int dp_analysis_group_totals(struct dp_analysis *a);

/* dp_analysis_group_totals_at - the same, where a sweep (runtime files) is split after
 * clique @mid (n_cliques / 2 above; any value gives the same result: for tests). */
int dp_analysis_group_totals_at(struct dp_analysis *a, uint32_t mid);

#endif /* DP_ANALYSIS_ANALYSIS_INT_H */
