/*
 * tests/unit/test_report_fix.h - fixtures of the report tests: a hand-built profile of a
 * small program whose every page is known (recursion, mutual recursion, an indirect call
 * site with two callees, a function cheap from one caller and expensive from another,
 * a never-used call site, two procedures with the same name), and helpers to build
 * reports from query strings.
 */
#ifndef DP_TEST_REPORT_FIX_H
#define DP_TEST_REPORT_FIX_H

#include "analysis/analysis.h"
#include "format/profile.h"
#include "report/report.h"
#include "test_analysis_gen.h"

/* The fixture's procedures (PS ids). */
enum {
	TF_ROOT = 1,
	TF_THREAD,
	TF_MAIN,
	TF_FIB,
	TF_WORK,
	TF_CHEAP,
	TF_CB1,
	TF_CB2,
	TF_EVEN,
	TF_ODD,
	TF_DUP_A,
	TF_DUP_B,
	TF_N_PS = TF_DUP_B
};

/*
 * The fixture's PDs are 1 root, 2 thread, 3 main, 4 fib, 5 work, 6 cheap (under work),
 * 7 cb1, 8 cb2, 9 is_even, 10 is_odd, 11 cheap (under main); CSD k and its samples:
 *   1 root->thread 0, 2 thread->main 2, 3 main->fib 5, 4 fib->fib 15, 5 main->work 1,
 *   6 work->cheap 40, 7 main->cb1 3, 8 main->cb2 4 (7 and 8 at one indirect site),
 *   9 main->is_even 1, 10 is_even->is_odd 5, 11 is_odd->is_even 4, 12 main->cheap 1.
 * callseqs = 10 x samples, allocs = samples, bytes = 8 x samples. Total samples 81.
 */
#define TF_TOTAL_SAMPLES 81u
#define TF_TOTAL_CALLS	 50u

/* tf_build - fill @p (released by the caller) with the fixture; 0 or < 0 */
int tf_build(struct dp_profile *p);

/* A profile with its analysis, as a report context. */
struct tf_ctx {
	struct dp_profile p;
	struct dp_analysis *a;
	struct dp_report_ctx c;
};

/* tf_sim - the simulation tf_gen_sim() runs (a test sets it before each tf_open()). */
extern struct dp_gen_sim tf_sim;

/* tf_gen_sim - a generator for tf_open(): dp_gen_simulate() with tf_sim. */
int tf_gen_sim(struct dp_profile *p);

/* tf_open - the fixture (or, if @gen is not NULL, a profile @gen fills) analysed; 0 or
 * < 0. tf_close frees it. */
int tf_open(struct tf_ctx *t, int (*gen)(struct dp_profile *p));
void tf_close(struct tf_ctx *t);

/* TF_OPEN - tf_open(@t, @gen), or fail the check and return from the test. */
#define TF_OPEN(t, gen)                        \
	do {                                   \
		if (tf_open((t), (gen)) < 0) { \
			CHECK(0);              \
			return;                \
		}                              \
	} while (0)

/* tf_report - the report answering query string @qs, or NULL (then *@rc, if not NULL,
 * has the error; the message is printed unless @quiet). */
struct dp_report *tf_report(struct tf_ctx *t, const char *qs, int *rc, int quiet);

/* tf_page - tf_report() of a query made with printf's @fmt, errors printed */
struct dp_report *tf_page(struct tf_ctx *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* tf_section - the section called @id of @r, or NULL */
const struct dp_rep_section *tf_section(const struct dp_report *r, const char *id);

/* tf_fact - the u64 fact @key of @r, or UINT64_MAX */
uint64_t tf_fact(const struct dp_report *r, const char *key);

/* tf_clique_of - the clique of PD @pd */
uint32_t tf_clique_of(const struct tf_ctx *t, uint32_t pd);

#endif /* DP_TEST_REPORT_FIX_H */
