/*
 * tests/unit/test_symbol_fix.c - builds dp_profile values from the output of the
 * symbolizer's fixture programs (see symbol/minirt.h), so the symbolizer is tested on
 * the real load addresses, build-ids and call sites of real gcc and clang binaries.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "deepprof/format.h"
#include "test_symbol.h"

#define FIX_MAX 8192

struct fix_out {
	struct dp_object obj[64];
	uint32_t n_obj;
	struct dp_segment seg[256];
	uint32_t n_seg;
	uint64_t rec[FIX_MAX][3]; /* fn, site, caller */
	uint32_t n_rec;
};

static uint32_t intern(struct dp_profile *p, const char *s)
{
	int64_t id = dp_strtab_intern_cstr(&p->strs, s);

	return id < 0 ? 0 : (uint32_t)id;
}

static void parse_build_id(struct dp_object *o, const char *hex)
{
	o->build_id_len = 0;
	if (strcmp(hex, "-") == 0)
		return;
	for (size_t i = 0; hex[2 * i] && hex[2 * i + 1] && i < DP_BUILD_ID_MAX; i++) {
		unsigned v;

		if (sscanf(hex + 2 * i, "%2x", &v) != 1)
			break;
		o->build_id[o->build_id_len++] = (uint8_t)v;
	}
}

static int run_fixture(const char *exe, struct dp_profile *p, struct fix_out *f)
{
	char line[8192], a[4096], b[256];
	FILE *in = popen(exe, "r");
	uint64_t x, y, z;

	if (!in) {
		fprintf(stderr, "cannot run %s\n", exe);
		return -1;
	}
	while (fgets(line, sizeof(line), in)) {
		if (sscanf(line, "OBJ %4095s %" SCNx64 " %255s", a, &x, b) == 3 && f->n_obj < 63) {
			struct dp_object *o = &f->obj[++f->n_obj];

			o->path = intern(p, a);
			o->bias = x;
			parse_build_id(o, b);
			o->first_seg = f->n_seg;
		} else if (sscanf(line, "SEG %" SCNx64 " %" SCNx64 " %" SCNu64, &x, &y, &z) == 3 &&
			   f->n_seg < 256 && f->n_obj) {
			f->seg[f->n_seg++] = (struct dp_segment){x, y, (uint32_t)z};
			f->obj[f->n_obj].n_segs++;
		} else if (sscanf(line, "REC %" SCNx64 " %" SCNx64 " %" SCNx64, &x, &y, &z) == 3 &&
			   f->n_rec < FIX_MAX) {
			f->rec[f->n_rec][0] = x;
			f->rec[f->n_rec][1] = y;
			f->rec[f->n_rec++][2] = z;
		}
	}
	if (pclose(in) == -1 || f->n_obj == 0 || f->n_rec == 0) {
		fprintf(stderr, "%s printed no objects or records\n", exe);
		return -1;
	}
	return 0;
}

static uint32_t ps_of_fn(const struct dp_profile *p, uint64_t fn)
{
	for (uint32_t i = 3; i <= p->n_ps; i++)
		if (p->ps[i].addr == fn)
			return i;
	return 0;
}

static uint32_t css_of(const struct dp_profile *p, uint32_t ps, uint64_t addr)
{
	for (uint32_t i = 1; i <= p->n_css; i++)
		if (p->css[i].ps == ps && p->css[i].addr == addr)
			return i;
	return 0;
}

