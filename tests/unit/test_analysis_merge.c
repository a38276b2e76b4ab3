/*
 * tests/unit/test_analysis_merge.c - the merged thread view (analysis/merge.h): exact
 * results on hand-built profiles (workers merged, the main thread and a thread with a
 * different entry set not, recursion inside workers, hostile duplicate CSDs), and
 * properties on simulated multi-thread profiles (totals and per-PS/CSS sums kept, merging
 * twice = once, one entry per clique, nothing to merge = identity); and the folded view
 * of library leaves.
 */
#include <stdlib.h>

#include "analysis/analysis.h"
#include "analysis/merge.h"
#include "core/err.h"
#include "deepprof/format.h"
#include "harness.h"
#include "test_analysis_gen.h"
#include "test_analysis_mini.h"

struct m_csd {
	uint32_t caller, css, callee;
	uint64_t calls, samples, callseqs, allocs, bytes;
};

/* A profile: PS 1 root, PS 2 thread, others functions named "fN"; CSS i has caller
 * css_ps[i] and kind css_kind[i]; PD i has PS pd_ps[i] and thread pd_thr[i]; thread t's
 * root is thr_root[t]. */
struct m_spec {
	uint32_t n_ps, n_css, n_pd, n_csd, n_threads;
	const uint32_t *css_ps, *css_kind, *pd_ps, *pd_thr, *thr_root;
	const struct m_csd *csd;
};

static int build(struct dp_profile *p, const struct m_spec *s)
{
	char name[16];

	if (dp_profile_init(p) < 0)
		return -1;
	p->root_pd = 1;
	p->n_ps = s->n_ps;
	p->n_css = s->n_css;
	p->n_pd = s->n_pd;
	p->n_csd = s->n_csd;
	p->n_threads = s->n_threads;
	p->ps = dp_arena_array(&p->arena, (size_t)s->n_ps + 1, sizeof(*p->ps));
	p->css = dp_arena_array(&p->arena, (size_t)s->n_css + 1, sizeof(*p->css));
	p->pd = dp_arena_array(&p->arena, (size_t)s->n_pd + 1, sizeof(*p->pd));
	p->csd = dp_arena_array(&p->arena, (size_t)s->n_csd + 1, sizeof(*p->csd));
	p->threads = dp_arena_array(&p->arena, (size_t)s->n_threads + 1, sizeof(*p->threads));
	if (!p->ps || !p->css || !p->pd || !p->csd || !p->threads)
		return -1;
	for (uint32_t i = 1; i <= s->n_ps; i++) {
		p->ps[i].kind = i == 1 ? DP_PS_ROOT : i == 2 ? DP_PS_THREAD : DP_PS_FUNCTION;
		snprintf(name, sizeof(name), "f%u", i);
		p->ps[i].name = i > 2 ? (uint32_t)dp_strtab_intern_cstr(&p->strs, name) : 0;
	}
	for (uint32_t i = 1; i <= s->n_css; i++)
		p->css[i] = (struct dp_css){.ps = s->css_ps[i], .kind = s->css_kind[i]};
	for (uint32_t i = 1; i <= s->n_pd; i++)
		p->pd[i] = (struct dp_pd){.ps = s->pd_ps[i], .thread = s->pd_thr[i]};
	for (uint32_t t = 1; t <= s->n_threads; t++)
		p->threads[t] = (struct dp_thread){.tid = 100 + t, .root_pd = s->thr_root[t]};
	for (uint32_t i = 1; i <= s->n_csd; i++) {
		const struct m_csd *m = &s->csd[i - 1];

		p->csd[i] = DP_MINI_CSD(m, m->css);
	}
	return 0;
}

static int merge(const struct dp_profile *in, struct dp_profile *out)
{
	int rc = dp_profile_merge_threads(in, out);

	if (rc < 0)
		fprintf(stderr, "dp_profile_merge_threads: %s\n", dp_errmsg());
	CHECK_EQ(rc, 0);
	return rc;
}

