/*
 * tests/unit/test_report_compare.c - dp_report_compare() (src/report/rep_compare*.c),
 * as properties on simulated profiles, on every page of the query language:
 * - merge(a, a) compared with a (its nodes renumbered by the merge): every page's
 *   subject and every row found, with exactly half of each counter;
 * - the same with several threads, against the canonical a (threads in the same order);
 * - a function renamed in the new profile: its page has no counterpart, and on the flame
 *   page exactly the nodes at or under it are not found, the others with equal costs.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/profile_merge.h"
#include "core/err.h"
#include "harness.h"
#include "report/report.h"
#include "report/report_int.h"
#include "test_analysis_gen.h"

/* A profile and its analysis, as a report context. */
struct side {
	struct dp_profile p;
	struct dp_analysis *a;
	struct dp_report_ctx c;
};

static int side_analyse(struct side *s)
{
	int err = 0;

	s->a = dp_analysis_new(&s->p, &err);
	CHECK(s->a != NULL);
	s->c = (struct dp_report_ctx){.p = &s->p, .a = s->a};
	return s->a ? 0 : -1;
}

static void side_free(struct side *s)
{
	dp_cmp_memo_free(s->c.cmp_memo);
	dp_analysis_free(s->a);
	dp_profile_release(&s->p);
}

/* Whether the counters of @x are @k times those of @y (own and desc). */
static bool scaled(const struct dp_costs *xo, const struct dp_inherit *xd,
		   const struct dp_costs *yo, const struct dp_inherit *yd, uint64_t k)
{
	return xo->calls == k * yo->calls && xo->exits == k * yo->exits &&
	       xo->unwinds == k * yo->unwinds && xo->samples == k * yo->samples &&
	       xo->callseqs == k * yo->callseqs && xo->allocs == k * yo->allocs &&
	       xo->alloc_bytes == k * yo->alloc_bytes && xd->samples == k * yd->samples &&
	       xd->callseqs == k * yd->callseqs && xd->allocs == k * yd->allocs &&
	       xd->alloc_bytes == k * yd->alloc_bytes;
}

/* The report of @q on @nw compared with @base (NULL if the page does not exist). */
static struct dp_report *compared(const struct side *nw, const struct side *base, const char *q)
{
	struct dp_compare_opts o = {.base_name = "base"};
	struct dp_query query;
	struct dp_report *r = NULL;

	if (dp_query_parse(q, true, &query) != 0) {
		fprintf(stderr, "bad query %s: %s\n", q, dp_errmsg());
		CHECK(0);
		return NULL;
	}
	if (dp_report_build(&nw->c, &query, &r) != 0)
		return NULL; /* e.g. a procedure without contexts */
	CHECK_EQ(dp_report_compare(r, &nw->c, &base->c, &o), 0);
	CHECK(r->cmp != NULL);
	if (!r->cmp) {
		dp_report_free(r);
		return NULL;
	}
	return r;
}

/* Every row of page @q of @nw found in @base, each counter @k times the base's. Return:
 * how many rows were checked. */
static uint32_t check_page(const struct side *nw, const struct side *base, const char *q,
			   uint64_t k)
{
	struct dp_report *r = compared(nw, base, q);
	uint32_t rows = 0;

	if (!r)
		return 0;
	if (!r->cmp->found || r->cmp->n_found != r->cmp->n_rows)
		fprintf(stderr, "%s: found %d, %u of %u rows\n", q, r->cmp->found, r->cmp->n_found,
			r->cmp->n_rows);
	CHECK(r->cmp->found);
	CHECK_EQ(r->cmp->n_found, r->cmp->n_rows);
	if (r->has_subject) {
		if (!r->cmp->subject.found ||
		    !scaled(&r->subject.own, &r->subject.desc, &r->cmp->subject.own,
			    &r->cmp->subject.desc, k))
			fprintf(stderr, "%s: subject %s: found %d\n", q, r->subject.name,
				r->cmp->subject.found);
		CHECK(r->cmp->subject.found);
		CHECK(scaled(&r->subject.own, &r->subject.desc, &r->cmp->subject.own,
			     &r->cmp->subject.desc, k));
	}
	for (uint32_t s = 0; s < r->n_sections; s++)
		for (uint32_t i = 0; i < r->sections[s].n_rows; i++) {
			const struct dp_rep_row *row = &r->sections[s].rows[i];
			const struct dp_rep_base *b = &r->cmp->rows[s][i];

			if (r->sections[s].costless) { /* names only: never matched */
				CHECK(!b->found);
				continue;
			}

			if (!b->found || !scaled(&row->own, &row->desc, &b->own, &b->desc, k))
				fprintf(stderr, "%s: section %s row %u (%s): found %d\n", q,
					r->sections[s].id, i, row->name, b->found);
			CHECK(b->found && scaled(&row->own, &row->desc, &b->own, &b->desc, k));
			rows++;
		}
	dp_report_free(r);
	return rows;
}

