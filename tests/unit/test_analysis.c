/*
 * tests/unit/test_analysis.c - exact tests of the analysis core on small profiles built
 * in memory: mutual recursion, a function cheap from one caller and expensive from
 * another, threads, modules and objects, a 100,000-deep chain, the sample profile (two
 * CSDs entering one clique) and bad ids.
 */
#include <stdlib.h>

#include "analysis/analysis.h"
#include "core/err.h"
#include "deepprof/format.h"
#include "harness.h"
#include "sample_profile.h"
#include "test_analysis_mini.h"

/* caller PD, callee PD, calls, samples, callseqs, allocs, alloc_bytes */
struct mini_csd {
	uint32_t caller, callee;
	uint64_t calls, samples, callseqs, allocs, bytes;
};

/* A profile with PD i of PS pd_ps[i] (PS 1 root, PS 2 thread, others functions) and one
 * CSS per CSD. */
static int build(struct dp_profile *p, uint32_t n_ps, const uint32_t *pd_ps, uint32_t n_pd,
		 const struct mini_csd *c, uint32_t n_csd)
{
	if (dp_profile_init(p) < 0)
		return -1;
	p->root_pd = 1;
	p->n_ps = n_ps;
	p->n_pd = n_pd;
	p->n_css = p->n_csd = n_csd;
	p->ps = dp_arena_array(&p->arena, (size_t)n_ps + 1, sizeof(*p->ps));
	p->pd = dp_arena_array(&p->arena, (size_t)n_pd + 1, sizeof(*p->pd));
	p->css = dp_arena_array(&p->arena, (size_t)n_csd + 1, sizeof(*p->css));
	p->csd = dp_arena_array(&p->arena, (size_t)n_csd + 1, sizeof(*p->csd));
	if (!p->ps || !p->pd || !p->css || !p->csd)
		return -1;
	p->ps[1].kind = DP_PS_ROOT;
	if (n_ps >= 2)
		p->ps[2].kind = DP_PS_THREAD;
	for (uint32_t i = 1; i <= n_pd; i++) {
		p->pd[i].ps = pd_ps[i];
		p->pd[i].thread = i == 1 ? 0 : 1;
	}
	for (uint32_t i = 1; i <= n_csd; i++) {
		const struct mini_csd *m = &c[i - 1];

		p->css[i].ps = pd_ps[m->caller];
		p->csd[i] = DP_MINI_CSD(m, i);
	}
	return 0;
}

