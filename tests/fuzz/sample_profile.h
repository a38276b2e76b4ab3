/*
 * tests/fuzz/sample_profile.h - a small in-memory profile that uses every feature of
 * the data file (two threads, objects with build-ids, symbols, a multi-callee call site,
 * folded recursion, a callback, coverage points), shared by the format unit tests, the
 * corpus generator and the corpus replay. Test code only.
 */
#ifndef DP_TEST_SAMPLE_PROFILE_H
#define DP_TEST_SAMPLE_PROFILE_H

#include <stdint.h>

#include "format/profile.h"

/* Node counts of the sample, for tests that check exact numbers. */
#define DP_SAMPLE_N_PS	    8
#define DP_SAMPLE_N_CSS	    8
#define DP_SAMPLE_N_PD	    9
#define DP_SAMPLE_N_CSD	    10
#define DP_SAMPLE_N_THREADS 2
#define DP_SAMPLE_N_OBJECTS 2

/*
 * dp_sample_profile - initialise @p and fill it with the sample. @features is any mix of
 * DP_FEAT_SYMBOLIZED (names, files, lines), DP_FEAT_STOPPED (a stop reason and lost
 * counts) and DP_FEAT_COVERAGE (coverage points on fib). Returns 0 or -DP_ENOMEM.
 * Release with dp_profile_release().
 */
int dp_sample_profile(struct dp_profile *p, uint64_t features);

#endif /* DP_TEST_SAMPLE_PROFILE_H */
