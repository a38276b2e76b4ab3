/*
 * tests/unit/test_report_clique.c - the clique, root and action pages: exact rows of the
 * fixture (ancestors, procedures, call sites: direct, recursive, indirect with two
 * callees, never used; mutual recursion), the ancestor limit, summarise, action's
 * descent, errors; and properties of every clique page of generated profiles.
 */
#include <stdlib.h>

#include "core/err.h"
#include "harness.h"
#include "query/query.h"
#include "report/report_int.h"
#include "test_analysis_gen.h"
#include "test_report_fix.h"

/* check_row - kind, id, depth, flags and samples of row @i of @s */
#define ROW(s, i, k, i_d, dep, fl, own_s, desc_s)             \
	do {                                                  \
		const struct dp_rep_row *rw_ = &(s)->rows[i]; \
		CHECK_EQ(rw_->kind, k);                       \
		CHECK_EQ(rw_->id, i_d);                       \
		CHECK_EQ(rw_->depth, dep);                    \
		CHECK_EQ(rw_->flags, fl);                     \
		CHECK_EQ(rw_->own.samples, own_s);            \
		CHECK_EQ(rw_->desc.samples, desc_s);          \
	} while (0)

TEST(clique_of_main)
{
	struct tf_ctx t;
	struct dp_report *r;
	const struct dp_rep_section *s;

	if (tf_open(&t, NULL) < 0 ||
	    !(r = tf_page(&t, "page=clique&id=%u&sort=source", tf_clique_of(&t, 3)))) {
		CHECK(0);
		return;
	}
	CHECK(strncmp(r->title, "Clique ", 7) == 0 && strstr(r->title, ": main") != NULL);
	CHECK(r->has_subject);
	CHECK_EQ(r->subject.kind, DP_ENT_CLIQUE);
	CHECK_EQ(r->subject.own.samples, 2);
	CHECK_EQ(r->subject.desc.samples, TF_TOTAL_SAMPLES - 2);
	CHECK_EQ(r->root_total.samples, TF_TOTAL_SAMPLES);
	s = tf_section(r, "ancestors");
	CHECK(s != NULL);
	if (s) {
		CHECK_EQ(s->n_rows, 2);
		ROW(s, 0, DP_ENT_CSD, 2, 0, 0, 2, TF_TOTAL_SAMPLES - 2);
		CHECK_STR(s->rows[0].name, "main (thread 1) -> main");
		CHECK_EQ(s->rows[0].clique, tf_clique_of(&t, 2));
		CHECK_EQ(s->rows[0].ps, TF_MAIN);
		ROW(s, 1, DP_ENT_CSD, 1, 0, DP_ROW_THREAD, 0, TF_TOTAL_SAMPLES);
		CHECK_STR(s->rows[1].name, "<program> -> main (thread 1)");
		CHECK_EQ(s->rows[1].clique, t.a->root_clique);
	}
	s = tf_section(r, "procs");
	CHECK(s != NULL);
	if (s && s->n_rows == 8) {
		ROW(s, 0, DP_ENT_PS, TF_MAIN, 0, 0, 2, TF_TOTAL_SAMPLES - 2);
		CHECK_EQ(s->rows[0].clique, tf_clique_of(&t, 3));
		ROW(s, 1, DP_ENT_CSD, 3, 1, 0, 5, 15);
		CHECK_STR(s->rows[1].name, "fib.c: fib");
		CHECK_EQ(s->rows[1].line, 11);
		ROW(s, 2, DP_ENT_CSD, 5, 1, 0, 1, 40);
		ROW(s, 3, DP_ENT_CSS, 5, 1, DP_ROW_MULTI | DP_ROW_SUM, 7, 0);
		CHECK_EQ(s->rows[3].n, 2);
		CHECK_EQ(s->rows[3].own.calls, 5);
		CHECK_STR(s->rows[3].name, "(indirect)");
		ROW(s, 4, DP_ENT_CSD, 7, 2, 0, 3, 0);
		CHECK_STR(s->rows[4].name, "cb.c: cb1");
		ROW(s, 5, DP_ENT_CSD, 8, 2, 0, 4, 0);
		ROW(s, 6, DP_ENT_CSD, 9, 1, 0, 1, 9);
		ROW(s, 7, DP_ENT_CSD, 12, 1, 0, 1, 0);
		CHECK_EQ(s->rows[7].clique, tf_clique_of(&t, 11));
	} else {
		CHECK(0);
	}
	CHECK_EQ(tf_fact(r, "pds"), 1);
	CHECK_EQ(tf_fact(r, "procs"), 1);
	CHECK_EQ(r->n_links, 3);
	if (r->n_links == 3) {
		CHECK_EQ(r->links[0].q->page, DP_PAGE_PROC);
		CHECK_EQ(r->links[0].q->id, TF_MAIN);
		CHECK_EQ(r->links[1].q->page, DP_PAGE_CLIQUE);
		CHECK_EQ(r->links[1].q->id, tf_clique_of(&t, 2));
		CHECK_EQ(r->links[2].q->page, DP_PAGE_FLAME);
	}
	dp_report_free(r);
	tf_close(&t);
}

