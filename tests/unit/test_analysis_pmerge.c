/*
 * tests/unit/test_analysis_pmerge.c - merging profiles of many runs
 * (analysis/profile_merge.h), as properties on simulated profiles: merge(a, a) has a's
 * shape with every counter doubled; merge is associative and commutative to the byte
 * (the written files are equal); every counter total and every function's calls are the
 * sums of the inputs'; the canonical form is a fixed point; the result loads in the
 * analysis; several programs each get their own node; bad input is named. And diff
 * (analysis/diff.h) against merge: diff(a, merge(a, a)) doubles every count of every
 * procedure and context and keeps every time share; diff(a, a) is all zero.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/diff.h"
#include "analysis/profile_merge.h"
#include "core/err.h"
#include "deepprof/format.h"
#include "format/writer.h"
#include "harness.h"
#include "test_analysis_gen.h"

#define N_CNT 7

static const char *const names3[] = {"a", "b", "c"};

static void counters(const struct dp_csd *d, uint64_t *v)
{
	v[0] = d->calls;
	v[1] = d->exits;
	v[2] = d->unwinds;
	v[3] = d->samples;
	v[4] = d->callseqs;
	v[5] = d->allocs;
	v[6] = d->alloc_bytes;
}

/* Sums of every counter over all CSDs of @p into @tot. */
static void totals(const struct dp_profile *p, uint64_t *tot)
{
	uint64_t v[N_CNT];

	for (uint32_t d = 1; d <= p->n_csd; d++) {
		counters(&p->csd[d], v);
		for (int k = 0; k < N_CNT; k++)
			tot[k] += v[k];
	}
}

/* The calls into the function named @name, summed over its PDs' callers. */
static uint64_t calls_of(const struct dp_profile *p, const char *name)
{
	uint64_t n = 0;

	for (uint32_t d = 1; d <= p->n_csd; d++) {
		uint32_t ps = p->pd[p->csd[d].callee].ps;

		if (p->ps[ps].name && strcmp(dp_profile_str(p, p->ps[ps].name), name) == 0)
			n += p->csd[d].calls;
	}
	return n;
}

static int merge(const struct dp_profile *const *in, uint32_t n, struct dp_profile *out)
{
	int rc = dp_profile_merge(in, names3, n, 0, NULL, out);

	if (rc < 0)
		fprintf(stderr, "merge: %s\n", dp_errmsg());
	CHECK_EQ(rc, 0);
	return rc;
}

static int merge2(const struct dp_profile *a, const struct dp_profile *b, struct dp_profile *out)
{
	return merge((const struct dp_profile *const[]){a, b}, 2, out);
}

/* Whether @a and @b write the same file. */
static int same_file(const struct dp_profile *a, const struct dp_profile *b)
{
	struct dp_buf x, y;
	int same;

	dp_buf_init(&x, (size_t)1 << 30);
	dp_buf_init(&y, (size_t)1 << 30);
	same = dp_write_buffer(a, &x) == 0 && dp_write_buffer(b, &y) == 0 && x.len == y.len &&
	       memcmp(x.data, y.data, x.len) == 0;
	dp_buf_release(&x);
	dp_buf_release(&y);
	return same;
}

static int gen(struct dp_profile *p, uint64_t seed, uint32_t steps, uint32_t starts)
{
	struct dp_gen_sim g = {seed, 12, 5, steps, 40, 55};
	int rc = dp_gen_simulate_starts(p, &g, starts);

	CHECK_EQ(rc, 0);
	if (rc == 0) {
		p->start_ns = 1000 * seed;
		p->end_ns = p->start_ns + steps;
		p->pid = seed;
		p->samples_outside = 0;
		for (uint32_t d = 1; d <= p->n_csd; d++)
			p->samples_outside += p->csd[d].samples;
	}
	return rc;
}

/* merge(a, a): a's shape (same node counts, each CSD of the canonical a matching), every
 * counter doubled, threads matched one to one. */
