/*
 * import/imp_build.c - the profile builder of imp_int.h: growing node arrays, the maps
 * (core's) that find a PS by name, a CSS by (caller, site), a CSD by (caller PD, CSS,
 * callee PS), the context-stack walk with recursion folding, and the move into a struct
 * dp_profile.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/vec.h"
#include "deepprof/format.h"
#include "imp_int.h"

/* ------------------------------------------------------------ node arrays --- */

/* Room for element @n (1-based arrays) in *@arr of *@cap elements of @size, the new
 * elements zeroed (core's dp_vec_grow() leaves them undefined). */
static int grow(void **arr, uint32_t *cap, uint32_t n, size_t size)
{
	uint32_t old = *cap;
	int rc;

	if (n < old)
		return 0;
	if (n >= UINT32_MAX - 2)
		return dp_error(DP_EFORMAT, "import: more than 2^32 - 2 nodes of one kind");
	rc = dp_vec_grow(arr, cap, n + 1, size);
	if (rc == 0)
		memset((char *)*arr + (size_t)old * size, 0, (size_t)(*cap - old) * size);
	return rc;
}

#define GROW(b, arr, n) grow((void **)&(b)->arr, &(b)->cap_##arr, (n), sizeof(*(b)->arr))

static int map_full(void)
{
	return dp_error(DP_ENOMEM, "out of memory importing (hash map)");
}

int64_t imp_str(struct imp *b, const char *s, size_t len)
{
	int64_t id = dp_strtab_intern(&b->p->strs, s, len);

	if (id < 0)
		return dp_error(DP_ENOMEM, "out of memory importing (strings)");
	return id;
}

static int64_t new_ps(struct imp *b, uint32_t kind, uint32_t name, uint64_t addr)
{
	int rc = GROW(b, ps, b->n_ps + 1);

	if (rc < 0)
		return rc;
	b->n_ps++;
	b->ps[b->n_ps].kind = kind;
	b->ps[b->n_ps].name = name;
	b->ps[b->n_ps].addr = addr;
	return b->n_ps;
}

static int64_t new_css(struct imp *b, uint32_t ps, uint64_t addr, uint32_t kind, uint32_t callee)
{
	int rc = GROW(b, css, b->n_css + 1);

	if (rc < 0)
		return rc;
	b->n_css++;
	b->css[b->n_css] =
		(struct dp_css){.ps = ps, .addr = addr, .kind = kind, .callee_ps = callee};
	return b->n_css;
}

static int64_t new_pd(struct imp *b, uint32_t ps, uint32_t thread)
{
	int rc = GROW(b, pd, b->n_pd + 1);

	if (rc == 0)
		rc = GROW(b, pdc, b->n_pd + 1);
	if (rc < 0)
		return rc;
	b->n_pd++;
	b->pd[b->n_pd].ps = ps;
	b->pd[b->n_pd].thread = thread;
	return b->n_pd;
}

static int64_t new_csd(struct imp *b, uint32_t caller, uint32_t css, uint32_t callee)
{
	int rc = GROW(b, csd, b->n_csd + 1);

	if (rc < 0)
		return rc;
	b->n_csd++;
	b->csd[b->n_csd].caller = caller;
	b->csd[b->n_csd].css = css;
	b->csd[b->n_csd].callee = callee;
	return b->n_csd;
}

int imp_begin(struct imp *b, struct dp_profile *p)
{
	int rc;

	memset(b, 0, sizeof(*b));
	b->p = p;
	rc = dp_profile_init(p);
	if (rc < 0)
		return rc;
	/* PS 1 the program root, PS 2 every thread's root, CSS 1 root -> thread, PD 1 */
	if (new_ps(b, DP_PS_ROOT, 0, 0) < 0 || new_ps(b, DP_PS_THREAD, 0, 0) < 0 ||
	    new_css(b, 1, 0, DP_CSS_THREAD, 0) < 0 || new_pd(b, 1, 0) < 0) {
		imp_abort(b);
		return -DP_ENOMEM;
	}
	return 0;
}

