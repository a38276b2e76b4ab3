/*
 * symbol/sites.c - the CallSiteStatic side of symbolization: file:line of each call from
 * the line table, its kind (direct / indirect from DWARF call-site entries, callback when
 * the return address lies outside the caller, inlined when the callee was inlined into
 * the caller), its static callee; and the call sites present in DWARF but never taken.
 */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "symbol_int.h"

struct callee {
	int known;   /* the site names its callee */
	int defined; /* ... and that callee is defined in an open object */
	int runtime; /* ... and it is one of libdeepprof's own functions */
	uint32_t ps; /* the callee's PS, 0 if not in the profile */
};

/* What the call-site entry @s of object @obj says about its callee. */
static struct callee resolve_callee(const struct dp_sym_ctx *c, uint32_t obj, struct dp_sym_mod *m,
				    const struct dp_sym_site *s)
{
	struct callee ce = {0};
	Dwarf_Die site, fn;
	Dwarf_Attribute a;
	Dwarf_Addr entry;
	const char *name, *link, *plain;
	unsigned int pc;

	if (!dwarf_offdie(m->dw, s->off, &site))
		return ce;
	if (!dwarf_attr(&site, DW_AT_call_origin, &a) &&
	    !dwarf_attr(&site, DW_AT_abstract_origin, &a))
		return ce;
	if (!dwarf_formref_die(&a, &fn) || dwarf_tag(&fn) != DW_TAG_subprogram)
		return ce;
	ce.known = 1;
	dp_sym_die_names(&fn, &link, &plain, &pc);
	name = link ? link : plain;
	ce.runtime = name && dp_sym_is_runtime_name(name);
	if ((pc & 1) && dwarf_entrypc(&fn, &entry) == 0)
		ce.ps = dp_sym_ps_by_addr(c, entry + m->bias);
	if (!ce.ps)
		ce.ps = dp_sym_ps_by_key(c, obj, dwarf_dieoffset(&fn));
	if (!ce.ps && name)
		ce.ps = dp_sym_ps_by_name(c, name);
	/* code in this module: a concrete DIE, or a symbol defined under the linkage name
	 * (declarations and abstract instances, e.g. an inline constructor's, have none) */
	ce.defined = ce.ps || pc || (name && dp_sym_is_defined(m, name));
	return ce;
}

static int set_line(struct dp_sym_ctx *c, struct dp_css *s)
{
	struct dp_sym_mod *m = dp_sym_mod_of(c, dp_sym_obj_of(c, s->addr - 1));
	const char *file = m ? dp_sym_line_at(m, s->addr - 1, &s->line) : NULL;

	return file ? dp_sym_intern(c, file, &s->file) : 0;
}

/* CSR of the callee PS of every CSS, from the CSDs. */
struct callees {
	uint32_t *start; /* [n_css + 2] */
	uint32_t *ps;
};

static int build_callees(const struct dp_profile *p, struct callees *cl)
{
	cl->start = calloc((size_t)p->n_css + 2, sizeof(*cl->start));
	cl->ps = calloc((size_t)p->n_csd + 1, sizeof(*cl->ps));
	if (!cl->start || !cl->ps)
		return dp_error(DP_ENOMEM, "out of memory symbolizing");
	for (uint32_t i = 1; i <= p->n_csd; i++)
		if (p->csd[i].css >= 1 && p->csd[i].css <= p->n_css)
			cl->start[p->csd[i].css + 1]++;
	for (uint32_t i = 1; i <= p->n_css + 1; i++)
		cl->start[i] += cl->start[i - 1];
	for (uint32_t i = 1; i <= p->n_csd; i++) {
		const struct dp_csd *d = &p->csd[i];

		if (d->css >= 1 && d->css <= p->n_css && d->callee >= 1 && d->callee <= p->n_pd)
			cl->ps[cl->start[d->css]++] = p->pd[d->callee].ps;
	}
	for (uint32_t i = p->n_css + 1; i >= 1; i--)
		cl->start[i] = cl->start[i - 1];
	cl->start[0] = 0;
	return 0;
}

/* A return address outside the caller: callback, unless a callee of the site was
 * inlined into the caller (its hooks then report the caller's own return address). */
static void classify_outside(struct dp_sym_ctx *c, uint32_t id, const struct callees *cl,
			     struct dp_sym_mod *m, uint32_t fn)
{
	struct dp_css *s = &c->p->css[id];
	uint32_t n_inl;
	const struct dp_sym_inl *inl = dp_sym_inls_of(m, fn, &n_inl);

	s->kind = DP_CSS_CALLBACK;
	s->callee_ps = 0;
	for (uint32_t k = 0; k < n_inl; k++) {
		for (uint32_t j = cl->start[id]; j < cl->start[id + 1]; j++) {
			uint32_t q = cl->ps[j], qf = c->ps_fn[q];
			const struct dp_sym_fn *f;

			if (!qf || c->ps_obj[q] != c->ps_obj[s->ps])
				continue;
			f = &m->fns[qf - 1];
			if (inl[k].origin != f->origin && inl[k].origin != f->off)
				continue;
			s->kind = DP_CSS_INLINED;
			s->callee_ps = q;
			s->file = inl[k].file;
			s->line = inl[k].line;
			return;
		}
	}
}

