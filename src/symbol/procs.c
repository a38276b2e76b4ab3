/*
 * symbol/procs.c - names, definition positions, linkage and objects of the function PS,
 * from the ELF symbol table and the DWARF subprogram at the entry address; and the
 * lookup tables (by entry address, by DIE offset, by symbol name) that resolve the
 * callees of call sites to PS.
 */
#include <dwarf.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "symbol_int.h"

static const char *die_string(Dwarf_Die *die, unsigned int name)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, name, &a) ? dwarf_formstring(&a) : NULL;
}

static const char *die_linkage_name(Dwarf_Die *die)
{
	const char *s = die_string(die, DW_AT_linkage_name);

	return s ? s : die_string(die, DW_AT_MIPS_linkage_name);
}

/* Name, linkage name and linkage of PS @i from its ELF symbol and DWARF DIE (@die may be
 * NULL). */
static int name_one(struct dp_sym_ctx *c, struct dp_ps *ps, struct dp_sym_mod *m, Dwarf_Die *die)
{
	const struct dp_sym_elfsym *es = dp_sym_elfsym_at(m, ps->addr);
	const char *sname = es ? es->name : NULL, *dlink = NULL, *dname = NULL, *mangled;
	int r;

	if (die) {
		dlink = die_linkage_name(die);
		dname = die_string(die, DW_AT_name);
	}
	mangled = sname ? sname : dlink;
	if (dlink)
		r = dp_sym_demangle(c, dlink, &ps->name);
	else if (sname && strncmp(sname, "_Z", 2) == 0)
		r = dp_sym_demangle(c, sname, &ps->name); /* C++ without a DWARF linkage name */
	else if (dname)
		r = dp_sym_intern(c, dname, &ps->name);
	else if (sname)
		r = dp_sym_demangle(c, sname, &ps->name);
	else
		return 0; /* no symbol at all: the label stays 0x... */
	if (r < 0)
		return r;
	ps->linkage_name = 0;
	if (mangled && strcmp(mangled, dp_profile_str(c->p, ps->name)) != 0) {
		r = dp_sym_intern(c, mangled, &ps->linkage_name);
		if (r < 0)
			return r;
	}
	if (es) {
		int bind = es->bind;

		ps->linkage = bind == STB_LOCAL	 ? DP_LINK_STATIC
			      : bind == STB_WEAK ? DP_LINK_WEAK
						 : DP_LINK_GLOBAL;
	} else if (die) {
		Dwarf_Attribute a;
		bool ext = false;

		if (dwarf_attr_integrate(die, DW_AT_external, &a))
			dwarf_formflag(&a, &ext);
		ps->linkage = ext ? DP_LINK_GLOBAL : DP_LINK_STATIC;
	}
	return 0;
}

/*
 * The DW_AT_decl_file of @die or of the DIE it derives from. Not dwarf_decl_file():
 * libdw 0.188 rejects file index 0, which DWARF 5 (clang) uses for the primary file.
 */
static const char *decl_file(Dwarf_Die *die)
{
	Dwarf_Die cur = *die, cu;
	Dwarf_Attribute a;
	Dwarf_Word idx;
	Dwarf_Files *files;
	size_t n_files;

	for (int hops = 0; hops < 8; hops++) {
		if (dwarf_attr(&cur, DW_AT_decl_file, &a)) {
			if (dwarf_formudata(&a, &idx) != 0 || !dwarf_diecu(&cur, &cu, NULL, NULL) ||
			    dwarf_getsrcfiles(&cu, &files, &n_files) != 0 || idx >= n_files)
				return NULL;
			return dwarf_filesrc(files, idx, NULL, NULL);
		}
		if (!dwarf_attr(&cur, DW_AT_abstract_origin, &a) &&
		    !dwarf_attr(&cur, DW_AT_specification, &a))
			return NULL;
		if (!dwarf_formref_die(&a, &cur))
			return NULL;
	}
	return NULL;
}

/* Definition file:line of PS @ps: the subprogram's decl_file/decl_line, else the line
 * table at the entry address. */
static int place_one(struct dp_sym_ctx *c, struct dp_ps *ps, struct dp_sym_mod *m, Dwarf_Die *die)
{
	const char *file = die ? decl_file(die) : NULL;
	int line = 0;

	if (file && dwarf_decl_line(die, &line) == 0 && line > 0) {
		ps->line = (uint32_t)line;
		return dp_sym_intern(c, file, &ps->file);
	}
	file = dp_sym_line_at(m, ps->addr, &ps->line);
	return file ? dp_sym_intern(c, file, &ps->file) : 0;
}

/* dp_sym_name_procs - symbolize every function PS whose object is open; records the
 * DWARF function of each PS in c->ps_fn and the PS of each function. */
