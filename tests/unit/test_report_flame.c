/*
 * tests/unit/test_report_flame.c - the flame and flame_callers pages: exact preorder rows
 * of the fixture, pruning by min (with the "(other)" rows) and depth, thread subtrees,
 * the calls metric (weighed by callseqs), the inverted tree through a clique's entry; and
 * properties on generated profiles (every reachable clique once, parents hold their children);
 * the flame index (flame_index.h) changes no row, fact or "(other)" sum; a page that would
 * keep more than DP_FLAME_MAX_NODES nodes keeps exactly the widest ones (brute force).
 */
#include "test_report_flame.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "harness.h"
#include "query/query.h"
#include "report/flame_index.h"
#include "report/report_int.h"
#include "test_analysis_gen.h"
#include "test_report_fix.h"

/* kinds, ids and depths of the rows of section "tree" */
static void tree_is(const struct dp_report *r, const uint32_t (*want)[3], uint32_t n)
{
	const struct dp_rep_section *s = tf_section(r, "tree");

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(s->n_rows, n);
	for (uint32_t i = 0; i < n && i < s->n_rows; i++) {
		CHECK_EQ(s->rows[i].kind, want[i][0]);
		CHECK_EQ(s->rows[i].id, want[i][1]);
		CHECK_EQ(s->rows[i].depth, want[i][2]);
	}
}

/*
 * metric=calls weighs nodes by their callseqs (calls are not inherited): for every min,
 * the same rows (kind, id, depth, n) and facts as metric=callseqs, the metric fact
 * excepted; and (@prunes) pruning does happen at the larger minimums.
 */
static void flame_calls_by_callseqs(struct tf_ctx *t, const char *base, bool prunes)
{
	static const char *const mins[] = {"0", "2", "3", "10", "50"};
	uint32_t n_at[5] = {0};

	for (unsigned i = 0; i < 5; i++) {
		char q1[128], q2[128];
		struct dp_report *a, *b;

		snprintf(q1, sizeof(q1), "%s&metric=calls&min=%s", base, mins[i]);
		snprintf(q2, sizeof(q2), "%s&metric=callseqs&min=%s", base, mins[i]);
		a = tf_report(t, q1, NULL, 0);
		b = tf_report(t, q2, NULL, 0);
		CHECK(a != NULL && b != NULL);
		if (a && b) {
			const struct dp_rep_section *sa = tf_section(a, "tree");
			const struct dp_rep_section *sb = tf_section(b, "tree");

			CHECK_EQ(sa->n_rows, sb->n_rows);
			for (uint32_t k = 0; k < sa->n_rows && k < sb->n_rows; k++) {
				CHECK_EQ(sa->rows[k].kind, sb->rows[k].kind);
				CHECK_EQ(sa->rows[k].id, sb->rows[k].id);
				CHECK_EQ(sa->rows[k].depth, sb->rows[k].depth);
				CHECK_EQ(sa->rows[k].n, sb->rows[k].n);
				CHECK_EQ(sa->rows[k].own.calls, sb->rows[k].own.calls);
			}
			CHECK_EQ(tf_fact(a, "kept"), tf_fact(b, "kept"));
			CHECK_EQ(tf_fact(a, "dropped"), tf_fact(b, "dropped"));
			n_at[i] = sa->n_rows;
		}
		dp_report_free(a);
		dp_report_free(b);
	}
	CHECK(!prunes || n_at[4] < n_at[0]);
}

TEST(flame_fixture)
{
	struct tf_ctx t;
	struct dp_report *r;

	TF_OPEN(&t, NULL);
	r = tf_report(&t, "page=flame&min=0", NULL, 0);
	CHECK(r != NULL);
	if (r) {
		const uint32_t want[][3] = {
			{DP_ENT_CLIQUE, t.a->root_clique, 0},
			{DP_ENT_CSD, 1, 1},
			{DP_ENT_CSD, 2, 2},
			{DP_ENT_CSD, 7, 3},  /* cb.c: cb1 */
			{DP_ENT_CSD, 8, 3},  /* cb.c: cb2 */
			{DP_ENT_CSD, 3, 3},  /* fib.c: fib */
			{DP_ENT_CSD, 9, 3},  /* mut.c: is_even */
			{DP_ENT_CSD, 12, 3}, /* util.c: cheap */
			{DP_ENT_CSD, 5, 3},  /* work.c: work */
			{DP_ENT_CSD, 6, 4},
		};
		const struct dp_rep_section *s = tf_section(r, "tree");

		tree_is(r, want, 10);
		CHECK_EQ(tf_fact(r, "kept"), 10);
		CHECK_EQ(tf_fact(r, "dropped"), 0);
		CHECK_EQ(s->rows[0].own.samples + s->rows[0].desc.samples, TF_TOTAL_SAMPLES);
		CHECK_EQ(s->rows[8].own.samples + s->rows[8].desc.samples, 41);
		CHECK_EQ(s->rows[5].clique, tf_clique_of(&t, 4));
		CHECK_EQ(r->subject.id, t.a->root_clique);
		dp_report_free(r);
	}
	tf_close(&t);
}

