/*
 * tests/unit/test_export.c - src/export on profiles built in memory: exact folded and
 * Callgrind output for mutual recursion (recursive arcs carry their count and no cost),
 * a 100,000-deep chain with and without a back arc (no recursion in the walk), the
 * subtree queries, a PD reached by two paths exported once, the pprof stream (gzip that
 * inflates to a protobuf starting with samples), write errors passed on, bad ids.
 */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "analysis/analysis.h"
#include "core/buf.h"
#include "core/err.h"
#include "deepprof/format.h"
#include "export/export.h"
#include "harness.h"
#include "test_analysis_mini.h"

struct mini_csd {
	uint32_t caller, callee;
	uint64_t calls, samples, callseqs, allocs, bytes;
};

/* PS 1 root, 2 thread, 3.. functions named f3, f4, ...; one CSS per CSD at line 100+i;
 * sampling period 1000 ns. */
static int build(struct dp_profile *p, uint32_t n_ps, const uint32_t *pd_ps, uint32_t n_pd,
		 const struct mini_csd *c, uint32_t n_csd)
{
	char name[16];

	if (dp_profile_init(p) < 0)
		return -1;
	p->root_pd = 1;
	p->sample_period_ns = 1000;
	p->n_ps = n_ps;
	p->n_pd = n_pd;
	p->n_css = p->n_csd = n_csd;
	p->ps = dp_arena_array(&p->arena, (size_t)n_ps + 1, sizeof(*p->ps));
	p->pd = dp_arena_array(&p->arena, (size_t)n_pd + 1, sizeof(*p->pd));
	p->css = dp_arena_array(&p->arena, (size_t)n_csd + 1, sizeof(*p->css));
	p->csd = dp_arena_array(&p->arena, (size_t)n_csd + 1, sizeof(*p->csd));
	if (!p->ps || !p->pd || !p->css || !p->csd)
		return -1;
	p->ps[1].kind = DP_PS_ROOT;
	p->ps[2].kind = DP_PS_THREAD;
	for (uint32_t s = 3; s <= n_ps; s++) {
		snprintf(name, sizeof(name), "f%u", s);
		p->ps[s].name = (uint32_t)dp_strtab_intern_cstr(&p->strs, name);
		p->ps[s].line = s;
	}
	for (uint32_t i = 1; i <= n_pd; i++) {
		p->pd[i].ps = pd_ps[i];
		p->pd[i].thread = i == 1 ? 0 : 1;
	}
	for (uint32_t i = 1; i <= n_csd; i++) {
		p->css[i].ps = pd_ps[c[i - 1].caller];
		p->css[i].line = 100 + i;
		p->csd[i] = DP_MINI_CSD(&c[i - 1], i);
	}
	return 0;
}

static int to_buf(void *arg, const void *data, size_t len)
{
	return dp_buf_add(arg, data, len);
}

static int failing(void *arg, const void *data, size_t len)
{
	(void)arg;
	(void)data;
	(void)len;
	return dp_error(DP_EIO, "disk full");
}

/* The export of @a with format @f (and @o's other fields) as a string in @out. */
static int run(const struct dp_analysis *a, enum dp_export_format f, struct dp_export_opts *o,
	       struct dp_buf *out)
{
	o->format = f;
	dp_buf_reset(out);
	return dp_export(a, o, to_buf, out);
}

/* root -> thread -> f3 -> f4 <-> f5 (f5 -> f4 recursive), f4 -> f6 */
static const uint32_t mutual_ps[] = {0, 1, 2, 3, 4, 5, 6};
static const struct mini_csd mutual_csd[] = {
	{1, 2, 1, 0, 1, 0, 0},	{2, 3, 1, 1, 1, 0, 0},	{3, 4, 2, 2, 10, 0, 0},
	{4, 5, 4, 5, 20, 1, 8}, {5, 4, 3, 7, 30, 0, 0}, {4, 6, 6, 11, 50, 2, 64},
};

