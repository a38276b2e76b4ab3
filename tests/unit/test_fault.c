/*
 * tests/unit/test_fault.c - allocation fault injection (tests/fault/fault_alloc.h) over
 * the whole pipeline: a session loads the sample profile (two threads, so both views)
 * and answers pages of every kind in text, JSON and HTML, first without a fault, then
 * once for each N with the N-th allocation failing, until a run makes fewer than N.
 * Every failure must be clean: dp_session_new() NULL, dp_session_open() or
 * dp_session_answer() -DP_ENOMEM with a message, or an answer of status 500; every answer
 * that succeeds must be the one of the run without a fault, byte for byte (a failed
 * report index is no failure: the pages answer the same without it); and nothing may
 * leak (the wrappers' count of live allocations, and LeakSanitizer in the ASan build).
 * Run twice: a one-shot session, and a server's (background thread, report indexes).
 */
#define _GNU_SOURCE /* mkdtemp */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/arena.h"
#include "core/buf.h"
#include "core/err.h"
#include "deepprof/format.h"
#include "fault_alloc.h"
#include "format/writer.h"
#include "front/session.h"
#include "front/session_int.h"
#include "harness.h"
#include "sample_profile.h"

static const char *const queries[] = {
	"",
	"page=root",
	"page=action&metric=callseqs",
	"page=clique&id=2",
	"page=proc&id=2",
	"page=callers&proc=2&group=clique&sort=cost",
	"page=callers&proc=3&group=site",
	"page=modules",
	"page=module&id=1",
	"page=top&metric=calls",
	"page=site&id=1",
	"page=threads",
	"page=flame&min=0",
	"page=flame_callers&proc=2&min=0",
	"page=clique&id=1&view=threads",
	"page=flame&min=0&view=threads",
	"page=dump_pd&id=1",
	"page=bogus",
};

#define N_Q   (sizeof(queries) / sizeof(queries[0]))
#define N_ANS (N_Q * 3)

static char path[256], dir[128];
static uint64_t cur_n; /* the allocation failing, for the messages */

/* The answers of a run without a fault. */
static struct {
	int status;
	char *body;
} want[N_ANS];

/* One run: a session that opens the sample and answers every query in every format.
 * @record: keep the answers in want[]; else compare with them. Returns 1 when it ran to
 * the end, 0 when it stopped at a clean failure; a failure that is not clean is a
 * failed CHECK. */
static int run(unsigned flags, bool record)
{
	struct dp_session *s = dp_session_new(DP_SESSION_QUIET | flags);
	int rc, done = 1;

	if (!s)
		return 0;
	s->ix_min_kids = s->ix_min_ctx = 1; /* index every clique and procedure */
	rc = dp_session_open(s, path, NULL);
	if (rc < 0) {
		CHECK_EQ(rc, -DP_ENOMEM);
		CHECK(strstr(dp_errmsg(), "memory") != NULL);
		dp_session_free(s);
		return 0;
	}
	if (flags & DP_SESSION_BACKGROUND)
		dp_session_wait(s);
	for (size_t i = 0; i < N_ANS; i++) {
		struct dp_answer a;

		rc = dp_session_answer(s, 0, queries[i / 3], (enum dp_format)(i % 3), NULL, &a);
		if (rc < 0) {
			CHECK_EQ(rc, -DP_ENOMEM);
			CHECK(dp_errmsg()[0] != '\0');
			done = 0;
		} else if (record) {
			want[i].status = a.status;
			want[i].body = strdup(dp_buf_cstr(&a.body));
		} else if (a.status == 500) {
			done = 0; /* out of memory told as an answer */
		} else {
			CHECK_EQ(a.status, want[i].status);
			if (strcmp(dp_buf_cstr(&a.body), want[i].body) != 0) {
				fprintf(stderr,
					"allocation %llu failing: answer %zu (%s) differs\n",
					(unsigned long long)cur_n, i, queries[i / 3]);
				if (getenv("DP_FAULT_SHOW"))
					fprintf(stderr, "--- want\n%s\n--- got\n%s\n", want[i].body,
						dp_buf_cstr(&a.body));
				CHECK(0);
			}
		}
		dp_buf_release(&a.body);
	}
	dp_session_free(s);
	return done;
}

/* After a run: drops the arenas' cached blocks and waits (up to 2 s) for the live blocks to
 * come back to @live, since dp_par_split()'s helper thread, detached, may still be freeing
 * its job when the run returns. */
static void settle(int64_t live)
{
	dp_arena_cache_drop();
	for (int wait = 0; wait < 2000 && dp_fault_live() != live; wait++)
		usleep(1000);
}

/* Fails each allocation of a run in turn; returns how many runs were made. */
static uint64_t fail_each(unsigned flags)
{
	/* to investigate one failure: DP_FAULT_ONLY=N (with DP_FAULT_TRACE=1 for where) */
	uint64_t only = getenv("DP_FAULT_ONLY") ? strtoull(getenv("DP_FAULT_ONLY"), NULL, 10) : 0;
	uint64_t from = only ? only : 1;
	/* DP_FAULT_STRIDE=K: every K-th allocation only (the sanitized builds' runs are slow) */
	uint64_t stride =
		getenv("DP_FAULT_STRIDE") ? strtoull(getenv("DP_FAULT_STRIDE"), NULL, 10) : 1;
	int64_t live;
	uint64_t n, total, clean = 0;

	dp_arena_cache_drop(); /* the blocks kept for the next arenas are not leaks */
	live = dp_fault_live();
	dp_fault_arm(0);
	CHECK_EQ(run(flags, false), 1);
	total = dp_fault_count();
	settle(live);
	CHECK_EQ(dp_fault_live(), live);
	if (stride < 1)
		stride = 1;
	for (n = from; n < 1000000 && (!only || n == only); n += stride) {
		int done;

		dp_fault_arm(n);
		cur_n = n;
		done = run(flags, false);
		if (!dp_fault_fired())
			break; /* the run made fewer than n allocations: every one has failed */
		clean += !done;
		settle(live);
		if (dp_fault_live() != live) {
			fprintf(stderr, "allocation %llu failing leaks %lld blocks\n",
				(unsigned long long)n, (long long)(dp_fault_live() - live));
			CHECK(0);
			live = dp_fault_live();
		}
	}
	dp_fault_arm(0);
	fprintf(stderr,
		"%s: %llu allocations in a run, failed in turn (stride %llu): %llu runs "
		"stopped cleanly, the others answered the same\n",
		flags ? "server session" : "one-shot session", (unsigned long long)total,
		(unsigned long long)stride, (unsigned long long)clean);
	CHECK(only || (n > total / 2 && clean > 0));
	return n;
}

TEST(fault_each_allocation)
{
	struct dp_profile p;

	snprintf(dir, sizeof(dir), "/tmp/dp_test_fault.XXXXXX");
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/sample.data", dir);
	CHECK_EQ(dp_sample_profile(&p, DP_FEAT_SYMBOLIZED), 0);
	CHECK_EQ(dp_write_file(&p, path), 0);
	dp_profile_release(&p);
	CHECK_EQ(run(0, true), 1);
	for (size_t i = 0; i < N_ANS; i++)
		CHECK(want[i].body != NULL);
	CHECK_EQ(want[N_ANS - 1].status, 400); /* the bogus page */
	fail_each(0);
	fail_each(DP_SESSION_BACKGROUND);
	for (size_t i = 0; i < N_ANS; i++)
		free(want[i].body);
	unlink(path);
	rmdir(dir);
}

DP_TEST_MAIN(test_fault_each_allocation)
