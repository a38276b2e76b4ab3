/* libshape.c - an instrumented shared library (deepprof cc -shared): lib_entry(n, cb)
 * calls lib_helper() n times and calls back cb (a function of the executable) once. */
#include "dpt.h"

static volatile long sink;

NOINLINE static void lib_helper(long i)
{
	sink += i;
}

NOINLINE long lib_entry(long n, void (*cb)(long))
{
	long i;

	for (i = 0; i < n; i++)
		lib_helper(i);
	cb(n);
	return sink;
}