/* root -> thread -> main -> a <-> b (and b -> b), a -> c */
TEST(mutual_recursion)
{
	static const uint32_t pd_ps[] = {0, 1, 2, 3, 4, 5, 6};
	static const struct mini_csd c[] = {
		{1, 2, 1, 0, 0, 0, 0},	  {2, 3, 1, 1, 1, 0, 0},  {3, 4, 1, 2, 10, 0, 0},
		{4, 5, 4, 5, 20, 1, 8},	  {5, 4, 3, 7, 30, 0, 0}, {5, 5, 2, 3, 40, 0, 0},
		{4, 6, 6, 11, 50, 2, 64},
	};
	struct dp_profile p;
	struct dp_analysis *a;
	static const uint32_t clique[] = {0, 5, 4, 3, 2, 2, 1};
	static const uint32_t entry[] = {0, 7, 3, 2, 1, 0};

	CHECK_EQ(build(&p, 6, pd_ps, 6, c, 7), 0);
	a = dp_mini_analyse(&p);
	if (!a)
		goto out;
	CHECK_EQ(a->n_cliques, 5);
	CHECK_EQ(a->root_clique, 5);
	CHECK_EQ(a->n_extra_entries, 0);
	for (uint32_t i = 1; i <= 6; i++)
		CHECK_EQ(a->pd_clique[i], clique[i]);
	for (uint32_t i = 1; i <= 5; i++)
		CHECK_EQ(a->clique_entry[i], entry[i]);
	CHECK_EQ(dp_csr_count(&a->clique_pds, 2), 2);
	CHECK_EQ(dp_csr_items(&a->clique_pds, 2)[0], 4);
	CHECK_EQ(dp_csr_items(&a->clique_pds, 2)[1], 5);
	/* the clique {a, b}: own 9 + 8, desc 11 (from c), nothing counted twice */
	CHECK_EQ(dp_analysis_pd_own(a, 4).samples, 9);
	CHECK_EQ(dp_analysis_pd_own(a, 5).samples, 8);
	CHECK_EQ(dp_analysis_pd_own(a, 4).calls, 4);
	CHECK_EQ(dp_analysis_pd_own(a, 5).calls, 6);
	CHECK_EQ(a->pd_desc[4].samples, 11);
	CHECK_EQ(a->pd_desc[5].samples, 0);
	CHECK_EQ(a->clique_total[2].samples, 28);
	CHECK_EQ(dp_analysis_csd_desc(a, 3).samples, 26);
	CHECK_EQ(dp_analysis_csd_desc(a, 3).callseqs, 140);
	CHECK_EQ(dp_analysis_csd_desc(a, 3).allocs, 3);
	CHECK_EQ(dp_analysis_csd_desc(a, 3).alloc_bytes, 72);
	for (uint32_t i = 4; i <= 6; i++) {
		CHECK_EQ(dp_analysis_csd_desc(a, i).samples, 0);
		CHECK_EQ(a->csd_child_clique[i], 0);
	}
	CHECK_EQ(a->csd_child_clique[3], 2);
	CHECK_EQ(dp_analysis_csd_desc(a, 2).samples, 28);
	CHECK_EQ(dp_analysis_csd_desc(a, 1).samples, 29);
	CHECK_EQ(a->root_total.samples, 29);
	CHECK_EQ(a->root_total.callseqs, 151);
	CHECK_EQ(a->root_total.allocs, 3);
	CHECK_EQ(a->root_total.alloc_bytes, 72);
	CHECK_EQ(a->pd_desc[1].samples, 29);
	CHECK_EQ(a->ps_desc[4].samples, 11);
	CHECK_EQ(a->ps_desc[5].samples, 0);
	CHECK_EQ(a->ps_own[4].calls, 4);
	CHECK_EQ(a->css_own[4].calls, 4);
	CHECK_EQ(a->css_desc[3].samples, 26);
	dp_analysis_free(a);
out:
	dp_profile_release(&p);
}

/*
 * main -> f (1000 cheap calls: 1 sample, w 1 sample) and main -> g -> h -> f (10
 * expensive calls: 100 samples, w 50 samples): f's cost stays under h, g and main -> g.
 */
TEST(cheap_and_expensive_caller)
{
	static const uint32_t pd_ps[] = {0, 1, 2, 3, 6, 7, 4, 5, 6, 7};
	static const struct mini_csd c[] = {
		{1, 2, 1, 0, 0, 0, 0},	  {2, 3, 1, 0, 0, 0, 0},   {3, 4, 1000, 1, 0, 0, 0},
		{4, 5, 1000, 1, 0, 0, 0}, {3, 6, 1, 0, 0, 0, 0},   {6, 7, 1, 0, 0, 0, 0},
		{7, 8, 10, 100, 0, 0, 0}, {8, 9, 10, 50, 0, 0, 0},
	};
	struct dp_profile p;
	struct dp_analysis *a;

	CHECK_EQ(build(&p, 7, pd_ps, 9, c, 8), 0);
	a = dp_mini_analyse(&p);
	if (!a)
		goto out;
	CHECK_EQ(a->n_cliques, 9);
	CHECK_EQ(dp_analysis_csd_desc(a, 3).samples, 1); /* main -> f: 1 + 1 */
	CHECK_EQ(dp_analysis_csd_desc(a, 4).samples, 0);
	CHECK_EQ(dp_analysis_csd_desc(a, 8).samples, 0);
	CHECK_EQ(dp_analysis_csd_desc(a, 7).samples, 50); /* h -> f: 100 + 50 */
	CHECK_EQ(dp_analysis_csd_desc(a, 6).samples, 150);
	CHECK_EQ(dp_analysis_csd_desc(a, 5).samples, 150);
	CHECK_EQ(a->pd_desc[7].samples, 150);
	CHECK_EQ(a->pd_desc[6].samples, 150);
	CHECK_EQ(a->pd_desc[3].samples, 152);
	CHECK_EQ(a->root_total.samples, 152);
	CHECK_EQ(a->ps_own[6].samples, 101);
	CHECK_EQ(a->ps_own[6].calls, 1010);
	CHECK_EQ(a->ps_desc[6].samples, 51);
	CHECK_EQ(a->ps_own[7].samples, 51);
	CHECK_EQ(a->ps_desc[4].samples, 150); /* g */
	CHECK_EQ(dp_csr_count(&a->ps_pds, 6), 2);
	CHECK_EQ(dp_csr_count(&a->ps_callers, 6), 2);
	CHECK_EQ(dp_csr_items(&a->ps_callers, 6)[0], 3);
	CHECK_EQ(dp_csr_items(&a->ps_callers, 6)[1], 7);
	dp_analysis_free(a);
out:
	dp_profile_release(&p);
}

