/*
 * symbol/dwindex.c - the per-module DWARF index: each compile unit holding an address
 * of interest is walked once (explicit stack, never recursion) collecting its concrete
 * functions with their address ranges, its call-site entries by return address and its
 * inlined instances; then sorted for binary search. Owns the arrays in struct dp_sym_mod.
 */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "symbol_int.h"

struct walk_item {
	Dwarf_Die die;
	uint32_t fn; /* enclosing concrete function + 1, 0 none */
};

struct walk {
	struct dp_sym_ctx *c;
	struct dp_sym_mod *m;
	Dwarf_Die cu;
	struct walk_item *stack;
	uint32_t n, cap;
};

/* CU set: open addressing on the CU DIE offset (never 0 for a real CU DIE, which
 * follows its header). Returns 1 if @off was already present. */
static int cu_seen(struct dp_sym_mod *m, Dwarf_Off off, int *err)
{
	uint32_t i;

	*err = 0;
	if (2 * (m->n_cus + 1) > m->cap_cus) {
		uint32_t ncap = m->cap_cus ? m->cap_cus * 2 : 64;
		Dwarf_Off *n = calloc(ncap, sizeof(*n));

		if (!n) {
			*err = dp_error(DP_ENOMEM, "out of memory indexing DWARF");
			return 0;
		}
		for (uint32_t k = 0; k < m->cap_cus; k++) {
			if (!m->cus[k])
				continue;
			for (i = (uint32_t)(m->cus[k] * 2654435761u) & (ncap - 1); n[i];)
				i = (i + 1) & (ncap - 1);
			n[i] = m->cus[k];
		}
		free(m->cus);
		m->cus = n;
		m->cap_cus = ncap;
	}
	for (i = (uint32_t)(off * 2654435761u) & (m->cap_cus - 1); m->cus[i];
	     i = (i + 1) & (m->cap_cus - 1))
		if (m->cus[i] == off)
			return 1;
	m->cus[i] = off;
	m->n_cus++;
	return 0;
}

static Dwarf_Off ref_off(Dwarf_Die *die, unsigned int name)
{
	Dwarf_Attribute a;
	Dwarf_Die t;

	if (!dwarf_attr(die, name, &a) || !dwarf_formref_die(&a, &t))
		return 0;
	return dwarf_dieoffset(&t);
}

static int push(struct walk *w, Dwarf_Die *die, uint32_t fn)
{
	int r = dp_sym_grow((void **)&w->stack, &w->cap, w->n, sizeof(*w->stack));

	if (r < 0)
		return r;
	w->stack[w->n].die = *die;
	w->stack[w->n++].fn = fn;
	return 0;
}

