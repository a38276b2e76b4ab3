/*
 * tests/unit/test_analysis_contour.c - contour exclusion (analysis/contour.h): which
 * procedures "all"/"internal" lines exclude (modules by path suffix, objects by path or
 * file name), bad lines with their line number, unknown-module warnings and the all-unknown
 * error, reading a file, and dp_contour_site() walking up through excluded callers
 * (through a clique, and along a 100,000-deep chain).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <unistd.h>

#include "analysis/analysis.h"
#include "analysis/contour.h"
#include "core/err.h"
#include "deepprof/format.h"
#include "harness.h"

#define N_PS 9

/*
 * PS 3 main (app/main.c), 4 lib_x (lib/map.c), 5 lib_y (lib/map.c, static), 6 target
 * (lib/tree.c, static), 7 tree_pub (lib/tree.c), 8 helper (app/util.c, static), 9 a libc
 * function without a file. Objects: 1 prog (3, 8), 2 libfoo.so.1 (4-7), 3 libc.so.6 (9).
 */
static const char *const ps_file[N_PS + 1] = {NULL,
					      NULL,
					      NULL,
					      "/src/app/main.c",
					      "/src/lib/map.c",
					      "/src/lib/map.c",
					      "/src/lib/tree.c",
					      "/src/lib/tree.c",
					      "/src/app/util.c",
					      NULL};
static const uint32_t ps_link[N_PS + 1] = {0,
					   0,
					   0,
					   DP_LINK_GLOBAL,
					   DP_LINK_GLOBAL,
					   DP_LINK_STATIC,
					   DP_LINK_STATIC,
					   DP_LINK_GLOBAL,
					   DP_LINK_STATIC,
					   DP_LINK_GLOBAL};
static const uint32_t ps_obj[N_PS + 1] = {0, 0, 0, 1, 2, 2, 2, 2, 1, 3};
static const char *const obj_path[] = {NULL, "/usr/bin/prog", "/usr/lib/libfoo.so.1",
				       "/usr/lib/libc.so.6"};

static uint32_t str(struct dp_profile *p, const char *s)
{
	int64_t id = s ? dp_strtab_intern_cstr(&p->strs, s) : 0;

	return id < 0 ? 0 : (uint32_t)id;
}

/* The static part above; PDs from @pd_ps (@n_pd), CSD i = (caller[i], callee[i]) with
 * CSS i. */
static int build(struct dp_profile *p, const uint32_t *pd_ps, uint32_t n_pd, const uint32_t *caller,
		 const uint32_t *callee, uint32_t n_csd)
{
	if (dp_profile_init(p) < 0)
		return -1;
	p->root_pd = 1;
	p->n_ps = N_PS;
	p->n_objects = 3;
	p->n_pd = n_pd;
	p->n_css = p->n_csd = n_csd;
	p->ps = dp_arena_array(&p->arena, N_PS + 1, sizeof(*p->ps));
	p->objects = dp_arena_array(&p->arena, 4, sizeof(*p->objects));
	p->pd = dp_arena_array(&p->arena, (size_t)n_pd + 1, sizeof(*p->pd));
	p->css = dp_arena_array(&p->arena, (size_t)n_csd + 1, sizeof(*p->css));
	p->csd = dp_arena_array(&p->arena, (size_t)n_csd + 1, sizeof(*p->csd));
	if (!p->ps || !p->objects || !p->pd || !p->css || !p->csd)
		return -1;
	for (uint32_t i = 1; i <= 3; i++)
		p->objects[i].path = str(p, obj_path[i]);
	for (uint32_t i = 1; i <= N_PS; i++)
		p->ps[i] = (struct dp_ps){.kind = i == 1   ? DP_PS_ROOT
						  : i == 2 ? DP_PS_THREAD
							   : DP_PS_FUNCTION,
					  .file = str(p, ps_file[i]),
					  .linkage = ps_link[i],
					  .object = ps_obj[i]};
	for (uint32_t i = 1; i <= n_pd; i++)
		p->pd[i] = (struct dp_pd){.ps = pd_ps[i], .thread = i > 1};
	for (uint32_t i = 1; i <= n_csd; i++) {
		p->css[i] = (struct dp_css){.ps = pd_ps[caller[i]], .kind = DP_CSS_DIRECT};
		p->csd[i] = (struct dp_csd){.caller = caller[i],
					    .css = i,
					    .callee = callee[i],
					    .calls = 1,
					    .samples = i};
	}
	return 0;
}