TEST(flame_pruning)
{
	struct tf_ctx t;
	struct dp_report *r;
	int rc;

	TF_OPEN(&t, NULL);
	/* 5% of 81: cb1 (3), cb2 (4) and cheap (1) gathered in "(other)" (8) */
	r = tf_report(&t, "page=flame&min=5", NULL, 0);
	CHECK(r != NULL);
	if (r) {
		const uint32_t want[][3] = {
			{DP_ENT_CLIQUE, t.a->root_clique, 0},
			{DP_ENT_CSD, 1, 1},
			{DP_ENT_CSD, 2, 2},
			{DP_ENT_CSD, 3, 3},
			{DP_ENT_CSD, 9, 3},
			{DP_ENT_CSD, 5, 3},
			{DP_ENT_CSD, 6, 4},
			{DP_ENT_NONE, 0, 3},
		};
		const struct dp_rep_row *o = &tf_section(r, "tree")->rows[7];

		tree_is(r, want, 8);
		CHECK_STR(o->name, "(other)");
		CHECK_EQ(o->flags, DP_ROW_SUM);
		CHECK_EQ(o->n, 3);
		CHECK_EQ(o->own.samples, 8);
		CHECK_EQ(o->own.calls, 6);
		CHECK_EQ(tf_fact(r, "kept"), 7);
		CHECK_EQ(tf_fact(r, "dropped"), 3);
		dp_report_free(r);
	}
	/* 10% (8.1): the dropped ones add up to 8, no "(other)" row */
	r = tf_report(&t, "page=flame&min=10", NULL, 0);
	if (r) {
		CHECK_EQ(tf_section(r, "tree")->n_rows, 7);
		CHECK_EQ(tf_fact(r, "dropped"), 3);
		dp_report_free(r);
	}
	r = tf_report(&t, "page=flame&min=0&depth=2", NULL, 0);
	if (r) {
		const uint32_t want[][3] = {{DP_ENT_CLIQUE, t.a->root_clique, 0},
					    {DP_ENT_CSD, 1, 1}};

		tree_is(r, want, 2);
		dp_report_free(r);
	}
	r = tf_report(&t, "page=flame&min=0&thread=1", NULL, 0);
	if (r) {
		const struct dp_rep_section *s = tf_section(r, "tree");

		CHECK_EQ(s->n_rows, 9);
		CHECK_EQ(s->rows[0].kind, DP_ENT_CLIQUE);
		CHECK_EQ(s->rows[0].id, tf_clique_of(&t, 2));
		CHECK_EQ(s->rows[1].id, 2);
		CHECK_EQ(s->rows[1].depth, 1);
		dp_report_free(r);
	}
	CHECK(tf_report(&t, "page=flame&thread=2", &rc, 1) == NULL);
	CHECK_EQ(rc, -DP_ENOENT);
	flame_calls_by_callseqs(&t, "page=flame", true);
	tf_close(&t);
}

