/*
 * tests/unit/symbol/fix_so_main.c - symbolizer fixture: an executable calling into an
 * instrumented shared library (fix_so_lib.c). Markers as in fix_c.c.
 */
#define _GNU_SOURCE
#include "minirt.h"

int lib_twice(int x);

int main(int argc, char **argv) /* @def:main */
{
	(void)argv;
	return lib_twice(argc) == 12345; /* @call:lib_twice */
}
