/*
 * tests/unit/test_report_menu.c - the menu page (facts of the run, counts, root totals,
 * the starting links and their canonical queries) and the threads page in the per-thread
 * and merged views, on the sample profile, a two-thread profile and generated ones.
 */
#include "analysis/merge.h"
#include "test_analysis_gen.h"
#include "test_report2_fix.h"

/* the link labelled @label, or NULL */
static const struct dp_rep_link *link_of(const struct dp_report *r, const char *label)
{
	for (uint32_t i = 0; r && i < r->n_links; i++)
		if (strcmp(r->links[i].label, label) == 0)
			return &r->links[i];
	return NULL;
}

/* CHECK_LINK(r, label, query) - the link's canonical query string is @query */
#define CHECK_LINK(r, label, query)                                   \
	do {                                                          \
		const struct dp_rep_link *l_ = link_of((r), (label)); \
		struct dp_buf b_;                                     \
		dp_buf_init(&b_, 4096);                               \
		CHECK(l_ != NULL);                                    \
		if (l_)                                               \
			dp_query_format(l_->q, &b_);                  \
		CHECK_STR(dp_buf_cstr(&b_), (query));                 \
		dp_buf_release(&b_);                                  \
	} while (0)

TEST(menu_sample)
{
	struct fix f;
	struct dp_report *r;

	if (fix_sample(&f, 0) < 0) {
		CHECK(0);
		return;
	}
	r = fix_report(&f, "page=menu");
	if (!r) {
		fix_release(&f);
		return;
	}
	CHECK_STR(r->title, "Deep profile of /usr/bin/prog");
	CHECK_EQ(r->subject.kind, DP_ENT_PROGRAM);
	CHECK_EQ(r->subject.desc.samples, 13);
	/* the answers first: the top 5 by self and total time (as top ranks them), the hot
	 * path, the runtime's share of the samples */
	CHECK_EQ(r->n_sections, 3);
	if (r->n_sections == 3) {
		const struct dp_rep_section *s = &r->sections[0], *t = &r->sections[1];

		CHECK_STR(s->id, "top_self");
		CHECK_STR(t->id, "top_total");
		CHECK_STR(r->sections[2].id, "hot_path");
		CHECK(s->n_rows >= 1 && s->n_rows <= 5 && t->n_rows >= 1 && t->n_rows <= 5);
		for (uint32_t i = 1; i < s->n_rows; i++)
			CHECK(s->rows[i - 1].own.samples >= s->rows[i].own.samples);
		for (uint32_t i = 1; i < t->n_rows; i++)
			CHECK(t->rows[i - 1].own.samples + t->rows[i - 1].desc.samples >=
			      t->rows[i].own.samples + t->rows[i].desc.samples);
		CHECK(r->sections[2].n_rows >= 1 && r->sections[2].n_rows <= 8);
	}
	CHECK(fact(r, "run_seconds") && fact(r, "run_seconds")->f == 1.5);
	CHECK(fact(r, "runtime_share") && fact(r, "runtime_share")->f == 2.0 / 15.0);
	CHECK(r->note && strstr(r->note, "13.3% of the CPU samples (2 of 15) fell inside"));
	CHECK_STR(fact_s(r, "program"), "/usr/bin/prog");
	CHECK_STR(fact_s(r, "command_line"), "prog --n=30 \xc3\xbcn\xc3\xaf"
					     "code \"q\"\n\x01");
	CHECK_EQ(fact_u(r, "pid"), 4242);
	CHECK_EQ(fact_u(r, "ppid"), 1);
	CHECK_EQ(fact_u(r, "duration_ns"), 1500000000u);
	CHECK_EQ(fact_u(r, "exit_status"), 0);
	CHECK_EQ(fact_u(r, "sample_period_ns"), 1000123);
	CHECK_EQ(fact_u(r, "hz"), 1000);
	CHECK_EQ(fact_u(r, "samples_inside"), 2);
	CHECK_EQ(fact_u(r, "samples_outside"), 13);
	CHECK_EQ(fact_u(r, "total_callseqs"), ((uint64_t)1 << 40) + 300);
	CHECK(fact(r, "lost_calls") == NULL);
	CHECK(fact(r, "stop_reason") == NULL);
	CHECK_EQ(fact_u(r, "n_threads"), 2);
	CHECK_EQ(fact_u(r, "n_ps"), 8);
	CHECK_EQ(fact_u(r, "n_css"), 8);
	CHECK_EQ(fact_u(r, "n_pd"), 9);
	CHECK_EQ(fact_u(r, "n_csd"), 10);
	CHECK_EQ(fact_u(r, "n_cliques"), f.a->n_cliques);
	CHECK_EQ(fact_u(r, "n_modules"), 3);
	CHECK_EQ(fact_u(r, "n_objects"), 2);
	CHECK_EQ(fact_u(r, "root_samples"), 13);
	CHECK_EQ(fact_u(r, "root_callseqs"), ((uint64_t)1 << 40) + 300);
	CHECK_EQ(fact_u(r, "root_allocs"), 4);
	CHECK_EQ(fact_u(r, "root_bytes"), 4095); /* 4096 + UINT64_MAX, modulo 2^64 */
	/* 13 samples: the time links are there */
	CHECK_EQ(r->n_links, 21);
	CHECK_LINK(r, "The call graph from the root", "page=root");
	CHECK_LINK(r, "Where most of the cost is (action)", "page=action");
	CHECK_LINK(r, "Modules (source files)", "page=modules");
	CHECK_LINK(r, "Threads", "page=threads");
	CHECK_LINK(r, "Flame graph", "page=flame");
	CHECK_LINK(r, "Top 100 by time, self", "page=top");
	CHECK_LINK(r, "Top 100 by time, total", "page=top&scope=total");
	CHECK_LINK(r, "Top 100 by calls", "page=top&metric=calls");
	CHECK_LINK(r, "Top 100 by bytes, total", "page=top&metric=bytes&scope=total");
	CHECK_LINK(r, "At least 0.1% of the time, self", "page=top&limit=pct:0.1");
	CHECK_LINK(r, "At least 1 second, total", "page=top&limit=val:1&scope=total");
	CHECK_LINK(r, "At least 1% of the callseqs, total",
		   "page=top&limit=pct:1&metric=callseqs&scope=total");
	dp_report_free(r);
	/* preferences travel in every link */
	r = fix_report(&f, "page=menu&mq=always&sort=name");
	CHECK_LINK(r, "Modules (source files)", "page=modules&sort=name&mq=always");
	dp_report_free(r);
	fix_release(&f);
}