TEST(flame_callers_fixture)
{
	struct tf_ctx t;
	struct dp_report *r;

	TF_OPEN(&t, NULL);
	r = tf_page(&t, "page=flame_callers&proc=%u&min=0", TF_CHEAP);
	CHECK(r != NULL);
	if (r) {
		static const uint32_t want[][3] = {
			{DP_ENT_PS, TF_CHEAP, 0},  {DP_ENT_PS, TF_MAIN, 1},
			{DP_ENT_PS, TF_THREAD, 2}, {DP_ENT_PS, TF_ROOT, 3},
			{DP_ENT_PS, TF_WORK, 1},   {DP_ENT_PS, TF_MAIN, 2},
			{DP_ENT_PS, TF_THREAD, 3}, {DP_ENT_PS, TF_ROOT, 4},
		};
		static const uint64_t samples[] = {41, 1, 1, 1, 40, 40, 40, 40};
		const struct dp_rep_section *s = tf_section(r, "tree");

		tree_is(r, want, 8);
		for (uint32_t i = 0; i < 8 && i < s->n_rows; i++)
			CHECK_EQ(s->rows[i].own.samples, samples[i]);
		CHECK_EQ(s->rows[1].flags, DP_ROW_SUM);
		CHECK_EQ(s->rows[1].n, 1);
		CHECK_EQ(r->subject.id, TF_CHEAP);
		dp_report_free(r);
	}
	r = tf_page(&t, "page=flame_callers&proc=%u&min=5", TF_CHEAP);
	if (r) {
		static const uint32_t want[][3] = {
			{DP_ENT_PS, TF_CHEAP, 0},  {DP_ENT_PS, TF_WORK, 1}, {DP_ENT_PS, TF_MAIN, 2},
			{DP_ENT_PS, TF_THREAD, 3}, {DP_ENT_PS, TF_ROOT, 4},
		};

		tree_is(r, want, 5);
		CHECK_EQ(tf_fact(r, "dropped"), 1);
		dp_report_free(r);
	}
	{
		char base[64];

		snprintf(base, sizeof(base), "page=flame_callers&proc=%u", TF_CHEAP);
		flame_calls_by_callseqs(&t, base, false);
	}
	r = tf_page(&t, "page=flame_callers&proc=%u&min=0&depth=2", TF_CHEAP);
	if (r) {
		static const uint32_t want[][3] = {
			{DP_ENT_PS, TF_CHEAP, 0}, {DP_ENT_PS, TF_MAIN, 1}, {DP_ENT_PS, TF_WORK, 1}};

		tree_is(r, want, 3);
		dp_report_free(r);
	}
	/* is_odd is not its clique's entry: its callers go through is_even */
	r = tf_report(&t, "page=flame_callers&name=is_odd&min=0", NULL, 0);
	CHECK(r != NULL);
	if (r) {
		static const uint32_t want[][3] = {
			{DP_ENT_PS, TF_ODD, 0},	   {DP_ENT_PS, TF_EVEN, 1}, {DP_ENT_PS, TF_MAIN, 2},
			{DP_ENT_PS, TF_THREAD, 3}, {DP_ENT_PS, TF_ROOT, 4},
		};

		tree_is(r, want, 5);
		dp_report_free(r);
	}
	/* fib: the recursive call is not a caller */
	r = tf_page(&t, "page=flame_callers&proc=%u&min=0", TF_FIB);
	if (r) {
		static const uint32_t want[][3] = {
			{DP_ENT_PS, TF_FIB, 0},
			{DP_ENT_PS, TF_MAIN, 1},
			{DP_ENT_PS, TF_THREAD, 2},
			{DP_ENT_PS, TF_ROOT, 3},
		};

		tree_is(r, want, 4);
		dp_report_free(r);
	}
	tf_close(&t);
}

/* the profiles of the property tests, seeds 21..24 */
static const struct dp_gen_sim sim = {
	.n_fn = 10, .n_threads = 3, .n_steps = 5000, .max_depth = 25, .pct_call = 55};

/* each row's total of samples >= the sum of its children's */
static void parents_hold_children(const struct dp_rep_section *s)
{
	for (uint32_t i = 0; i < s->n_rows; i++) {
		uint64_t sum = 0, self = s->rows[i].own.samples + s->rows[i].desc.samples;

		for (uint32_t j = i + 1; j < s->n_rows && s->rows[j].depth > s->rows[i].depth; j++)
			if (s->rows[j].depth == s->rows[i].depth + 1)
				sum += s->rows[j].own.samples + s->rows[j].desc.samples;
		CHECK(sum <= self);
	}
}