int64_t imp_thread(struct imp *b, uint64_t tid, const char *name)
{
	uint32_t t = dp_map64_get(&b->th_map, tid);
	int64_t pd, csd = 0, nm = 0;
	int rc;

	if (t != DP_MAP32_NONE)
		return t;
	if ((rc = GROW(b, th, b->n_th + 1)) < 0 ||
	    (rc = grow((void **)&b->th_csd, &b->cap_th_csd, b->n_th + 1, sizeof(*b->th_csd))) < 0)
		return rc;
	t = b->n_th + 1;
	if ((pd = new_pd(b, IMP_PS_THREAD, t)) < 0 || (csd = new_csd(b, 1, 1, (uint32_t)pd)) < 0)
		return pd < 0 ? pd : csd;
	if (name && (nm = imp_str(b, name, strlen(name))) < 0)
		return nm;
	if (dp_map64_intern(&b->th_map, tid, t) == DP_MAP32_NONE)
		return map_full();
	b->n_th = t;
	b->th[t].tid = tid;
	b->th[t].name = (uint32_t)nm;
	b->th[t].root_pd = (uint32_t)pd;
	b->th[t].flags = DP_THREAD_ENDED;
	b->th_csd[t] = (uint32_t)csd;
	b->csd[csd].calls = 1;
	b->csd[csd].exits = 1;
	return t;
}

int64_t imp_proc(struct imp *b, const char *name, size_t len, uint64_t key, uint64_t addr)
{
	int64_t nm = imp_str(b, name, len), ps;

	if (nm < 0)
		return nm;
	ps = dp_map3_get(&b->ps_map, (uint64_t)nm, key, 1);
	if (ps != DP_MAP32_NONE)
		return ps;
	ps = new_ps(b, DP_PS_FUNCTION, (uint32_t)nm, addr);
	if (ps > 0 &&
	    dp_map3_intern(&b->ps_map, (uint64_t)nm, key, 1, (uint32_t)ps) == DP_MAP32_NONE)
		return map_full();
	return ps;
}

int imp_stack_start(struct imp *b, struct imp_stack *s, uint32_t thread)
{
	if (DP_VEC_GROW(s->f, s->cap, 64) < 0)
		return dp_error(DP_ENOMEM, "out of memory importing (context stack)");
	s->n = 1;
	s->thread = thread;
	s->f[0] = (struct imp_frame){
		.csd = b->th_csd[thread], .pd = b->th[thread].root_pd, .ps = IMP_PS_THREAD};
	return 0;
}

void imp_stack_release(struct imp_stack *s)
{
	free(s->f);
	memset(s, 0, sizeof(*s));
}

/* Room on @s for one more activation. */
static int stack_room(struct imp_stack *s)
{
	if (DP_VEC_GROW(s->f, s->cap, s->n + 1) < 0)
		return dp_error(DP_ENOMEM, "out of memory importing (stack depth %u)", s->n);
	return 0;
}

/* The CSS of caller @ps at return address @site (0: one per callee). */
static int64_t site_of(struct imp *b, uint32_t ps, uint64_t site, uint32_t callee)
{
	uint64_t c = site ? 0 : callee;
	int64_t css = dp_map3_get(&b->css_map, ps, site, c);

	if (css != DP_MAP32_NONE)
		return css;
	css = new_css(b, ps, site, ps == IMP_PS_THREAD ? DP_CSS_ENTRY : DP_CSS_UNKNOWN,
		      site ? 0 : callee);
	if (css > 0 && dp_map3_intern(&b->css_map, ps, site, c, (uint32_t)css) == DP_MAP32_NONE)
		return map_full();
	return css;
}

int64_t imp_enter(struct imp *b, struct imp_stack *s, uint32_t ps, uint64_t site, uint64_t key)
{
	const struct imp_frame *top;
	int64_t css, csd, callee = 0;
	int rc = stack_room(s);

	if (rc < 0)
		return rc;
	top = &s->f[s->n - 1];
	css = site_of(b, top->ps, site, ps);
	if (css < 0)
		return css;
	csd = dp_map3_get(&b->csd_map, top->pd, (uint64_t)css, ps);
	if (csd == DP_MAP32_NONE) {
		/* the callee is decided once, when the CSD is made (as the runtime does) */
		for (uint32_t i = s->n - 1; i >= 1 && !callee; i--) {
			if (s->f[i].ps == ps)
				callee = s->f[i].pd;
		}
		if (!callee && (callee = new_pd(b, ps, s->thread)) < 0)
			return callee;
		csd = new_csd(b, top->pd, (uint32_t)css, (uint32_t)callee);
		if (csd < 0)
			return csd;
		if (dp_map3_intern(&b->csd_map, top->pd, (uint64_t)css, ps, (uint32_t)csd) ==
		    DP_MAP32_NONE)
			return map_full();
	}
	s->f[s->n++] = (struct imp_frame){
		.csd = (uint32_t)csd, .pd = b->csd[csd].callee, .ps = ps, .key = key};
	return csd;
}

