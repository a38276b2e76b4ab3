/*
 * tests/unit/test_report_flame_ix.c - the flame index's wide procedures (flame_index.h):
 * exactly the procedures with at least min_ctx contexts are indexed, each entry holds its
 * contexts and caller CSDs as the analysis has them and the first two levels of its
 * callers tree as counted here, and the callers' flame graphs and callers pages are the
 * same with and without the index: every metric, several minimums, depths below, at and
 * past the prefix's, and a node cap; every grouping, order and a second bunch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "report/flame_index.h"
#include "report/report_int.h"
#include "test_report_flame.h"

/* entry @e of procedure @ps holds its contexts, in the order of a->ps_pds */
static void check_entry(const struct tf_ctx *t, const struct dp_flame_proc *e, uint32_t ps)
{
	const uint32_t *pds = dp_csr_items(&t->a->ps_pds, ps);

	CHECK_EQ(e->ps, ps);
	CHECK_EQ(e->n, dp_csr_count(&t->a->ps_pds, ps));
	for (uint32_t i = 0; i < e->n; i++) {
		const struct dp_flame_ctx *x = &e->ctx[i];
		struct dp_costs own = dp_analysis_pd_own(t->a, pds[i]);

		CHECK(memcmp(&x->own, &own, sizeof(own)) == 0);
		CHECK(memcmp(&x->desc, &t->a->pd_desc[pds[i]], sizeof(x->desc)) == 0);
		CHECK_EQ(x->up.pd, t->a->pd_up[pds[i]].pd);
		CHECK_EQ(x->up.ps, t->a->pd_up[pds[i]].ps);
	}
}

/* the prefix node of @e under tree node @parent for procedure @ps: its index, or n_node */
static uint32_t pnode_of(const struct dp_flame_prefix *x, uint32_t parent, uint32_t ps)
{
	uint32_t i = 0;

	while (i < x->n_node && !(x->node[i].parent == parent && x->node[i].ps == ps))
		i++;
	return i;
}

/*
 * entry @e (contexts checked) holds the first two levels of the callers tree, counted
 * here context by context: a level-1 node per caller procedure (parent 1) and a level-2
 * node per pair of them, each with the contexts whose chain passes through it and the sum
 * of their own costs; a unit per level-2 node and PD reached, with its contexts; and
 * nothing else.
 */
static void check_prefix(const struct tf_ctx *t, const struct dp_flame_proc *e)
{
	const struct dp_flame_prefix *x = &e->pre;
	uint32_t *n = calloc(x->n_node + 1, sizeof(*n)), *un = calloc(x->n_unit + 1, sizeof(*un));
	uint64_t *samples = calloc(x->n_node + 1, sizeof(*samples));

	CHECK_EQ(x->levels, DP_FLAME_PRE_LEVELS);
	CHECK(n && un && samples);
	if (!n || !un || !samples)
		goto out;
	for (uint32_t k = 0; k < e->n; k++) {
		const struct dp_flame_ctx *c = &e->ctx[k];
		struct dp_pd_step s2;
		uint32_t i1, i2, u = 0;

		if (!c->up.pd)
			continue;
		i1 = pnode_of(x, 1, c->up.ps);
		CHECK(i1 < x->n_node1);
		n[i1]++;
		samples[i1] += c->own.samples;
		s2 = t->a->pd_up[c->up.pd];
		if (!s2.pd)
			continue;
		i2 = pnode_of(x, i1 + 2, s2.ps);
		CHECK(i2 >= x->n_node1 && i2 < x->n_node);
		n[i2]++;
		samples[i2] += c->own.samples;
		while (u < x->n_unit && !(x->unit[u].node == i2 + 2 && x->unit[u].cur == s2.pd))
			u++;
		CHECK(u < x->n_unit);
		un[u]++;
	}
	for (uint32_t i = 0; i < x->n_node; i++) {
		CHECK_EQ(x->node[i].n, n[i]);
		CHECK_EQ(x->node[i].own.samples, samples[i]);
		CHECK(i < x->n_node1 ? x->node[i].parent == 1 : x->node[i].parent >= 2);
	}
	for (uint32_t u = 0; u < x->n_unit; u++)
		CHECK_EQ(x->unit[u].n, un[u]);
out:
	free(n);
	free(un);
	free(samples);
}

/* entry @e of procedure @ps holds its caller CSDs, in the order of a->ps_callers */
static void check_callers(const struct tf_ctx *t, const struct dp_flame_proc *e, uint32_t ps)
{
	const uint32_t *ids = dp_csr_items(&t->a->ps_callers, ps);

	CHECK_EQ(e->n_callers, dp_csr_count(&t->a->ps_callers, ps));
	for (uint32_t i = 0; i < e->n_callers; i++) {
		const struct dp_flame_caller *x = &e->callers[i];
		const struct dp_csd *d = &t->p.csd[ids[i]];
		struct dp_costs own = dp_csd_costs(d);
		struct dp_inherit desc = dp_analysis_csd_desc(t->a, ids[i]);

		CHECK_EQ(x->css, d->css);
		CHECK_EQ(x->ps, t->p.css[d->css].ps);
		CHECK_EQ(x->clique, t->a->pd_clique[d->caller]);
		CHECK(memcmp(&e->caller_costs[i].own, &own, sizeof(own)) == 0);
		CHECK(memcmp(&e->caller_costs[i].desc, &desc, sizeof(desc)) == 0);
	}
}