/*
 * root(1) -> thread(2) -> main(3) -> lib_x(4) -> lib_y(5) -> target(6), lib_y -> lib_x
 * (clique {lib_x, lib_y}), main -> target(7), main -> helper(8) -> libc fn(9).
 * CSDs: 1 root->thr, 2 thr->main, 3 main->lib_x, 4 lib_x->lib_y, 5 lib_y->target,
 * 6 lib_y->lib_x, 7 main->target, 8 main->helper, 9 helper->libc.
 */
static const uint32_t g_pd_ps[] = {0, 1, 2, 3, 4, 5, 6, 6, 8, 9};
static const uint32_t g_caller[] = {0, 1, 2, 3, 4, 5, 5, 3, 3, 8};
static const uint32_t g_callee[] = {0, 2, 3, 4, 5, 6, 4, 7, 8, 9};

static struct dp_analysis *setup(struct dp_profile *p)
{
	int err;
	struct dp_analysis *a;

	if (build(p, g_pd_ps, 9, g_caller, g_callee, 9) < 0) {
		CHECK(0);
		return NULL;
	}
	a = dp_analysis_new(p, &err);
	CHECK(a != NULL);
	if (!a)
		dp_profile_release(p);
	return a;
}

/* Parse @text; returns the error, and the excluded PSs as a bit mask in *@mask. */
static int parse(const struct dp_analysis *a, const char *text, uint32_t *mask,
		 struct dp_contour **out)
{
	struct dp_contour *c = NULL;
	int rc = dp_contour_parse("t.contour", text, strlen(text), a, &c);

	*mask = 0;
	if (rc == 0 && c) {
		uint32_t n = 0;

		CHECK_EQ(c->n_ps, N_PS);
		for (uint32_t i = 1; i <= N_PS; i++) {
			*mask |= c->excluded[i] ? 1u << i : 0;
			n += c->excluded[i] != 0;
		}
		CHECK_EQ(c->n_excluded, n);
	}
	if (out)
		*out = c;
	else
		dp_contour_free(c);
	return rc;
}

#define B(i) (1u << (i))

TEST(modules)
{
	struct dp_profile p;
	struct dp_analysis *a = setup(&p);
	struct dp_contour *c;
	uint32_t mask;

	if (!a)
		return;
	CHECK_EQ(parse(a, "all lib/map.c\n# comment\n\n  internal\ttree.c \r\n", &mask, &c), 0);
	CHECK_EQ(mask, B(4) | B(5) | B(6));
	if (c)
		CHECK_STR(c->warnings, "");
	dp_contour_free(c);
	CHECK_EQ(parse(a, "all /src/lib/tree.c", &mask, NULL), 0);
	CHECK_EQ(mask, B(6) | B(7));
	CHECK_EQ(parse(a, "internal src/app/main.c\ninternal util.c\n", &mask, NULL), 0);
	CHECK_EQ(mask, B(8));
	/* a suffix must start after a '/': "ap.c" is not map.c */
	CHECK_EQ(parse(a, "all map.c\nall ap.c\nall <unknown>\n", &mask, &c), 0);
	CHECK_EQ(mask, B(4) | B(5));
	if (c)
		CHECK_STR(c->warnings, "t.contour:2: unknown module 'ap.c'\n"
				       "t.contour:3: unknown module '<unknown>'\n");
	dp_contour_free(c);
	CHECK_EQ(parse(a, "", &mask, NULL), 0);
	CHECK_EQ(mask, 0);
	CHECK_EQ(parse(a, "# nothing\n\n", &mask, NULL), 0);
	CHECK_EQ(mask, 0);
	dp_analysis_free(a);
	dp_profile_release(&p);
}

