/*
 * tests/unit/test_report_flame.h - what the flame pages' tests share: a comparison of two
 * flame reports (with the including test's CHECKs, hence static inline here) and the
 * simulation of the index and cap tests.
 */
#ifndef DP_TEST_REPORT_FLAME_H
#define DP_TEST_REPORT_FLAME_H

#include <string.h>

#include "harness.h"
#include "test_analysis_gen.h"
#include "test_report_fix.h"

/* every row of section @id of @a and @b the same: kind, id, depth, n, flags, name, own,
 * desc */
static inline void same_rows(const struct dp_report *a, const struct dp_report *b, const char *id)
{
	const struct dp_rep_section *sa = tf_section(a, id), *sb = tf_section(b, id);

	CHECK(sa != NULL && sb != NULL);
	if (!sa || !sb)
		return;
	CHECK_EQ(sa->n_rows, sb->n_rows);
	for (uint32_t k = 0; k < sa->n_rows && k < sb->n_rows; k++) {
		const struct dp_rep_row *x = &sa->rows[k], *y = &sb->rows[k];

		CHECK_EQ(x->kind, y->kind);
		CHECK_EQ(x->id, y->id);
		CHECK_EQ(x->depth, y->depth);
		CHECK_EQ(x->n, y->n);
		CHECK_EQ(x->flags, y->flags);
		CHECK_STR(x->name, y->name);
		CHECK(memcmp(&x->own, &y->own, sizeof(x->own)) == 0);
		CHECK(memcmp(&x->desc, &y->desc, sizeof(x->desc)) == 0);
	}
}

/* every row and fact of flame reports @a and @b the same */
static inline void same_flame(const struct dp_report *a, const struct dp_report *b)
{
	same_rows(a, b, "tree");
	CHECK_EQ(tf_fact(a, "kept"), tf_fact(b, "kept"));
	CHECK_EQ(tf_fact(a, "dropped"), tf_fact(b, "dropped"));
}

/* The simulation of the flame index and cap tests: profiles of a few hundred contexts
 * with wide cliques, 3 threads. */
static inline struct dp_gen_sim mid_sim(uint64_t seed)
{
	return (struct dp_gen_sim){.seed = seed,
				   .n_fn = 40,
				   .n_threads = 3,
				   .n_steps = 20000,
				   .max_depth = 12,
				   .pct_call = 52};
}

#endif /* DP_TEST_REPORT_FLAME_H */