int imp_reenter(struct imp *b, struct imp_stack *s, uint32_t csd, uint64_t key)
{
	uint32_t pd = b->csd[csd].callee;
	int rc = stack_room(s);

	if (rc < 0)
		return rc;
	s->f[s->n++] = (struct imp_frame){.csd = csd, .pd = pd, .ps = b->pd[pd].ps, .key = key};
	return 0;
}

static void release_build(struct imp *b)
{
	free(b->ps);
	free(b->css);
	free(b->pd);
	free(b->csd);
	free(b->th);
	free(b->th_csd);
	free(b->pdc);
	dp_map3_free(&b->ps_map);
	dp_map3_free(&b->css_map);
	dp_map3_free(&b->csd_map);
	dp_map64_free(&b->th_map);
	b->ps = NULL;
	b->css = NULL;
	b->pd = NULL;
	b->csd = NULL;
	b->th = NULL;
	b->th_csd = NULL;
	b->pdc = NULL;
}

void imp_abort(struct imp *b)
{
	release_build(b);
	if (b->p)
		dp_profile_release(b->p);
}

/* A copy of [0..n] of @src in @p's arena; NULL on failure. */
static void *move(struct dp_profile *p, const void *src, uint32_t n, size_t size)
{
	void *dst = dp_arena_array(&p->arena, (size_t)n + 1, size);

	if (dst && src)
		memcpy(dst, src, ((size_t)n + 1) * size);
	return dst;
}

static int64_t cstr(struct imp *b, const char *s)
{
	return s ? imp_str(b, s, strlen(s)) : 0;
}

int imp_finish(struct imp *b, const char *tool, const char *input, uint32_t metrics,
	       const char *note)
{
	struct dp_profile *p = b->p;
	int64_t t = cstr(b, tool), in = cstr(b, input), nt = cstr(b, note);

	if (t < 0 || in < 0 || nt < 0)
		goto fail;
	p->version = DP_FMT_VERSION;
#if defined(__aarch64__)
	p->elf_machine = 183;
#else
	p->elf_machine = 62;
#endif
	p->features |= DP_FEAT_SYMBOLIZED;
	p->root_pd = 1;
	p->n_ps = b->n_ps;
	p->n_css = b->n_css;
	p->n_pd = b->n_pd;
	p->n_csd = b->n_csd;
	p->n_threads = b->n_th;
	p->ps = move(p, b->ps, b->n_ps, sizeof(*b->ps));
	p->css = move(p, b->css, b->n_css, sizeof(*b->css));
	p->pd = move(p, b->pd, b->n_pd, sizeof(*b->pd));
	p->csd = move(p, b->csd, b->n_csd, sizeof(*b->csd));
	p->threads = move(p, b->th, b->n_th, sizeof(*b->th));
	p->objects = move(p, NULL, 0, sizeof(*p->objects));
	if (!p->ps || !p->css || !p->pd || !p->csd || !p->threads || !p->objects)
		goto fail;
	p->samples_outside = p->total_callseqs = 0;
	for (uint32_t i = 1; i <= p->n_csd; i++) {
		p->samples_outside += p->csd[i].samples;
		p->total_callseqs += p->csd[i].callseqs;
	}
	if (!p->program) /* the menu's title: the input when the tool named no program */
		p->program = (uint32_t)in;
	p->origin = (uint32_t)t;
	p->origin_input = (uint32_t)in;
	p->origin_note = (uint32_t)nt;
	p->metrics = metrics & DP_CSD_FIELDS_KNOWN;
	release_build(b);
	return 0;
fail:
	imp_abort(b);
	return dp_error(DP_ENOMEM, "out of memory importing");
}
