/*
 * tests/unit/test_rt_graph.c - the runtime's graph on one thread, built with
 * -finstrument-functions against the static runtime: recursion folding (fib), 100,000-
 * deep mutual recursion, a function-pointer site with two callees, qsort callbacks,
 * longjmp (unwinds, context after setjmp), hooks of inlined functions, allocation
 * counts, CPU-time samples and their PCs, and the file's metadata.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "test_rt.h"

/* Keep the compiler from folding or inlining the patterns. */
#define NOINL __attribute__((noinline))

static volatile int sink;

NOINL static int fib(int n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

NOINL static int odd(int n);
NOINL static int even(int n)
{
	return n == 0 ? 1 : odd(n - 1);
}
NOINL static int odd(int n)
{
	return n == 0 ? 0 : even(n - 1);
}

NOINL static void fp_a(int i)
{
	sink += i;
}
NOINL static void fp_b(int i)
{
	sink -= i;
}
NOINL static void fp_caller(void (*const *fns)(int), int n)
{
	for (int i = 0; i < n; i++)
		fns[i % 2](i); /* one site, two callees */
}

static int n_cmp;
NOINL static int cmp_int(const void *a, const void *b)
{
	n_cmp++;
	return *(const int *)a - *(const int *)b;
}
NOINL static void sorter(void)
{
	int v[64];

	for (int i = 0; i < 64; i++)
		v[i] = (i * 37) % 64;
	qsort(v, 64, sizeof(v[0]), cmp_int);
}

static jmp_buf jb;
NOINL static void lj_leaf(void)
{
	longjmp(jb, 1);
}
NOINL static void lj_mid(void)
{
	lj_leaf();
	sink++;
}
NOINL static void lj_after(void)
{
	sink++;
}
NOINL static void lj_top(void)
{
	if (setjmp(jb) == 0)
		lj_mid();
	lj_after(); /* must be charged to lj_top's PD, not lj_leaf's */
}

/* always inlined: its hooks run in inl_outer's frame with inl_outer's return address */
static inline __attribute__((always_inline)) int inl_sq(int x)
{
	return x * x;
}
NOINL static void inl_leaf(void)
{
	sink++;
}
NOINL static void inl_outer(void)
{
	for (int i = 0; i < 10; i++)
		sink += inl_sq(i);
	inl_leaf();
}

NOINL static void allocs(void)
{
	void *p[8];

	p[0] = malloc(100);
	p[1] = calloc(3, 10);
	p[2] = realloc(NULL, 50);
	p[2] = realloc(p[2], 200);
	CHECK(posix_memalign(&p[3], 64, 128) == 0);
	p[4] = aligned_alloc(64, 256);
	p[5] = memalign(32, 40);
	p[6] = valloc(10);
	CHECK(posix_memalign(&p[7], 3, 8) == EINVAL); /* not counted */
	for (int i = 0; i < 7; i++)
		free(p[i]);
}

NOINL static void spin(void)
{
	struct timespec a, b;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 1000; i++)
			sink += i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < 200000000L);
}

TEST(fib_folds)
{
	struct dp_profile p;
	struct rt_edge all, self;

	sink = fib(20);
	rt_snapshot(&p);
	rt_check_invariants(&p);
	all = rt_edges(&p, NULL, fib);
	self = rt_edges(&p, fib, fib);
	CHECK_EQ(all.calls, 21891);
	CHECK_EQ(all.exits, 21891);
	CHECK_EQ(self.calls, 21890);
	CHECK_EQ(self.n_csd, 2); /* two recursive sites, both folded into one PD */
	CHECK_EQ(rt_n_pd(&p, fib), 1);
	CHECK_EQ(rt_edges(&p, test_fib_folds, fib).calls, 1);
	/* callseqs: the calls made while each activation was current */
	CHECK_EQ(self.callseqs + rt_edges(&p, test_fib_folds, fib).callseqs, 21890);
	dp_profile_release(&p);
}

