/*
 * tests/unit/test_report_total.c - one meaning of a procedure's total on every page: the
 * cost with the procedure on the stack, counted once whatever the recursion, a recursion
 * of several procedures (a clique) counting whole for each of them. On the fixture's
 * mutual recursion (is_even <-> is_odd: is_odd is no entry of its clique, and its
 * Mercury total, own + what it inherits, leaves its clique out) and on every procedure
 * of simulated profiles: the proc page's subject and "(all callers)" row, the callers
 * and flame_callers pages' subjects, the top page (scope=total), the module page, the
 * search page, the clique page (a procedure of one context), the JSON and the table's
 * Total cell agree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/core/err.h"
#include "../../src/display/display_int.h"
#include "deepprof/format.h"
#include "harness.h"
#include "test_report_fix.h"

static const struct dp_gen_sim sim = {
	.n_fn = 12, .n_threads = 2, .n_steps = 4000, .max_depth = 20, .pct_call = 60};

static uint64_t total_of(const struct dp_rep_row *r)
{
	return r->own.samples + r->desc.samples;
}

/* the row of procedure @ps in section @sec of the report of @qs, or NULL (@r keeps the
 * report, to free) */
static const struct dp_rep_row *row_of(struct tf_ctx *t, const char *qs, const char *sec,
				       uint32_t ps, struct dp_report **r)
{
	const struct dp_rep_section *s;

	*r = tf_report(t, qs, NULL, 0);
	s = *r ? tf_section(*r, sec) : NULL;
	for (uint32_t i = 0; s && i < s->n_rows; i++)
		if (s->rows[i].kind == DP_ENT_PS && s->rows[i].id == ps)
			return &s->rows[i];
	return NULL;
}

/* the Total time cell of the subject row of @r's display, in samples */
static uint64_t display_total(const struct dp_report *r)
{
	struct dp_display *d = NULL;
	uint64_t v = UINT64_MAX;

	CHECK_EQ(dp_display_build(r, &d), 0);
	for (uint32_t b = 0; d && b < d->n_blocks; b++) {
		const struct dp_dtable *t = &d->blocks[b].table;

		if (d->blocks[b].kind != DP_DB_TABLE || !t->n_rows ||
		    !(t->rows[0].flags & DP_DROW_SUBJECT))
			continue;
		for (uint32_t c = 0; c < t->n_num; c++)
			if (!strcmp(t->cols[2 + c].label, "Total") && t->cols[2 + c].group &&
			    !strcmp(t->cols[2 + c].group, "time"))
				v = t->rows[0].num[c].raw;
	}
	dp_display_free(d);
	return v;
}

/* every page that shows procedure @ps's total shows @want (samples) */
static void pages_agree(struct tf_ctx *t, uint32_t ps, uint64_t want)
{
	const struct dp_rep_row *row;
	struct dp_report *r;
	struct dp_buf b;
	char q[256], js[64];
	char buf[64];
	const char *name = dp_profile_ps_label(&t->p, ps, buf, sizeof(buf));

	snprintf(q, sizeof(q), "page=proc&id=%u&fields=pt", ps);
	r = tf_report(t, q, NULL, 0);
	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_EQ(total_of(&r->subject), want);
	CHECK_EQ(display_total(r), want);
	row = &tf_section(r, "callers")->rows[0];
	if (row->n) /* (all callers): the calls from elsewhere carry it all */
		CHECK_EQ(total_of(row), want);
	dp_buf_init(&b, 1 << 20);
	CHECK_EQ(dp_report_json(r, false, &b), 0);
	snprintf(js, sizeof(js), "\"total\":{\"samples\":%llu,", (unsigned long long)want);
	CHECK(strstr(dp_buf_cstr(&b), js) != NULL);
	dp_buf_release(&b);
	dp_report_free(r);

	snprintf(q, sizeof(q), "page=callers&proc=%u", ps);
	r = tf_report(t, q, NULL, 0);
	CHECK(r && total_of(&r->subject) == want);
	dp_report_free(r);
	snprintf(q, sizeof(q), "page=flame_callers&proc=%u&min=0", ps);
	r = tf_report(t, q, NULL, 0);
	CHECK(r && total_of(&r->subject) == want);
	dp_report_free(r);

	if (want) {
		row = row_of(t, "page=top&scope=total&limit=1-10000", "procs", ps, &r);
		CHECK(row && total_of(row) == want);
		dp_report_free(r);
	}
	snprintf(q, sizeof(q), "page=module&id=%u&size=1000", t->a->ps_module[ps]);
	row = row_of(t, q, "procs", ps, &r);
	CHECK(row && total_of(row) == want);
	dp_report_free(r);
	snprintf(q, sizeof(q), "page=search&q=%s&size=1000", name);
	row = row_of(t, q, "procs", ps, &r);
	CHECK(row && total_of(row) == want);
	dp_report_free(r);
	if (dp_csr_count(&t->a->ps_pds, ps) == 1) { /* one context: its clique's page */
		uint32_t pd = dp_csr_items(&t->a->ps_pds, ps)[0];

		snprintf(q, sizeof(q), "page=clique&id=%u", t->a->pd_clique[pd]);
		row = row_of(t, q, "procs", ps, &r);
		CHECK(row && total_of(row) == want);
		dp_report_free(r);
	}
}

