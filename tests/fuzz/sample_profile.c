/*
 * tests/fuzz/sample_profile.c - builds the sample profile of sample_profile.h: a program
 * root, two threads (main, worker), main calling fib (recursion folded into one PD), a
 * qsort callback, and one indirect call site reaching two callees.
 */
#include "sample_profile.h"

#include <string.h>

#include "core/err.h"
#include "deepprof/format.h"

static uint32_t str(struct dp_profile *p, const char *s)
{
	int64_t id = dp_strtab_intern_cstr(&p->strs, s);

	return id < 0 ? 0 : (uint32_t)id;
}

static int alloc_nodes(struct dp_profile *p)
{
	p->n_ps = DP_SAMPLE_N_PS;
	p->n_css = DP_SAMPLE_N_CSS;
	p->n_pd = DP_SAMPLE_N_PD;
	p->n_csd = DP_SAMPLE_N_CSD;
	p->n_threads = DP_SAMPLE_N_THREADS;
	p->n_objects = DP_SAMPLE_N_OBJECTS;
	p->n_segs = 3;
	p->argc = 3;
	p->ps = dp_arena_array(&p->arena, p->n_ps + 1, sizeof(*p->ps));
	p->css = dp_arena_array(&p->arena, p->n_css + 1, sizeof(*p->css));
	p->pd = dp_arena_array(&p->arena, p->n_pd + 1, sizeof(*p->pd));
	p->csd = dp_arena_array(&p->arena, p->n_csd + 1, sizeof(*p->csd));
	p->threads = dp_arena_array(&p->arena, p->n_threads + 1, sizeof(*p->threads));
	p->objects = dp_arena_array(&p->arena, p->n_objects + 1, sizeof(*p->objects));
	p->segs = dp_arena_array(&p->arena, p->n_segs, sizeof(*p->segs));
	p->argv = dp_arena_array(&p->arena, p->argc, sizeof(*p->argv));
	if (!p->ps || !p->css || !p->pd || !p->csd || !p->threads || !p->objects || !p->segs ||
	    !p->argv)
		return dp_error(DP_ENOMEM, "out of memory building the sample profile");
	return 0;
}

static void fill_run(struct dp_profile *p)
{
	static const uint8_t bid[20] = {0xde, 0xad, 0xbe, 0xef, 1,  2,	3,  4,	5,  6,
					7,    8,    9,	  10,	11, 12, 13, 14, 15, 0xff};

	p->version = DP_FMT_VERSION;
	p->elf_machine = 62;
	p->root_pd = 1;
	p->sample_period_ns = 1000123;
	p->hz = 1000;
	p->samples_inside = 2;
	p->samples_outside = 13;
	p->total_callseqs = ((uint64_t)1 << 40) + 300; /* sum of the CSDs' callseqs */
	p->program = str(p, "/usr/bin/prog");
	p->argv[0] = str(p, "prog");
	p->argv[1] = str(p, "--n=30");
	p->argv[2] = str(p, "\xc3\xbcn\xc3\xaf"
			    "code \"q\"\n\x01");
	p->pid = 4242;
	p->ppid = 1;
	p->start_ns = 1763769600000000000u;
	p->end_ns = 1763769601500000000u;
	p->exit_status = 1;
	p->threads[1] =
		(struct dp_thread){100, str(p, "main"), 2, p->start_ns, 0, 2, DP_THREAD_MAIN};
	p->threads[2] = (struct dp_thread){
		101, str(p, "worker-1"), 3, p->start_ns + 1000, p->start_ns + 5000,
		0,   DP_THREAD_ENDED};
	p->objects[1].path = str(p, "/usr/bin/prog");
	p->objects[1].bias = 0x555500000000u;
	memcpy(p->objects[1].build_id, bid, sizeof(bid));
	p->objects[1].build_id_len = sizeof(bid);
	p->objects[1].first_seg = 0;
	p->objects[1].n_segs = 2;
	p->objects[2].path = str(p, "/lib/x86_64-linux-gnu/libc.so.6");
	p->objects[2].bias = 0x7f0000000000u;
	p->objects[2].first_seg = 2;
	p->objects[2].n_segs = 1;
	p->segs[0] = (struct dp_segment){0x555500001000u, 0x2000, 5};
	p->segs[1] = (struct dp_segment){0x555500004000u, 0x1000, 6};
	p->segs[2] = (struct dp_segment){0x7f0000028000u, 0x15d000, 5};
}

static void fill_static(struct dp_profile *p)
{
	static const uint64_t addr[] = {0,
					0,
					0,
					0x555500001100,
					0x555500001200,
					0x555500001300,
					0x555500001400,
					0x555500001500,
					0x555500001600};
	/* css: {ps, addr, kind} */
	static const uint64_t css[][3] = {
		{0, 0, 0},
		{1, 0, DP_CSS_THREAD},
		{2, 0x7f000002a1ca, DP_CSS_ENTRY},
		{3, 0x5555000011a0, DP_CSS_DIRECT},
		{4, 0x555500001250, DP_CSS_DIRECT},
		{3, 0x7f0000041b2c, DP_CSS_CALLBACK},
		{3, 0x5555000011c0, DP_CSS_INDIRECT},
		{5, 0x555500001330, DP_CSS_DIRECT},
		{4, 0x555500001270, DP_CSS_DIRECT},
	};

	p->ps[1].kind = DP_PS_ROOT;
	p->ps[2].kind = DP_PS_THREAD;
	for (uint32_t id = 3; id <= DP_SAMPLE_N_PS; id++)
		p->ps[id].addr = addr[id];
	for (uint32_t id = 1; id <= DP_SAMPLE_N_CSS; id++) {
		p->css[id].ps = (uint32_t)css[id][0];
		p->css[id].addr = css[id][1];
		p->css[id].kind = (uint32_t)css[id][2];
	}
}