TEST(menu_stopped)
{
	struct fix f;
	struct dp_report *r;

	if (fix_sample(&f, DP_FEAT_STOPPED) < 0) {
		CHECK(0);
		return;
	}
	f.p.exit_status = 4; /* exit(3) */
	r = fix_report(&f, "page=menu");
	CHECK_EQ(fact_u(r, "lost_calls"), 77);
	CHECK_EQ(fact_u(r, "lost_samples"), 3);
	CHECK_EQ(fact_u(r, "lost_allocs"), 1);
	CHECK_STR(fact_s(r, "stop_reason"), "out of memory (DEEPPROF_MAX_MB=1)");
	CHECK_EQ(fact_u(r, "exit_status"), 3);
	dp_report_free(r);
	f.p.exit_status = 0; /* unknown */
	r = fix_report(&f, "page=menu");
	CHECK(r && fact(r, "exit_status") == NULL);
	dp_report_free(r);
	fix_release(&f);
}

/* Two threads (main, an unnamed one with tid 11) both running "work": root PD 1, thread
 * roots PD 2 and 3, work PD 4 (3 samples) and PD 5 (4 samples, 2 calls). */
static int two_threads(struct dp_profile *p)
{
	static const uint32_t pd_ps[] = {0, 1, 2, 2, 3, 3}, pd_thread[] = {0, 0, 1, 2, 1, 2};
	static const uint32_t csd[][5] = {
		{0}, {1, 1, 2, 1, 0}, {1, 1, 3, 1, 0}, {2, 2, 4, 1, 3}, {3, 2, 5, 2, 4},
	};
	int64_t name;

	if (dp_profile_init(p) < 0)
		return -1;
	p->root_pd = 1;
	p->n_ps = 3;
	p->n_css = 2;
	p->n_pd = 5;
	p->n_csd = 4;
	p->n_threads = 2;
	p->sample_period_ns = 1000000;
	p->ps = dp_arena_array(&p->arena, 4, sizeof(*p->ps));
	p->css = dp_arena_array(&p->arena, 3, sizeof(*p->css));
	p->pd = dp_arena_array(&p->arena, 6, sizeof(*p->pd));
	p->csd = dp_arena_array(&p->arena, 5, sizeof(*p->csd));
	p->threads = dp_arena_array(&p->arena, 3, sizeof(*p->threads));
	name = dp_strtab_intern_cstr(&p->strs, "main");
	if (!p->ps || !p->css || !p->pd || !p->csd || !p->threads || name < 0)
		return -1;
	p->ps[1].kind = DP_PS_ROOT;
	p->ps[2].kind = DP_PS_THREAD;
	p->ps[3].addr = 0x1000;
	p->css[1] = (struct dp_css){.ps = 1, .kind = DP_CSS_THREAD};
	p->css[2] = (struct dp_css){.ps = 2, .kind = DP_CSS_ENTRY, .addr = 0x2000};
	for (uint32_t i = 1; i <= 5; i++)
		p->pd[i] = (struct dp_pd){.ps = pd_ps[i], .thread = pd_thread[i]};
	for (uint32_t i = 1; i <= 4; i++)
		p->csd[i] = (struct dp_csd){.caller = csd[i][0],
					    .css = csd[i][1],
					    .callee = csd[i][2],
					    .calls = csd[i][3],
					    .exits = csd[i][3],
					    .samples = csd[i][4]};
	p->threads[1] = (struct dp_thread){10, (uint32_t)name, 2, 100, 900, 5, DP_THREAD_MAIN};
	p->threads[2] =
		(struct dp_thread){11, 0, 3, 200, 0, 0, DP_THREAD_ENDED | DP_THREAD_STOPPED};
	return 0;
}

