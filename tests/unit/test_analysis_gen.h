/*
 * tests/unit/test_analysis_gen.h - generators of profiles for the analysis tests: a
 * simulation of the runtime's graph building (random calls, returns and unwinds over
 * random functions, with recursion folding exactly as runtime/rt_graph.c does it) and
 * arbitrary random PD graphs (several CSDs entering one clique, unreachable PDs).
 */
#ifndef DP_TEST_ANALYSIS_GEN_H
#define DP_TEST_ANALYSIS_GEN_H

#include <stdint.h>

#include "format/profile.h"

struct dp_gen_sim {
	uint64_t seed;
	uint32_t n_fn;	    /* functions (PSs besides the two artificial ones) */
	uint32_t n_threads; /* threads under the program root */
	uint32_t n_steps;   /* simulated events per thread */
	uint32_t max_depth; /* shadow stack limit */
	uint32_t pct_call;  /* percent of events that are calls (others return/unwind) */
};

/* dp_gen_rand - next value of the xorshift64* generator in *@s (never seed it with 0). */
uint64_t dp_gen_rand(uint64_t *s);

/* dp_gen_simulate - fill @p (dp_profile_init()'d here; release it with
 * dp_profile_release()) with a runtime-like profile. Returns 0 or < 0. */
int dp_gen_simulate(struct dp_profile *p, const struct dp_gen_sim *g);

/* dp_gen_simulate_starts - like dp_gen_simulate(), but thread t starts in function
 * (t - 1) % @n_starts (of the first @n_starts), so several threads run the same start
 * function, as a thread pool's workers do; 0 (or >= n_fn) = one per thread. */
int dp_gen_simulate_starts(struct dp_profile *p, const struct dp_gen_sim *g, uint32_t n_starts);

/* dp_gen_wild - fill @p with @n_pd PDs: a random creation tree from the root PD plus
 * @n_extra random arcs anywhere (and, if @orphans, PDs nothing calls). Returns 0 or < 0. */
int dp_gen_wild(struct dp_profile *p, uint64_t seed, uint32_t n_pd, uint32_t n_extra, int orphans);

#endif /* DP_TEST_ANALYSIS_GEN_H */