TEST(deep_mutual_recursion)
{
	struct dp_profile p;

	sink = even(100000);
	rt_snapshot(&p);
	rt_check_invariants(&p);
	CHECK_EQ(rt_edges(&p, NULL, even).calls, 50001);
	CHECK_EQ(rt_edges(&p, NULL, odd).calls, 50000);
	CHECK_EQ(rt_edges(&p, NULL, odd).exits, 50000);
	CHECK_EQ(rt_n_pd(&p, even), 1);
	CHECK_EQ(rt_n_pd(&p, odd), 1);
	CHECK_EQ(rt_edges(&p, even, odd).n_csd, 1);
	CHECK_EQ(rt_edges(&p, odd, even).n_csd, 1);
	dp_profile_release(&p);
}

TEST(function_pointer_site)
{
	static void (*const fns[2])(int) = {fp_a, fp_b};
	struct dp_profile p;
	struct rt_edge a, b;
	uint32_t ca = 0, cb = 0;

	fp_caller(fns, 11);
	rt_snapshot(&p);
	rt_check_invariants(&p);
	a = rt_edges(&p, fp_caller, fp_a);
	b = rt_edges(&p, fp_caller, fp_b);
	CHECK_EQ(a.calls, 6);
	CHECK_EQ(b.calls, 5);
	CHECK_EQ(a.n_csd, 1);
	CHECK_EQ(b.n_csd, 1);
	for (uint32_t i = 1; i <= p.n_csd; i++) {
		if (p.pd[p.csd[i].callee].ps == rt_ps(&p, fp_a))
			ca = p.csd[i].css;
		if (p.pd[p.csd[i].callee].ps == rt_ps(&p, fp_b))
			cb = p.csd[i].css;
	}
	CHECK(ca != 0 && ca == cb); /* the same static site, two CSDs */
	dp_profile_release(&p);
}

TEST(qsort_callback)
{
	struct dp_profile p;
	struct rt_edge e;

	n_cmp = 0;
	sorter();
	rt_snapshot(&p);
	rt_check_invariants(&p);
	e = rt_edges(&p, sorter, cmp_int);
	CHECK(n_cmp > 0);
	CHECK_EQ(e.calls, n_cmp);
	CHECK_EQ(e.exits, n_cmp);
	CHECK_EQ(rt_edges(&p, NULL, cmp_int).calls, n_cmp);
	dp_profile_release(&p);
}

TEST(longjmp_unwinds)
{
	struct dp_profile p;

	lj_top();
	rt_snapshot(&p);
	rt_check_invariants(&p);
	CHECK_EQ(rt_edges(&p, lj_top, lj_mid).calls, 1);
	CHECK_EQ(rt_edges(&p, lj_top, lj_mid).unwinds, 1);
	CHECK_EQ(rt_edges(&p, lj_top, lj_mid).exits, 0);
	CHECK_EQ(rt_edges(&p, lj_mid, lj_leaf).unwinds, 1);
	CHECK_EQ(rt_edges(&p, lj_top, lj_after).calls, 1);
	CHECK_EQ(rt_edges(&p, lj_top, lj_after).exits, 1);
	CHECK_EQ(rt_edges(&p, NULL, lj_after).calls, 1);
	CHECK_EQ(rt_edges(&p, NULL, lj_top).exits, 1);
	CHECK_EQ(rt_edges(&p, NULL, lj_top).unwinds, 0);
	dp_profile_release(&p);
}

TEST(inlined_hooks)
{
	struct dp_profile p;

	inl_outer();
	rt_snapshot(&p);
	rt_check_invariants(&p);
	CHECK_EQ(rt_edges(&p, inl_outer, inl_sq).calls, 10);
	CHECK_EQ(rt_edges(&p, inl_outer, inl_sq).exits, 10);
	CHECK_EQ(rt_edges(&p, NULL, inl_sq).calls, 10);
	CHECK_EQ(rt_edges(&p, inl_outer, inl_leaf).calls, 1);
	CHECK_EQ(rt_edges(&p, NULL, inl_outer).exits, 1);
	CHECK_EQ(rt_edges(&p, NULL, inl_outer).unwinds, 0);
	dp_profile_release(&p);
}

