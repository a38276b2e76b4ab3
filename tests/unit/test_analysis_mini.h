/*
 * tests/unit/test_analysis_mini.h - what the hand-built profiles of test_analysis.c and
 * test_analysis_merge.c share: one CSD made from a test's row of costs, and analysing a
 * profile with its failure reported as a failed check. Header-only; include harness.h
 * first.
 */
#ifndef DP_TEST_ANALYSIS_MINI_H
#define DP_TEST_ANALYSIS_MINI_H

#include <stdio.h>

#include "analysis/analysis.h"
#include "core/err.h"
#include "format/profile.h"

/* The CSD of row @m (any struct with caller, callee, calls, samples, callseqs, allocs
 * and bytes) at CSS @css_id; its calls are also its exits. */
#define DP_MINI_CSD(m, css_id)                      \
	((struct dp_csd){.caller = (m)->caller,     \
			 .css = (css_id),           \
			 .callee = (m)->callee,     \
			 .calls = (m)->calls,       \
			 .exits = (m)->calls,       \
			 .samples = (m)->samples,   \
			 .callseqs = (m)->callseqs, \
			 .allocs = (m)->allocs,     \
			 .alloc_bytes = (m)->bytes})

/* The analysis of @p, or NULL after a failed check that prints why. */
static inline struct dp_analysis *dp_mini_analyse(const struct dp_profile *p)
{
	int err = 1;
	struct dp_analysis *a = dp_analysis_new(p, &err);

	if (!a)
		fprintf(stderr, "dp_analysis_new: %s\n", dp_errmsg());
	CHECK(a != NULL);
	CHECK_EQ(err, 0);
	return a;
}

#endif /* DP_TEST_ANALYSIS_MINI_H */