static int classify_one(struct dp_sym_ctx *c, uint32_t id, const struct callees *cl)
{
	struct dp_profile *p = c->p;
	struct dp_css *s = &p->css[id];
	uint32_t caller = s->ps, obj, fn;
	struct dp_sym_mod *m;
	const struct dp_sym_site *site;
	struct callee ce;
	int r = 0;

	if (s->kind == DP_CSS_LIBRARY)
		return 0; /* a library leaf's: no call, no line (leaves.c) */
	if (s->addr && s->kind != DP_CSS_THREAD)
		r = set_line(c, s);
	if (r < 0 || s->kind == DP_CSS_THREAD || s->kind == DP_CSS_ENTRY || s->kind == DP_CSS_TAIL)
		return r; /* the runtime's kinds: the tail site's line is its caller's call */
	if (caller < 1 || caller > p->n_ps || !c->ps_fn[caller])
		return 0; /* caller unknown or without DWARF: nothing to decide with */
	obj = c->ps_obj[caller];
	m = &c->mods[obj];
	fn = c->ps_fn[caller] - 1;
	if (dp_sym_obj_of(c, s->addr - 1) != obj || !dp_sym_fn_contains(m, fn, s->addr - 1)) {
		classify_outside(c, id, cl, m, fn);
		return 0;
	}
	site = dp_sym_site_at(m, s->addr);
	if (!site) {
		s->kind = DP_CSS_UNKNOWN;
		s->callee_ps = 0;
		return 0;
	}
	ce = resolve_callee(c, obj, m, site);
	s->kind = ce.known ? DP_CSS_DIRECT : DP_CSS_INDIRECT;
	s->callee_ps = ce.ps;
	return 0;
}

/* dp_sym_classify_sites - file:line, kind and static callee of every CSS. */
int dp_sym_classify_sites(struct dp_sym_ctx *c)
{
	struct callees cl = {0};
	int r = build_callees(c->p, &cl);

	for (uint32_t i = 1; r == 0 && i <= c->p->n_css; i++)
		r = classify_one(c, i, &cl);
	free(cl.start);
	free(cl.ps);
	return r;
}

struct pskey {
	uint32_t ps;
	uint64_t addr;
};

static int pskey_cmp(const void *a, const void *b)
{
	const struct pskey *x = a, *y = b;

	if (x->ps != y->ps)
		return x->ps < y->ps ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Append one never-taken site to the growing array *@out. */
static int append(struct dp_sym_ctx *c, struct dp_css **out, uint32_t *n, uint32_t *cap,
		  const struct dp_css *s)
{
	int r = dp_sym_grow((void **)out, cap, *n, sizeof(**out));

	if (r < 0)
		return r;
	(*out)[(*n)++] = *s;
	(void)c;
	return 0;
}

static int collect_untaken(struct dp_sym_ctx *c, const struct pskey *have, uint32_t n_have,
			   struct dp_css **out, uint32_t *n, uint32_t *cap)
{
	for (uint32_t o = 1; o <= c->p->n_objects; o++) {
		struct dp_sym_mod *m = dp_sym_mod_of(c, o);

		for (uint32_t i = 0; m && i < m->n_sites; i++) {
			const struct dp_sym_site *st = &m->sites[i];
			struct pskey k = {.ps = m->fns[st->fn].ps, .addr = st->ret};
			struct dp_css s = {.ps = k.ps, .addr = st->ret};
			struct callee ce;
			int r;

			if (!k.ps || (i > 0 && m->sites[i - 1].ret == st->ret))
				continue;
			if (bsearch(&k, have, n_have, sizeof(*have), pskey_cmp))
				continue;
			ce = resolve_callee(c, o, m, st);
			if (ce.runtime || (ce.known && !ce.defined))
				continue;
			s.kind = ce.known ? DP_CSS_DIRECT : DP_CSS_INDIRECT;
			s.callee_ps = ce.ps;
			r = set_line(c, &s);
			if (r == 0)
				r = append(c, out, n, cap, &s);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* dp_sym_add_untaken - append a CSS for each DWARF call site of a PS function that the
 * run never took (calls to libdeepprof itself and to functions defined in no open object
 * are left out). The CSS array is reallocated in the profile's arena. */
int dp_sym_add_untaken(struct dp_sym_ctx *c)
{
	struct dp_profile *p = c->p;
	struct pskey *have = calloc((size_t)p->n_css + 1, sizeof(*have));
	struct dp_css *add = NULL, *css;
	uint32_t n_add = 0, cap_add = 0;
	int r;

	if (!have)
		return dp_error(DP_ENOMEM, "out of memory symbolizing");
	for (uint32_t i = 1; i <= p->n_css; i++)
		have[i - 1] = (struct pskey){.ps = p->css[i].ps, .addr = p->css[i].addr};
	dp_sym_sort(have, p->n_css, sizeof(*have), pskey_cmp);
	r = collect_untaken(c, have, p->n_css, &add, &n_add, &cap_add);
	if (r == 0 && n_add) {
		/* the old array stays in the arena: arenas free nothing alone */
		css = dp_arena_array(&p->arena, (size_t)p->n_css + n_add + 1, sizeof(*css));
		if (!css) {
			r = dp_error(DP_ENOMEM, "out of memory adding call sites");
		} else {
			if (p->css)
				memcpy(css, p->css, ((size_t)p->n_css + 1) * sizeof(*css));
			memcpy(css + p->n_css + 1, add, (size_t)n_add * sizeof(*css));
			p->css = css;
			p->n_css += n_add;
		}
	}
	free(have);
	free(add);
	return r;
}