TEST(allocation_counts)
{
	struct dp_profile p;
	struct rt_edge e;

	allocs();
	rt_snapshot(&p);
	rt_check_invariants(&p);
	e = rt_edges(&p, NULL, allocs);
	CHECK_EQ(e.allocs, 8);
	CHECK_EQ(e.alloc_bytes, 100 + 30 + 50 + 200 + 128 + 256 + 40 + 10);
	dp_profile_release(&p);
}

TEST(samples)
{
	struct dp_profile p;

	if (getenv("DEEPPROF_HZ"))
		return;
	spin();
	rt_snapshot(&p);
	rt_check_invariants(&p);
	CHECK_EQ(p.sample_period_ns, 1000000);
	CHECK_EQ(p.hz, 1000);
	/* 200 ms of CPU at 1 kHz: about 200 samples; allow for a loaded machine */
	CHECK(rt_edges(&p, NULL, spin).samples >= 50);
	dp_profile_release(&p);
}

/* Every sample charged to a CSD is in the SPCS records under that CSD with the PC it
 * interrupted: spin's own loop (its code, at most a few hundred bytes from its entry)
 * and the clock it reads (elsewhere: the vDSO or the C library). */
TEST(sampled_pcs)
{
	struct dp_profile p;
	uint64_t in_spin = 0, elsewhere = 0, per_csd = 0;
	uint32_t to;

	if (getenv("DEEPPROF_HZ"))
		return;
	spin();
	rt_snapshot(&p);
	CHECK(p.has_pcs);
	CHECK_EQ(p.pcs_missed, 0);
	to = rt_ps_(&p, (uintptr_t)spin);
	for (uint32_t i = 0; i < p.n_pcs; i++) {
		const struct dp_pcs *r = &p.pcs[i];
		uintptr_t off = (uintptr_t)r->pc - (uintptr_t)spin;

		CHECK(r->csd >= 1 && r->csd <= p.n_csd && r->samples >= 1);
		if (p.pd[p.csd[r->csd].callee].ps != to)
			continue;
		*(off < 512 ? &in_spin : &elsewhere) += r->samples;
	}
	for (uint32_t i = 1; i <= p.n_csd; i++)
		if (p.pd[p.csd[i].callee].ps == to)
			per_csd += p.csd[i].samples;
	/* the records of spin's CSDs hold exactly their samples */
	CHECK_EQ(in_spin + elsewhere, per_csd);
	CHECK(in_spin >= 25);
	dp_profile_release(&p);
}

TEST(file_metadata)
{
	struct dp_profile p;
	char buf[64];

	rt_snapshot(&p);
	CHECK_EQ(p.n_threads, 1);
	CHECK(p.threads[1].flags & DP_THREAD_MAIN);
	CHECK_EQ(p.threads[1].tid, (uint64_t)getpid());
	CHECK_EQ(p.pid, (uint64_t)getpid());
	CHECK_EQ(p.exit_status, 0);
	CHECK(p.n_objects >= 2);
	CHECK(p.objects[1].build_id_len == 20);
	CHECK(strstr(dp_profile_str(&p, p.program), "test_rt_graph") != NULL);
	CHECK(p.argc == 1);
	CHECK_EQ(p.ps[1].kind, DP_PS_ROOT);
	CHECK_EQ(p.pd[p.threads[1].root_pd].ps, 2);
	CHECK_EQ(p.ps[2].kind, DP_PS_THREAD);
	CHECK_EQ(p.csd[1].calls, 1);
	CHECK_EQ(p.css[p.csd[2].css].kind, DP_CSS_ENTRY);
	CHECK_STR(dp_profile_ps_label(&p, 1, buf, sizeof(buf)), "<program>");
	dp_profile_release(&p);
}

DP_TEST_MAIN(test_fib_folds, test_deep_mutual_recursion, test_function_pointer_site,
	     test_qsort_callback, test_longjmp_unwinds, test_inlined_hooks, test_allocation_counts,
	     test_samples, test_sampled_pcs, test_file_metadata)
