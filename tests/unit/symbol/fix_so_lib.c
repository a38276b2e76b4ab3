/*
 * tests/unit/symbol/fix_so_lib.c - symbolizer fixture: an instrumented shared library
 * (its hooks resolve to the executable's miniature runtime). Markers as in fix_c.c.
 */
#ifdef __clang__
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noipa))
#endif

static NOINLINE int lib_helper(int x) /* @def:lib_helper */
{
	return x + 1;
}

NOINLINE int lib_twice(int x) /* @def:lib_twice */
{
	return 2 * lib_helper(x); /* @call:lib_helper */
}
