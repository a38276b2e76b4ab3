/*
 * symbol/leaves.c - library leaves: the runtime's sampled PCs (SPCS) turned into
 * procedures of kind library. A sample whose PC lies outside the instrumented function
 * current when it was taken (in a library's function, in assembly, in a function built
 * without instrumentation) is moved from that function's CSD to a leaf under its PD,
 * named by the symbol at the PC and its object ("regexec [libc.so.6]"): one PS per
 * (object, symbol), one CSS per (caller PS, leaf), one PD and CSD per (caller PD, leaf).
 * Then the PC records are dropped, so the file keeps one leaf per context and symbol.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "symbol_int.h"

/* One sampled PC charged outside its function: where it goes. */
struct leaf {
	uint32_t pd;	  /* the caller PD (the current CSD's callee) */
	uint32_t caller;  /* its PS */
	uint32_t obj;	  /* object of the PC (never 0) */
	uint64_t addr;	  /* the symbol's runtime address, or the object's first segment */
	const char *sym;  /* the ELF symbol, NULL when none covers the PC */
	int bind;	  /* its STB_* binding */
	uint64_t samples; /* moved from the CSD */
	uint32_t ps, css; /* assigned: leaf PS and CSS ids */
};

struct leaves {
	struct dp_sym_ctx *c;
	uint32_t *pd_in; /* [1..n_pd] a CSD entering each PD, 0 none */
	struct leaf *l;
	uint32_t n, cap;
};

static int nomem(void)
{
	return dp_error(DP_ENOMEM, "out of memory making library leaves");
}

/* The instrumented function whose code counts as PD @pd's own: its PS, or for a region
 * the function it runs in (up the entering CSDs); 0 for the root and thread roots. */
static uint32_t owner(const struct leaves *lv, uint32_t pd)
{
	const struct dp_profile *p = lv->c->p;

	for (uint32_t hops = 0; pd && hops < 64; hops++) {
		const struct dp_ps *ps = &p->ps[p->pd[pd].ps];

		if (ps->kind == DP_PS_FUNCTION)
			return p->pd[pd].ps;
		if (ps->kind != DP_PS_REGION || !lv->pd_in[pd])
			return 0;
		pd = p->csd[lv->pd_in[pd]].caller;
	}
	return 0;
}

/* The ELF symbol of PS @ps (its linkage name, else its name), "" if none. */
static const char *ps_symbol(const struct dp_profile *p, uint32_t ps)
{
	uint32_t s = p->ps[ps].linkage_name ? p->ps[ps].linkage_name : p->ps[ps].name;

	return dp_profile_str(p, s);
}

/* Whether @sym is a part gcc split off the function whose symbol is @fn: "fn.cold",
 * "fn.part.0" (its code is the function's own). */
static int part_of(const char *sym, const char *fn)
{
	size_t n = strlen(fn);

	return n && strncmp(sym, fn, n) == 0 && sym[n] == '.';
}

/*
 * Whether @pc, sampled while PS @own was current (0 none), is instrumented code: @own's
 * own code (its DWARF ranges, its symbol or a part split off it), or another
 * instrumented function's (its prologue before the enter hook, its epilogue after the
 * exit hook), or code of @own's object that no symbol covers (its PLT stubs). *@s gets
 * the symbol covering @pc (NULL none).
 */
static int inside(struct leaves *lv, uint32_t own, uint32_t obj, uint64_t pc,
		  const struct dp_sym_elfsym **s)
{
	struct dp_sym_ctx *c = lv->c;
	struct dp_sym_mod *m = dp_sym_mod_of(c, obj);

	*s = m ? dp_sym_elfsym_covering(m, pc) : NULL;
	if (own && own <= c->p->n_ps && c->ps_obj[own] == obj && c->ps_fn[own] && m &&
	    dp_sym_fn_contains(m, c->ps_fn[own] - 1, pc))
		return 1;
	if (!*s)
		return own && own <= c->p->n_ps && c->ps_obj[own] == obj;
	if (dp_sym_ps_by_addr(c, (*s)->addr))
		return 1;
	return own && part_of((*s)->name, ps_symbol(c->p, own));
}

/* The runtime address of object @o's first segment (its leaf when no symbol covers). */
static uint64_t obj_base(const struct dp_profile *p, uint32_t o)
{
	const struct dp_object *ob = &p->objects[o];

	return ob->n_segs && ob->first_seg < p->n_segs ? p->segs[ob->first_seg].start : 0;
}

/* Sort the leaves by (object, address) and name a PS for each distinct one. */
static int leaf_by_sym(const void *a, const void *b)
{
	const struct leaf *x = a, *y = b;

	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->pd != y->pd)
		return x->pd < y->pd ? -1 : 1;
	return 0;
}