TEST(fixture_recursion)
{
	struct tf_ctx t;

	TF_OPEN(&t, NULL);
	/* is_even <-> is_odd: 1 + 4 samples into is_even, 5 into is_odd; is_odd's Mercury
	 * total is 5 (nothing leaves the clique), its total the clique's 10 */
	CHECK_EQ(t.a->ps_own[TF_ODD].samples + t.a->ps_desc[TF_ODD].samples, 5);
	pages_agree(&t, TF_ODD, 10);
	pages_agree(&t, TF_EVEN, 10);
	/* fib calls itself: 5 + 15 samples, once */
	pages_agree(&t, TF_FIB, 20);
	/* cheap: 40 under work, 1 under main */
	pages_agree(&t, TF_CHEAP, 41);
	pages_agree(&t, TF_MAIN, TF_TOTAL_SAMPLES); /* all of it: the thread only calls main */
	tf_close(&t);
}

/* a flame node of a recursion of several procedures: its self is its members' own (the
 * tooltip's self), not its entry call's */
TEST(flame_clique_self)
{
	struct tf_ctx t;
	struct dp_report *r;
	const struct dp_rep_section *s;
	uint32_t seen = 0;

	TF_OPEN(&t, NULL);
	r = tf_report(&t, "page=flame&min=0", NULL, 0);
	s = r ? tf_section(r, "tree") : NULL;
	for (uint32_t i = 0; s && i < s->n_rows; i++) {
		const struct dp_rep_row *row = &s->rows[i];

		if (row->clique != tf_clique_of(&t, 9) || row->kind != DP_ENT_CSD)
			continue;
		seen++;
		/* is_even 1 + 4 and is_odd 5 samples; the call from main brought 1 */
		CHECK_EQ(row->own.samples, 10);
		CHECK_EQ(row->own.samples + row->desc.samples, 10);
		CHECK_EQ(row->own.calls, 1); /* calls stay the entry call's */
	}
	CHECK_EQ(seen, 1);
	dp_report_free(r);
	tf_close(&t);
}

TEST(generated_every_procedure)
{
	uint32_t n_rec = 0;

	for (uint64_t seed = 21; seed < 25; seed++) {
		struct tf_ctx t;

		tf_sim = sim;
		tf_sim.seed = seed;
		TF_OPEN(&t, tf_gen_sim);
		for (uint32_t ps = 1; ps <= t.p.n_ps; ps++) {
			if (t.p.ps[ps].kind != DP_PS_FUNCTION)
				continue;
			pages_agree(&t, ps, t.a->ps_total[ps].samples);
			for (uint32_t i = 0; i < dp_csr_count(&t.a->ps_pds, ps); i++) {
				uint32_t pd = dp_csr_items(&t.a->ps_pds, ps)[i];

				n_rec += dp_csr_count(&t.a->clique_pds, t.a->pd_clique[pd]) > 1;
			}
		}
		tf_close(&t);
	}
	CHECK(n_rec > 10); /* recursions of several procedures were there to test */
}

DP_TEST_MAIN(test_fixture_recursion, test_flame_clique_self, test_generated_every_procedure)