static int push_children(struct walk *w, Dwarf_Die *die, uint32_t fn)
{
	Dwarf_Die child;
	int r;

	if (dwarf_child(die, &child) != 0)
		return 0;
	do {
		r = push(w, &child, fn);
		if (r < 0)
			return r;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/* A subprogram with code: record it with its ranges; returns its index + 1, or 0. */
static int64_t add_fn(struct walk *w, Dwarf_Die *die)
{
	struct dp_sym_mod *m = w->m;
	struct dp_sym_fn *f;
	Dwarf_Addr base, lo, hi, entry;
	Dwarf_Die orig;
	ptrdiff_t off = 0;
	int r;

	if (!dwarf_hasattr(die, DW_AT_low_pc) && !dwarf_hasattr(die, DW_AT_ranges))
		return 0;
	r = dp_sym_grow((void **)&m->fns, &m->cap_fns, m->n_fns, sizeof(*m->fns));
	if (r < 0)
		return r;
	f = &m->fns[m->n_fns];
	memset(f, 0, sizeof(*f));
	f->off = dwarf_dieoffset(die);
	f->origin = ref_off(die, DW_AT_abstract_origin);
	if (!f->origin)
		f->origin = f->off;
	if (dwarf_offdie(m->dw, f->origin, &orig))
		f->spec = ref_off(&orig, DW_AT_specification);
	f->first_range = m->n_franges;
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		r = dp_sym_grow((void **)&m->franges, &m->cap_franges, m->n_franges,
				sizeof(*m->franges));
		if (r < 0)
			return r;
		m->franges[m->n_franges++] = (struct dp_sym_range){
			.lo = lo + m->bias, .hi = hi + m->bias, .fn = m->n_fns};
	}
	f->n_ranges = m->n_franges - f->first_range;
	if (dwarf_entrypc(die, &entry) == 0)
		f->entry = entry + m->bias;
	else if (f->n_ranges)
		f->entry = m->franges[f->first_range].lo;
	return ++m->n_fns;
}

static int add_site(struct walk *w, Dwarf_Die *die, uint32_t fn)
{
	struct dp_sym_mod *m = w->m;
	Dwarf_Attribute a;
	Dwarf_Addr ret;
	int r;

	if (dwarf_hasattr(die, DW_AT_call_tail_call) || dwarf_hasattr(die, DW_AT_GNU_tail_call))
		return 0;
	if (dwarf_attr(die, DW_AT_call_return_pc, &a)) {
		if (dwarf_formaddr(&a, &ret) != 0)
			return 0;
	} else if (dwarf_lowpc(die, &ret) != 0) {
		return 0;
	}
	r = dp_sym_grow((void **)&m->sites, &m->cap_sites, m->n_sites, sizeof(*m->sites));
	if (r < 0)
		return r;
	m->sites[m->n_sites++] =
		(struct dp_sym_site){.ret = ret + m->bias, .off = dwarf_dieoffset(die), .fn = fn};
	return 0;
}

static int add_inl(struct walk *w, Dwarf_Die *die, uint32_t fn)
{
	struct dp_sym_mod *m = w->m;
	Dwarf_Attribute a;
	Dwarf_Word fidx = 0, line = 0;
	const char *file = NULL;
	uint32_t sid = 0;
	int r;

	if (dwarf_attr(die, DW_AT_call_file, &a) && dwarf_formudata(&a, &fidx) == 0)
		file = dp_sym_file_of(&w->cu, fidx);
	if (dwarf_attr(die, DW_AT_call_line, &a))
		dwarf_formudata(&a, &line);
	r = dp_sym_intern(w->c, file, &sid);
	if (r < 0)
		return r;
	r = dp_sym_grow((void **)&m->inls, &m->cap_inls, m->n_inls, sizeof(*m->inls));
	if (r < 0)
		return r;
	m->inls[m->n_inls++] = (struct dp_sym_inl){.origin = ref_off(die, DW_AT_abstract_origin),
						   .fn = fn,
						   .file = sid,
						   .line = (uint32_t)line};
	return 0;
}

static int descend(int tag)
{
	switch (tag) {
	case DW_TAG_subprogram:
	case DW_TAG_lexical_block:
	case DW_TAG_inlined_subroutine:
	case DW_TAG_namespace:
	case DW_TAG_module:
	case DW_TAG_try_block:
	case DW_TAG_catch_block:
		return 1;
	default:
		return 0;
	}
}

/*
 * Whether a function entered at @entry is one of the profile's: the walk does not descend
 * into the others (half the DIEs of a CU, typically), whose call sites and inlined calls
 * nothing looks up. A GNU C nested function inside such a function would be missed, but
 * it can only run inside its parent's activation, so its parent is in the profile too.
 */
static int in_profile(const struct dp_sym_mod *m, uint64_t entry)
{
	uint32_t lo = 0, hi = m->n_ps_entries;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (m->ps_entries[mid] < entry)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->n_ps_entries && m->ps_entries[lo] == entry;
}

static int walk_one(struct walk *w, struct walk_item *it)
{
	int tag = dwarf_tag(&it->die);
	uint32_t fn = it->fn;
	int64_t idx;
	int r = 0;

	if (tag == DW_TAG_subprogram) {
		idx = add_fn(w, &it->die);
		if (idx < 0)
			return (int)idx;
		if (idx > 0 && !in_profile(w->m, w->m->fns[idx - 1].entry))
			return 0; /* its call sites and inlined calls would never be used */
		if (idx > 0)
			fn = (uint32_t)idx;
	} else if ((tag == DW_TAG_call_site || tag == DW_TAG_GNU_call_site) && fn) {
		r = add_site(w, &it->die, fn - 1);
	} else if (tag == DW_TAG_inlined_subroutine && fn) {
		r = add_inl(w, &it->die, fn - 1);
	}
	if (r == 0 && descend(tag))
		r = push_children(w, &it->die, fn);
	return r;
}

static int walk_cu(struct dp_sym_ctx *c, struct dp_sym_mod *m, Dwarf_Die *cu)
{
	struct walk w = {.c = c, .m = m, .cu = *cu};
	int r;

	r = push_children(&w, cu, 0);
	while (r == 0 && w.n > 0) {
		struct walk_item it = w.stack[--w.n];

		r = walk_one(&w, &it);
	}
	free(w.stack);
	return r;
}

/* dp_sym_index_addr - index the compile unit of module @m covering runtime @addr, once;
 * a module without DWARF or an address outside every CU is not an error. */
int dp_sym_index_addr(struct dp_sym_ctx *c, struct dp_sym_mod *m, uint64_t addr)
{
	Dwarf_Die cu;
	int r = dp_sym_cu_of(m, addr, &cu);

	if (r <= 0)
		return r;
	if (cu_seen(m, dwarf_dieoffset(&cu), &r) || r < 0)
		return r;
	return walk_cu(c, m, &cu);
}

static const struct dp_sym_mod *sort_mod;

static int entry_cmp(const void *a, const void *b)
{
	const struct dp_sym_fn *x = &sort_mod->fns[*(const uint32_t *)a];
	const struct dp_sym_fn *y = &sort_mod->fns[*(const uint32_t *)b];

	if (x->entry != y->entry)
		return x->entry < y->entry ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int site_cmp(const void *a, const void *b)
{
	const struct dp_sym_site *x = a, *y = b;

	if (x->ret != y->ret)
		return x->ret < y->ret ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int inl_cmp(const void *a, const void *b)
{
	const struct dp_sym_inl *x = a, *y = b;

	if (x->fn != y->fn)
		return x->fn < y->fn ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->origin < y->origin ? -1 : x->origin > y->origin;
}

/* dp_sym_mod_finish - sort the index of @m for the lookups below; 0 or -DP_ENOMEM. */
int dp_sym_mod_finish(struct dp_sym_mod *m)
{
	free(m->by_entry);
	m->by_entry = malloc(((size_t)m->n_fns + 1) * sizeof(*m->by_entry));
	if (!m->by_entry)
		return dp_error(DP_ENOMEM, "out of memory indexing DWARF");
	for (uint32_t i = 0; i < m->n_fns; i++)
		m->by_entry[i] = i;
	sort_mod = m;
	dp_sym_sort(m->by_entry, m->n_fns, sizeof(*m->by_entry), entry_cmp);
	sort_mod = NULL;
	dp_sym_sort(m->sites, m->n_sites, sizeof(*m->sites), site_cmp);
	dp_sym_sort(m->inls, m->n_inls, sizeof(*m->inls), inl_cmp);
	return 0;
}

/* dp_sym_mod_release - free the index of @m (the Dwfl module belongs to the session). */
void dp_sym_mod_release(struct dp_sym_mod *m)
{
	free(m->cus);
	free(m->fns);
	free(m->franges);
	free(m->by_entry);
	free(m->sites);
	free(m->inls);
	free(m->syms);
	free(m->defined);
	free(m->cu_ranges);
	free(m->ps_entries);
	memset(m, 0, sizeof(*m));
}

/* dp_sym_fn_at_entry - the function of @m whose entry is @addr (the first by DIE offset
 * when several share it), or -1. */
int64_t dp_sym_fn_at_entry(const struct dp_sym_mod *m, uint64_t addr)
{
	uint32_t lo = 0, hi = m->n_fns;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (m->fns[m->by_entry[mid]].entry < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->n_fns && m->fns[m->by_entry[lo]].entry == addr)
		return m->by_entry[lo];
	return -1;
}

/* dp_sym_fn_contains - whether @addr lies in one of the address ranges of function @fn. */
int dp_sym_fn_contains(const struct dp_sym_mod *m, uint32_t fn, uint64_t addr)
{
	const struct dp_sym_fn *f = &m->fns[fn];

	for (uint32_t i = 0; i < f->n_ranges; i++) {
		const struct dp_sym_range *rg = &m->franges[f->first_range + i];

		if (addr >= rg->lo && addr < rg->hi)
			return 1;
	}
	return 0;
}

/* dp_sym_site_at - the call-site entry of @m returning to @ret, or NULL. */
const struct dp_sym_site *dp_sym_site_at(const struct dp_sym_mod *m, uint64_t ret)
{
	uint32_t lo = 0, hi = m->n_sites;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (m->sites[mid].ret < ret)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->n_sites && m->sites[lo].ret == ret ? &m->sites[lo] : NULL;
}

/* dp_sym_inls_of - the inlined instances inside function @fn (*@n of them, by line). */
const struct dp_sym_inl *dp_sym_inls_of(const struct dp_sym_mod *m, uint32_t fn, uint32_t *n)
{
	uint32_t lo = 0, hi = m->n_inls, end;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (m->inls[mid].fn < fn)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < m->n_inls && m->inls[end].fn == fn; end++)
		;
	*n = end - lo;
	return m->inls + lo;
}
