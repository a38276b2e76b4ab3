/*
 * symbol/symbol_int.h - private interfaces between the files of the symbol module:
 * the session (objects opened through libdwfl), the per-module DWARF index (functions,
 * call sites, inlined instances), and the lookup tables built over the profile's PS.
 * Nothing outside src/symbol/ may include this header.
 */
#ifndef DP_SYMBOL_INT_H
#define DP_SYMBOL_INT_H

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stddef.h>
#include <stdint.h>

#include "symbol.h"

/* A concrete subprogram DIE that has code. Indices into sym_mod.fns stay stable. */
struct dp_sym_fn {
	Dwarf_Off off;			/* the DIE */
	Dwarf_Off origin;		/* its DW_AT_abstract_origin target, or off */
	Dwarf_Off spec;			/* DW_AT_specification of the origin, or 0 */
	uint64_t entry;			/* runtime entry address */
	uint32_t first_range, n_ranges; /* into sym_mod.franges */
	uint32_t ps;			/* PS id whose entry this is, 0 none */
};

struct dp_sym_range {
	uint64_t lo, hi; /* runtime addresses, [lo, hi) */
	uint32_t fn;
};

/* A DW_TAG_call_site / DW_TAG_GNU_call_site with a return address (tail calls left out). */
struct dp_sym_site {
	uint64_t ret; /* runtime return address */
	Dwarf_Off off;
	uint32_t fn; /* enclosing concrete function */
};

/* A DW_TAG_inlined_subroutine inside a concrete function. */
struct dp_sym_inl {
	Dwarf_Off origin; /* the abstract subprogram inlined */
	uint32_t fn;	  /* where it was inlined */
	uint32_t file;	  /* profile string id of DW_AT_call_file */
	uint32_t line;	  /* DW_AT_call_line */
};

enum dp_sym_mod_state { DP_SYM_MOD_UNUSED, DP_SYM_MOD_OPEN, DP_SYM_MOD_MISSING };

/* One object of the profile, as opened through the Dwfl session. */
struct dp_sym_mod {
	enum dp_sym_mod_state state;
	Dwfl_Module *mod;
	Dwarf *dw; /* NULL without debug info */
	Dwarf_Addr bias;

	uint64_t *ps_entries; /* entry addresses of the function PS in this object, sorted */
	uint32_t n_ps_entries;

	Dwarf_Off *cus; /* CUs already indexed (open-addressing set, 0 = empty slot) */
	uint32_t n_cus, cap_cus;

	struct dp_sym_fn *fns;
	uint32_t n_fns, cap_fns;
	struct dp_sym_range *franges; /* per function, contiguous, in fns order */
	uint32_t n_franges, cap_franges;
	uint32_t *by_entry;	   /* fn indices sorted by entry */
	struct dp_sym_site *sites; /* sorted by ret after dp_sym_mod_finish */
	uint32_t n_sites, cap_sites;
	struct dp_sym_inl *inls; /* sorted by (fn, line) after dp_sym_mod_finish */
	uint32_t n_inls, cap_inls;

	struct dp_sym_curange *cu_ranges; /* address ranges of every CU, sorted (lazy) */
	uint32_t n_cu_ranges, cap_cu_ranges;
	int cu_ranges_done;
	Dwarf_Aranges *aranges; /* .debug_aranges as libdw reads it (lazy; owned by libdw;
				   NULL: none) */
	int aranges_done;

	struct dp_sym_elfsym *syms; /* defined function symbols by address (lazy) */
	uint32_t n_syms;
	const char **defined; /* the same symbols' names, sorted */
	int syms_done;
};

/* A defined function symbol of a module's ELF symbol table. */
struct dp_sym_elfsym {
	uint64_t addr;	  /* runtime address */
	uint64_t size;	  /* st_size, 0 unknown */
	const char *name; /* owned by libelf, valid for the session */
	int bind;	  /* STB_* */
	uint32_t shndx;	  /* its section's index */
};

struct dp_sym_curange {
	uint64_t lo, hi; /* runtime addresses, [lo, hi) */
	Dwarf_Off cu;	 /* CU DIE offset */
};

struct dp_sym_seg {
	uint64_t start, end;
	uint32_t obj;
};

struct dp_sym_key {
	uint32_t obj;
	Dwarf_Off off;
	uint32_t ps;
};