static void check_csd(const struct dp_profile *p, uint32_t id, uint32_t caller, uint32_t css,
		      uint32_t callee, uint64_t calls, uint64_t samples)
{
	CHECK(id <= p->n_csd);
	if (id > p->n_csd)
		return;
	CHECK_EQ(p->csd[id].caller, caller);
	CHECK_EQ(p->csd[id].css, css);
	CHECK_EQ(p->csd[id].callee, callee);
	CHECK_EQ(p->csd[id].calls, calls);
	CHECK_EQ(p->csd[id].exits, calls);
	CHECK_EQ(p->csd[id].samples, samples);
}

/* Whether two profiles have the same nodes (the static tables are checked elsewhere). */
static int same_nodes(const struct dp_profile *x, const struct dp_profile *y)
{
	if (x->n_pd != y->n_pd || x->n_csd != y->n_csd || x->root_pd != y->root_pd ||
	    x->n_threads != y->n_threads)
		return 0;
	for (uint32_t i = 1; i <= x->n_pd; i++)
		if (x->pd[i].ps != y->pd[i].ps || x->pd[i].thread != y->pd[i].thread ||
		    x->pd[i].n_cp != y->pd[i].n_cp)
			return 0;
	for (uint32_t i = 1; i <= x->n_csd; i++)
		if (memcmp(&x->csd[i], &y->csd[i], sizeof(x->csd[i])) != 0)
			return 0;
	for (uint32_t t = 1; t <= x->n_threads; t++)
		if (x->threads[t].root_pd != y->threads[t].root_pd ||
		    x->threads[t].tid != y->threads[t].tid)
			return 0;
	return 1;
}

/*
 * Thread 1 (main) enters init and main; threads 2 and 3 enter worker (3 also calls
 * other); thread 4 enters only main. Workers merge; 1 and 4 stay apart.
 */
static const uint32_t a_css_ps[] = {0, 1, 2, 2, 5, 5, 4};
static const uint32_t a_css_kind[] = {
	0, DP_CSS_THREAD, DP_CSS_ENTRY, DP_CSS_ENTRY, DP_CSS_DIRECT, DP_CSS_DIRECT, DP_CSS_DIRECT};
static const uint32_t a_pd_ps[] = {0, 1, 2, 2, 2, 2, 3, 4, 6, 5, 6, 5, 6, 7, 4};
static const uint32_t a_pd_thr[] = {0, 0, 1, 2, 3, 4, 1, 1, 1, 2, 2, 3, 3, 3, 4};
static const uint32_t a_thr_root[] = {0, 2, 3, 4, 5};
static const struct m_csd a_csd[] = {
	{1, 1, 2, 1, 1, 0, 0, 0},   {1, 1, 3, 1, 2, 0, 0, 0},	    {1, 1, 4, 1, 3, 0, 0, 0},
	{1, 1, 5, 1, 4, 0, 0, 0},   {2, 3, 6, 1, 10, 0, 0, 0},	    {2, 2, 7, 1, 20, 0, 0, 0},
	{7, 6, 8, 5, 30, 0, 0, 0},  {3, 2, 9, 1, 40, 7, 0, 0},	    {9, 4, 10, 100, 50, 3, 2, 64},
	{4, 2, 11, 1, 60, 9, 0, 0}, {11, 4, 12, 200, 70, 4, 3, 96}, {11, 5, 13, 7, 80, 0, 0, 0},
	{5, 2, 14, 1, 90, 0, 0, 0},
};
static const struct m_spec a_spec = {7,		 6,	  14,	    13,		4,    a_css_ps,
				     a_css_kind, a_pd_ps, a_pd_thr, a_thr_root, a_csd};