TEST(generated_properties)
{
	for (uint64_t seed = 21; seed < 25; seed++) {
		struct tf_ctx t;
		struct dp_report *r;

		tf_sim = sim;
		tf_sim.seed = seed;
		TF_OPEN(&t, tf_gen_sim);
		r = tf_report(&t, "page=flame&min=0", NULL, 0);
		if (r) {
			const struct dp_rep_section *s = tf_section(r, "tree");
			uint8_t *seen = calloc(t.a->n_cliques + 1, 1);

			/* every clique reachable from the root exactly once */
			CHECK_EQ(s->n_rows, t.a->root_clique);
			for (uint32_t i = 0; seen && i < s->n_rows; i++) {
				uint32_t k = s->rows[i].clique;

				CHECK(k >= 1 && k <= t.a->root_clique && !seen[k]);
				if (k >= 1 && k <= t.a->n_cliques)
					seen[k] = 1;
			}
			free(seen);
			parents_hold_children(s);
			CHECK_EQ(s->rows[0].own.samples + s->rows[0].desc.samples,
				 t.a->root_total.samples);
			dp_report_free(r);
		}
		for (uint32_t ps = 3; ps <= t.p.n_ps; ps++) {
			r = tf_page(&t, "page=flame_callers&proc=%u&min=0", ps);
			if (!r) {
				CHECK(0);
				break;
			}
			const struct dp_rep_section *s = tf_section(r, "tree");
			uint64_t n1 = 0, own1 = 0;

			for (uint32_t i = 1; i < s->n_rows; i++)
				if (s->rows[i].depth == 1) {
					n1 += s->rows[i].n;
					own1 += s->rows[i].own.samples;
				}
			/* every PD of a function has a caller: depth 1 holds them all */
			CHECK_EQ(n1, dp_csr_count(&t.a->ps_pds, ps));
			CHECK_EQ(own1, t.a->ps_own[ps].samples);
			CHECK_EQ(s->rows[0].own.samples, t.a->ps_own[ps].samples);
			parents_hold_children(s);
			dp_report_free(r);
		}
		tf_close(&t);
	}
}

static int u64_desc(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return (a < b) - (a > b);
}

/* The index's top of wide clique @e for top size @k, every slot: when the clique has more
 * than @k children and the @k-th largest value is not 0, the cut is that value and the top
 * lists exactly the children at least that wide, in increasing order; else none. */
static void check_top(const struct dp_flame_wide *e, uint32_t k)
{
	uint64_t *c = malloc((e->n_kids ? e->n_kids : 1) * sizeof(*c));

	for (uint32_t s = 0; c && s < 4; s++) {
		const uint64_t *v = e->val + (size_t)s * e->n_kids;
		uint64_t cut = 0;
		uint32_t n = 0;

		memcpy(c, v, e->n_kids * sizeof(*c));
		qsort(c, e->n_kids, sizeof(*c), u64_desc);
		if (e->n_kids > k)
			cut = c[k - 1];
		CHECK_EQ(e->cut[s], cut);
		if (cut == 0) {
			CHECK_EQ(e->n_top[s], 0);
			continue;
		}
		for (uint32_t i = 0; i < e->n_kids; i++) {
			if (v[i] < cut)
				continue;
			CHECK(n < e->n_top[s] && e->top[s][n] == i);
			n++;
		}
		CHECK_EQ(n, e->n_top[s]);
		CHECK(n >= k);
	}
	free(c);
}

/* The flame index: the same reports with and without it, every metric and several
 * minimums (most children dropped into "(other)" rows), and the index's entries hold
 * their children's sums. */
