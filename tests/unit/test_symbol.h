/*
 * tests/unit/test_symbol.h - helpers of the symbolizer tests: run a fixture program
 * (tests/unit/symbol/), turn what its miniature runtime printed into a dp_profile with
 * real addresses, and look up nodes and source markers.
 */
#ifndef DP_TEST_SYMBOL_H
#define DP_TEST_SYMBOL_H

#include <stdint.h>

#include "format/profile.h"

/* dp_fix_profile - run @exe and build @p from its output: PS 1 root, PS 2 thread, then
 * one PS per function entered; one CSS per (caller, return address); one PD per PS.
 * Returns 0, or -1 (message on stderr). */
int dp_fix_profile(const char *exe, struct dp_profile *p);

/* dp_fix_line - the 1-based line of @src holding "@MARKER" (e.g. "def:main"), 0 if none. */
uint32_t dp_fix_line(const char *src, const char *marker);

/* dp_fix_ps - the PS named @name, 0 if none. */
uint32_t dp_fix_ps(const struct dp_profile *p, const char *name);

/* dp_fix_css - the first CSS of caller @ps at source line @line, 0 if none. */
uint32_t dp_fix_css(const struct dp_profile *p, uint32_t ps, uint32_t line);

/* dp_fix_css_taken - whether some CSD uses CSS @css. */
int dp_fix_css_taken(const struct dp_profile *p, uint32_t css);

/* dp_fix_ends_with - whether @s ends with @suffix. */
int dp_fix_ends_with(const char *s, const char *suffix);

#endif /* DP_TEST_SYMBOL_H */
