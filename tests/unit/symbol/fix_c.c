/*
 * tests/unit/symbol/fix_c.c - symbolizer fixture in C: static, global and weak functions,
 * a function-pointer call, a qsort callback, an inlined function and a call never taken.
 * Markers "@def:NAME" and "@call:NAME" let the test find expected lines by grepping.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "minirt.h"

static NOINLINE int s_add(int a, int b) /* @def:s_add */
{
	return a + b;
}

NOINLINE int g_mul(int a, int b) /* @def:g_mul */
{
	return a * b;
}

__attribute__((weak)) NOINLINE int w_fn(int a) /* @def:w_fn */
{
	return a - 1;
}

NOINLINE int rare_fn(int a) /* @def:rare_fn */
{
	return a / 3;
}

static NOINLINE int cmp_int(const void *a, const void *b) /* @def:cmp_int */
{
	return *(const int *)a - *(const int *)b;
}

static inline __attribute__((always_inline)) int inl_fn(int x) /* @def:inl_fn */
{
	return x * 7;
}

int main(int argc, char **argv) /* @def:main */
{
	int (*volatile op)(int, int) = argc > 5 ? g_mul : s_add;
	int v[5] = {5, 3, 9, 1, 4};
	int t = 0;

	(void)argv;
	t += g_mul(argc, 3);		    /* @call:direct */
	t += op(argc, 2);		    /* @call:indirect */
	t += w_fn(t);			    /* @call:weak */
	t += inl_fn(argc);		    /* @call:inlined */
	qsort(v, 5, sizeof(v[0]), cmp_int); /* @call:qsort */
	if (argc > 100)
		t += rare_fn(argc); /* @call:rare */
	if (argc > 200)
		puts("never"); /* @call:puts */
	return t == 12345 ? 1 : 0;
}
