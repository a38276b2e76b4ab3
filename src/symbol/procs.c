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

enum { NS_LINK, NS_MIPS, NS_NAME, NS_ORIGIN, NS_SPEC, NS_N };

struct names_scan {
	Dwarf_Attribute at[NS_N];
	unsigned int seen;     /* bit per NS_* found on this DIE */
	unsigned int first_pc; /* DW_AT_low_pc (1) / DW_AT_ranges (2) on this DIE */
};

static int names_cb(Dwarf_Attribute *a, void *arg)
{
	struct names_scan *s = arg;
	int k;

	switch (dwarf_whatattr(a)) {
	case DW_AT_linkage_name:
		k = NS_LINK;
		break;
	case DW_AT_MIPS_linkage_name:
		k = NS_MIPS;
		break;
	case DW_AT_name:
		k = NS_NAME;
		break;
	case DW_AT_abstract_origin:
		k = NS_ORIGIN;
		break;
	case DW_AT_specification:
		k = NS_SPEC;
		break;
	case DW_AT_low_pc:
		s->first_pc |= 1;
		return DWARF_CB_OK;
	case DW_AT_ranges:
		s->first_pc |= 2;
		return DWARF_CB_OK;
	default:
		return DWARF_CB_OK;
	}
	if (!(s->seen & (1u << k))) {
		s->at[k] = *a;
		s->seen |= 1u << k;
	}
	return DWARF_CB_OK;
}

/*
 * dp_sym_die_names - the linkage name (DW_AT_linkage_name, else the MIPS one) and the
 * DW_AT_name of @die, each as dwarf_attr_integrate() finds it (on the DIE, else along its
 * abstract_origin / specification chain), with one pass over each DIE's attributes instead
 * of one dwarf_attr per attribute tried (resolving call sites' callees spent most of its
 * time there). *@pc gets whether @die itself has DW_AT_low_pc (1) / DW_AT_ranges (2).
 */
void dp_sym_die_names(Dwarf_Die *die, const char **linkage, const char **name, unsigned int *pc)
{
	Dwarf_Attribute found[3];
	unsigned int have = 0;
	Dwarf_Die cur = *die;

	*pc = 0;
	for (int hops = 0; hops < 16; hops++) {
		struct names_scan s = {.seen = 0};
		Dwarf_Attribute *next;

		if (dwarf_getattrs(&cur, names_cb, &s, 0) != 1)
			break;
		if (hops == 0)
			*pc = s.first_pc;
		for (int k = NS_LINK; k <= NS_NAME; k++)
			if (!(have & (1u << k)) && (s.seen & (1u << k))) {
				found[k] = s.at[k];
				have |= 1u << k;
			}
		next = (s.seen & (1u << NS_ORIGIN)) ? &s.at[NS_ORIGIN]
		       : (s.seen & (1u << NS_SPEC)) ? &s.at[NS_SPEC]
						    : NULL;
		if ((have & 1u << NS_LINK && have & 1u << NS_NAME) || !next ||
		    !dwarf_formref_die(next, &cur))
			break;
	}
	*linkage = (have & 1u << NS_LINK)   ? dwarf_formstring(&found[NS_LINK])
		   : (have & 1u << NS_MIPS) ? dwarf_formstring(&found[NS_MIPS])
					    : NULL;
	*name = (have & 1u << NS_NAME) ? dwarf_formstring(&found[NS_NAME]) : NULL;
}

/* Name, linkage name and linkage of PS @i from its ELF symbol and DWARF DIE (@die may be
 * NULL). */
static int name_one(struct dp_sym_ctx *c, struct dp_ps *ps, struct dp_sym_mod *m, Dwarf_Die *die)
{
	const struct dp_sym_elfsym *es = dp_sym_elfsym_at(m, ps->addr);
	const char *sname = es ? es->name : NULL, *dlink = NULL, *dname = NULL, *mangled;
	unsigned int pc;
	int r;

	if (die)
		dp_sym_die_names(die, &dlink, &dname, &pc);
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

	for (int hops = 0; hops < 8; hops++) {
		if (dwarf_attr(&cur, DW_AT_decl_file, &a)) {
			if (dwarf_formudata(&a, &idx) != 0 || !dwarf_diecu(&cur, &cu, NULL, NULL))
				return NULL;
			return dp_sym_file_of(&cu, idx);
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
