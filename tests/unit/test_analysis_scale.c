/*
 * tests/unit/test_analysis_scale.c - measures dp_analysis_new() on a large simulated
 * profile (not a test: timings belong in benchmarks). Usage:
 * test_analysis_scale [STEPS_PER_THREAD [N_FN [PCT_CALL [MAX_DEPTH [N_STARTS]]]]] (defaults:
 * about 1.4 million PDs and CSDs, 4 threads each starting in its own function, N_STARTS
 * = 0; N_STARTS = 1 makes them all start in one, so they merge); prints the node counts,
 * the best of three load times and of three dp_profile_merge_threads() times.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "analysis/analysis.h"
#include "analysis/analysis_int.h"
#include "analysis/merge.h"
#include "core/err.h"
#include "test_analysis_gen.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The build steps of dp_analysis_new() one by one on one thread, timed (same code). */
static void phases(const struct dp_profile *p)
{
	static int (*const step[])(struct dp_analysis *) = {dp_analysis_side, dp_analysis_graph,
							    dp_analysis_cliques, dp_analysis_costs,
							    dp_analysis_summaries};
	static const char *const name[] = {"side", "graph", "cliques", "costs", "summaries"};
	struct dp_analysis *a = calloc(1, sizeof(*a));

	if (!a)
		return;
	a->p = p;
	dp_arena_init(&a->arena, 0);
	dp_arena_init(&a->side_arena, 0);
	for (int i = 0; i < 5; i++) {
		double t0 = now();

		if (step[i](a) < 0)
			break;
		printf("  %-10s %6.1f ms\n", name[i], (now() - t0) * 1e3);
	}
	dp_analysis_free(a);
}

/* dp_profile_merge_threads() on @p, best of three, and the merged node counts. */
static void merge_time(const struct dp_profile *p)
{
	double best = 1e9;

	for (int run = 0; run < 3; run++) {
		struct dp_profile m;
		double t0 = now(), t;

		if (dp_profile_merge_threads(p, &m) < 0) {
			fprintf(stderr, "test_analysis_scale: %s\n", dp_errmsg());
			return;
		}
		t = now() - t0;
		best = t < best ? t : best;
		if (run == 0)
			printf("merged view: %" PRIu32 " PD, %" PRIu32 " CSD\n", m.n_pd, m.n_csd);
		dp_profile_release(&m);
	}
	printf("dp_profile_merge_threads: %.1f ms (best of 3)\n", best * 1e3);
}

int main(int argc, char **argv)
{
	struct dp_gen_sim g = {42, 420000, 4, 10500000, 60, 80};
	struct dp_profile p;
	double best = 1e9;
	uint32_t n_starts = 0;
	int err;

	if (argc > 1)
		g.n_steps = (uint32_t)strtoul(argv[1], NULL, 10);
	if (argc > 2)
		g.n_fn = (uint32_t)strtoul(argv[2], NULL, 10);
	if (argc > 3)
		g.pct_call = (uint32_t)strtoul(argv[3], NULL, 10);
	if (argc > 4)
		g.max_depth = (uint32_t)strtoul(argv[4], NULL, 10);
	if (argc > 5)
		n_starts = (uint32_t)strtoul(argv[5], NULL, 10);
	if (dp_gen_simulate_starts(&p, &g, n_starts) < 0) {
		fprintf(stderr, "test_analysis_scale: %s\n", dp_errmsg());
		return 1;
	}
	printf("profile: %" PRIu32 " PS, %" PRIu32 " CSS, %" PRIu32 " PD, %" PRIu32 " CSD\n",
	       p.n_ps, p.n_css, p.n_pd, p.n_csd);
	for (int run = 0; run < 3; run++) {
		double t0 = now(), t;
		struct dp_analysis *a = dp_analysis_new(&p, &err);

		t = now() - t0;
		if (!a) {
			fprintf(stderr, "test_analysis_scale: %s\n", dp_errmsg());
			dp_profile_release(&p);
			return 1;
		}
		if (run == 0)
			printf("%" PRIu32 " cliques, %" PRIu32 " modules, arena %zu bytes\n",
			       a->n_cliques, a->n_modules, a->arena.total);
		best = t < best ? t : best;
		dp_analysis_free(a);
	}
	printf("dp_analysis_new: %.1f ms (best of 3); by step:\n", best * 1e3);
	phases(&p);
	merge_time(&p);
	dp_profile_release(&p);
	return 0;
}