static int leaf_by_site(const void *a, const void *b)
{
	const struct leaf *x = a, *y = b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	return x->ps < y->ps ? -1 : x->ps > y->ps;
}

static int leaf_by_pd(const void *a, const void *b)
{
	const struct leaf *x = a, *y = b;

	if (x->pd != y->pd)
		return x->pd < y->pd ? -1 : 1;
	return x->ps < y->ps ? -1 : x->ps > y->ps;
}

/* Collect the leaves of every sampled PC outside its function, taking their samples
 * from their CSDs. */
static int collect(struct leaves *lv)
{
	struct dp_profile *p = lv->c->p;

	for (uint32_t i = 0; i < p->n_pcs; i++) {
		const struct dp_pcs *r = &p->pcs[i];
		struct dp_csd *csd = &p->csd[r->csd];
		const struct dp_sym_elfsym *s;
		uint32_t obj = dp_sym_obj_of(lv->c, r->pc);
		uint64_t n = r->samples < csd->samples ? r->samples : csd->samples;
		int rc;

		if (!obj || !n || inside(lv, owner(lv, csd->callee), obj, r->pc, &s))
			continue; /* unknown code (no object) stays the function's own */
		rc = dp_sym_grow((void **)&lv->l, &lv->cap, lv->n, sizeof(*lv->l));
		if (rc < 0)
			return rc;
		lv->l[lv->n++] = (struct leaf){.pd = csd->callee,
					       .caller = p->pd[csd->callee].ps,
					       .obj = obj,
					       .addr = s ? s->addr : obj_base(p, obj),
					       .sym = s ? s->name : NULL,
					       .bind = s ? s->bind : -1,
					       .samples = n};
		csd->samples -= n;
	}
	return 0;
}

static uint32_t linkage_of(int bind)
{
	return bind == STB_GLOBAL  ? DP_LINK_GLOBAL
	       : bind == STB_WEAK  ? DP_LINK_WEAK
	       : bind == STB_LOCAL ? DP_LINK_STATIC
				   : DP_LINK_UNKNOWN;
}

/* The PS of leaf @l: "SYMBOL [OBJECT]" (demangled, without a symbol version's "@..."),
 * the symbol as linkage name, the object's path as its file (its module), linkage from
 * the binding. */
static int leaf_ps(struct dp_sym_ctx *c, const struct leaf *l, struct dp_ps *ps)
{
	const char *path = dp_sym_obj_path(c->p, l->obj), *base = strrchr(path, '/');
	uint32_t dem = 0;
	char *name, *at;
	size_t len;
	int rc = 0;

	base = base ? base + 1 : path;
	*ps = (struct dp_ps){.kind = DP_PS_LIBRARY,
			     .addr = l->addr,
			     .object = l->obj,
			     .linkage = l->sym ? linkage_of(l->bind) : DP_LINK_UNKNOWN};
	if (l->sym) {
		char *sym = strdup(l->sym);

		if (!sym)
			return nomem();
		if ((at = strchr(sym, '@')) != NULL && at > sym)
			*at = '\0'; /* __pthread_mutex_lock@GLIBC_2.2.5: a compatibility alias */
		rc = dp_sym_demangle(c, sym, &dem);
		free(sym);
	}
	len = strlen(dp_profile_str(c->p, dem)) + strlen(base) + 4;
	name = rc == 0 ? malloc(len) : NULL;
	if (rc == 0 && !name)
		rc = nomem();
	if (rc == 0) {
		snprintf(name, len, "%s%s[%s]", dp_profile_str(c->p, dem), l->sym ? " " : "", base);
		rc = dp_sym_intern(c, name, &ps->name);
	}
	free(name);
	if (rc == 0 && l->sym)
		rc = dp_sym_intern(c, l->sym, &ps->linkage_name);
	if (rc == 0)
		rc = dp_sym_intern(c, path, &ps->file);
	return rc;
}

/* Grow @arr (elements [1..*n] of @size bytes) by @add in the profile's arena. */
static void *grow(struct dp_profile *p, void *arr, uint32_t n, uint32_t add, size_t size)
{
	void *na = dp_arena_array(&p->arena, (size_t)n + add + 1, size);

	if (na && arr)
		memcpy(na, arr, ((size_t)n + 1) * size);
	return na;
}

/* Number the leaves in the order @cmp sorts them: a new id (from @base + 1) whenever
 * @same says a leaf differs from the one before; the ids in *(uint32_t *)(leaf + @off).
 * Returns the number of ids given. */