TEST(clique_prefs)
{
	struct tf_ctx t;
	struct dp_report *r;
	const struct dp_rep_section *s;

	TF_OPEN(&t, NULL);
	/* summarise: the indirect site's callees are not listed; one ancestor only */
	r = tf_page(&t, "page=clique&id=%u&sum=1&anc=1&sort=source", tf_clique_of(&t, 3));
	CHECK(r != NULL);
	if (r) {
		s = tf_section(r, "procs");
		CHECK_EQ(s->n_rows, 6);
		ROW(s, 3, DP_ENT_CSS, 5, 1, DP_ROW_MULTI | DP_ROW_SUM, 7, 0);
		ROW(s, 4, DP_ENT_CSD, 9, 1, 0, 1, 9);
		CHECK_EQ(tf_section(r, "ancestors")->n_rows, 1);
		dp_report_free(r);
	}
	/* sort by cost: work (41), fib (20), is_even (10), the indirect site (7), cheap (1),
	 * and the indirect site's callees cb2 (4) before cb1 (3) */
	r = tf_page(&t, "page=clique&id=%u&sort=cost", tf_clique_of(&t, 3));
	CHECK(r != NULL);
	if (r) {
		static const uint32_t ids[] = {TF_MAIN, 5, 3, 9, 5, 8, 7, 12};

		s = tf_section(r, "procs");
		for (uint32_t i = 0; i < 8 && i < s->n_rows; i++)
			CHECK_EQ(s->rows[i].id, ids[i]);
		dp_report_free(r);
	}
	tf_close(&t);
}

TEST(clique_recursion)
{
	struct tf_ctx t;
	struct dp_report *r;
	const struct dp_rep_section *s;

	TF_OPEN(&t, NULL);
	/* fib: the recursive call, and the site that made no call in this context */
	r = tf_page(&t, "page=clique&id=%u&sort=source", tf_clique_of(&t, 4));
	if (r) {
		CHECK_EQ(r->subject.own.samples, 20);
		CHECK_EQ(r->subject.own.calls, 21);
		CHECK_EQ(r->subject.desc.samples, 0);
		s = tf_section(r, "procs");
		CHECK_EQ(s->n_rows, 3);
		ROW(s, 0, DP_ENT_PS, TF_FIB, 0, 0, 20, 0);
		ROW(s, 1, DP_ENT_CSD, 4, 1, DP_ROW_RECURSIVE, 15, 0);
		CHECK_EQ(s->rows[1].clique, tf_clique_of(&t, 4));
		ROW(s, 2, DP_ENT_CSS, 12, 1, DP_ROW_INACTIVE, 0, 0);
		CHECK_STR(s->rows[2].name, "util.c: cheap");
		CHECK_EQ(s->rows[2].ps, TF_CHEAP);
		dp_report_free(r);
	}
	/* is_even <-> is_odd: one clique, no double counting */
	r = tf_page(&t, "page=clique&id=%u&anc=all&sort=source", tf_clique_of(&t, 9));
	CHECK(r != NULL);
	if (r) {
		CHECK_EQ(tf_clique_of(&t, 9), tf_clique_of(&t, 10));
		CHECK_EQ(r->subject.own.samples, 5);
		CHECK_EQ(r->subject.desc.samples, 5);
		s = tf_section(r, "procs");
		CHECK_EQ(s->n_rows, 4);
		/* a member's total is the recursion's (5 + 5), though nothing leaves it */
		ROW(s, 0, DP_ENT_PS, TF_EVEN, 0, 0, 5, 5);
		ROW(s, 1, DP_ENT_CSD, 10, 1, DP_ROW_RECURSIVE, 5, 0);
		CHECK_STR(s->rows[1].name, "is_odd");
		ROW(s, 2, DP_ENT_PS, TF_ODD, 0, 0, 5, 5);
		ROW(s, 3, DP_ENT_CSD, 11, 1, DP_ROW_RECURSIVE, 4, 0);
		CHECK_EQ(tf_fact(r, "pds"), 2);
		CHECK_EQ(tf_fact(r, "procs"), 2);
		s = tf_section(r, "ancestors");
		CHECK_EQ(s->n_rows, 3);
		CHECK_STR(s->rows[0].name, "main -> mut.c: is_even");
		CHECK_EQ(s->rows[0].own.samples + s->rows[0].desc.samples, 10);
		dp_report_free(r);
	}
	tf_close(&t);
}