TEST(self_merge_doubles)
{
	for (uint64_t seed = 1; seed <= 6; seed++) {
		struct dp_profile a, ca, aa;

		if (gen(&a, seed, 3000, (uint32_t)(seed % 3)) < 0)
			continue;
		if (merge((const struct dp_profile *const[]){&a}, 1, &ca) == 0 &&
		    merge2(&a, &a, &aa) == 0) {
			CHECK_EQ(aa.n_pd, a.n_pd);
			CHECK_EQ(aa.n_csd, a.n_csd);
			CHECK_EQ(aa.n_threads, a.n_threads);
			CHECK_EQ(ca.n_csd, a.n_csd);
			for (uint32_t d = 1; d <= aa.n_csd && d <= ca.n_csd; d++) {
				uint64_t x[N_CNT], y[N_CNT];

				counters(&ca.csd[d], x);
				counters(&aa.csd[d], y);
				CHECK_EQ(aa.csd[d].caller, ca.csd[d].caller);
				CHECK_EQ(aa.csd[d].callee, ca.csd[d].callee);
				for (int k = 0; k < N_CNT; k++)
					CHECK_EQ(y[k], 2 * x[k]);
			}
			CHECK_EQ(aa.samples_outside, 2 * a.samples_outside);
			CHECK_EQ(aa.end_ns - aa.start_ns, 2 * (a.end_ns - a.start_ns));
			dp_profile_release(&aa);
			dp_profile_release(&ca);
		}
		dp_profile_release(&a);
	}
}

/* The three inputs merged every way: the same file; the totals the sums. */
TEST(associative_commutative)
{
	for (uint64_t seed = 1; seed <= 8; seed++) {
		struct dp_profile in[3], ab, bc, ab_c, a_bc, cba, abc, canon;
		uint64_t want[N_CNT] = {0}, got[N_CNT] = {0};
		const struct dp_profile *rev[3] = {&in[2], &in[1], &in[0]};
		int ok = 1;

		for (int i = 0; i < 3; i++)
			ok &= gen(&in[i], seed * 10 + (uint64_t)i, 1500 + 700 * (uint32_t)i,
				  (uint32_t)i) == 0;
		if (!ok)
			continue;
		if (merge2(&in[0], &in[1], &ab) || merge2(&in[1], &in[2], &bc) ||
		    merge2(&ab, &in[2], &ab_c) || merge2(&in[0], &bc, &a_bc) ||
		    merge(rev, 3, &cba) ||
		    merge((const struct dp_profile *const[]){&in[0], &in[1], &in[2]}, 3, &abc) ||
		    merge((const struct dp_profile *const[]){&abc}, 1, &canon))
			continue;
		CHECK(same_file(&ab_c, &a_bc));
		CHECK(same_file(&ab_c, &cba));
		CHECK(same_file(&ab_c, &abc));
		CHECK(same_file(&abc, &canon));
		for (int i = 0; i < 3; i++)
			totals(&in[i], want);
		totals(&abc, got);
		for (int k = 0; k < N_CNT; k++)
			CHECK_EQ(got[k], want[k]);
		for (uint32_t f = 3; f <= 14; f++) {
			char name[16];

			snprintf(name, sizeof(name), "fn%u", f);
			CHECK_EQ(calls_of(&abc, name), calls_of(&in[0], name) +
							       calls_of(&in[1], name) +
							       calls_of(&in[2], name));
		}
		CHECK_EQ(abc.samples_outside,
			 in[0].samples_outside + in[1].samples_outside + in[2].samples_outside);
		CHECK_EQ(abc.start_ns, in[0].start_ns);
		{
			int err = 0;
			struct dp_analysis *an = dp_analysis_new(&abc, &err);

			CHECK(an != NULL);
			dp_analysis_free(an);
		}
		dp_profile_release(&ab);
		dp_profile_release(&bc);
		dp_profile_release(&ab_c);
		dp_profile_release(&a_bc);
		dp_profile_release(&cba);
		dp_profile_release(&abc);
		dp_profile_release(&canon);
		for (int i = 0; i < 3; i++)
			dp_profile_release(&in[i]);
	}
}

/* Renames @p's program (its main object's path too): another program. */
static void rename_program(struct dp_profile *p, const char *path)
{
	int64_t id = dp_strtab_intern_cstr(&p->strs, path);

	p->program = (uint32_t)id;
	p->objects[1].path = (uint32_t)id;
}

/* Two programs: the root calls two program nodes, each with its own threads and the
 * counters of its own runs; merging in another order or grouping gives the same file. */