TEST(mutual_folded_callgrind)
{
	struct dp_profile p;
	struct dp_analysis *a = NULL;
	struct dp_export_opts o;
	struct dp_buf out;

	dp_buf_init(&out, 1 << 20);
	dp_export_opts_init(&o);
	CHECK_EQ(build(&p, 6, mutual_ps, 6, mutual_csd, 6), 0);
	a = dp_mini_analyse(&p);
	if (!a)
		goto out;
	o.has_metric = true;
	o.metric = DP_METRIC_CALLS;
	CHECK_EQ(run(a, DP_EXPORT_FOLDED, &o, &out), 0);
	/* f4's calls include the 3 recursive ones from f5, folded onto it */
	CHECK_STR(dp_buf_cstr(&out), "f3 1\nf3;f4 5\nf3;f4;f5 4\nf3;f4;f6 6\n");
	o.metric = DP_METRIC_TIME;
	CHECK_EQ(run(a, DP_EXPORT_FOLDED, &o, &out), 0);
	CHECK_STR(dp_buf_cstr(&out), "f3 1000\nf3;f4 9000\nf3;f4;f5 5000\nf3;f4;f6 11000\n");
	o.has_metric = false;
	CHECK_EQ(run(a, DP_EXPORT_CALLGRIND, &o, &out), 0);
	/* the tree arc f4 -> f5 carries f5's subtree, the recursive arc f5 -> f4 its count
	 * and no cost: f3's inclusive Time is the total, 26000 */
	CHECK(strstr(dp_buf_cstr(&out), "cfn=(3) f5\ncalls=4 5\n104 5000 4 20 1 8\n") != NULL);
	CHECK(strstr(dp_buf_cstr(&out), "cfn=(2)\ncalls=3 4\n105 0 0 0 0 0\n") != NULL);
	CHECK(strstr(dp_buf_cstr(&out), "cfn=(2) f4\ncalls=2 4\n103 25000 15 110 3 72\n") != NULL);
	CHECK(strstr(dp_buf_cstr(&out), "totals: 26000 16 111 3 72\n") != NULL);
	/* subtree of procedure f5: stacks start at it */
	o.root = DP_EXPORT_PROC;
	o.id = 5;
	o.has_metric = true;
	o.metric = DP_METRIC_CALLS;
	CHECK_EQ(run(a, DP_EXPORT_FOLDED, &o, &out), 0);
	CHECK_STR(dp_buf_cstr(&out), "f5 4\n");
	o.id = 99;
	CHECK_EQ(run(a, DP_EXPORT_FOLDED, &o, &out), -DP_EUSAGE);
	o.root = DP_EXPORT_CLIQUE;
	o.id = a->n_cliques + 1;
	CHECK_EQ(run(a, DP_EXPORT_FOLDED, &o, &out), -DP_EUSAGE);
	o.id = a->pd_clique[4];
	CHECK_EQ(run(a, DP_EXPORT_FOLDED, &o, &out), 0);
	CHECK_STR(dp_buf_cstr(&out), "f4 5\nf4;f5 4\nf4;f6 6\n");
	/* write errors come back */
	o.root = DP_EXPORT_ALL;
	for (int f = 0; f < DP_EXPORT_COUNT; f++) {
		o.format = (enum dp_export_format)f;
		o.has_metric =
			f == DP_EXPORT_FOLDED || f == DP_EXPORT_SPEEDSCOPE || f == DP_EXPORT_DOT;
		CHECK_EQ(dp_export(a, &o, failing, NULL), -DP_EIO);
	}
	dp_analysis_free(a);
out:
	dp_profile_release(&p);
	dp_buf_release(&out);
}

/* A PD reached from two callers that are not its ancestors (not a runtime file): it is
 * exported once, under the first; the other arc keeps its count. */
TEST(two_paths)
{
	static const uint32_t pd_ps[] = {0, 1, 2, 3, 4, 5, 6};
	static const struct mini_csd c[] = {
		{1, 2, 1, 0, 0, 0, 0}, {2, 3, 1, 1, 0, 0, 0}, {3, 4, 1, 1, 0, 0, 0},
		{3, 5, 1, 1, 0, 0, 0}, {4, 6, 2, 3, 0, 0, 0}, {5, 6, 5, 7, 0, 0, 0},
	};
	struct dp_profile p;
	struct dp_analysis *a = NULL;
	struct dp_export_opts o;
	struct dp_buf out;

	dp_buf_init(&out, 1 << 20);
	dp_export_opts_init(&o);
	CHECK_EQ(build(&p, 6, pd_ps, 6, c, 6), 0);
	a = dp_mini_analyse(&p);
	if (!a)
		goto out;
	o.has_metric = true;
	o.metric = DP_METRIC_CALLS;
	CHECK_EQ(run(a, DP_EXPORT_FOLDED, &o, &out), 0);
	CHECK_STR(dp_buf_cstr(&out), "f3 1\nf3;f4 1\nf3;f4;f6 7\nf3;f5 1\n");
	o.has_metric = false;
	CHECK_EQ(run(a, DP_EXPORT_CALLGRIND, &o, &out), 0);
	CHECK(strstr(dp_buf_cstr(&out), "calls=5 6\n106 0 0 0 0 0\n") != NULL);
	dp_analysis_free(a);
out:
	dp_profile_release(&p);
	dp_buf_release(&out);
}