TEST(threads_per_thread)
{
	struct fix f;
	struct dp_report *r;
	const struct dp_rep_section *s;

	if (two_threads(&f.p) < 0 || fix_analyse(&f) < 0) {
		CHECK(0);
		return;
	}
	r = fix_report(&f, "page=threads&view=threads");
	s = section(r, "threads");
	CHECK_IDS(s, DP_ENT_THREAD, 1, 2);
	if (s && s->n_rows == 2) {
		/* named by their entry function (unsymbolized here) and number */
		CHECK_STR(s->rows[0].name, "0x1000 (thread 1)");
		CHECK_STR(s->rows[1].name, "0x1000 (thread 2)");
		CHECK_EQ(s->rows[0].thread, 1);
		CHECK_EQ(s->rows[1].thread, 2);
		CHECK_EQ(s->rows[0].n, 1);
		CHECK_EQ(s->rows[0].flags, 0);
		CHECK_EQ(s->rows[0].own.calls, 1);
		CHECK_EQ(s->rows[0].desc.samples, 3);
		CHECK_EQ(s->rows[1].desc.samples, 4);
		CHECK_EQ(s->rows[1].clique, f.a->pd_clique[3]);
	}
	CHECK_EQ(fact_u(r, "thread_1_tid"), 10);
	CHECK_EQ(fact_u(r, "thread_1_start_ns"), 100);
	CHECK_EQ(fact_u(r, "thread_1_end_ns"), 900);
	CHECK_EQ(fact_u(r, "thread_1_samples_inside"), 5);
	CHECK_STR(fact_s(r, "thread_1_flags"), "main");
	CHECK_STR(fact_s(r, "thread_2_flags"), "ended,stopped");
	CHECK_EQ(fact_u(r, "thread_2_tid"), 11);
	dp_report_free(r);
	/* by cost: the second thread has more time */
	r = fix_report(&f, "page=threads&sort=cost:time:total");
	CHECK_IDS(section(r, "threads"), DP_ENT_THREAD, 2, 1);
	dp_report_free(r);
	r = fix_report(&f, "page=threads&thread=2");
	CHECK_IDS(section(r, "threads"), DP_ENT_THREAD, 2);
	dp_report_free(r);
	/* 7 samples: no time links on the menu */
	r = fix_report(&f, "page=menu");
	CHECK_EQ(r ? r->n_links : 0, 16);
	CHECK(link_of(r, "Top 100 by time, self") == NULL);
	CHECK(link_of(r, "Top 100 by callseqs, self") != NULL);
	CHECK_STR(r ? r->sections[0].title : "", "Top 5 by self callseqs");
	dp_report_free(r);
	CHECK_EQ(fix_try(&f, "page=threads&thread=3", &r), -DP_ENOENT);
	CHECK_STR(dp_errmsg(), "unknown thread id=3 (valid: 1..2)");
	fix_release(&f);
}