/* two threads under the root; work in both, and work <-> helper recursive in thread 2 */
TEST(threads_modules_objects)
{
	static const uint32_t pd_ps[] = {0, 1, 2, 2, 3, 4, 4, 5};
	static const struct mini_csd c[] = {
		{1, 2, 1, 0, 0, 0, 0},	  {1, 3, 1, 0, 0, 0, 0},     {2, 4, 1, 1, 0, 0, 0},
		{4, 5, 1, 10, 0, 2, 100}, {3, 6, 1, 20, 0, 3, 1000}, {6, 7, 1, 5, 0, 0, 0},
		{7, 6, 1, 2, 0, 0, 0},
	};
	static const uint32_t clique[] = {0, 6, 3, 5, 2, 1, 4, 4};
	struct dp_profile p;
	struct dp_analysis *a;
	uint32_t fa, fb;

	CHECK_EQ(build(&p, 5, pd_ps, 7, c, 7), 0);
	p.pd[3].thread = p.pd[6].thread = p.pd[7].thread = 2;
	fa = (uint32_t)dp_strtab_intern_cstr(&p.strs, "a.c");
	fb = (uint32_t)dp_strtab_intern_cstr(&p.strs, "b.c");
	p.ps[3].file = p.ps[4].file = fa;
	p.ps[5].file = fb;
	p.n_objects = 2;
	p.objects = dp_arena_array(&p.arena, 3, sizeof(*p.objects));
	p.ps[3].object = p.ps[4].object = 1;
	p.ps[5].object = 2;
	a = dp_mini_analyse(&p);
	if (!a)
		goto out;
	CHECK_EQ(a->n_cliques, 6);
	for (uint32_t i = 1; i <= 7; i++)
		CHECK_EQ(a->pd_clique[i], clique[i]);
	CHECK_EQ(a->clique_entry[4], 5);
	CHECK_EQ(a->clique_entry[3], 1);
	CHECK_EQ(a->clique_entry[5], 2);
	CHECK_EQ(dp_csr_count(&a->clique_pds, 6), 1);
	CHECK_EQ(dp_analysis_csd_desc(a, 1).samples, 11);
	CHECK_EQ(dp_analysis_csd_desc(a, 2).samples, 27);
	CHECK_EQ(dp_analysis_csd_desc(a, 2).alloc_bytes, 1000);
	CHECK_EQ(a->root_total.samples, 38);
	CHECK_EQ(a->root_total.allocs, 5);
	CHECK_EQ(a->root_total.alloc_bytes, 1100);
	CHECK_EQ(a->ps_own[4].samples, 32); /* work, both threads, + helper -> work */
	CHECK_EQ(a->ps_own[4].calls, 3);
	CHECK_EQ(a->ps_desc[4].samples, 0); /* helper is in work's clique */
	CHECK_EQ(a->ps_own[2].samples, 0);
	CHECK_EQ(a->ps_desc[2].samples, 38);
	CHECK_EQ(dp_csr_count(&a->ps_pds, 2), 2);
	/* modules by first appearance: <unknown> (root, thread), a.c, b.c */
	CHECK_EQ(a->n_modules, 3);
	CHECK_STR(dp_analysis_module_name(a, 1), "<unknown>");
	CHECK_STR(dp_analysis_module_name(a, 2), "a.c");
	CHECK_STR(dp_analysis_module_name(a, 3), "b.c");
	CHECK_EQ(a->ps_module[4], 2);
	CHECK_EQ(dp_csr_count(&a->module_pss, 1), 2);
	CHECK_EQ(dp_csr_count(&a->module_pss, 2), 2);
	CHECK_EQ(a->module_own[2].samples, 33);
	/* module totals count nested calls once: a.c's PD of work under main (a.c) is in
	 * main's total already, and thread 2's work <-> helper clique adds nothing to a.c
	 * below it, so a.c's total is its own 33 */
	CHECK_EQ(a->module_desc[2].samples, 0);
	CHECK_EQ(a->module_own[3].samples, 5);
	CHECK_EQ(a->module_desc[1].samples, 0); /* the artificial procedures open no module */
	CHECK_EQ(a->module_desc[3].samples, 0);
	CHECK_EQ(a->object_own[1].samples, 33);
	CHECK_EQ(a->object_own[2].samples, 5);
	CHECK_EQ(a->object_own[0].samples, 0);
	CHECK_EQ(a->object_desc[0].samples, 0);
	CHECK_EQ(a->object_desc[1].samples, 0);
	dp_analysis_free(a);
out:
	dp_profile_release(&p);
}