static void check_workers_merged(const struct dp_profile *p, const struct dp_profile *m)
{
	static const uint32_t ps[] = {0, 1, 2, 2, 2, 3, 4, 6, 5, 6, 7, 4};
	static const uint32_t thr[] = {0, 0, 1, 0, 4, 1, 1, 1, 0, 0, 3, 4};

	CHECK_EQ(m->n_pd, 11);
	CHECK_EQ(m->n_csd, 10);
	for (uint32_t i = 1; i <= 11 && i <= m->n_pd; i++) {
		CHECK_EQ(m->pd[i].ps, ps[i]);
		CHECK_EQ(m->pd[i].thread, thr[i]);
	}
	check_csd(m, 1, 1, 1, 2, 1, 1);
	check_csd(m, 2, 1, 1, 3, 2, 5);	    /* the two worker threads */
	check_csd(m, 3, 1, 1, 4, 1, 4);	    /* thread 4: entry set {main} != {init, main} */
	check_csd(m, 7, 3, 2, 8, 2, 100);   /* -> worker */
	check_csd(m, 8, 8, 4, 9, 300, 120); /* worker -> work */
	check_csd(m, 9, 8, 5, 10, 7, 80);   /* worker -> other, thread 3 only */
	check_csd(m, 10, 4, 2, 11, 1, 90);
	if (m->n_csd >= 8) {
		CHECK_EQ(m->csd[7].callseqs, 16);
		CHECK_EQ(m->csd[8].callseqs, 7);
		CHECK_EQ(m->csd[8].allocs, 5);
		CHECK_EQ(m->csd[8].alloc_bytes, 160);
	}
	CHECK_EQ(m->root_pd, 1);
	CHECK_EQ(m->n_threads, 4);
	CHECK_EQ(m->threads[1].root_pd, 2);
	CHECK_EQ(m->threads[2].root_pd, 3);
	CHECK_EQ(m->threads[3].root_pd, 3);
	CHECK_EQ(m->threads[4].root_pd, 4);
	CHECK_EQ(m->threads[3].tid, 103);
	/* static tables unchanged, strings with the same ids */
	CHECK_EQ(m->n_ps, p->n_ps);
	CHECK_EQ(m->n_css, p->n_css);
	CHECK(m->ps != p->ps && m->css != p->css);
	for (uint32_t i = 1; i <= p->n_ps; i++) {
		CHECK_EQ(m->ps[i].kind, p->ps[i].kind);
		CHECK_STR(dp_profile_str(m, m->ps[i].name), dp_profile_str(p, p->ps[i].name));
	}
	for (uint32_t i = 1; i <= p->n_css; i++)
		CHECK_MEM(&m->css[i], &p->css[i], sizeof(p->css[i]));
	CHECK_EQ(m->strs.n, p->strs.n);
}

TEST(workers_merge)
{
	static const uint64_t cp9[] = {1, 2}, cp11[] = {10, 20};
	struct dp_profile p, m;
	struct dp_analysis *a, *b;

	CHECK_EQ(build(&p, &a_spec), 0);
	p.pd[9].n_cp = p.pd[11].n_cp = 2;
	p.pd[9].cp = (uint64_t *)(uintptr_t)cp9;
	p.pd[11].cp = (uint64_t *)(uintptr_t)cp11;
	if (merge(&p, &m) < 0)
		goto out_p;
	check_workers_merged(&p, &m);
	CHECK_EQ(m.pd[8].n_cp, 2);
	if (m.pd[8].cp) {
		CHECK_EQ(m.pd[8].cp[0], 11);
		CHECK_EQ(m.pd[8].cp[1], 22);
	}
	CHECK_EQ(m.pd[6].n_cp, 0);
	a = dp_mini_analyse(&p);
	b = dp_mini_analyse(&m);
	if (a && b) {
		CHECK_EQ(b->n_extra_entries, 0);
		CHECK_EQ(b->root_total.samples, a->root_total.samples);
		CHECK_EQ(b->root_total.samples,
			 1 + 2 + 3 + 4 + 10 + 20 + 30 + 40 + 50 + 60 + 70 + 80 + 90);
		CHECK_EQ(b->root_total.callseqs, a->root_total.callseqs);
		CHECK_EQ(b->ps_own[6].calls, 305);
		CHECK_EQ(b->ps_own[5].calls, 2);
		CHECK_EQ(b->ps_desc[5].samples, 50 + 70 + 80);
	}
	dp_analysis_free(a);
	dp_analysis_free(b);
	dp_profile_release(&m);
out_p:
	dp_profile_release(&p);
}

/*
 * Recursion inside workers: thread 1 has worker -> fib <-> even and fib -> fib; thread 2
 * has worker -> fib -> even -> leaf, no recursion. Merged: one clique {fib, even} with
 * one entry, leaf below it.
 */