/* every row of section "callers" and the facts of @a and @b the same */
static void same_callers(const struct dp_report *a, const struct dp_report *b)
{
	static const char *const facts[] = {"caller_csds", "self_csds", "groups"};

	same_rows(a, b, "callers");
	for (uint32_t f = 0; f < sizeof(facts) / sizeof(facts[0]); f++)
		CHECK_EQ(tf_fact(a, facts[f]), tf_fact(b, facts[f]));
}

/* The callers pages of the indexed procedures of @ix the same with and without it. */
static uint32_t callers_same(struct tf_ctx *t, const struct dp_report_index *ix)
{
	static const char *const groups[] = {"site", "proc", "module", "clique"};
	static const char *const sorts[] = {"", "&sort=name", "&sort=cost", "&sort=cost&bunch=2"};
	uint32_t n = 0;

	for (uint32_t w = 0; w < ix->n_procs && w < 3; w++)
		for (uint32_t g = 0; g < 4; g++)
			for (uint32_t o = 0; o < 4; o++) {
				struct dp_report *before, *after;
				char q[160];

				snprintf(q, sizeof(q), "page=callers&proc=%u&group=%s&size=3%s",
					 ix->procs[w].ps, groups[g], sorts[o]);
				before = tf_report(t, q, NULL, 1); /* bunch 2 may not exist */
				t->c.flame_ix = ix;
				after = tf_report(t, q, NULL, 1);
				t->c.flame_ix = NULL;
				CHECK((before == NULL) == (after == NULL));
				if (before && after) {
					same_callers(before, after);
					n++;
				}
				dp_report_free(before);
				dp_report_free(after);
			}
	return n;
}

TEST(flame_index_procs)
{
	static const char *const qs[] = {
		"page=flame_callers&min=0",
		"page=flame_callers",
		"page=flame_callers&metric=callseqs&min=0",
		"page=flame_callers&metric=bytes&min=2",
		"page=flame_callers&metric=calls&min=0.5",
		"page=flame_callers&metric=allocs&depth=3&min=0",
		"page=flame_callers&depth=2&min=0",
		"page=flame_callers&metric=callseqs&depth=5&min=1",
	};
	uint32_t n_indexed = 0, n_pages = 0, n_callers = 0;

	for (uint64_t seed = 31; seed < 35; seed++) {
		struct dp_report_index *ix = NULL;
		uint32_t most = 0, min_ctx, want = 0;
		struct tf_ctx t;

		tf_sim = mid_sim(seed);
		TF_OPEN(&t, tf_gen_sim);
		for (uint32_t k = 1; k <= t.p.n_ps; k++)
			if (dp_csr_count(&t.a->ps_pds, k) > most)
				most = dp_csr_count(&t.a->ps_pds, k);
		/* the procedures with at least a quarter of the most's contexts */
		min_ctx = most / 4 > 1 ? most / 4 : 2;
		CHECK_EQ(dp_report_index_build(&t.p, t.a,
					       &(struct dp_report_index_opts){0, min_ctx, 0}, &ix),
			 0);
		CHECK(ix != NULL);
		if (!ix) {
			tf_close(&t);
			continue;
		}
		for (uint32_t k = 1; k <= t.p.n_ps; k++) {
			const struct dp_flame_proc *e = dp_flame_index_proc(ix, k);

			if (dp_csr_count(&t.a->ps_pds, k) < min_ctx) {
				CHECK(e == NULL);
				continue;
			}
			want++;
			CHECK(e != NULL);
			if (e) {
				check_entry(&t, e, k);
				check_prefix(&t, e);
				check_callers(&t, e, k);
			}
		}
		CHECK_EQ(ix->n_procs, want);
		n_indexed += ix->n_procs;
		/* the pages of the first three indexed procedures, without and with the index,
		 * uncapped and under a cap of 7 nodes */
		for (uint32_t w = 0; w < ix->n_procs && w < 3; w++)
			for (uint32_t q = 0; q < sizeof(qs) / sizeof(qs[0]); q++)
				for (uint32_t cap = 0; cap <= 7; cap += 7) {
					struct dp_report *before, *after;

					t.c.flame_max_nodes = cap;
					before = tf_page(&t, "%s&proc=%u", qs[q], ix->procs[w].ps);
					t.c.flame_ix = ix;
					after = tf_page(&t, "%s&proc=%u", qs[q], ix->procs[w].ps);
					t.c.flame_ix = NULL;
					CHECK(before != NULL && after != NULL);
					if (before && after) {
						same_flame(before, after);
						CHECK_EQ(tf_fact(before, "capped"),
							 tf_fact(after, "capped"));
						n_pages++;
					}
					dp_report_free(before);
					dp_report_free(after);
				}
		t.c.flame_max_nodes = 0;
		n_callers += callers_same(&t, ix);
		dp_report_index_free(ix);
		tf_close(&t);
	}
	CHECK(n_indexed >= 4);
	CHECK(n_pages >= 4 * 8 * 2);
	CHECK(n_callers >= 4 * 16);
}

DP_TEST_MAIN(test_flame_index_procs)
