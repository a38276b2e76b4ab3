/*
 * regs.c - the registers a function's code keeps across deepprof's stubs, which the
 * compiler assumes clobber nothing: floating-point arguments (xmm0-7) when a call's entry
 * creates its context (the stubs' slow path) or is a thread's first (the full path,
 * which runs libc); a variadic function's %al; long double and double results in
 * st0/xmm0 when the exit goes through the slow path (a region left open, a shadow stack
 * grown by deep recursion). Prints results that must be the plain build's, bit for bit.
 * Usage: regs [N=50]
 */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>

#include "deepprof/deepprof.h"
#include "dpt.h"

/* Eight doubles in xmm0-7 and six integers: every argument register. */
NOINLINE static double mix(long a, long b, long c, long d, long e, long f, double x0, double x1,
			   double x2, double x3, double x4, double x5, double x6, double x7)
{
	return (double)(a - b + c - d + e - f) + x0 * 1.5 - x1 / 3.0 + x2 * x3 - x4 + x5 * 0.25 -
	       x6 + x7 * 7.0;
}

/* A variadic function: its prologue saves the xmm registers %al counts. */
NOINLINE static double vsum(int n, ...)
{
	va_list ap;
	double s = 0;

	va_start(ap, n);
	for (int i = 0; i < n; i++)
		s += va_arg(ap, double) * (i + 1);
	va_end(ap);
	return s;
}

/* A long double result (st0), returned with a region still open: the exit stub pops it
 * on its slow path. */
NOINLINE static long double ldiv3(long double x)
{
	DEEPPROF_ENTER("regs open region");
	return x / 3.0L + 0.125L;
}

/* A double result (xmm0) returned the same way. */
NOINLINE static double dhalf(double x)
{
	DEEPPROF_ENTER("regs open region");
	return sqrt(x) * 0.5;
}

/* Deep recursion with a double argument and result: the shadow stack grows (its first
 * 1024 entries) on the stubs' slow path. */
NOINLINE static double deep(int n, double x)
{
	if (n == 0)
		return x;
	return deep(n - 1, x * 1.0000001) + 1e-9 * n;
}

/* Each of @n distinct calls of mix creates a context: its slow path runs with the eight
 * doubles in their registers. */
NOINLINE static double many(int n)
{
	double s = 0;

	for (int i = 0; i < n; i++) {
		double x = i * 0.5;

		switch (i % 4) { /* four call sites: four contexts */
		case 0:
			s += mix(i, 2, 3, 4, 5, 6, x, x + 1, x + 2, x + 3, x + 4, x + 5, x + 6,
				 x + 7);
			break;
		case 1:
			s -= mix(6, i, 4, 3, 2, 1, x + 7, x + 6, x + 5, x + 4, x + 3, x + 2, x + 1,
				 x);
			break;
		case 2:
			s += vsum(5, x, x * 2, x * 3, x * 4, x * 5);
			break;
		default:
			s += (double)ldiv3((long double)x) + dhalf(x + 1);
		}
	}
	return s;
}

/* A thread's first instrumented call: the entry stub's full path (state for the thread),
 * with double arguments in flight. */
static void *worker(void *arg)
{
	double *out = arg;

	*out = mix(1, 2, 3, 4, 5, 6, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5) + many(20);
	return NULL;
}

int main(int argc, char **argv)
{
	int n = (int)dpt_arg(argc, argv, 1, 50);
	double t = 0;
	pthread_t th;

	if (pthread_create(&th, NULL, worker, &t) != 0 || pthread_join(th, NULL) != 0)
		return 1;
	printf("thread %.17g\n", t);
	printf("many %.17g\n", many(n));
	printf("vsum %.17g\n", vsum(8, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0));
	printf("ldiv3 %.21Lg\n", ldiv3(10.0L));
	printf("deep %.17g\n", deep(3000, 1.0));
	return 0;
}