struct dp_sym_name {
	const char *name;
	uint32_t ps;
};

struct dp_sym_addr {
	uint64_t addr;
	uint32_t ps;
};

struct dp_sym_ctx {
	struct dp_profile *p;
	struct dp_symbolize_opts *opts;
	Dwfl *dwfl;
	struct dp_sym_mod *mods; /* [1..p->n_objects] */
	struct dp_sym_seg *segs; /* sorted by start */
	uint32_t n_segs;
	uint32_t *ps_obj;	     /* [1..n_ps] object of each PS, 0 unknown */
	uint32_t *ps_fn;	     /* [1..n_ps] fn index + 1 in its module, 0 none */
	struct dp_sym_addr *by_addr; /* function PS by entry address */
	uint32_t n_by_addr;
	struct dp_sym_key *keys; /* DIE offsets of PS functions, sorted */
	uint32_t n_keys;
	struct dp_sym_name *names; /* names of PS functions, sorted */
	uint32_t n_names;
};

/* session.c */
int dp_sym_open(struct dp_sym_ctx *c);
int dp_sym_open_symbols(struct dp_sym_ctx *c, const uint8_t *want);
void dp_sym_close(struct dp_sym_ctx *c);
uint32_t dp_sym_obj_of(const struct dp_sym_ctx *c, uint64_t addr);
const char *dp_sym_obj_path(const struct dp_profile *p, uint32_t o);
struct dp_sym_mod *dp_sym_mod_of(const struct dp_sym_ctx *c, uint32_t obj);
int dp_sym_intern(struct dp_sym_ctx *c, const char *s, uint32_t *id);
int dp_sym_demangle(struct dp_sym_ctx *c, const char *mangled, uint32_t *id);
int dp_sym_is_runtime_name(const char *name);
int dp_sym_grow(void **arr, uint32_t *cap, uint32_t n, size_t elem);
void dp_sym_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

/* dwindex.c */
int dp_sym_index_addr(struct dp_sym_ctx *c, struct dp_sym_mod *m, uint64_t addr);
int dp_sym_mod_finish(struct dp_sym_mod *m);
void dp_sym_mod_release(struct dp_sym_mod *m);
int64_t dp_sym_fn_at_entry(const struct dp_sym_mod *m, uint64_t addr);
int dp_sym_fn_contains(const struct dp_sym_mod *m, uint32_t fn, uint64_t addr);
const struct dp_sym_site *dp_sym_site_at(const struct dp_sym_mod *m, uint64_t ret);
const struct dp_sym_inl *dp_sym_inls_of(const struct dp_sym_mod *m, uint32_t fn, uint32_t *n);

/* symtab.c */
const struct dp_sym_elfsym *dp_sym_elfsym_at(struct dp_sym_mod *m, uint64_t addr);
const struct dp_sym_elfsym *dp_sym_elfsym_covering(struct dp_sym_mod *m, uint64_t addr);
int dp_sym_is_defined(struct dp_sym_mod *m, const char *name);

/* cuindex.c */
int dp_sym_cu_of(struct dp_sym_mod *m, uint64_t addr, Dwarf_Die *cu);
const char *dp_sym_line_at(struct dp_sym_mod *m, uint64_t addr, uint32_t *line);
const char *dp_sym_file_of(Dwarf_Die *cu, uint64_t idx);

/* procs.c */
void dp_sym_die_names(Dwarf_Die *die, const char **linkage, const char **name, unsigned int *pc);
int dp_sym_name_procs(struct dp_sym_ctx *c);
int dp_sym_build_maps(struct dp_sym_ctx *c);
uint32_t dp_sym_ps_by_addr(const struct dp_sym_ctx *c, uint64_t addr);
uint32_t dp_sym_ps_by_key(const struct dp_sym_ctx *c, uint32_t obj, Dwarf_Off off);
uint32_t dp_sym_ps_by_name(const struct dp_sym_ctx *c, const char *name);

/* sites.c */
int dp_sym_classify_sites(struct dp_sym_ctx *c);
int dp_sym_add_untaken(struct dp_sym_ctx *c);

/* leaves.c */
int dp_sym_make_leaves(struct dp_sym_ctx *c);

#endif /* DP_SYMBOL_INT_H */