#define DEEP 100000u

/* a chain of DEEP PDs, 1 sample per call; with @back, a CSD from the last PD to PD 3 */
static void deep_chain(int back)
{
	uint32_t n_csd = DEEP - 1 + (back ? 1 : 0);
	uint32_t *pd_ps = malloc((DEEP + 1) * sizeof(*pd_ps));
	struct mini_csd *c = malloc(n_csd * sizeof(*c));
	struct dp_profile p;
	struct dp_analysis *a;

	CHECK(pd_ps && c);
	if (!pd_ps || !c)
		goto out_free;
	for (uint32_t i = 1; i <= DEEP; i++)
		pd_ps[i] = i < 3 ? i : 3 + i % 2;
	for (uint32_t i = 1; i < DEEP; i++)
		c[i - 1] = (struct mini_csd){i, i + 1, 1, 1, 1, 0, 0};
	if (back)
		c[DEEP - 1] = (struct mini_csd){DEEP, 3, 1, 5, 1, 0, 0};
	CHECK_EQ(build(&p, 4, pd_ps, DEEP, c, n_csd), 0);
	a = dp_mini_analyse(&p);
	if (!a)
		goto out;
	if (!back) {
		CHECK_EQ(a->n_cliques, DEEP);
		CHECK_EQ(a->pd_clique[DEEP], 1);
		CHECK_EQ(a->pd_clique[1], DEEP);
		CHECK_EQ(dp_analysis_csd_desc(a, 1).samples, DEEP - 2);
		CHECK_EQ(dp_analysis_csd_desc(a, DEEP / 2).samples, DEEP / 2 - 1);
		CHECK_EQ(a->root_total.samples, DEEP - 1);
		CHECK_EQ(a->ps_desc[3].samples + a->ps_desc[4].samples,
			 (uint64_t)(DEEP - 3) * (DEEP - 2) / 2);
	} else {
		CHECK_EQ(a->n_cliques, 3);
		CHECK_EQ(a->pd_clique[3], 1);
		CHECK_EQ(a->pd_clique[DEEP], 1);
		CHECK_EQ(dp_csr_count(&a->clique_pds, 1), DEEP - 2);
		CHECK_EQ(a->clique_entry[1], 2);
		CHECK_EQ(dp_analysis_csd_desc(a, 2).samples, DEEP + 2);
		CHECK_EQ(dp_analysis_csd_desc(a, DEEP).samples, 0);
		CHECK_EQ(a->root_total.samples, DEEP + 4);
		CHECK_EQ(a->ps_desc[3].samples + a->ps_desc[4].samples, 0);
	}
	dp_analysis_free(a);
out:
	dp_profile_release(&p);
out_free:
	free(pd_ps);
	free(c);
}