TEST(flame_index_same_rows)
{
	static const char *const qs[] = {
		"page=flame&min=0",
		"page=flame&min=1",
		"page=flame&min=3",
		"page=flame&min=20",
		"page=flame&metric=calls&min=2",
		"page=flame&metric=allocs&min=2",
		"page=flame&metric=bytes&min=5",
		"page=flame&metric=callseqs&min=0.5",
		"page=flame&min=1&depth=3",
		"page=flame&min=2&thread=2",
	};
	const uint32_t nq = sizeof(qs) / sizeof(qs[0]);
	uint32_t n_top = 0;

	for (uint64_t seed = 31; seed < 34; seed++) {
		struct dp_report *before[sizeof(qs) / sizeof(qs[0])];
		struct dp_report_index *ix = NULL;
		uint32_t n_other = 0;
		struct tf_ctx t;

		tf_sim = mid_sim(seed);
		TF_OPEN(&t, tf_gen_sim);
		for (uint32_t i = 0; i < nq; i++)
			before[i] = tf_report(&t, qs[i], NULL, 0);
		/* a top of 5: the pages' minimums are above its cut or not */
		CHECK_EQ(dp_report_index_build(&t.p, t.a, &(struct dp_report_index_opts){1, 0, 5},
					       &ix),
			 0);
		CHECK(ix != NULL);
		t.c.flame_ix = ix;
		for (uint32_t w = 0; ix && w < ix->n_wide; w++) {
			const struct dp_flame_wide *e = &ix->wide[w];
			const uint32_t *ids = dp_csr_items(&t.a->clique_kids, e->clique);
			uint64_t own = 0, tot = 0;

			CHECK(dp_flame_index_wide(ix, e->clique) == e);
			CHECK_EQ(e->n_kids, dp_csr_count(&t.a->clique_kids, e->clique));
			for (uint32_t i = 0; i < e->n_kids; i++) {
				own += t.p.csd[ids[i]].calls;
				tot += e->val[i];
			}
			CHECK_EQ(own, e->own.calls);
			CHECK_EQ(tot, e->own.samples + e->desc.samples);
			check_top(e, 5);
			n_top += (e->n_top[0] | e->n_top[1] | e->n_top[2] | e->n_top[3]) > 0;
		}
		CHECK(ix && ix->n_wide > 0);
		for (uint32_t i = 0; i < nq; i++) {
			struct dp_report *r = tf_report(&t, qs[i], NULL, 0);

			CHECK(r != NULL && before[i] != NULL);
			if (r && before[i]) {
				const struct dp_rep_section *s = tf_section(r, "tree");

				same_flame(before[i], r);
				for (uint32_t k = 0; k < s->n_rows; k++)
					n_other += s->rows[k].kind == DP_ENT_NONE;
			}
			dp_report_free(r);
			dp_report_free(before[i]);
		}
		CHECK(n_other > 0); /* the "(other)" rows were exercised */
		t.c.flame_ix = NULL;
		dp_report_index_free(ix);
		tf_close(&t);
	}
	CHECK(n_top > 0); /* and the tops */
}

/* Every flame node below the root clique (all depths, no pruning), by brute force over
 * the clique tree with an explicit stack: their callseqs totals into *@vals. */
static uint32_t all_node_values(const struct tf_ctx *t, uint64_t **vals)
{
	const struct dp_analysis *a = t->a;
	uint32_t *stack = malloc((a->n_cliques + 1) * sizeof(*stack)), n_stack = 0, n = 0;

	*vals = malloc((t->p.n_csd + 1) * sizeof(**vals));
	if (!stack || !*vals) {
		free(stack);
		return 0;
	}
	stack[n_stack++] = a->root_clique;
	while (n_stack) {
		uint32_t k = stack[--n_stack];
		const uint32_t *ids = dp_csr_items(&a->clique_kids, k);

		for (uint32_t i = 0; i < dp_csr_count(&a->clique_kids, k); i++) {
			struct dp_inherit d = dp_analysis_csd_desc(a, ids[i]);

			(*vals)[n++] = t->p.csd[ids[i]].callseqs + d.callseqs;
			stack[n_stack++] = a->csd_child_clique[ids[i]];
		}
	}
	free(stack);
	return n;
}

/* check_cap - page=flame&metric=callseqs&min=0 of @t with node cap @cap and flame index
 * @ix (or none), against the brute force: @vals, the @n values of every node below the
 * root clique, sorted from the largest. At most the cap, exactly the nodes of the largest
 * values (ties all kept or all dropped), and the facts say so. */
