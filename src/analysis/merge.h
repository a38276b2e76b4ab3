/*
 * analysis/merge.h - the merged thread view: one profile in which threads that entered
 * the same function are merged, summing the matching subtrees (Mercury's canonical
 * merge). The per-thread view is the profile as written. And the folded view of library
 * leaves (libs=fold). Depends on format/.
 */
#ifndef DP_ANALYSIS_MERGE_H
#define DP_ANALYSIS_MERGE_H

#include "../format/profile.h"

/*
 * dp_profile_merge_threads - build in @out (uninitialised; release with
 * dp_profile_release()) the merged view of @in:
 * - the static tables (strings, objects, PS, CSS) are copied unchanged, so PS and CSS
 *   ids mean the same in both views; threads are copied too;
 * - thread root PDs whose threads entered the same top-level function(s) become one;
 *   then, top-down, two CSDs of one merged PD with the same CSS and the same callee PS
 *   merge (counters summed) and their callee PDs merge, recursion included (a union-find
 *   over PDs, worklist-driven: no recursion on depth);
 * - PD and CSD ids are renumbered densely in order of first original id; a merged PD's
 *   thread is the common thread, or 0 when it merges several threads (the program root
 *   keeps 0);
 * - INFO is copied (totals stay valid: merging only moves counts).
 * Merging a profile with one thread per start function changes nothing but ids.
 * Return: 0, or -DP_ENOMEM / -DP_EFORMAT (an id out of range) with the message set.
 */
int dp_profile_merge_threads(const struct dp_profile *in, struct dp_profile *out);

/*
 * dp_profile_fold_libs - build in @out (uninitialised; release with dp_profile_release())
 * @in without its library leaves: every CSD into a PD of a PS of kind library (samples
 * outside instrumented code, symbol/leaves.c) is dropped with that PD, and its counters
 * are added to the lowest-numbered CSD entering its caller PD, so that they are the
 * caller's own cost again. Static tables, threads and INFO are copied as
 * dp_profile_merge_threads() copies them (PS and CSS ids mean the same); the kept PDs and
 * CSDs are renumbered densely in order. A leaf under a PD that no CSD enters is kept.
 * Return: 0, or -DP_ENOMEM with the message set.
 */
int dp_profile_fold_libs(const struct dp_profile *in, struct dp_profile *out);

#endif /* DP_ANALYSIS_MERGE_H */