TEST(deep_chain_100000)
{
	deep_chain(0);
	deep_chain(1);
}

/* The format tests' sample: main (PD 4) calls fib (PD 5) from two sites, CSDs 4 and 7. */
TEST(sample_profile_two_entries)
{
	struct dp_profile p;
	struct dp_analysis *a;
	uint64_t s[4] = {0};

	CHECK_EQ(dp_sample_profile(&p, DP_FEAT_SYMBOLIZED), 0);
	a = dp_mini_analyse(&p);
	if (!a)
		goto out;
	CHECK_EQ(a->pd_clique[5], 1); /* fib is reached first */
	CHECK_EQ(a->csd_child_clique[5], 0);
	CHECK_EQ(a->clique_entry[1], 4);
	CHECK_EQ(a->csd_child_clique[7], 1);
	CHECK_EQ(a->n_extra_entries, 1);
	CHECK_EQ(dp_analysis_csd_desc(a, 4).callseqs, 175);
	CHECK_EQ(dp_analysis_csd_desc(a, 7).callseqs, 0);
	CHECK_EQ(a->pd_desc[4].callseqs, ((uint64_t)1 << 40) + 187 + 0 + 0);
	for (uint32_t i = 1; i <= p.n_csd; i++) {
		s[0] += p.csd[i].samples;
		s[1] += p.csd[i].callseqs;
		s[2] += p.csd[i].allocs;
		s[3] += p.csd[i].alloc_bytes;
	}
	CHECK_EQ(a->root_total.samples, s[0]);
	CHECK_EQ(a->root_total.callseqs, s[1]);
	CHECK_EQ(a->root_total.callseqs, p.total_callseqs);
	CHECK_EQ(a->root_total.allocs, s[2]);
	CHECK_EQ(a->root_total.alloc_bytes, s[3]);
	CHECK_EQ(a->n_modules, 3);
	dp_analysis_free(a);
out:
	dp_profile_release(&p);
}

TEST(bad_ids)
{
	static const uint32_t pd_ps[] = {0, 1, 2, 3};
	static const struct mini_csd c[] = {{1, 2, 1, 0, 0, 0, 0}, {2, 3, 1, 0, 0, 0, 0}};
	struct dp_profile p;
	int err = 0;

	CHECK_EQ(build(&p, 3, pd_ps, 3, c, 2), 0);
	p.csd[2].callee = 4;
	CHECK(dp_analysis_new(&p, &err) == NULL);
	CHECK_EQ(err, -DP_EFORMAT);
	CHECK_STR(dp_errmsg(),
		  "cannot analyse: CSD 2 has caller PD 2, callee PD 4, CSS 2: out of range");
	p.csd[2].callee = 3;
	p.root_pd = 0;
	err = 0;
	CHECK(dp_analysis_new(&p, &err) == NULL);
	CHECK_EQ(err, -DP_EFORMAT);
	p.root_pd = 1;
	p.pd[3].ps = 9;
	CHECK(dp_analysis_new(&p, &err) == NULL);
	CHECK_EQ(err, -DP_EFORMAT);
	dp_profile_release(&p);
}

DP_TEST_MAIN(test_mutual_recursion, test_cheap_and_expensive_caller, test_threads_modules_objects,
	     test_deep_chain_100000, test_sample_profile_two_entries, test_bad_ids)