static void check_cap(struct tf_ctx *t, const uint64_t *vals, uint32_t n, uint32_t cap,
		      const struct dp_report_index *ix)
{
	/* the root plus the widest cap - 1 nodes, less a tie at the edge */
	uint64_t thr = vals[cap - 2 + (cap < 2)];
	uint32_t want = 1;
	struct dp_report *r;

	if (cap >= 2 && vals[cap - 1] == thr)
		thr++;
	for (uint32_t i = 0; i < n; i++)
		want += vals[i] >= thr;
	t->c.flame_max_nodes = cap;
	t->c.flame_ix = ix;
	r = tf_report(t, "page=flame&metric=callseqs&min=0", NULL, 0);
	CHECK(r != NULL);
	if (r) {
		const struct dp_rep_section *s = tf_section(r, "tree");

		CHECK_EQ(tf_fact(r, "capped"), cap);
		CHECK_EQ(tf_fact(r, "kept"), want);
		CHECK(want <= cap);
		for (uint32_t k = 1; s && k < s->n_rows; k++)
			if (s->rows[k].kind != DP_ENT_NONE)
				CHECK(s->rows[k].own.callseqs + s->rows[k].desc.callseqs >= thr);
	}
	dp_report_free(r);
	t->c.flame_ix = NULL;
}

/* min=0 on profiles of many more contexts than the cap (lowered here to a few dozen,
 * as a front end may): check_cap() for several caps, without a flame index and with one
 * of every clique (whose search skips the children of a wide clique below its cap-th
 * widest); under the cap, no "capped" fact. */
TEST(flame_node_cap)
{
	static const uint32_t caps[] = {2, 7, 12, 40, 70};
	uint32_t n_big = 0;

	for (uint64_t seed = 31; seed < 47; seed++) {
		struct dp_report_index *ix = NULL;
		struct tf_ctx t;
		uint64_t *vals = NULL;
		uint32_t n;

		/* seeds 41-46: flat and wide (hundreds of short threads, whose roots are the
		 * root clique's children): many children of equal value around every cap */
		tf_sim = mid_sim(seed);
		if (seed >= 41)
			tf_sim = (struct dp_gen_sim){.seed = seed,
						     .n_fn = 40,
						     .n_threads = 150 + 20 * (uint32_t)(seed % 3),
						     .n_steps = 30,
						     .max_depth = 5,
						     .pct_call = 60};
		TF_OPEN(&t, tf_gen_sim);
		/* a top of 12: caps below it (the cut from the top), at it, and above it */
		CHECK_EQ(dp_report_index_build(&t.p, t.a, &(struct dp_report_index_opts){1, 0, 12},
					       &ix),
			 0);
		n = all_node_values(&t, &vals);
		n_big += n > 2 * 70;
		qsort(vals, n, sizeof(*vals), u64_desc);
		for (uint32_t c = 0; c < sizeof(caps) / sizeof(caps[0]) && n > 2 * 70; c++) {
			check_cap(&t, vals, n, caps[c], NULL);
			check_cap(&t, vals, n, caps[c], ix);
		}
		/* every cap on the flat profiles, with a top of the cap (its cut is the
		 * bound) and of a few more (the cut comes from the top's values) */
		for (uint32_t cap = 2; seed >= 41 && cap <= 70 && n > 2 * 70; cap++) {
			for (uint32_t extra = 0; extra <= 3; extra += 3) {
				struct dp_report_index *cx = NULL;

				CHECK_EQ(dp_report_index_build(
						 &t.p, t.a,
						 &(struct dp_report_index_opts){1, 0, cap + extra},
						 &cx),
					 0);
				check_cap(&t, vals, n, cap, cx);
				dp_report_index_free(cx);
			}
		}
		/* a cap of exactly the nodes a minimum keeps: not capped, same page, although
		 * the walk's early count (its stack holds "(other)" rows) may overshoot */
		for (int with_ix = 0; with_ix < 2 && n > 2 * 70; with_ix++) {
			struct dp_report *free_r, *r;

			t.c.flame_ix = with_ix ? ix : NULL;
			t.c.flame_max_nodes = n + 1;
			free_r = tf_report(&t, "page=flame&metric=callseqs&min=1", NULL, 0);
			CHECK(free_r != NULL);
			if (!free_r)
				continue;
			t.c.flame_max_nodes = (uint32_t)tf_fact(free_r, "kept");
			r = tf_report(&t, "page=flame&metric=callseqs&min=1", NULL, 0);
			CHECK(r != NULL && tf_fact(r, "capped") == UINT64_MAX);
			if (r)
				same_flame(free_r, r);
			dp_report_free(r);
			dp_report_free(free_r);
		}
		t.c.flame_ix = NULL;
		t.c.flame_max_nodes = n + 1; /* everything fits: the page is not capped */
		{
			struct dp_report *r =
				tf_report(&t, "page=flame&metric=callseqs&min=0", NULL, 0);

			CHECK(r != NULL && tf_fact(r, "capped") == UINT64_MAX);
			CHECK(r != NULL && tf_fact(r, "kept") == n + 1);
			dp_report_free(r);
		}
		free(vals);
		dp_report_index_free(ix);
		tf_close(&t);
	}
	CHECK(n_big >= 3); /* profiles much bigger than the largest cap were tried */
}