static void build_nodes(struct dp_profile *p, const struct fix_out *f)
{
	uint32_t n = f->n_rec + 3;

	p->ps = dp_arena_array(&p->arena, n, sizeof(*p->ps));
	p->pd = dp_arena_array(&p->arena, n, sizeof(*p->pd));
	p->css = dp_arena_array(&p->arena, n + 1, sizeof(*p->css));
	p->csd = dp_arena_array(&p->arena, n + 1, sizeof(*p->csd));
	p->ps[1].kind = DP_PS_ROOT;
	p->ps[2].kind = DP_PS_THREAD;
	p->n_ps = 2;
	for (uint32_t i = 0; i < f->n_rec; i++)
		if (!ps_of_fn(p, f->rec[i][0]))
			p->ps[++p->n_ps] =
				(struct dp_ps){.kind = DP_PS_FUNCTION, .addr = f->rec[i][0]};
	p->n_pd = p->n_ps;
	for (uint32_t i = 1; i <= p->n_pd; i++)
		p->pd[i] = (struct dp_pd){.ps = i, .thread = i == 1 ? 0 : 1};
	p->css[1] = (struct dp_css){.ps = 1, .kind = DP_CSS_THREAD};
	p->csd[1] = (struct dp_csd){.caller = 1, .css = 1, .callee = 2, .calls = 1, .exits = 1};
	p->n_css = p->n_csd = 1;
	for (uint32_t i = 0; i < f->n_rec; i++) {
		uint32_t caller = f->rec[i][2] ? ps_of_fn(p, f->rec[i][2]) : 2;
		uint32_t callee = ps_of_fn(p, f->rec[i][0]);
		uint32_t css = css_of(p, caller, f->rec[i][1]);

		if (!css) {
			css = ++p->n_css;
			p->css[css] = (struct dp_css){.ps = caller,
						      .addr = f->rec[i][1],
						      .kind = caller == 2 ? DP_CSS_ENTRY
									  : DP_CSS_UNKNOWN};
		}
		p->csd[++p->n_csd] = (struct dp_csd){
			.caller = caller, .css = css, .callee = callee, .calls = 1, .exits = 1};
	}
}

/* dp_fix_profile - see test_symbol.h. */
int dp_fix_profile(const char *exe, struct dp_profile *p)
{
	struct fix_out *f = calloc(1, sizeof(*f));
	int r = -1;

	if (!f || dp_profile_init(p) < 0)
		goto out;
	if (run_fixture(exe, p, f) < 0)
		goto out;
	p->version = DP_FMT_VERSION;
	p->elf_machine = 62;
	p->program = f->obj[1].path;
	p->n_objects = f->n_obj;
	p->objects = dp_arena_array(&p->arena, f->n_obj + 1, sizeof(*p->objects));
	memcpy(p->objects, f->obj, (f->n_obj + 1) * sizeof(*p->objects));
	p->n_segs = f->n_seg;
	p->segs = dp_arena_array(&p->arena, f->n_seg + 1, sizeof(*p->segs));
	memcpy(p->segs, f->seg, f->n_seg * sizeof(*p->segs));
	p->n_threads = 1;
	p->threads = dp_arena_array(&p->arena, 2, sizeof(*p->threads));
	p->threads[1] = (struct dp_thread){.tid = 1, .root_pd = 2, .flags = DP_THREAD_MAIN};
	p->root_pd = 1;
	build_nodes(p, f);
	r = 0;
out:
	free(f);
	return r;
}

/* dp_fix_line - see test_symbol.h. */
uint32_t dp_fix_line(const char *src, const char *marker)
{
	char line[1024], pat[128];
	FILE *in = fopen(src, "r");
	uint32_t n = 0, found = 0;

	snprintf(pat, sizeof(pat), "@%s ", marker);
	while (in && fgets(line, sizeof(line), in)) {
		n++;
		if (strstr(line, pat)) {
			found = n;
			break;
		}
	}
	if (in)
		fclose(in);
	return found;
}

/* dp_fix_ps - see test_symbol.h. */
uint32_t dp_fix_ps(const struct dp_profile *p, const char *name)
{
	for (uint32_t i = 1; i <= p->n_ps; i++)
		if (p->ps[i].name && strcmp(dp_profile_str(p, p->ps[i].name), name) == 0)
			return i;
	return 0;
}

/* dp_fix_css - see test_symbol.h. */
uint32_t dp_fix_css(const struct dp_profile *p, uint32_t ps, uint32_t line)
{
	for (uint32_t i = 1; i <= p->n_css; i++)
		if (p->css[i].ps == ps && p->css[i].line == line)
			return i;
	return 0;
}

/* dp_fix_css_taken - see test_symbol.h. */
int dp_fix_css_taken(const struct dp_profile *p, uint32_t css)
{
	for (uint32_t i = 1; i <= p->n_csd; i++)
		if (p->csd[i].css == css)
			return 1;
	return 0;
}

/* dp_fix_ends_with - see test_symbol.h. */
int dp_fix_ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && strcmp(s + a - b, suffix) == 0;
}
