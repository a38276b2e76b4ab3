/*
 * analysis/analysis_int.h - what the files of src/analysis share: the build steps that
 * dp_analysis_new() runs in order (indexes, cliques, costs, summaries) and the CSR
 * builder. Not for users of the module; they include analysis.h.
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

/* dp_analysis_index - the six node indexes of struct dp_analysis. Returns 0 or < 0. */
int dp_analysis_index(struct dp_analysis *a);

/* dp_analysis_cliques - cliques, entries and child cliques (needs the indexes). */
int dp_analysis_cliques(struct dp_analysis *a);

/* dp_analysis_costs - own costs and their bottom-up propagation (needs the cliques). */
int dp_analysis_costs(struct dp_analysis *a);

/* dp_analysis_summaries - per PS, CSS, module and object sums (needs the costs). */
int dp_analysis_summaries(struct dp_analysis *a);

/*
 * dp_analysis_group_totals - @group_desc[g] for every group g in 0..@n_groups of a
 * grouping of procedures (@ps_group[ps], e.g. modules or objects) whose own costs are
 * @group_own: total - own, where the total counts each PD's own cost once if the PD or a
 * PD making a call on its chain of ancestor contexts is in the group (grouptotal.c; the
 * artificial root and thread procedures belong to no group). Needs costs and cliques.
 * Return: 0 or -DP_ENOMEM.
 */
int dp_analysis_group_totals(struct dp_analysis *a, const uint32_t *ps_group, uint32_t n_groups,
			     const struct dp_costs *group_own, struct dp_inherit *group_desc);

#endif /* DP_ANALYSIS_ANALYSIS_INT_H */