static const uint32_t b_css_ps[] = {0, 1, 2, 3, 4, 5, 5, 4};
static const uint32_t b_css_kind[] = {0,
				      DP_CSS_THREAD,
				      DP_CSS_ENTRY,
				      DP_CSS_DIRECT,
				      DP_CSS_DIRECT,
				      DP_CSS_DIRECT,
				      DP_CSS_DIRECT,
				      DP_CSS_DIRECT};
static const uint32_t b_pd_ps[] = {0, 1, 2, 2, 3, 4, 5, 3, 4, 5, 6};
static const uint32_t b_pd_thr[] = {0, 0, 1, 2, 1, 1, 1, 2, 2, 2, 2};
static const uint32_t b_thr_root[] = {0, 2, 3};
static const struct m_csd b_csd[] = {
	{1, 1, 2, 1, 0, 0, 0, 0},   {1, 1, 3, 1, 0, 0, 0, 0},	 {2, 2, 4, 1, 1, 0, 0, 0},
	{4, 3, 5, 1, 2, 0, 0, 0},   {5, 4, 6, 3, 4, 0, 0, 0},	 {6, 5, 5, 2, 8, 0, 0, 0},
	{5, 7, 5, 4, 16, 0, 0, 0},  {3, 2, 7, 1, 32, 0, 0, 0},	 {7, 3, 8, 1, 64, 0, 0, 0},
	{8, 4, 9, 1, 128, 0, 0, 0}, {9, 6, 10, 5, 256, 0, 0, 0},
};
static const struct m_spec b_spec = {6,		 7,	  10,	    11,		2,    b_css_ps,
				     b_css_kind, b_pd_ps, b_pd_thr, b_thr_root, b_csd};

TEST(recursive_workers)
{
	struct dp_profile p, m;
	struct dp_analysis *a;

	CHECK_EQ(build(&p, &b_spec), 0);
	if (merge(&p, &m) < 0)
		goto out_p;
	CHECK_EQ(m.n_pd, 6);
	CHECK_EQ(m.n_csd, 7);
	check_csd(&m, 1, 1, 1, 2, 2, 0);
	check_csd(&m, 2, 2, 2, 3, 2, 33);
	check_csd(&m, 3, 3, 3, 4, 2, 66);
	check_csd(&m, 4, 4, 4, 5, 4, 132);
	check_csd(&m, 5, 5, 5, 4, 2, 8);   /* even -> fib, back arc */
	check_csd(&m, 6, 4, 7, 4, 4, 16);  /* fib -> fib */
	check_csd(&m, 7, 5, 6, 6, 5, 256); /* even -> leaf, thread 2 only */
	CHECK_EQ(m.pd[6].thread, 2);
	CHECK_EQ(m.pd[4].thread, 0);
	a = dp_mini_analyse(&m);
	if (a) {
		uint32_t c = a->pd_clique[4];

		CHECK_EQ(a->n_extra_entries, 0);
		CHECK_EQ(a->pd_clique[5], c);
		CHECK_EQ(dp_csr_count(&a->clique_pds, c), 2);
		CHECK_EQ(a->clique_entry[c], 3);
		CHECK_EQ(a->clique_total[c].samples, 66 + 8 + 16 + 132 + 256);
		CHECK_EQ(dp_analysis_csd_desc(a, 3).samples, 8 + 16 + 132 + 256);
		CHECK_EQ(a->root_total.samples, 511);
		CHECK_EQ(dp_analysis_pd_own(a, 4).calls, 8);
	}
	dp_analysis_free(a);
	dp_profile_release(&m);
out_p:
	dp_profile_release(&p);
}

/*
 * Not runtime-like: PD 2 calls f through CSS 2 twice (itself and PD 3), PD 3 calls PD 4
 * the same way, twice with the same callee PD. Everything folds into one PD calling
 * itself, calls summed.
 */