/* Every page kind of @nw (its own ids) against @base. Return: the rows checked. */
static uint32_t check_pages(const struct side *nw, const struct side *base, uint64_t k)
{
	static const char *const fixed[] = {
		"page=menu",
		"page=root",
		"page=action",
		"page=modules",
		"page=threads",
		"page=top",
		"page=top&metric=callseqs&scope=total",
		"page=top&metric=calls",
		"page=top&metric=bytes&limit=1-3",
		"page=flame&min=0",
		"page=flame&metric=calls&min=0",
	};
	static const char *const per_proc[] = {
		"page=proc&id=",
		"page=callers&group=site&proc=",
		"page=callers&group=proc&proc=",
		"page=callers&group=module&proc=",
		"page=callers&group=clique&sort=cost&proc=",
		"page=flame_callers&min=0&proc=",
		"page=dump_ps&id=",
	}; /* each followed by the procedure's id */
	const struct dp_profile *p = &nw->p;
	const struct dp_analysis *a = nw->a;
	uint32_t rows = 0;
	char q[128];

	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		rows += check_page(nw, base, fixed[i], k);
	for (uint32_t ps = 1; ps <= p->n_ps; ps++)
		for (size_t i = 0; i < sizeof(per_proc) / sizeof(per_proc[0]); i++) {
			snprintf(q, sizeof(q), "%s%u", per_proc[i], ps);
			rows += check_page(nw, base, q, k);
		}
	for (uint32_t c = 1; c <= a->n_cliques && c <= 40; c++) {
		snprintf(q, sizeof(q), "page=clique&id=%u&anc=all", c);
		rows += check_page(nw, base, q, k);
		snprintf(q, sizeof(q), "page=dump_clique&id=%u", c);
		rows += check_page(nw, base, q, k);
	}
	for (uint32_t s = 1; s <= p->n_css && s <= 40; s++) {
		snprintf(q, sizeof(q), "page=site&id=%u", s);
		rows += check_page(nw, base, q, k);
	}
	for (uint32_t m = 1; m <= a->n_modules; m++) {
		snprintf(q, sizeof(q), "page=module&id=%u", m);
		rows += check_page(nw, base, q, k);
	}
	for (uint32_t d = 1; d <= p->n_pd && d <= 40; d++) {
		snprintf(q, sizeof(q), "page=dump_pd&id=%u", d);
		rows += check_page(nw, base, q, k);
		snprintf(q, sizeof(q), "page=dump_csd&id=%u", d);
		rows += check_page(nw, base, q, k);
	}
	return rows;
}

static int merge(const struct dp_profile *const *in, uint32_t n, struct dp_profile *out)
{
	static const char *const names[] = {"a", "b"};
	int rc = dp_profile_merge(in, names, n, 0, NULL, out);

	if (rc < 0)
		fprintf(stderr, "merge: %s\n", dp_errmsg());
	CHECK_EQ(rc, 0);
	return rc;
}

/* Every PD of a profile compared with itself is found as itself. */
TEST(self_contexts)
{
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct dp_gen_sim g = {seed, 12, 3, 1500, 30, 55};
		struct side a = {0};
		struct dp_cmp_memo *m = dp_cmp_memo_new();
		uint32_t bad = 0;

		if (dp_gen_simulate(&a.p, &g) != 0 || side_analyse(&a) != 0) {
			CHECK(0);
			side_free(&a);
			continue;
		}
		for (uint32_t pd = 1; pd <= a.p.n_pd; pd++) {
			uint32_t got = 0;

			CHECK_EQ(dp_cmp_pd(&a.c, m, pd, &a.c, &got), 0);
			if (got != pd && bad++ < 3)
				fprintf(stderr, "seed %" PRIu64 ": PD %u found as %u\n", seed, pd,
					got);
		}
		CHECK_EQ(bad, 0);
		dp_cmp_memo_free(m);
		side_free(&a);
	}
}