TEST(objects)
{
	struct dp_profile p;
	struct dp_analysis *a = setup(&p);
	uint32_t mask;

	if (!a)
		return;
	CHECK_EQ(parse(a, "all libfoo.so.1\n", &mask, NULL), 0);
	CHECK_EQ(mask, B(4) | B(5) | B(6) | B(7));
	CHECK_EQ(parse(a, "internal /usr/lib/libfoo.so.1\n", &mask, NULL), 0);
	CHECK_EQ(mask, B(5) | B(6));
	CHECK_EQ(parse(a, "all libc.so.6\n", &mask, NULL), 0);
	CHECK_EQ(mask, B(9));
	CHECK_EQ(parse(a, "all bin/prog\n", &mask, NULL), 0);
	CHECK_EQ(mask, B(3) | B(8));
	CHECK_EQ(parse(a, "all libfoo.so\n", &mask, NULL), -DP_EUSAGE);
	dp_analysis_free(a);
	dp_profile_release(&p);
}

TEST(errors)
{
	struct dp_profile p;
	struct dp_analysis *a = setup(&p);
	struct dp_contour *c = (struct dp_contour *)&p; /* must be reset to NULL */
	uint32_t mask;

	if (!a)
		return;
	CHECK_EQ(parse(a, "all map.c\n\nall\n", &mask, &c), -DP_EUSAGE);
	CHECK(c == NULL);
	CHECK_STR(dp_errmsg(),
		  "t.contour:3: expected 'all MODULE' or 'internal MODULE', got 'all'");
	CHECK_EQ(parse(a, "exclude map.c", &mask, NULL), -DP_EUSAGE);
	CHECK_STR(dp_errmsg(),
		  "t.contour:1: expected 'all MODULE' or 'internal MODULE', got 'exclude map.c'");
	CHECK_EQ(parse(a, "# x\nall map.c tree.c\n", &mask, NULL), -DP_EUSAGE);
	CHECK(strstr(dp_errmsg(), "t.contour:2: expected") == dp_errmsg());
	CHECK_EQ(parse(a, "\n\n\n\nALL\x01 map.c\n", &mask, NULL), -DP_EUSAGE);
	CHECK(strstr(dp_errmsg(), "t.contour:5: expected") == dp_errmsg());
	CHECK(strstr(dp_errmsg(), "got 'ALL? map.c'") != NULL);
	/* every named module unknown */
	CHECK_EQ(parse(a, "all nosuch.c\n#\ninternal other.c\n", &mask, NULL), -DP_EUSAGE);
	CHECK_STR(dp_errmsg(), "t.contour: none of the 2 module(s) named is in the profile "
			       "(t.contour:1: unknown module 'nosuch.c')");
	dp_analysis_free(a);
	dp_profile_release(&p);
}

TEST(read_file)
{
	struct dp_profile p;
	struct dp_analysis *a = setup(&p);
	char path[] = "/tmp/dp_contour_XXXXXX";
	struct dp_contour *c = NULL;
	int fd;

	if (!a)
		return;
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd >= 0) {
		CHECK_EQ(write(fd, "internal map.c\nall nope.c\n", 26), 26);
		close(fd);
		CHECK_EQ(dp_contour_read(path, a, &c), 0);
		if (c) {
			CHECK_EQ(c->n_excluded, 1);
			CHECK_EQ(c->excluded[5], 1);
			CHECK(strstr(c->warnings, ":2: unknown module 'nope.c'\n") != NULL);
			CHECK(strstr(c->warnings, path) == c->warnings);
		}
		dp_contour_free(c);
		unlink(path);
	}
	CHECK_EQ(dp_contour_read("/nonexistent/x.contour", a, &c), -DP_EIO);
	CHECK(c == NULL);
	CHECK(strstr(dp_errmsg(), "/nonexistent/x.contour") != NULL);
	dp_contour_free(NULL);
	dp_analysis_free(a);
	dp_profile_release(&p);
}