TEST(root_action_errors)
{
	struct tf_ctx t;
	struct dp_report *r;
	const struct dp_rep_section *s;
	struct dp_query q;
	int rc;

	TF_OPEN(&t, NULL);
	r = tf_report(&t, "page=root&sort=source", NULL, 0);
	CHECK(r != NULL);
	if (r) {
		CHECK_EQ(r->subject.id, t.a->root_clique);
		CHECK_STR(r->subject.name, "<program>");
		CHECK_EQ(r->subject.own.samples + r->subject.desc.samples, TF_TOTAL_SAMPLES);
		CHECK_EQ(tf_section(r, "ancestors")->n_rows, 0);
		s = tf_section(r, "procs");
		CHECK_EQ(s->n_rows, 2);
		ROW(s, 1, DP_ENT_CSD, 1, 1, DP_ROW_THREAD, 0, TF_TOTAL_SAMPLES);
		dp_report_free(r);
	}
	/* 50%: root -> thread -> main -> work (41 of 81); cheap (40) is below */
	r = tf_report(&t, "page=action&percent=50&sort=source", NULL, 0);
	CHECK(r != NULL);
	if (r) {
		s = tf_section(r, "path");
		CHECK_EQ(s->n_rows, 3);
		if (s->n_rows == 3) {
			CHECK_EQ(s->rows[0].id, 1);
			CHECK_EQ(s->rows[1].id, 2);
			CHECK_EQ(s->rows[2].id, 5);
		}
		CHECK_EQ(r->subject.id, tf_clique_of(&t, 5));
		CHECK_STR(r->subject.name, "work");
		CHECK_EQ(tf_fact(r, "steps"), 3);
		CHECK(tf_section(r, "procs") != NULL);
		CHECK(r->note == NULL);
		dp_report_free(r);
	}
	/* the parser does not take metric= for action (yet): set it by hand */
	CHECK_EQ(dp_query_parse("page=action&percent=90", true, &q), 0);
	q.metric = DP_METRIC_CALLSEQS;
	CHECK_EQ(dp_report_build(&t.c, &q, &r), 0);
	if (r) {
		CHECK_EQ(tf_section(r, "path")->n_rows, 2);
		CHECK_STR(r->subject.name, "main");
		dp_report_free(r);
	}
	q.metric = DP_METRIC_CALLS;
	CHECK_EQ(dp_report_build(&t.c, &q, &r), -DP_EUSAGE);
	CHECK(r == NULL);
	r = tf_report(&t, "page=clique&id=99", &rc, 1);
	CHECK(r == NULL);
	CHECK_EQ(rc, -DP_ENOENT);
	CHECK(strstr(dp_errmsg(), "valid: 1..") != NULL);
	tf_close(&t);
}

/* a profile without samples: action follows callseqs and says so */
static int no_samples(struct dp_profile *p)
{
	int rc = tf_build(p);

	for (uint32_t i = 1; rc == 0 && i <= p->n_csd; i++)
		p->csd[i].samples = 0;
	return rc;
}