TEST(duplicate_sites_fold)
{
	static const uint32_t css_ps[] = {0, 1, 3}, css_kind[] = {0, DP_CSS_DIRECT, DP_CSS_DIRECT};
	static const uint32_t pd_ps[] = {0, 1, 3, 3, 3}, pd_thr[] = {0, 0, 1, 1, 1};
	static const struct m_csd c[] = {
		{1, 1, 2, 1, 1, 0, 0, 0}, {2, 2, 3, 2, 2, 0, 0, 0},   {3, 2, 4, 4, 4, 0, 0, 0},
		{2, 2, 2, 8, 8, 0, 0, 0}, {3, 2, 4, 16, 16, 0, 0, 0},
	};
	static const struct m_spec s = {3, 2, 4, 5, 0, css_ps, css_kind, pd_ps, pd_thr, NULL, c};
	struct dp_profile p, m;
	struct dp_analysis *a;

	CHECK_EQ(build(&p, &s), 0);
	if (merge(&p, &m) < 0)
		goto out_p;
	CHECK_EQ(m.n_pd, 2);
	CHECK_EQ(m.n_csd, 2);
	check_csd(&m, 1, 1, 1, 2, 1, 1);
	check_csd(&m, 2, 2, 2, 2, 30, 30);
	CHECK_EQ(m.pd[2].thread, 1);
	a = dp_mini_analyse(&m);
	if (a) {
		CHECK_EQ(a->n_extra_entries, 0);
		CHECK_EQ(a->root_total.samples, 31);
	}
	dp_analysis_free(a);
	dp_profile_release(&m);
out_p:
	dp_profile_release(&p);
}

TEST(bad_ids)
{
	struct dp_profile p, m;

	CHECK_EQ(build(&p, &b_spec), 0);
	p.csd[5].callee = 11;
	CHECK_EQ(dp_profile_merge_threads(&p, &m), -DP_EFORMAT);
	CHECK(strstr(dp_errmsg(), "CSD 5") != NULL);
	dp_profile_release(&m); /* harmless after a failure */
	p.csd[5].callee = 6;
	p.pd[3].ps = 0;
	CHECK_EQ(dp_profile_merge_threads(&p, &m), -DP_EFORMAT);
	p.pd[3].ps = 2;
	p.root_pd = 0;
	CHECK_EQ(dp_profile_merge_threads(&p, &m), -DP_EFORMAT);
	dp_profile_release(&p);
}

/* ------------------------------------------------------------------ properties --- */

static void check_costs_equal(const struct dp_costs *x, const struct dp_costs *y)
{
	CHECK_MEM(x, y, sizeof(*x));
}

/* No two CSDs of one PD share a CSS and a callee PS (for non-thread callees). */
static void check_canonical(const struct dp_profile *m, const struct dp_analysis *b)
{
	for (uint32_t pd = 1; pd <= m->n_pd; pd++) {
		const uint32_t *ids = dp_csr_items(&b->pd_csds, pd);
		uint32_t n = dp_csr_count(&b->pd_csds, pd);

		for (uint32_t i = 0; i < n; i++)
			for (uint32_t j = i + 1; j < n; j++) {
				const struct dp_csd *x = &m->csd[ids[i]], *y = &m->csd[ids[j]];

				CHECK(x->css != y->css ||
				      m->pd[x->callee].ps != m->pd[y->callee].ps ||
				      m->ps[m->pd[x->callee].ps].kind == DP_PS_THREAD);
			}
	}
}

/* The properties of one simulated profile @p merged into @m; returns merged roots. */
static uint32_t check_merged(const struct dp_profile *p, const struct dp_profile *m)
{
	struct dp_analysis *a = dp_mini_analyse(p), *b = dp_mini_analyse(m);
	struct dp_profile m2;
	uint32_t n_roots = 0;

	if (a && b) {
		CHECK_EQ(b->n_extra_entries, 0);
		CHECK_MEM(&a->root_total, &b->root_total, sizeof(a->root_total));
		for (uint32_t i = 1; i <= p->n_ps; i++)
			check_costs_equal(&a->ps_own[i], &b->ps_own[i]);
		for (uint32_t i = 1; i <= p->n_css; i++)
			check_costs_equal(&a->css_own[i], &b->css_own[i]);
		check_canonical(m, b);
	}
	for (uint32_t i = 1; i <= m->n_pd; i++)
		n_roots += m->ps[m->pd[i].ps].kind == DP_PS_THREAD;
	if (merge(m, &m2) == 0) {
		CHECK(same_nodes(m, &m2));
		dp_profile_release(&m2);
	}
	dp_analysis_free(a);
	dp_analysis_free(b);
	return n_roots;
}