/* The callseqs total of row @w (the value the flame pages weigh nodes by). */
static uint64_t row_value(const struct dp_rep_row *w)
{
	return w->own.callseqs + w->desc.callseqs;
}

/*
 * flame_callers under the node cap: the callers tree stops climbing below a bound of the
 * threshold, so the capped page must equal the uncapped one cut at the threshold (the
 * widest cap nodes, ties all kept or all dropped): the same rows in the same order, the
 * "(other)" rows aside. For the procedure of each generated profile with the most
 * contexts, and every cap from 2 to 60.
 */
TEST(flame_callers_node_cap)
{
	uint32_t n_checked = 0;

	for (uint64_t seed = 31; seed < 37; seed++) {
		struct dp_report *full;
		struct tf_ctx t;
		uint32_t ps = 0, most = 0, n = 0;
		const struct dp_rep_section *fs;
		uint64_t *vals;

		tf_sim = mid_sim(seed);
		TF_OPEN(&t, tf_gen_sim);
		for (uint32_t k = 3; k <= t.p.n_ps; k++)
			if (dp_csr_count(&t.a->ps_pds, k) > most) {
				most = dp_csr_count(&t.a->ps_pds, k);
				ps = k;
			}
		t.c.flame_max_nodes = UINT32_MAX; /* everything */
		full = tf_page(&t, "page=flame_callers&metric=callseqs&min=0&proc=%u", ps);
		CHECK(full != NULL && tf_fact(full, "capped") == UINT64_MAX);
		fs = full ? tf_section(full, "tree") : NULL;
		vals = malloc(((fs ? fs->n_rows : 0) + 1) * sizeof(*vals));
		for (uint32_t k = 1; fs && vals && k < fs->n_rows; k++)
			if (fs->rows[k].kind != DP_ENT_NONE)
				vals[n++] = row_value(&fs->rows[k]);
		if (vals)
			qsort(vals, n, sizeof(*vals), u64_desc);
		for (uint32_t cap = 2; vals && cap <= 60 && cap < n; cap++) {
			uint64_t thr = vals[cap - 2];
			struct dp_report *r;
			const struct dp_rep_section *s;
			uint32_t j = 0;

			if (vals[cap - 1] == thr)
				thr++;
			t.c.flame_max_nodes = cap;
			r = tf_page(&t, "page=flame_callers&metric=callseqs&min=0&proc=%u", ps);
			CHECK(r != NULL);
			if (!r)
				continue;
			s = tf_section(r, "tree");
			CHECK_EQ(tf_fact(r, "capped"), cap);
			for (uint32_t k = 0; k < fs->n_rows; k++) { /* the full page cut at thr */
				const struct dp_rep_row *w = &fs->rows[k];

				if (w->kind == DP_ENT_NONE || (k && row_value(w) < thr))
					continue;
				while (j < s->n_rows && s->rows[j].kind == DP_ENT_NONE)
					j++;
				CHECK(j < s->n_rows);
				if (j >= s->n_rows)
					break;
				CHECK_EQ(s->rows[j].id, w->id);
				CHECK_EQ(s->rows[j].depth, w->depth);
				CHECK_EQ(row_value(&s->rows[j]), row_value(w));
				j++;
			}
			while (j < s->n_rows && s->rows[j].kind == DP_ENT_NONE)
				j++;
			CHECK_EQ(j, s->n_rows);
			n_checked++;
			dp_report_free(r);
		}
		free(vals);
		dp_report_free(full);
		tf_close(&t);
	}
	CHECK(n_checked > 100);
}

/* A node of the brute-force callers tree: its path of procedures (ps[0] = depth 1), and
 * the sums over the PDs whose chain of callers starts with it. */
struct bf_node {
	uint32_t ps[32], depth, n;
	struct dp_costs own;
	struct dp_inherit desc;
};