TEST(site_walk)
{
	struct dp_profile p;
	struct dp_analysis *a = setup(&p);
	struct dp_contour *c = NULL;
	uint32_t mask;

	if (!a)
		return;
	CHECK_EQ(a->n_extra_entries, 0);
	CHECK_EQ(a->pd_clique[4], a->pd_clique[5]);
	CHECK_EQ(parse(a, "all map.c\n", &mask, &c), 0);
	if (c) {
		for (uint32_t d = 1; d <= 9; d++)
			CHECK_EQ(dp_contour_site(a, NULL, d), d);
		CHECK_EQ(dp_contour_site(a, c, 5), 3); /* lib_y -> target: under main -> lib_x */
		CHECK_EQ(dp_contour_site(a, c, 4), 3);
		CHECK_EQ(dp_contour_site(a, c, 6), 3);
		CHECK_EQ(dp_contour_site(a, c, 3), 3);
		CHECK_EQ(dp_contour_site(a, c, 7), 7);
		CHECK_EQ(dp_contour_site(a, c, 9), 9);
	}
	dp_contour_free(c);
	/* main and helper excluded: up to the thread root's call of main */
	CHECK_EQ(parse(a, "all main.c\nall util.c\n", &mask, &c), 0);
	if (c) {
		CHECK_EQ(dp_contour_site(a, c, 9), 2);
		CHECK_EQ(dp_contour_site(a, c, 3), 2);
		CHECK_EQ(dp_contour_site(a, c, 5), 5);
		CHECK_EQ(dp_contour_site(a, c, 2), 2);
	}
	dp_contour_free(c);
	dp_analysis_free(a);
	dp_profile_release(&p);
}

/* main -> lib (100,000 PDs of lib_x in a chain) -> target: the walk is iterative. */
TEST(deep_chain)
{
	enum { DEPTH = 100000, N_PD = DEPTH + 4, N_CSD = N_PD - 1 };
	uint32_t *pd_ps = calloc(N_PD + 1, sizeof(uint32_t));
	uint32_t *caller = calloc(N_CSD + 1, sizeof(uint32_t));
	uint32_t *callee = calloc(N_CSD + 1, sizeof(uint32_t));
	struct dp_profile p;
	struct dp_analysis *a = NULL;
	struct dp_contour *c = NULL;
	uint32_t mask;
	int err;

	if (!pd_ps || !caller || !callee)
		goto out;
	pd_ps[1] = 1;
	pd_ps[2] = 2;
	pd_ps[3] = 3;
	for (uint32_t i = 4; i < N_PD; i++)
		pd_ps[i] = 4;
	pd_ps[N_PD] = 6;
	for (uint32_t i = 1; i <= N_CSD; i++) {
		caller[i] = i;
		callee[i] = i + 1;
	}
	if (build(&p, pd_ps, N_PD, caller, callee, N_CSD) < 0)
		goto out;
	a = dp_analysis_new(&p, &err);
	CHECK(a != NULL);
	if (a && parse(a, "all map.c\n", &mask, &c) == 0 && c) {
		CHECK_EQ(dp_contour_site(a, c, N_CSD), 3);
		CHECK_EQ(dp_contour_site(a, c, N_CSD / 2), 3);
		CHECK_EQ(dp_contour_site(a, c, 2), 2);
	}
	CHECK(c != NULL);
	dp_contour_free(c);
	dp_analysis_free(a);
	dp_profile_release(&p);
out:
	free(pd_ps);
	free(caller);
	free(callee);
}

DP_TEST_MAIN(test_modules, test_objects, test_errors, test_read_file, test_site_walk,
	     test_deep_chain)
