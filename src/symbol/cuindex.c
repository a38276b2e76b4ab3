/*
 * symbol/cuindex.c - address to compile unit and address to source line for one module.
 * libdw 0.188 finds CUs through .debug_aranges, which clang does not emit; so the
 * address ranges of every CU DIE are collected once per module (cheap: CU DIEs only)
 * and searched here, and lines come from the CU's line table (dwarf_getsrc_die).
 */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "symbol_int.h"

static int curange_cmp(const void *a, const void *b)
{
	const struct dp_sym_curange *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

static int add_cu(struct dp_sym_mod *m, Dwarf_Die *cudie)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	int r;

	while ((off = dwarf_ranges(cudie, off, &base, &lo, &hi)) > 0) {
		if (hi <= lo)
			continue;
		r = dp_sym_grow((void **)&m->cu_ranges, &m->cap_cu_ranges, m->n_cu_ranges,
				sizeof(*m->cu_ranges));
		if (r < 0)
			return r;
		m->cu_ranges[m->n_cu_ranges++] = (struct dp_sym_curange){
			.lo = lo + m->bias, .hi = hi + m->bias, .cu = dwarf_dieoffset(cudie)};
	}
	return 0;
}

static int build(struct dp_sym_mod *m)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie;
	Dwarf_Half version;
	uint8_t unit_type;
	int r;

	m->cu_ranges_done = 1;
	while (dwarf_get_units(m->dw, cu, &cu, &version, &unit_type, &cudie, &subdie) == 0) {
		if (unit_type != DW_UT_compile && unit_type != DW_UT_partial &&
		    unit_type != DW_UT_skeleton)
			continue;
		r = add_cu(m, &cudie);
		if (r < 0)
			return r;
	}
	dp_sym_sort(m->cu_ranges, m->n_cu_ranges, sizeof(*m->cu_ranges), curange_cmp);
	return 0;
}

/* dp_sym_cu_of - the CU DIE of module @m whose ranges hold runtime @addr into *@cu.
 * Return: 1 found, 0 not found (or no DWARF), or -DP_ENOMEM. */
int dp_sym_cu_of(struct dp_sym_mod *m, uint64_t addr, Dwarf_Die *cu)
{
	uint32_t lo = 0, hi;
	int r;

	if (!m->dw)
		return 0;
	if (!m->cu_ranges_done) {
		r = build(m);
		if (r < 0)
			return r;
	}
	hi = m->n_cu_ranges;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (m->cu_ranges[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* ranges of different CUs do not overlap; look back a little in case they do */
	for (uint32_t i = lo, k = 0; i > 0 && k < 8; i--, k++) {
		const struct dp_sym_curange *cr = &m->cu_ranges[i - 1];

		if (addr >= cr->lo && addr < cr->hi)
			return dwarf_offdie(m->dw, cr->cu, cu) ? 1 : 0;
	}
	return 0;
}

/* dp_sym_line_at - the source file of runtime @addr in module @m (owned by libdw, valid
 * for the session) and its line in *@line; NULL if unknown. */
const char *dp_sym_line_at(struct dp_sym_mod *m, uint64_t addr, uint32_t *line)
{
	Dwarf_Die cu;
	Dwarf_Line *l;
	const char *file;
	int n = 0;

	if (dp_sym_cu_of(m, addr, &cu) != 1)
		return NULL;
	l = dwarf_getsrc_die(&cu, addr - m->bias);
	file = l ? dwarf_linesrc(l, NULL, NULL) : NULL;
	if (!file || dwarf_lineno(l, &n) != 0)
		return NULL;
	*line = n > 0 ? (uint32_t)n : 0;
	return file;
}