static uint32_t number(struct leaves *lv, int (*cmp)(const void *, const void *), uint32_t base,
		       size_t off)
{
	uint32_t n = 0;

	dp_sym_sort(lv->l, lv->n, sizeof(*lv->l), cmp);
	for (uint32_t i = 0; i < lv->n; i++) {
		n += i == 0 || cmp(&lv->l[i], &lv->l[i - 1]) != 0;
		memcpy((char *)&lv->l[i] + off, &(uint32_t){base + n}, sizeof(uint32_t));
	}
	return n;
}

static int same_sym(const void *a, const void *b)
{
	const struct leaf *x = a, *y = b;

	return x->obj != y->obj || x->addr != y->addr;
}

/* Number the leaf PSs, CSSs, PDs and CSDs and append them to the profile. */
static int append(struct leaves *lv)
{
	struct dp_profile *p = lv->c->p;
	uint32_t n_ps, n_css, n_ctx = 0;
	struct dp_ps *ps;
	struct dp_css *css;
	struct dp_pd *pd;
	struct dp_csd *csd;
	int rc = 0;

	dp_sym_sort(lv->l, lv->n, sizeof(*lv->l), leaf_by_sym);
	n_ps = 0;
	for (uint32_t i = 0; i < lv->n; i++) {
		n_ps += i == 0 || same_sym(&lv->l[i], &lv->l[i - 1]);
		lv->l[i].ps = p->n_ps + n_ps;
	}
	n_css = number(lv, leaf_by_site, p->n_css, offsetof(struct leaf, css));
	dp_sym_sort(lv->l, lv->n, sizeof(*lv->l), leaf_by_pd);
	for (uint32_t i = 0; i < lv->n; i++)
		n_ctx += i == 0 || leaf_by_pd(&lv->l[i], &lv->l[i - 1]) != 0;
	ps = grow(p, p->ps, p->n_ps, n_ps, sizeof(*ps));
	css = grow(p, p->css, p->n_css, n_css, sizeof(*css));
	pd = grow(p, p->pd, p->n_pd, n_ctx, sizeof(*pd));
	csd = grow(p, p->csd, p->n_csd, n_ctx, sizeof(*csd));
	if (!ps || !css || !pd || !csd)
		return nomem();
	p->ps = ps;
	p->css = css;
	p->pd = pd;
	p->csd = csd;
	for (uint32_t i = 0; rc == 0 && i < lv->n; i++) {
		const struct leaf *l = &lv->l[i];

		if (!p->css[l->css].kind) /* new: zeroed by the arena */
			p->css[l->css] = (struct dp_css){.ps = l->caller,
							 .addr = l->addr,
							 .kind = DP_CSS_LIBRARY,
							 .callee_ps = l->ps};
		if (!p->ps[l->ps].name)
			rc = leaf_ps(lv->c, l, &p->ps[l->ps]);
	}
	p->n_ps += n_ps;
	p->n_css += n_css;
	for (uint32_t i = 0, j; rc == 0 && i < lv->n; i = j) {
		const struct leaf *l = &lv->l[i];
		uint64_t samples = 0;

		for (j = i; j < lv->n && leaf_by_pd(&lv->l[j], l) == 0; j++)
			samples += lv->l[j].samples;
		p->pd[++p->n_pd] = (struct dp_pd){.ps = l->ps, .thread = p->pd[l->pd].thread};
		p->csd[++p->n_csd] = (struct dp_csd){
			.caller = l->pd, .css = l->css, .callee = p->n_pd, .samples = samples};
	}
	return rc;
}

/* dp_sym_make_leaves - turn the profile's sampled PCs into library leaves (see the top
 * of this file) and drop them. Runs last: the objects are open and the PS maps built. */
int dp_sym_make_leaves(struct dp_sym_ctx *c)
{
	struct dp_profile *p = c->p;
	struct leaves lv = {.c = c};
	uint8_t *want;
	int rc = 0;

	if (!p->n_pcs)
		return 0;
	lv.pd_in = calloc((size_t)p->n_pd + 1, sizeof(*lv.pd_in));
	want = calloc((size_t)p->n_objects + 1, 1);
	if (!lv.pd_in || !want) {
		free(lv.pd_in);
		free(want);
		return nomem();
	}
	for (uint32_t i = 0; i < p->n_pcs; i++)
		want[dp_sym_obj_of(c, p->pcs[i].pc)] = 1;
	rc = dp_sym_open_symbols(c, want);
	free(want);
	if (rc < 0) {
		free(lv.pd_in);
		return rc;
	}
	for (uint32_t d = p->n_csd; d >= 1; d--) /* the lowest-numbered CSD entering */
		if (p->csd[d].callee <= p->n_pd)
			lv.pd_in[p->csd[d].callee] = d;
	rc = collect(&lv);
	if (rc == 0 && lv.n)
		rc = append(&lv);
	if (rc == 0)
		p->n_pcs = 0;
	free(lv.pd_in);
	free(lv.l);
	return rc;
}