TEST(programs_apart)
{
	struct dp_profile a, b, a2, ab, ab_a2, a_a2, a_a2_b;
	uint64_t want[N_CNT] = {0}, got[N_CNT] = {0};
	uint32_t n_prog = 0;

	if (gen(&a, 3, 2000, 2) < 0 || gen(&b, 4, 2500, 1) < 0 || gen(&a2, 5, 1800, 2) < 0)
		return;
	rename_program(&a, "/usr/bin/alpha");
	rename_program(&a2, "/usr/bin/alpha");
	rename_program(&b, "/usr/bin/beta");
	if (merge2(&a, &b, &ab) || merge2(&ab, &a2, &ab_a2) || merge2(&a, &a2, &a_a2) ||
	    merge2(&b, &a_a2, &a_a2_b))
		return;
	CHECK(same_file(&ab_a2, &a_a2_b));
	CHECK_EQ(ab.n_threads, a.n_threads + b.n_threads);
	for (uint32_t d = 1; d <= ab.n_csd; d++) {
		const struct dp_ps *ce = &ab.ps[ab.pd[ab.csd[d].callee].ps];

		if (ab.csd[d].caller != ab.root_pd)
			continue;
		CHECK_EQ(ce->kind, DP_PS_PROGRAM);
		CHECK_EQ(ab.csd[d].calls, 1);
		n_prog++;
	}
	CHECK_EQ(n_prog, 2);
	/* the program nodes of a and a2 merged: alpha's calls = a's + a2's */
	for (uint32_t d = 1; d <= ab_a2.n_csd; d++) {
		const struct dp_ps *ce = &ab_a2.ps[ab_a2.pd[ab_a2.csd[d].callee].ps];

		if (ce->kind == DP_PS_PROGRAM &&
		    strcmp(dp_profile_str(&ab_a2, ce->name), "/usr/bin/alpha") == 0)
			CHECK_EQ(ab_a2.csd[d].calls, 2);
	}
	totals(&a, want);
	totals(&b, want);
	totals(&a2, want);
	totals(&ab_a2, got);
	/* the made nodes add one call per run of each program, none of the other counters */
	CHECK_EQ(got[0], want[0] + 3);
	for (int k = 3; k < N_CNT; k++)
		CHECK_EQ(got[k], want[k]);
	{
		struct dp_buf out;

		dp_buf_init(&out, (size_t)1 << 30);
		CHECK_EQ(dp_write_buffer(&ab_a2, &out), 0);
		dp_buf_release(&out);
	}
	dp_profile_release(&a);
	dp_profile_release(&b);
	dp_profile_release(&a2);
	dp_profile_release(&ab);
	dp_profile_release(&ab_a2);
	dp_profile_release(&a_a2);
	dp_profile_release(&a_a2_b);
}

/* A hostile profile built in memory is refused with its name in the message. */
TEST(bad_input_named)
{
	struct dp_profile a, out;
	const struct dp_profile *in[1] = {&a};

	if (gen(&a, 9, 500, 0) < 0)
		return;
	a.csd[2].callee = a.n_pd + 5;
	CHECK_EQ(dp_profile_merge(in, (const char *const[]){"bad.data"}, 1, 0, NULL, &out),
		 -DP_EFORMAT);
	CHECK(strstr(dp_errmsg(), "bad.data") != NULL);
	dp_profile_release(&a);
}

/* Every row of @d (procedures and contexts): in both, new = @factor * base. */
static void check_rows(const struct dp_diff *d, uint64_t factor, int shares)
{
	const struct dp_diff_row *tabs[2] = {d->rows, d->ctx_rows};
	uint32_t n[2] = {d->n_rows, d->n_ctx_rows};

	for (int t = 0; t < 2; t++)
		for (uint32_t i = 0; i < n[t]; i++) {
			const struct dp_diff_row *r = &tabs[t][i];

			CHECK_EQ(r->side, DP_DIFF_BOTH);
			CHECK_EQ(r->new_raw, factor * r->base_raw);
			if (shares)
				CHECK(r->change == 0.0);
		}
}

TEST(diff_against_merge)
{
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct dp_profile a, aa;
		struct dp_diff d;

		if (gen(&a, seed, 2500, (uint32_t)(seed % 3)) < 0)
			continue;
		if (merge2(&a, &a, &aa) == 0) {
			CHECK_EQ(dp_diff_procs(&a, &aa, DP_DIFF_CALLS, 0, 0, &d), 0);
			CHECK(d.n_rows > 0 && d.n_ctx_rows >= d.n_rows);
			check_rows(&d, 2, 0);
			dp_diff_release(&d);
			CHECK_EQ(dp_diff_procs(&a, &aa, DP_DIFF_TIME, 0, 0, &d), 0);
			check_rows(&d, 2, 1);
			dp_diff_release(&d);
			CHECK_EQ(dp_diff_procs(&a, &a, DP_DIFF_CALLSEQS, 0, 3, &d), 0);
			CHECK(d.n_rows <= 3 && d.n_ctx_rows <= 3);
			check_rows(&d, 1, 1);
			dp_diff_release(&d);
			dp_profile_release(&aa);
		}
		dp_profile_release(&a);
	}
}

DP_TEST_MAIN(test_self_merge_doubles, test_associative_commutative, test_programs_apart,
	     test_bad_input_named, test_diff_against_merge)
