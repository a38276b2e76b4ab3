/* after_inline.c - instrumentation after inlining (deepprof cc's default): twice() is a
 * small static function that gcc and clang inline into work() at -O2, so it has no
 * hooks there (present with DEEPPROF_INSTRUMENT=inlined and at -O0); f()'s last statement
 * calls g(), a tail call at -O2 that gcc keeps (f leaves first) and clang makes a call;
 * scaled() is always called with k = 7, which gcc turns into a clone (scaled.constprop.0)
 * unless told not to.
 * Usage: after_inline [N=100]. */
#include <stdio.h>

#include "dpt.h"

static volatile long sink;

static long twice(long x)
{
	return 2 * x + sink;
}

NOINLINE static long work(long i)
{
	return twice(i) + 1;
}

NOINLINE static long g(long x)
{
	sink += x;
	return x + 1;
}

NOINLINE static long f(long x)
{
	return g(x * 3);
}

/* scaled - x * k: noinline without NOINLINE's noipa, so that gcc may clone it for k = 7. */
__attribute__((noinline)) static long scaled(long x, long k)
{
	return x * k + sink;
}

int main(int argc, char **argv)
{
	long n = dpt_arg(argc, argv, 1, 100), s = 0, i;

	for (i = 0; i < n; i++)
		s += work(i) + f(i) + scaled(i, 7);
	printf("s=%ld\n", s);
	return 0;
}