/* merge(a, a) against a, one thread: the merge renumbers every node. */
TEST(doubled_against_single)
{
	uint32_t rows = 0, self = 0;

	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct dp_gen_sim g = {seed, 12, 1, 1500, 30, 55};
		struct side a = {0}, aa = {0};

		if (dp_gen_simulate(&a.p, &g) != 0 ||
		    merge((const struct dp_profile *const[]){&a.p, &a.p}, 2, &aa.p) != 0) {
			CHECK(0);
			continue;
		}
		if (side_analyse(&a) == 0 && side_analyse(&aa) == 0) {
			rows += check_pages(&aa, &a, 2);
			self += check_pages(&a, &a, 1);
		}
		side_free(&a);
		side_free(&aa);
	}
	CHECK(rows > 2000); /* the pages are not empty */
	CHECK(self > 2000);
}

/* Several threads (thread roots matched by index): merge(a, a) against merge(a). */
TEST(doubled_threads)
{
	uint32_t rows = 0;

	for (uint64_t seed = 11; seed <= 13; seed++) {
		struct dp_gen_sim g = {seed, 10, 3, 800, 25, 55};
		struct side a = {0}, ca = {0}, aa = {0};

		if (dp_gen_simulate_starts(&a.p, &g, 2) != 0 ||
		    merge((const struct dp_profile *const[]){&a.p}, 1, &ca.p) != 0 ||
		    merge((const struct dp_profile *const[]){&a.p, &a.p}, 2, &aa.p) != 0) {
			CHECK(0);
			continue;
		}
		if (side_analyse(&ca) == 0 && side_analyse(&aa) == 0) {
			/* the memos kept from page to page, as a session keeps them */
			ca.c.cmp_memo = dp_cmp_memo_new();
			aa.c.cmp_memo = dp_cmp_memo_new();
			rows += check_pages(&aa, &ca, 2);
		}
		side_free(&a);
		side_free(&ca);
		side_free(&aa);
	}
	CHECK(rows > 1000);
}

/* fn3 renamed in the new profile: its pages have no counterpart; on the flame page the
 * nodes at or under a renamed node are not found, every other one is, with equal costs. */
TEST(renamed_function)
{
	struct dp_gen_sim g = {7, 8, 1, 2000, 20, 55};
	struct side a = {0}, b = {0};
	struct dp_report *r;
	uint32_t renamed = 0, lost = 0, kept = 0;

	if (dp_gen_simulate(&a.p, &g) != 0 || dp_gen_simulate(&b.p, &g) != 0) {
		CHECK(0);
		return;
	}
	for (uint32_t ps = 1; ps <= b.p.n_ps; ps++)
		if (strcmp(dp_profile_str(&b.p, b.p.ps[ps].name), "fn3") == 0) {
			int64_t id = dp_strtab_intern_cstr(&b.p.strs, "renamed");

			CHECK(id > 0);
			b.p.ps[ps].name = (uint32_t)id;
			renamed = ps;
		}
	CHECK(renamed != 0);
	if (side_analyse(&a) == 0 && side_analyse(&b) == 0 && renamed) {
		char q[64];

		snprintf(q, sizeof(q), "page=proc&id=%u", renamed);
		r = compared(&b, &a, q);
		CHECK(r && !r->cmp->found && !r->cmp->subject.found && r->cmp->n_found == 0);
		dp_report_free(r);
		r = compared(&b, &a, "page=flame&min=0");
		if (r && r->n_sections) {
			const struct dp_rep_section *sec = &r->sections[0];
			uint32_t under = UINT32_MAX; /* the depth of the renamed node above */

			for (uint32_t i = 0; i < sec->n_rows; i++) {
				const struct dp_rep_row *row = &sec->rows[i];
				const struct dp_rep_base *bb = &r->cmp->rows[0][i];
				bool gone;

				if (row->depth <= under)
					under = strcmp(row->name, "renamed") == 0 ? row->depth
										  : UINT32_MAX;
				gone = under != UINT32_MAX;
				CHECK_EQ(bb->found, !gone);
				if (bb->found)
					CHECK(scaled(&row->own, &row->desc, &bb->own, &bb->desc,
						     1));
				lost += gone;
				kept += !gone;
			}
		}
		CHECK(lost > 0 && kept > lost);
		dp_report_free(r);
	}
	side_free(&a);
	side_free(&b);
}

DP_TEST_MAIN(test_self_contexts, test_doubled_against_single, test_doubled_threads,
	     test_renamed_function)
