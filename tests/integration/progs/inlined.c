/* inlined.c - hooks of functions inlined into their callers (the compilers keep the
 * enter/exit calls of an inlined instrumented function, with the inlined function's
 * address): sq() is static inline, called once from main and N times from outer();
 * both must be attributed to the right caller, with exits, and main must stay active.
 * Usage: inlined [N=100]. */
#include <stdio.h>

#include "dpt.h"

static volatile long sink;

static inline long sq(long x)
{
	return x * x;
}

NOINLINE static long outer(long n)
{
	long s = 0, i;

	for (i = 0; i < n; i++)
		s += sq(i + sink);
	return s;
}

NOINLINE static void after(long x)
{
	sink += x;
}

int main(int argc, char **argv)
{
	long n = dpt_arg(argc, argv, 1, 100);
	long a = sq(n + sink);

	after(outer(n) + a);
	printf("sink=%ld\n", sink);
	return 0;
}