TEST(threads_merged)
{
	struct fix f;
	struct dp_profile per;
	struct dp_report *r;
	const struct dp_rep_section *s;

	if (two_threads(&per) < 0 || dp_profile_merge_threads(&per, &f.p) < 0 ||
	    fix_analyse(&f) < 0) {
		CHECK(0);
		return;
	}
	r = fix_report(&f, "page=threads");
	s = section(r, "threads");
	CHECK(s != NULL);
	CHECK_EQ(s ? s->n_rows : 0, 1);
	if (s && s->n_rows == 1) {
		CHECK_EQ(s->rows[0].kind, DP_ENT_THREAD);
		CHECK_EQ(s->rows[0].id, 1);
		CHECK_EQ(s->rows[0].thread, 0);
		CHECK_EQ(s->rows[0].n, 2);
		CHECK_EQ(s->rows[0].flags, DP_ROW_SUM);
		CHECK_STR(s->rows[0].name, "0x1000 (threads 1, 2)");
		CHECK_EQ(s->rows[0].own.calls, 2);
		CHECK_EQ(s->rows[0].desc.samples, 7);
	}
	dp_report_free(r);
	/* thread=N picks the merged row holding N */
	r = fix_report(&f, "page=threads&thread=2");
	CHECK_IDS(section(r, "threads"), DP_ENT_THREAD, 1);
	dp_report_free(r);
	fix_release(&f);
	dp_profile_release(&per);
}

/* On generated profiles, in both views: the thread rows' total samples add up to the
 * root total, the menu's root facts are the sums of every CSD's own costs. */
TEST(threads_generated)
{
	for (uint64_t seed = 1; seed <= 6; seed++) {
		struct dp_gen_sim g = {.seed = seed,
				       .n_fn = 12,
				       .n_threads = 1 + (uint32_t)seed,
				       .n_steps = 800,
				       .max_depth = 12,
				       .pct_call = 55};
		struct dp_profile per;
		struct fix f;
		struct dp_report *r;
		const struct dp_rep_section *s;
		uint64_t samples = 0, csd_samples = 0, csd_bytes = 0;

		if (dp_gen_simulate(&per, &g) < 0 || dp_profile_merge_threads(&per, &f.p) < 0 ||
		    fix_analyse(&f) < 0) {
			CHECK(0);
			return;
		}
		r = fix_report(&f, "page=threads");
		s = section(r, "threads");
		for (uint32_t i = 0; s && i < s->n_rows; i++) {
			samples += s->rows[i].own.samples + s->rows[i].desc.samples;
			CHECK(s->rows[i].n >= 1);
		}
		CHECK_EQ(samples, f.a->root_total.samples);
		dp_report_free(r);
		for (uint32_t i = 1; i <= f.p.n_csd; i++) {
			csd_samples += f.p.csd[i].samples;
			csd_bytes += f.p.csd[i].alloc_bytes;
		}
		r = fix_report(&f, "page=menu");
		CHECK_EQ(fact_u(r, "root_samples"), csd_samples);
		CHECK_EQ(fact_u(r, "root_bytes"), csd_bytes);
		CHECK_EQ(fact_u(r, "n_threads"), g.n_threads);
		dp_report_free(r);
		fix_release(&f);
		dp_profile_release(&per);
	}
}

DP_TEST_MAIN(test_menu_sample, test_menu_stopped, test_threads_per_thread, test_threads_merged,
	     test_threads_generated)