static void fill_dynamic(struct dp_profile *p)
{
	/* pd: {ps, thread} */
	static const uint32_t pd[][2] = {{0, 0}, {1, 0}, {2, 1}, {2, 2}, {3, 1},
					 {4, 1}, {5, 2}, {6, 1}, {7, 1}, {4, 2}};
	/* csd: caller, css, callee, calls, exits, unwinds, samples, callseqs, allocs, bytes */
	static const uint64_t csd[][10] = {
		{0},
		{1, 1, 2, 1, 0, 0, 0, 0, 0, 0},
		{1, 1, 3, 1, 1, 0, 0, 0, 0, 0},
		{2, 2, 4, 1, 0, 0, 5, 100, 3, 4096},
		{4, 3, 5, 1, 1, 0, 0, (uint64_t)1 << 40, 0, 0},
		{5, 4, 5, 176, 170, 6, 0, 175, 0, 0},
		{4, 5, 7, 12345678901u, 12345678901u, 0, 7, 0, 0, 0},
		{4, 6, 5, 3, 3, 0, 0, 12, 0, 0},
		{4, 6, 8, 2, 2, 0, 0, 0, 1, UINT64_MAX},
		{3, 2, 6, 1, 1, 0, 0, 4, 0, 0},
		{6, 7, 9, 4, 4, 0, 1, 9, 0, 0},
	};

	for (uint32_t id = 1; id <= DP_SAMPLE_N_PD; id++) {
		p->pd[id].ps = pd[id][0];
		p->pd[id].thread = pd[id][1];
	}
	for (uint32_t id = 1; id <= DP_SAMPLE_N_CSD; id++) {
		struct dp_csd *d = &p->csd[id];

		d->caller = (uint32_t)csd[id][0];
		d->css = (uint32_t)csd[id][1];
		d->callee = (uint32_t)csd[id][2];
		d->calls = csd[id][3];
		d->exits = csd[id][4];
		d->unwinds = csd[id][5];
		d->samples = csd[id][6];
		d->callseqs = csd[id][7];
		d->allocs = csd[id][8];
		d->alloc_bytes = csd[id][9];
	}
}

static void fill_syms(struct dp_profile *p)
{
	static const char *const names[] = {
		NULL,	       NULL,	 NULL,	"main",
		"fib",	       "worker", "cmp", "ns::Widget::area() const",
		"never_called"};
	static const uint32_t lines[] = {0, 0, 0, 40, 10, 30, 20, 7, 50};

	for (uint32_t id = 3; id <= DP_SAMPLE_N_PS; id++) {
		struct dp_ps *ps = &p->ps[id];

		ps->name = str(p, names[id]);
		ps->file = str(p, id == 7 ? "src/w\xff\xfeidget.cc" : "src/prog.c");
		ps->line = lines[id];
		ps->linkage = id == 6 ? DP_LINK_STATIC : DP_LINK_GLOBAL;
		ps->object = 1;
	}
	p->ps[7].linkage_name = str(p, "_ZNK2ns6Widget4areaEv");
	p->ps[8].linkage = DP_LINK_WEAK;
	for (uint32_t id = 3; id <= DP_SAMPLE_N_CSS; id++) {
		p->css[id].file = str(p, "src/prog.c");
		p->css[id].line = 100 + id;
	}
	p->css[3].callee_ps = 4;
	p->css[4].callee_ps = 4;
	p->css[7].callee_ps = 4;
	p->css[8].callee_ps = 8; /* never taken: no CSD uses CSS 8 */
}

static int fill_coverage(struct dp_profile *p)
{
	static const struct dp_cp cp[3] = {{1, 10}, {2, 12}, {1, 14}};

	p->ps[4].n_cp = 3;
	p->ps[4].cp = dp_arena_array(&p->arena, 3, sizeof(*p->ps[4].cp));
	p->pd[5].n_cp = p->pd[9].n_cp = 3;
	p->pd[5].cp = dp_arena_array(&p->arena, 3, sizeof(uint64_t));
	p->pd[9].cp = dp_arena_array(&p->arena, 3, sizeof(uint64_t));
	if (!p->ps[4].cp || !p->pd[5].cp || !p->pd[9].cp)
		return dp_error(DP_ENOMEM, "out of memory building the sample profile");
	memcpy(p->ps[4].cp, cp, sizeof(cp));
	for (int i = 0; i < 3; i++) {
		p->pd[5].cp[i] = (uint64_t)(180 - 60 * i);
		p->pd[9].cp[i] = (uint64_t)(4 * i);
	}
	return 0;
}

int dp_sample_profile(struct dp_profile *p, uint64_t features)
{
	int rc = dp_profile_init(p);

	if (rc == 0)
		rc = alloc_nodes(p);
	if (rc < 0) {
		dp_profile_release(p);
		return rc;
	}
	p->features = features;
	fill_run(p);
	fill_static(p);
	fill_dynamic(p);
	if (features & DP_FEAT_SYMBOLIZED)
		fill_syms(p);
	if (features & DP_FEAT_STOPPED) {
		p->stop_reason = str(p, "out of memory (DEEPPROF_MAX_MB=1)");
		p->lost_calls = 77;
		p->lost_samples = 3;
		p->lost_allocs = 1;
		p->threads[1].flags |= DP_THREAD_STOPPED;
	}
	if ((features & DP_FEAT_COVERAGE) && (rc = fill_coverage(p)) < 0)
		dp_profile_release(p);
	return rc;
}