int dp_sym_name_procs(struct dp_sym_ctx *c)
{
	struct dp_profile *p = c->p;
	int r;

	for (uint32_t i = 1; i <= p->n_ps; i++) {
		struct dp_sym_mod *m = dp_sym_mod_of(c, c->ps_obj[i]);

		if (m && p->ps[i].kind == DP_PS_FUNCTION) {
			r = dp_sym_index_addr(c, m, p->ps[i].addr);
			if (r < 0)
				return r;
		}
	}
	for (uint32_t o = 1; o <= p->n_objects; o++) {
		if (c->mods[o].state == DP_SYM_MOD_OPEN) {
			r = dp_sym_mod_finish(&c->mods[o]);
			if (r < 0)
				return r;
		}
	}
	for (uint32_t i = 1; i <= p->n_ps; i++) {
		struct dp_ps *ps = &p->ps[i];
		struct dp_sym_mod *m = dp_sym_mod_of(c, c->ps_obj[i]);
		Dwarf_Die die, *dp = NULL;
		int64_t fn;

		if (ps->kind != DP_PS_FUNCTION)
			continue;
		ps->object = c->ps_obj[i];
		if (!m)
			continue;
		fn = dp_sym_fn_at_entry(m, ps->addr);
		if (fn >= 0 && dwarf_offdie(m->dw, m->fns[fn].off, &die)) {
			dp = &die;
			c->ps_fn[i] = (uint32_t)fn + 1;
			if (!m->fns[fn].ps)
				m->fns[fn].ps = i;
		}
		r = name_one(c, ps, m, dp);
		if (r == 0)
			r = place_one(c, ps, m, dp);
		if (r < 0)
			return r;
	}
	return 0;
}

static int addr_cmp(const void *a, const void *b)
{
	const struct dp_sym_addr *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->ps < y->ps ? -1 : x->ps > y->ps;
}

static int key_cmp(const void *a, const void *b)
{
	const struct dp_sym_key *x = a, *y = b;

	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->ps < y->ps ? -1 : x->ps > y->ps;
}

static int name_cmp(const void *a, const void *b)
{
	const struct dp_sym_name *x = a, *y = b;
	int d = strcmp(x->name, y->name);

	if (d)
		return d;
	return x->ps < y->ps ? -1 : x->ps > y->ps;
}

static void add_key(struct dp_sym_ctx *c, uint32_t obj, Dwarf_Off off, uint32_t ps)
{
	if (off)
		c->keys[c->n_keys++] = (struct dp_sym_key){.obj = obj, .off = off, .ps = ps};
}

static void add_name(struct dp_sym_ctx *c, uint32_t id, uint32_t ps)
{
	if (id)
		c->names[c->n_names++] =
			(struct dp_sym_name){.name = dp_profile_str(c->p, id), .ps = ps};
}

/* dp_sym_build_maps - the PS lookup tables used to resolve call-site callees. */
int dp_sym_build_maps(struct dp_sym_ctx *c)
{
	const struct dp_profile *p = c->p;

	c->by_addr = calloc(p->n_ps + 1, sizeof(*c->by_addr));
	c->keys = calloc(3 * (size_t)p->n_ps + 1, sizeof(*c->keys));
	c->names = calloc(2 * (size_t)p->n_ps + 1, sizeof(*c->names));
	if (!c->by_addr || !c->keys || !c->names)
		return dp_error(DP_ENOMEM, "out of memory symbolizing");
	for (uint32_t i = 1; i <= p->n_ps; i++) {
		const struct dp_ps *ps = &p->ps[i];

		if (ps->kind != DP_PS_FUNCTION)
			continue;
		c->by_addr[c->n_by_addr++] = (struct dp_sym_addr){.addr = ps->addr, .ps = i};
		add_name(c, ps->name, i);
		add_name(c, ps->linkage_name, i);
		if (c->ps_fn[i]) {
			const struct dp_sym_fn *f = &c->mods[c->ps_obj[i]].fns[c->ps_fn[i] - 1];

			add_key(c, c->ps_obj[i], f->off, i);
			if (f->origin != f->off)
				add_key(c, c->ps_obj[i], f->origin, i);
			add_key(c, c->ps_obj[i], f->spec, i);
		}
	}
	dp_sym_sort(c->by_addr, c->n_by_addr, sizeof(*c->by_addr), addr_cmp);
	dp_sym_sort(c->keys, c->n_keys, sizeof(*c->keys), key_cmp);
	dp_sym_sort(c->names, c->n_names, sizeof(*c->names), name_cmp);
	return 0;
}

/* dp_sym_ps_by_addr - the function PS entered at @addr, 0 if none. */
uint32_t dp_sym_ps_by_addr(const struct dp_sym_ctx *c, uint64_t addr)
{
	uint32_t lo = 0, hi = c->n_by_addr;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (c->by_addr[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < c->n_by_addr && c->by_addr[lo].addr == addr ? c->by_addr[lo].ps : 0;
}

/* dp_sym_ps_by_key - the PS whose DWARF function is (or derives from) DIE @off of object
 * @obj, 0 if none. */
uint32_t dp_sym_ps_by_key(const struct dp_sym_ctx *c, uint32_t obj, Dwarf_Off off)
{
	struct dp_sym_key k = {.obj = obj, .off = off, .ps = 0};
	uint32_t lo = 0, hi = c->n_keys;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (key_cmp(&c->keys[mid], &k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->n_keys && c->keys[lo].obj == obj && c->keys[lo].off == off)
		return c->keys[lo].ps;
	return 0;
}

/* dp_sym_ps_by_name - the PS named (or with linkage name) @name, lowest id; 0 if none. */
uint32_t dp_sym_ps_by_name(const struct dp_sym_ctx *c, const char *name)
{
	uint32_t lo = 0, hi = c->n_names;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (strcmp(c->names[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->n_names && strcmp(c->names[lo].name, name) == 0)
		return c->names[lo].ps;
	return 0;
}
