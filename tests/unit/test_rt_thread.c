/*
 * tests/unit/test_rt_thread.c - the runtime with 8 threads: each thread gets its own
 * graph under the program root (root -> thread root -> start routine), exact per-thread
 * call counts, thread names and flags, and graphs that outlive their threads; and
 * snapshots written while 4 threads keep creating nodes, each complete and consistent.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_rt.h"

#define NOINL	  __attribute__((noinline))
#define N_THREADS 8

static volatile int sink;

NOINL static void leaf(int i)
{
	sink += i;
}

NOINL static void *worker(void *arg)
{
	int n = (int)(intptr_t)arg;
	char name[16];

	snprintf(name, sizeof(name), "dpw-%d", n);
	pthread_setname_np(pthread_self(), name);
	for (int i = 0; i <= n; i++)
		leaf(i);
	return NULL;
}

/* Eight functions calling each other through one table from two sites each: many
 * contexts (recursion folded), nodes created while the writer runs. */
typedef void (*fn_t)(int);
static const fn_t tab[8];
#define DEF_F(n)                                         \
	NOINL static void f##n(int d)                    \
	{                                                \
		sink++;                                  \
		if (d) {                                 \
			tab[(n * 3 + d) & 7](d - 1);     \
			tab[(n * 5 + d + 1) & 7](d - 1); \
		}                                        \
	}
DEF_F(0)
DEF_F(1)
DEF_F(2)
DEF_F(3)
DEF_F(4)
DEF_F(5)
DEF_F(6)
DEF_F(7)
static const fn_t tab[8] = {f0, f1, f2, f3, f4, f5, f6, f7};
static volatile int racing;

NOINL static void *racer(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg;

	while (racing)
		tab[rand_r(&seed) & 7](10);
	return NULL;
}

TEST(writes_race_with_threads)
{
	pthread_t tids[4];
	struct dp_profile p;
	uint64_t last = 0;

	racing = 1;
	for (int i = 0; i < 4; i++)
		CHECK(pthread_create(&tids[i], NULL, racer, (void *)(uintptr_t)i) == 0);
	for (int i = 0; i < 10; i++) {
		rt_snapshot(&p); /* exits the test if a snapshot is unreadable */
		rt_check_invariants(&p);
		CHECK(p.n_csd >= last);
		last = p.n_csd;
		dp_profile_release(&p);
	}
	racing = 0;
	for (int i = 0; i < 4; i++)
		pthread_join(tids[i], NULL);
	CHECK(last > 100);
}

TEST(eight_threads)
{
	pthread_t tids[N_THREADS];
	struct dp_profile p;
	uint32_t seen = 0, entry_css = 0;

	for (int i = 0; i < N_THREADS; i++)
		CHECK(pthread_create(&tids[i], NULL, worker, (void *)(intptr_t)i) == 0);
	for (int i = 0; i < N_THREADS; i++)
		pthread_join(tids[i], NULL);
	rt_snapshot(&p);
	rt_check_invariants(&p);
	CHECK_EQ(p.n_threads, N_THREADS + 1);
	CHECK_EQ(rt_edges(&p, worker, leaf).calls, (N_THREADS * (N_THREADS + 1)) / 2);
	CHECK_EQ(rt_edges(&p, worker, leaf).exits, (N_THREADS * (N_THREADS + 1)) / 2);
	CHECK_EQ(rt_n_pd(&p, leaf), N_THREADS);
	CHECK_EQ(rt_n_pd(&p, worker), N_THREADS);
	CHECK_EQ(rt_edges(&p, NULL, worker).calls, N_THREADS);
	for (uint32_t t = 1; t <= p.n_threads; t++) {
		const struct dp_thread *th = &p.threads[t];
		const char *name = dp_profile_str(&p, th->name);

		/* CSD t: program root -> this thread's root, one call */
		CHECK_EQ(p.csd[t].caller, p.root_pd);
		CHECK_EQ(p.csd[t].callee, th->root_pd);
		CHECK_EQ(p.csd[t].calls, 1);
		CHECK_EQ(p.pd[th->root_pd].thread, t);
		if (th->flags & DP_THREAD_MAIN) {
			CHECK_EQ(th->tid, (uint64_t)getpid());
			CHECK_EQ(th->end_ns, 0);
			continue;
		}
		CHECK(th->flags & DP_THREAD_ENDED);
		CHECK(th->end_ns >= th->start_ns && th->start_ns > 0);
		CHECK(strncmp(name, "dpw-", 4) == 0);
		seen |= 1u << (name[4] - '0');
	}
	CHECK_EQ(seen, (1u << N_THREADS) - 1);
	/* each worker hangs under its thread root through an entry site */
	for (uint32_t i = 1; i <= p.n_csd; i++) {
		const struct dp_csd *c = &p.csd[i];

		if (p.pd[c->callee].ps != rt_ps(&p, worker))
			continue;
		CHECK_EQ(p.ps[p.pd[c->caller].ps].kind, DP_PS_THREAD);
		CHECK_EQ(p.css[c->css].kind, DP_CSS_ENTRY);
		CHECK_EQ(c->calls, 1);
		CHECK_EQ(c->exits, 1);
		CHECK_EQ(p.pd[c->caller].thread, p.pd[c->callee].thread);
		entry_css = c->css;
	}
	CHECK(entry_css != 0);
	dp_profile_release(&p);
}

DP_TEST_MAIN(test_eight_threads, test_writes_race_with_threads)
