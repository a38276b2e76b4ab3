/*
 * bench/gen/loadbench.c - deepprof-loadbench: time the load of one data file phase by
 * phase, as a session loads it (front/session_load.c): read and validate, merge the
 * threads, analyse the merged view; then, apart, the per-thread view's analysis that a
 * session builds on its first per-thread query. Prints one line of name=value pairs.
 * Usage: deepprof-loadbench FILE
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "analysis/analysis.h"
#include "core/err.h"
#include "format/reader.h"
#ifdef DP_HAVE_MERGE
#include "analysis/merge.h"
#endif

enum { PH_READ, PH_MERGE, PH_MERGED, PH_N };

static const char *const ph_name[PH_N] = {"read", "merge", "merged_analysis"};

/* Milliseconds: wall, CPU of the process (every thread), CPU of the main thread (the
 * critical path when helper threads use the second core). */
struct clock3 {
	double wall, cpu, main;
};

static double ms_of(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static struct clock3 now3(void)
{
	struct clock3 c = {ms_of(CLOCK_MONOTONIC), ms_of(CLOCK_PROCESS_CPUTIME_ID),
			   ms_of(CLOCK_THREAD_CPUTIME_ID)};

	return c;
}

static double rss_mb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_maxrss / 1024.0;
}

static int fail(void)
{
	fprintf(stderr, "deepprof-loadbench: %s\n", dp_errmsg());
	return 1;
}

/* The per-thread view's analysis, timed apart; prints its fields. */
static struct dp_analysis *threads_view(const struct dp_profile *p)
{
	struct clock3 t0 = now3(), t1;
	struct dp_analysis *a;
	int err = 0;

	a = dp_analysis_new(p, &err);
	if (!a)
		return NULL;
	t1 = now3();
	printf(" threads_analysis_ms=%.1f threads_analysis_cpu=%.1f cliques=%" PRIu32
	       " extra_entries=%" PRIu32,
	       t1.wall - t0.wall, t1.cpu - t0.cpu, a->n_cliques, a->n_extra_entries);
	return a;
}

int main(int argc, char **argv)
{
	struct dp_profile p, mp, *view = &p;
	struct dp_analysis *a, *m;
	struct clock3 t[PH_N + 1];
	bool merged = false;
	int err = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: deepprof-loadbench FILE\n");
		return 2;
	}
	t[PH_READ] = now3();
	if (dp_read_file(argv[1], &p) < 0)
		return fail();
	t[PH_MERGE] = now3();
#ifdef DP_HAVE_MERGE
	if (p.n_threads > 1) { /* as dp_sfile_load(): keep the merged view if it differs */
		if (dp_profile_merge_threads(&p, &mp) < 0)
			return fail();
		merged = mp.n_pd != p.n_pd || mp.n_csd != p.n_csd;
		if (merged)
			view = &mp;
		else
			dp_profile_release(&mp);
	}
#endif
	t[PH_MERGED] = now3();
	m = dp_analysis_new(view, &err);
	if (!m)
		return fail();
	t[PH_N] = now3();
	printf("pd=%" PRIu32 " csd=%" PRIu32 " ps=%" PRIu32 " merged_pd=%" PRIu32
	       " merged_cliques=%" PRIu32,
	       p.n_pd, p.n_csd, p.n_ps, merged ? mp.n_pd : 0, m->n_cliques);
	for (int i = 0; i < PH_N; i++)
		printf(" %s_ms=%.1f %s_cpu=%.1f", ph_name[i], t[i + 1].wall - t[i].wall, ph_name[i],
		       t[i + 1].cpu - t[i].cpu);
	printf(" load_ms=%.1f load_cpu=%.1f load_main_cpu=%.1f load_rss_mb=%.1f",
	       t[PH_N].wall - t[0].wall, t[PH_N].cpu - t[0].cpu, t[PH_N].main - t[0].main,
	       rss_mb());
	a = merged ? threads_view(&p) : m;
	if (!a) {
		printf("\n");
		return fail();
	}
	printf(" rss_mb=%.1f\n", rss_mb());
	if (a != m)
		dp_analysis_free(a);
	dp_analysis_free(m);
	if (merged)
		dp_profile_release(&mp);
	dp_profile_release(&p);
	return 0;
}