TEST(action_without_samples)
{
	struct tf_ctx t;
	struct dp_report *r;

	TF_OPEN(&t, no_samples);
	r = tf_report(&t, "page=action&percent=50&sort=source", NULL, 0);
	CHECK(r != NULL);
	if (r) {
		CHECK(r->note != NULL && strstr(r->note, "callseqs") != NULL);
		CHECK_STR(r->subject.name, "work");
		dp_report_free(r);
	}
	tf_close(&t);
}

static uint64_t sim_seed = 11;

/* the simulated profiles of the property tests, seeds 11..14 */
static const struct dp_gen_sim sim = {
	.n_fn = 12, .n_threads = 2, .n_steps = 3000, .max_depth = 40, .pct_call = 55};

static int gen_wild(struct dp_profile *p)
{
	return dp_gen_wild(p, sim_seed, 300, 200, 0);
}

/* every clique page: PS rows = sums of their PD rows = the members' own; one site row per
 * call site of each PD's procedure; the subject's total is the clique's */
static void clique_props(struct tf_ctx *t)
{
	const struct dp_analysis *a = t->a;

	for (uint32_t k = 1; k <= a->n_cliques; k++) {
		struct dp_report *r = tf_page(t, "page=clique&id=%u&anc=all&sort=source", k);
		const struct dp_rep_section *s;
		uint64_t own = 0, members = 0, sites = 0, want_sites = 0, n_pd_rows = 0;
		uint32_t n = dp_csr_count(&a->clique_pds, k), site_depth = 1;
		const uint32_t *pds = dp_csr_items(&a->clique_pds, k);

		if (!r) {
			CHECK(0);
			return;
		}
		for (uint32_t i = 0; i < n; i++) {
			own += dp_analysis_pd_own(a, pds[i]).samples;
			want_sites += dp_csr_count(&a->ps_csss, t->p.pd[pds[i]].ps);
		}
		s = tf_section(r, "procs");
		for (uint32_t i = 0; i < s->n_rows; i++) {
			const struct dp_rep_row *w = &s->rows[i];
			uint64_t sum = 0, cnt = 0;

			if (w->kind == DP_ENT_PS) {
				CHECK_EQ(w->depth, 0);
				members += w->own.samples;
				for (uint32_t j = i + 1; j < s->n_rows && s->rows[j].depth > 0; j++)
					if (s->rows[j].kind == DP_ENT_PD) {
						sum += s->rows[j].own.samples;
						cnt++;
					}
				site_depth = cnt ? 2 : 1;
				if (cnt)
					CHECK_EQ(sum, w->own.samples);
				CHECK_EQ(cnt ? cnt : 1, w->flags & DP_ROW_SUM ? w->n : 1);
				n_pd_rows += cnt ? cnt : 1;
			} else if (w->depth == site_depth) {
				CHECK(w->kind == DP_ENT_CSS || w->kind == DP_ENT_CSD);
				sites++;
			}
		}
		CHECK_EQ(members, own);
		CHECK_EQ(n_pd_rows, n);
		CHECK_EQ(sites, want_sites);
		CHECK_EQ(r->subject.own.samples + r->subject.desc.samples,
			 a->clique_total[k].samples);
		dp_report_free(r);
	}
}

TEST(generated_properties)
{
	for (sim_seed = 11; sim_seed < 15; sim_seed++) {
		struct tf_ctx t;

		tf_sim = sim;
		tf_sim.seed = sim_seed;
		TF_OPEN(&t, tf_gen_sim);
		CHECK(t.a->n_cliques > 5); /* not a trivial profile */
		clique_props(&t);
		tf_close(&t);
		TF_OPEN(&t, gen_wild);
		CHECK(t.a->n_cliques > 10 && t.a->n_cliques < 300); /* some recursion */
		clique_props(&t);
		tf_close(&t);
	}
}

DP_TEST_MAIN(test_clique_of_main, test_clique_prefs, test_clique_recursion, test_root_action_errors,
	     test_action_without_samples, test_generated_properties)
