/*
 * symbol/symtab.c - the defined function symbols of one module, read once from its ELF
 * symbol table and sorted by address and by name (dwfl_module_addrinfo scans the whole
 * table on every call, which is quadratic over thousands of functions).
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "symbol_int.h"

static int bind_rank(int bind)
{
	return bind == STB_GLOBAL ? 0 : bind == STB_WEAK ? 1 : 2;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct dp_sym_elfsym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (bind_rank(x->bind) != bind_rank(y->bind))
		return bind_rank(x->bind) - bind_rank(y->bind);
	return strcmp(x->name, y->name);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void load(struct dp_sym_mod *m)
{
	int n = dwfl_module_getsymtab(m->mod);

	m->syms_done = 1;
	if (n <= 0)
		return;
	m->syms = calloc((size_t)n, sizeof(*m->syms));
	m->defined = calloc((size_t)n, sizeof(*m->defined));
	if (!m->syms || !m->defined) {
		free(m->syms);
		free(m->defined);
		m->syms = NULL;
		m->defined = NULL;
		return; /* symbolization goes on from DWARF alone */
	}
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		const char *s = dwfl_module_getsym_info(m->mod, i, &sym, &addr, &shndx, NULL, NULL);
		int type = s ? GELF_ST_TYPE(sym.st_info) : STT_NOTYPE;

		if (!s || !s[0] || (type != STT_FUNC && type != STT_GNU_IFUNC) ||
		    shndx == SHN_UNDEF || sym.st_value == 0)
			continue;
		m->defined[m->n_syms] = s;
		m->syms[m->n_syms++] = (struct dp_sym_elfsym){.addr = addr,
							      .size = sym.st_size,
							      .name = s,
							      .bind = GELF_ST_BIND(sym.st_info),
							      .shndx = shndx};
	}
	dp_sym_sort(m->syms, m->n_syms, sizeof(*m->syms), sym_cmp);
	dp_sym_sort(m->defined, m->n_syms, sizeof(*m->defined), str_cmp);
}

/* dp_sym_elfsym_at - the defined function symbol of @m at exactly runtime @addr (global
 * before weak before local when several alias it), or NULL. */
const struct dp_sym_elfsym *dp_sym_elfsym_at(struct dp_sym_mod *m, uint64_t addr)
{
	uint32_t lo = 0, hi;

	if (!m->syms_done)
		load(m);
	hi = m->n_syms;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (m->syms[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->n_syms && m->syms[lo].addr == addr ? &m->syms[lo] : NULL;
}

/* The index of the section of @m holding runtime @addr, 0 if none. */
static uint32_t section_of(struct dp_sym_mod *m, uint64_t addr)
{
	Dwarf_Addr a = addr, bias;
	Elf_Scn *scn = dwfl_module_address_section(m->mod, &a, &bias);

	return scn ? (uint32_t)elf_ndxscn(scn) : 0;
}

/*
 * dp_sym_elfsym_covering - the defined function symbol of @m whose code holds runtime
 * @addr: the last one starting at or below it (global before weak before local among
 * aliases), if its size reaches @addr, or if it has none (assembly without .size) and
 * @addr is in its section (not _init's reaching over the PLT); else NULL.
 */
const struct dp_sym_elfsym *dp_sym_elfsym_covering(struct dp_sym_mod *m, uint64_t addr)
{
	uint32_t lo = 0, hi;
	const struct dp_sym_elfsym *s;

	if (!m->syms_done)
		load(m);
	hi = m->n_syms;
	while (lo < hi) { /* first symbol above addr */
		uint32_t mid = lo + (hi - lo) / 2;

		if (m->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	s = &m->syms[lo - 1];
	while (s > m->syms && s[-1].addr == s->addr)
		s--;
	for (const struct dp_sym_elfsym *a = s; a < m->syms + m->n_syms && a->addr == s->addr; a++)
		if (a->size ? addr - a->addr < a->size : a->shndx == section_of(m, addr))
			return a; /* the best-ranked alias that covers it */
	return NULL;
}

/* dp_sym_is_defined - whether @m's symbol table defines a function named @name. */
int dp_sym_is_defined(struct dp_sym_mod *m, const char *name)
{
	if (!m->syms_done)
		load(m);
	return m->n_syms &&
	       bsearch(&name, m->defined, m->n_syms, sizeof(*m->defined), str_cmp) != NULL;
}