#define DEEP 100000u

/* root -> thread -> a chain of DEEP - 2 functions (f3, f4 alternating) whose only costs
 * are at the end (every context with a cost spells its whole stack in folded, pprof and
 * speedscope: a cost on each would make the output quadratic): the last call counts 1
 * and 5 samples; with @back, a recursive arc from the last one to the first, the same. */
static void deep_chain(int back)
{
	uint32_t n_csd = DEEP - 1 + (back ? 1 : 0);
	uint32_t *pd_ps = malloc((DEEP + 1) * sizeof(*pd_ps));
	struct mini_csd *c = malloc(n_csd * sizeof(*c));
	struct dp_profile p;
	struct dp_analysis *a = NULL;
	struct dp_export_opts o;
	struct dp_buf out;
	size_t lines = 0, frames = 0;

	dp_buf_init(&out, (size_t)1 << 30);
	dp_export_opts_init(&o);
	CHECK(pd_ps && c);
	if (!pd_ps || !c)
		goto out_free;
	for (uint32_t i = 1; i <= DEEP; i++)
		pd_ps[i] = i < 3 ? i : 3 + i % 2;
	for (uint32_t i = 1; i < DEEP; i++)
		c[i - 1] =
			(struct mini_csd){i, i + 1, i == DEEP - 1, i == DEEP - 1 ? 5 : 0, 0, 0, 0};
	if (back)
		c[DEEP - 1] = (struct mini_csd){DEEP, 3, 1, 5, 0, 0, 0};
	CHECK_EQ(build(&p, 4, pd_ps, DEEP, c, n_csd), 0);
	a = dp_mini_analyse(&p);
	if (!a)
		goto out;
	CHECK_EQ(run(a, DP_EXPORT_FOLDED, &o, &out), 0);
	for (size_t k = 0; k < out.len; k++) {
		lines += out.data[k] == '\n';
		frames += out.data[k] == ';';
	}
	CHECK_EQ(lines, back ? 2u : 1u);
	CHECK_EQ(frames, DEEP - 3);
	CHECK(out.len > 6 && memcmp(out.data + out.len - 6, " 5000\n", 6) == 0);
	if (back)
		CHECK(memcmp(out.data, "f4 5000\n", 8) == 0);
	CHECK_EQ(run(a, DP_EXPORT_CALLGRIND, &o, &out), 0);
	CHECK(strstr(dp_buf_cstr(&out), back ? "totals: 10000 2 " : "totals: 5000 1 ") != NULL);
	for (int f = DP_EXPORT_PPROF; f <= DP_EXPORT_DOT; f++)
		CHECK_EQ(run(a, (enum dp_export_format)f, &o, &out), 0);
	dp_analysis_free(a);
out:
	dp_profile_release(&p);
out_free:
	dp_buf_release(&out);
	free(pd_ps);
	free(c);
}

TEST(deep_chains)
{
	deep_chain(0);
	deep_chain(1);
}

/* The pprof stream is gzip; inflated, it is a protobuf whose first field is a Sample
 * (field 2, length-delimited: key 0x12) and which holds the string "f6". */
TEST(pprof_stream)
{
	struct dp_profile p;
	struct dp_analysis *a = NULL;
	struct dp_export_opts o;
	struct dp_buf out;
	unsigned char raw[4096];
	z_stream z;

	memset(&z, 0, sizeof(z));
	dp_buf_init(&out, 1 << 20);
	dp_export_opts_init(&o);
	CHECK_EQ(build(&p, 6, mutual_ps, 6, mutual_csd, 6), 0);
	a = dp_mini_analyse(&p);
	if (!a)
		goto out;
	CHECK_EQ(run(a, DP_EXPORT_PPROF, &o, &out), 0);
	CHECK(out.len > 20 && out.data[0] == 0x1f && out.data[1] == 0x8b);
	CHECK_EQ(inflateInit2(&z, 15 + 16), Z_OK);
	z.next_in = out.data;
	z.avail_in = (uInt)out.len;
	z.next_out = raw;
	z.avail_out = sizeof(raw);
	CHECK_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);
	CHECK_EQ(raw[0], 0x12);
	CHECK(memmem(raw, sizeof(raw) - z.avail_out,
		     "\x32\x02"
		     "f6",
		     4) != NULL);
	inflateEnd(&z);
	dp_analysis_free(a);
out:
	dp_profile_release(&p);
	dp_buf_release(&out);
}

DP_TEST_MAIN(test_mutual_folded_callgrind, test_two_paths, test_deep_chains, test_pprof_stream)
