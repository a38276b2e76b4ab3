/*
 * bench/gen/loadbench.c - deepprof-loadbench: time the load of one data file phase by
 * phase, as a session loads it: read and validate, analyse the per-thread view, build
 * the merged view (when src/analysis has merge.c) and analyse it. Prints one line of
 * name=value pairs: node counts, then per phase wall and CPU milliseconds
 * (read_ms read_cpu ... total_ms total_cpu) and the peak RSS (rss_mb).
 * Usage: deepprof-loadbench FILE
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <pthread.h>
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

enum { PH_READ, PH_ANALYSIS, PH_MERGE, PH_MERGED, PH_N };

static const char *const ph_name[PH_N] = {"read", "analysis", "merge", "merged_analysis"};

struct clock2 {
	double wall, cpu; /* ms */
};

static double ms_of(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static struct clock2 now2(void)
{
	struct clock2 c = {ms_of(CLOCK_MONOTONIC), ms_of(CLOCK_PROCESS_CPUTIME_ID)};

	return c;
}

static int fail(void)
{
	fprintf(stderr, "deepprof-loadbench: %s\n", dp_errmsg());
	return 1;
}

struct job {
	const struct dp_profile *p;
	struct dp_analysis *a;
	int err;
};

static void *analyse(void *arg)
{
	struct job *j = arg;

	j->a = dp_analysis_new(j->p, &j->err);
	return NULL;
}

int main(int argc, char **argv)
{
	struct dp_profile p;
	struct dp_analysis *a = NULL, *m = NULL;
	struct clock2 t[PH_N + 1];
	struct rusage ru;
	struct job job = {0};
	pthread_t th;
	int err, par = 0, skip = 0;

	memset(&th, 0, sizeof(th));
	if (argc == 3 && !strcmp(argv[1], "--parallel"))
		par = 1;
	else if (argc == 3 && !strcmp(argv[1], "--merged-only"))
		skip = 1;
	else if (argc != 2) {
		fprintf(stderr, "usage: deepprof-loadbench [--merged-only | --parallel] FILE\n");
		return 2;
	}
	t[PH_READ] = now2();
	if (dp_read_file(argv[argc - 1], &p) < 0)
		return fail();
	t[PH_ANALYSIS] = now2();
	job.p = &p;
	if (par && pthread_create(&th, NULL, analyse, &job) != 0)
		par = 0;
	if (!par && !skip) {
		analyse(&job);
		if (!job.a)
			return fail();
	}
	t[PH_MERGE] = now2();
#ifdef DP_HAVE_MERGE
	struct dp_profile mp;

	if (dp_profile_merge_threads(&p, &mp) < 0)
		return fail();
	t[PH_MERGED] = now2();
	m = dp_analysis_new(&mp, &err);
	if (!m)
		return fail();
#else
	t[PH_MERGED] = t[PH_MERGE];
#endif
	if (par) {
		pthread_join(th, NULL);
		if (!job.a)
			return fail();
	}
	t[PH_N] = now2();
	a = job.a;
	getrusage(RUSAGE_SELF, &ru);
	printf("pd=%" PRIu32 " csd=%" PRIu32 " ps=%" PRIu32 " cliques=%" PRIu32
	       " extra_entries=%" PRIu32 " merged_pd=%" PRIu32,
	       p.n_pd, p.n_csd, p.n_ps, a ? a->n_cliques : 0, a ? a->n_extra_entries : 0,
	       m ? m->p->n_pd : 0);
	for (int i = 0; i < PH_N; i++)
		printf(" %s_ms=%.1f %s_cpu=%.1f", ph_name[i], t[i + 1].wall - t[i].wall, ph_name[i],
		       t[i + 1].cpu - t[i].cpu);
	printf(" total_ms=%.1f total_cpu=%.1f rss_mb=%.1f\n", t[PH_N].wall - t[0].wall,
	       t[PH_N].cpu - t[0].cpu, (double)ru.ru_maxrss / 1024.0);
#ifdef DP_HAVE_MERGE
	dp_analysis_free(m);
	dp_profile_release(&mp);
#endif
	dp_analysis_free(a);
	dp_profile_release(&p);
	return 0;
}