TEST(simulated_pools)
{
	uint32_t max_pd = 0, min_ratio = 100;

	for (uint64_t seed = 1; seed <= 30; seed++) {
		uint32_t n_starts = 1 + (uint32_t)(seed % 3);
		struct dp_gen_sim g = {
			seed, 6 + (uint32_t)(seed * 7 % 40),   2 + (uint32_t)(seed % 6),
			4000, 10 + (uint32_t)(seed * 13 % 50), 55};
		struct dp_profile p, m;
		uint32_t want = n_starts < g.n_threads ? n_starts : g.n_threads;

		if (dp_gen_simulate_starts(&p, &g, n_starts) < 0) {
			CHECK(0);
			continue;
		}
		if (merge(&p, &m) == 0) {
			CHECK_EQ(check_merged(&p, &m), want);
			CHECK(m.n_pd <= p.n_pd);
			/* the root's CSDs: one per start function, calls = its threads */
			for (uint32_t i = 1, j = 0; i <= m.n_csd; i++)
				if (m.csd[i].caller == m.root_pd && ++j)
					CHECK_EQ(m.csd[i].calls, (g.n_threads - j + want) / want);
			max_pd = p.n_pd > max_pd ? p.n_pd : max_pd;
			if (100 * m.n_pd / p.n_pd < min_ratio)
				min_ratio = 100 * m.n_pd / p.n_pd;
			dp_profile_release(&m);
		}
		dp_profile_release(&p);
	}
	printf("pools: max %" PRIu32 " PDs before merging, smallest merged/unmerged %" PRIu32
	       "%%\n",
	       max_pd, min_ratio);
	CHECK(max_pd >= 1000);
	CHECK(min_ratio <= 60); /* merging really merged something */
}

/* One thread per start function (and graphs without threads): nothing to merge. */
TEST(identity)
{
	for (uint64_t seed = 1; seed <= 10; seed++) {
		struct dp_gen_sim g = {seed, 20, 1 + (uint32_t)(seed % 5), 3000, 30, 55};
		struct dp_profile p, m;

		if (dp_gen_simulate(&p, &g) < 0) {
			CHECK(0);
			continue;
		}
		if (merge(&p, &m) == 0) {
			CHECK(same_nodes(&p, &m));
			check_merged(&p, &m);
			dp_profile_release(&m);
		}
		dp_profile_release(&p);
		if (dp_gen_wild(&p, seed, 500, 300, (int)(seed % 2)) < 0) {
			CHECK(0);
			continue;
		}
		if (merge(&p, &m) == 0) {
			CHECK(same_nodes(&p, &m));
			dp_profile_release(&m);
		}
		dp_profile_release(&p);
	}
}

/* 40 threads on 3 start functions: the root makes more CSDs than the pairwise check
 * handles, so it goes through the table. */
TEST(many_threads)
{
	struct dp_gen_sim g = {11, 30, 40, 500, 20, 55};
	struct dp_profile p, m;

	if (dp_gen_simulate_starts(&p, &g, 3) < 0) {
		CHECK(0);
		return;
	}
	if (merge(&p, &m) == 0) {
		CHECK_EQ(check_merged(&p, &m), 3);
		for (uint32_t t = 1; t <= 40; t++)
			CHECK_EQ(m.threads[t].root_pd, m.threads[1 + (t - 1) % 3].root_pd);
		CHECK(m.threads[1].root_pd != m.threads[2].root_pd);
		dp_profile_release(&m);
	}
	dp_profile_release(&p);
}

/* Deep recursion over few functions, many threads per start function. */
TEST(simulated_deep_pool)
{
	struct dp_gen_sim g = {7, 4, 8, 20000, 3000, 70};
	struct dp_profile p, m;

	if (dp_gen_simulate_starts(&p, &g, 1) < 0) {
		CHECK(0);
		return;
	}
	if (merge(&p, &m) == 0) {
		CHECK_EQ(check_merged(&p, &m), 1);
		dp_profile_release(&m);
	}
	dp_profile_release(&p);
}

