/*
 * symbol/cuindex.c - address to compile unit and address to source line for one module.
 * A CU is found through .debug_aranges when the module has it (gcc), checked against the
 * CU DIE's own ranges, which are then kept; so only the CUs the profile touches are ever
 * decoded (reading a CU DIE reads that CU's whole abbreviation table). Without aranges
 * (clang), or when they disagree, the ranges of every CU DIE are collected once (libdw
 * 0.188 itself relies on aranges alone). Lines come from the CU's line table through
 * libdw (dwarf_getsrc_die, which reads and caches the table on first use).
 */
#include <dwarf.h>
#include <gelf.h>
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

/* Add the ranges of CU DIE @cudie; *@added counts them. */
static int add_cu(struct dp_sym_mod *m, Dwarf_Die *cudie, uint32_t *added)
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
		(*added)++;
	}
	return 0;
}

/* The ranges of every CU DIE of the module (replacing those found so far). */
static int build_all(struct dp_sym_mod *m)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie;
	Dwarf_Half version;
	uint8_t unit_type;
	uint32_t added = 0;
	int r;

	m->cu_ranges_done = 1;
	m->n_cu_ranges = 0;
	while (dwarf_get_units(m->dw, cu, &cu, &version, &unit_type, &cudie, &subdie) == 0) {
		if (unit_type != DW_UT_compile && unit_type != DW_UT_partial &&
		    unit_type != DW_UT_skeleton)
			continue;
		r = add_cu(m, &cudie, &added);
		if (r < 0)
			return r;
	}
	dp_sym_sort(m->cu_ranges, m->n_cu_ranges, sizeof(*m->cu_ranges), curange_cmp);
	return 0;
}

/* Read .debug_aranges once, with libdw; a module without them (clang) keeps NULL and
 * build_all() is used. */
static void read_aranges(struct dp_sym_mod *m)
{
	size_t n = 0;

	m->aranges_done = 1;
	if (dwarf_getaranges(m->dw, &m->aranges, &n) != 0 || n == 0)
		m->aranges = NULL;
}

/* Search the CU ranges known so far; NULL if none holds @addr. */
static const struct dp_sym_curange *search(const struct dp_sym_mod *m, uint64_t addr)
{
	uint32_t lo = 0, hi = m->n_cu_ranges;

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
			return cr;
	}
	return NULL;
}

/* Take the ranges of the CU that .debug_aranges names for @addr; 1 if some were added. */
static int add_from_aranges(struct dp_sym_mod *m, uint64_t addr)
{
	Dwarf_Arange *ar = dwarf_getarange_addr(m->aranges, addr - m->bias);
	Dwarf_Addr start;
	Dwarf_Word len;
	Dwarf_Off off;
	Dwarf_Die cudie;
	uint32_t added = 0;
	int tag, r;

	if (!ar || dwarf_getarangeinfo(ar, &start, &len, &off) != 0 ||
	    !dwarf_offdie(m->dw, off, &cudie))
		return 0;
	tag = dwarf_tag(&cudie);
	if (tag != DW_TAG_compile_unit && tag != DW_TAG_partial_unit && tag != DW_TAG_skeleton_unit)
		return 0;
	for (uint32_t i = 0; i < m->n_cu_ranges; i++)
		if (m->cu_ranges[i].cu == off)
			return 0; /* already taken, and it did not hold @addr */
	r = add_cu(m, &cudie, &added);
	if (r < 0)
		return r;
	dp_sym_sort(m->cu_ranges, m->n_cu_ranges, sizeof(*m->cu_ranges), curange_cmp);
	return added > 0;
}

/* The CU range of module @m holding runtime @addr, NULL if none; -DP_ENOMEM in *@err. */
static const struct dp_sym_curange *range_of(struct dp_sym_mod *m, uint64_t addr, int *err)
{
	const struct dp_sym_curange *cr;

	*err = 0;
	if (!m->dw)
		return NULL;
	cr = search(m, addr);
	if (cr || m->cu_ranges_done)
		return cr;
	if (!m->aranges_done)
		read_aranges(m);
	*err = m->aranges ? add_from_aranges(m, addr) : 0;
	if (*err < 0)
		return NULL;
	cr = *err ? search(m, addr) : NULL;
	if (cr)
		return cr;
	*err = build_all(m); /* no aranges, or they do not agree with the CU DIEs */
	return *err < 0 ? NULL : search(m, addr);
}

/* dp_sym_cu_of - the CU DIE of module @m whose ranges hold runtime @addr into *@cu.
 * Return: 1 found, 0 not found (or no DWARF), or -DP_ENOMEM. */
int dp_sym_cu_of(struct dp_sym_mod *m, uint64_t addr, Dwarf_Die *cu)
{
	int err;
	const struct dp_sym_curange *cr = range_of(m, addr, &err);

	if (!cr)
		return err;
	return dwarf_offdie(m->dw, cr->cu, cu) ? 1 : 0;
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

/* dp_sym_file_of - file @idx of the line table of CU @cu, as dwarf_filesrc() names it
 * (owned by libdw, valid for the session); NULL if none. */
const char *dp_sym_file_of(Dwarf_Die *cu, uint64_t idx)
{
	Dwarf_Files *files;
	size_t n_files;

	if (dwarf_getsrcfiles(cu, &files, &n_files) != 0 || idx >= n_files)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}
