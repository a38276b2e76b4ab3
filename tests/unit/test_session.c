/*
 * tests/unit/test_session.c - the session's background thread (src/front/session_load.c):
 * with DP_SESSION_BACKGROUND the merged view's flame index is built off the loading
 * thread and published (its view's ix_done), then the per-thread view is analysed with its own
 * index; without it the merged view gets no index (a one-shot query answers sooner
 * without). Either way the flame and callers pages of both views are the same, byte for
 * byte, in HTML and JSON (the indexes hold every clique and procedure with two children
 * or contexts, so a view answered with the other's index would differ).
 */
#define _GNU_SOURCE /* mkdtemp */

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/err.h"
#include "format/writer.h"
#include "front/session.h"
#include "front/session_int.h"
#include "harness.h"
#include "test_analysis_gen.h"

/* the answers of sessions @x and @y to @q the same in @fmt, status 200 */
static void same_answer(struct dp_session *x, struct dp_session *y, const char *q,
			enum dp_format fmt)
{
	struct dp_answer a, b;

	CHECK_EQ(dp_session_answer(x, 0, q, fmt, NULL, &a), 0);
	CHECK_EQ(dp_session_answer(y, 0, q, fmt, NULL, &b), 0);
	CHECK_EQ(a.status, 200);
	CHECK_EQ(b.status, a.status);
	CHECK_EQ(a.body.len, b.body.len);
	CHECK(a.body.len == b.body.len && memcmp(a.body.data, b.body.data, a.body.len) == 0);
	dp_buf_release(&a.body);
	dp_buf_release(&b.body);
}

TEST(background_index)
{
	static const char *const pages[] = {
		"page=flame",
		"page=flame&min=0",
		"page=flame_callers&min=0&proc=",
		"page=flame_callers&metric=callseqs&proc=",
		"page=callers&group=clique&sort=cost&proc=",
		"page=callers&group=site&proc=",
	}; /* those ending in proc= get the procedure with the most contexts */
	char dir[] = "/tmp/dp_test_session.XXXXXX", path[64];

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/sim.data", dir);
	for (uint64_t seed = 41; seed < 44; seed++) {
		struct dp_gen_sim g = {.seed = seed,
				       .n_fn = 40,
				       .n_threads = 3,
				       .n_steps = 20000,
				       .max_depth = 12,
				       .pct_call = 52};
		struct dp_session *plain = dp_session_new(DP_SESSION_QUIET);
		struct dp_session *bg = dp_session_new(DP_SESSION_QUIET | DP_SESSION_BACKGROUND);
		struct dp_sfile *fp, *fb;
		struct dp_profile p;
		uint32_t ps;

		CHECK_EQ(dp_gen_simulate_starts(&p, &g, 2), 0); /* threads share starts */
		if (plain && bg) { /* index every clique and procedure with two or more */
			plain->ix_min_kids = bg->ix_min_kids = 2;
			plain->ix_min_ctx = bg->ix_min_ctx = 2;
		}
		CHECK_EQ(dp_write_file(&p, path), 0);
		dp_profile_release(&p);
		CHECK(plain && bg);
		if (!plain || !bg || dp_session_open(plain, path, NULL) != 0 ||
		    dp_session_open(bg, path, NULL) != 0) {
			fprintf(stderr, "cannot open %s: %s\n", path, dp_errmsg());
			CHECK(0);
			dp_session_free(plain);
			dp_session_free(bg);
			continue;
		}
		/* while the background thread may still be building: the same pages */
		ps = dp_analysis_widest_ps(dp_sfile_view(bg->files[0], DP_VIEW_MERGED)->a);
		for (uint32_t i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
			char q[160];

			snprintf(q, sizeof(q), "%s%u", pages[i], ps);
			same_answer(plain, bg, strstr(q, "proc=") ? q : pages[i], DP_FMT_JSON);
		}
		dp_session_wait(bg);
		fp = plain->files[0];
		fb = bg->files[0];
		CHECK(fb->has_merged); /* threads entering the same functions merge */
		/* the plain session built no index for the merged view; the background one did,
		 * published it, and analysed the per-thread view with its own index */
		{
			const struct dp_view *pm = &fp->view[DP_VIEW_MERGED];
			const struct dp_view *bm = &fb->view[DP_VIEW_MERGED];
			const struct dp_view *bt = &fb->view[DP_VIEW_THREADS];

			CHECK(!atomic_load(&pm->ix_done));
			CHECK(pm->ix == NULL);
			CHECK(atomic_load(&bm->ix_done));
			CHECK(bm->ix != NULL && dp_report_index_size(bm->ix).cliques > 0 &&
			      dp_report_index_size(bm->ix).procs > 0);
			CHECK(bt->a != NULL && bt->ix != NULL && bt->ix != bm->ix);
		}
		for (uint32_t i = 0; i < sizeof(pages) / sizeof(pages[0]); i++)
			for (uint32_t view = 0; view < 2; view++) {
				const char *v = view ? "&view=threads" : "";
				char q[160];

				if (strstr(pages[i], "proc="))
					snprintf(q, sizeof(q), "%s%u%s", pages[i], ps, v);
				else
					snprintf(q, sizeof(q), "%s%s", pages[i], v);
				same_answer(plain, bg, q, DP_FMT_HTML);
				same_answer(plain, bg, q, DP_FMT_JSON);
			}
		dp_session_free(plain);
		dp_session_free(bg);
	}
	unlink(path);
	rmdir(dir);
}

DP_TEST_MAIN(test_background_index)