/* bf_add - add the costs of one PD to the node of path @ps[0 .. @depth) (made if new) */
static void bf_add(struct bf_node *t, uint32_t *n_t, const uint32_t *ps, uint32_t depth,
		   const struct dp_costs *own, const struct dp_inherit *desc)
{
	uint32_t i;

	for (i = 0; i < *n_t; i++)
		if (t[i].depth == depth && !memcmp(t[i].ps, ps, depth * sizeof(*ps)))
			break;
	if (i == *n_t) {
		memset(&t[i], 0, sizeof(t[i]));
		memcpy(t[i].ps, ps, depth * sizeof(*ps));
		t[i].depth = depth;
		(*n_t)++;
	}
	t[i].n++;
	dp_costs_add(&t[i].own, own);
	dp_inherit_add(&t[i].desc, desc);
}

/*
 * flame_callers' rows against a brute force: each PD of the procedure climbs its whole
 * chain of callers (a->pd_up) and adds its own and desc costs to every prefix of its
 * path of procedures. Every row of the uncapped page (min=0) must be the node of its
 * path, with the same n, own and desc, and every node must have a row. For every
 * procedure of four generated profiles (recursion folds into cliques, so chains cross
 * clique entries), with and without a depth limit.
 */
TEST(flame_callers_brute_force)
{
	uint32_t n_rows = 0;

	for (uint64_t seed = 41; seed < 45; seed++) {
		struct tf_ctx t;

		tf_sim = mid_sim(seed);
		TF_OPEN(&t, tf_gen_sim);
		t.c.flame_max_nodes = UINT32_MAX;
		for (uint32_t ps = 3; ps <= t.p.n_ps; ps++)
			for (uint32_t limit = 0; limit <= 4; limit += 4) {
				uint32_t np = dp_csr_count(&t.a->ps_pds, ps), n_t = 0, path[32];
				const uint32_t *pds = dp_csr_items(&t.a->ps_pds, ps);
				struct bf_node *bt = calloc((size_t)np * 32 + 1, sizeof(*bt));
				const struct dp_rep_section *s;
				struct dp_report *r;
				uint32_t seen = 0;

				CHECK(bt != NULL);
				if (!bt || !np) {
					free(bt);
					continue;
				}
				for (uint32_t i = 0; i < np; i++) {
					struct dp_costs own = dp_analysis_pd_own(t.a, pds[i]);
					uint32_t d = 0;

					for (uint32_t x = t.a->pd_up[pds[i]].pd;
					     x && d < 32 && (limit == 0 || d + 1 < limit);
					     x = t.a->pd_up[x].pd) {
						path[d++] = t.p.pd[x].ps;
						bf_add(bt, &n_t, path, d, &own,
						       &t.a->pd_desc[pds[i]]);
					}
				}
				r = tf_page(&t, "page=flame_callers&min=0&depth=%u&proc=%u", limit,
					    ps);
				CHECK(r != NULL);
				s = r ? tf_section(r, "tree") : NULL;
				for (uint32_t k = 1; s && k < s->n_rows; k++) {
					const struct dp_rep_row *w = &s->rows[k];
					uint32_t i;

					CHECK(w->depth >= 1 && w->depth <= 32);
					if (w->depth < 1 || w->depth > 32)
						break;
					path[w->depth - 1] = w->id;
					for (i = 0; i < n_t; i++)
						if (bt[i].depth == w->depth &&
						    !memcmp(bt[i].ps, path,
							    w->depth * sizeof(*path)))
							break;
					CHECK(i < n_t);
					if (i == n_t)
						continue;
					CHECK_EQ(w->n, bt[i].n);
					CHECK(!memcmp(&w->own, &bt[i].own, sizeof(w->own)));
					CHECK(!memcmp(&w->desc, &bt[i].desc, sizeof(w->desc)));
					seen++;
				}
				CHECK_EQ(seen, n_t);
				n_rows += seen;
				dp_report_free(r);
				free(bt);
			}
		tf_close(&t);
	}
	CHECK(n_rows > 1000);
}

DP_TEST_MAIN(test_flame_fixture, test_flame_pruning, test_flame_callers_fixture,
	     test_generated_properties, test_flame_index_same_rows, test_flame_node_cap,
	     test_flame_callers_node_cap, test_flame_callers_brute_force)