/*
 * Library leaves folded (dp_profile_fold_libs): main calls work, which recurses; PS 5 is a
 * library leaf under work (entered by CSD 3, then by its own recursive CSD 4) and under
 * main. Folded: the leaves' PDs and CSDs go, their samples join the CSD that entered each
 * caller (the lowest id: 3 for work, 2 for main), every total stays.
 */
static const uint32_t l_css_ps[] = {0, 1, 2, 3, 4, 3, 4};
static const uint32_t l_css_kind[] = {0,
				      DP_CSS_THREAD,
				      DP_CSS_ENTRY,
				      DP_CSS_DIRECT,
				      DP_CSS_LIBRARY,
				      DP_CSS_LIBRARY,
				      DP_CSS_DIRECT};
static const uint32_t l_pd_ps[] = {0, 1, 2, 3, 4, 5, 5};
static const uint32_t l_pd_thr[] = {0, 0, 1, 1, 1, 1, 1};
static const uint32_t l_thr_root[] = {0, 2};
static const struct m_csd l_csd[] = {
	{1, 1, 2, 1, 0, 0, 0, 0}, {2, 2, 3, 1, 10, 2, 1, 8}, {3, 3, 4, 2, 20, 5, 0, 0},
	{4, 6, 4, 5, 7, 0, 0, 0}, {4, 4, 5, 0, 30, 0, 0, 0}, {3, 5, 6, 0, 40, 0, 0, 0},
};
static const struct m_spec l_spec = {5,		 6,	  6,	    6,		1,    l_css_ps,
				     l_css_kind, l_pd_ps, l_pd_thr, l_thr_root, l_csd};

TEST(libs_fold)
{
	struct dp_profile p, f;
	struct dp_analysis *a = NULL, *b = NULL;
	int err = 0;

	CHECK_EQ(build(&p, &l_spec), 0);
	p.ps[5].kind = DP_PS_LIBRARY;
	p.ps[5].addr = 0x7f0000001000;
	CHECK_EQ(dp_profile_fold_libs(&p, &f), 0);
	CHECK_EQ(f.n_ps, 5);
	CHECK_EQ(f.n_css, 6);
	CHECK_EQ(f.n_pd, 4);
	CHECK_EQ(f.n_csd, 4);
	CHECK_EQ(f.root_pd, 1);
	CHECK_EQ(f.threads[1].root_pd, 2);
	check_csd(&f, 1, 1, 1, 2, 1, 0);
	check_csd(&f, 2, 2, 2, 3, 1, 10 + 40);
	check_csd(&f, 3, 3, 3, 4, 2, 20 + 30);
	check_csd(&f, 4, 4, 6, 4, 5, 7);
	CHECK_EQ(f.csd[2].callseqs, 2);
	a = dp_analysis_new(&p, &err);
	b = dp_analysis_new(&f, &err);
	CHECK(a && b);
	if (a && b) {
		CHECK_EQ(a->root_total.samples, 107);
		CHECK_EQ(b->root_total.samples, 107);
		CHECK_EQ(b->ps_own[4].samples, 57);
		CHECK_EQ(a->ps_own[4].samples, 27);
		CHECK_EQ(a->ps_own[5].samples, 70);
		CHECK_EQ(b->ps_own[5].samples, 0);
	}
	dp_analysis_free(a);
	dp_analysis_free(b);
	dp_profile_release(&f);
	/* no leaves: the same nodes */
	p.ps[5].kind = DP_PS_FUNCTION;
	CHECK_EQ(dp_profile_fold_libs(&p, &f), 0);
	CHECK(same_nodes(&p, &f));
	dp_profile_release(&f);
	dp_profile_release(&p);
}

DP_TEST_MAIN(test_workers_merge, test_recursive_workers, test_duplicate_sites_fold, test_bad_ids,
	     test_simulated_pools, test_identity, test_many_threads, test_simulated_deep_pool,
	     test_libs_fold)
