/*
 * symbol/symbol.h - symbolization of a profile with elfutils libdw: function names,
 * source positions, linkage and objects of the ProcStatic nodes; file:line, kind and
 * static callee of the CallSiteStatic nodes; call sites never taken, from DWARF.
 * Fills a struct dp_profile in memory; depends on format/ and core/, never on cli/.
 */
#ifndef DP_SYMBOL_SYMBOL_H
#define DP_SYMBOL_SYMBOL_H

#include <stddef.h>
#include <stdint.h>

#include "../format/profile.h"

struct dp_symbolize_opts {
	int force; /* in: symbolize despite a build-id mismatch */
	/* out: functions left unnamed because their object could not be opened */
	uint32_t unresolved;
	/* out: counts for the summary line */
	uint32_t n_functions; /* PS records of kind function */
	uint32_t n_library;   /* PS records of kind library (code outside instrumented
				 functions that samples landed in) */
	uint32_t n_sites;     /* CSS records after symbolization */
	uint32_t n_untaken;   /* CSS records without any CSD (call sites never taken) */
};

/*
 * dp_symbolize - symbolize @p in place: every PS of kind function gets its name
 * (demangled; the mangled name in linkage_name when different), definition file:line,
 * linkage and object; every CSS its file:line, kind and statically known callee; call
 * sites found in DWARF but never taken are appended as CSS records; the sampled PCs
 * (p->pcs) outside the instrumented function current at the time become library
 * leaves (PS kind library, symbol/leaves.c) and are dropped. Sets DP_FEAT_SYMBOLIZED.
 * Idempotent. @opts may be NULL (no force, no counts); its out fields are overwritten.
 * Objects that cannot be opened leave their functions as they were and are counted in
 * opts->unresolved, except the program itself when the profile was never symbolized
 * (error). Strings go to p->strs, the grown arrays to p->arena.
 * Return: 0, or -DP_ESYMBOL (build-id mismatch, unreadable DWARF), -DP_ENOENT (program
 * missing), -DP_ENOMEM, with the message in dp_errmsg().
 */
int dp_symbolize(struct dp_profile *p, struct dp_symbolize_opts *opts);

/* dp_demangle - the demangled form of the C++ name @mangled (malloc'd: free() it), or
 * NULL when it is not a mangled name, does not demangle, or no demangler (libstdc++'s,
 * loaded on first use) is available. For names from elsewhere (deepprof import). */
char *dp_demangle(const char *mangled);

/*
 * dp_symbolize_file - read the data file @path, symbolize it and rewrite it atomically.
 * On success writes a one-line summary ("PATH: 12 functions, 45 call sites (3 never
 * taken) symbolized", plus ", N library procedures" and ", N functions in missing
 * objects" when there are) into
 * @summary (@len bytes, may be 0). @opts as for dp_symbolize (may be NULL).
 * Return: 0 or a negative enum dp_err from reading, symbolizing or writing.
 */
int dp_symbolize_file(const char *path, struct dp_symbolize_opts *opts, char *summary, size_t len);

#endif /* DP_SYMBOL_SYMBOL_H */
