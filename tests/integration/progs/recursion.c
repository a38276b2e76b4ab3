/* recursion.c - fib(N) (folded into one PD) and is_even/is_odd mutual recursion.
 * Usage: recursion [N=20] [M=1000]; prints the results. */
#include <stdio.h>

#include "dpt.h"

static volatile long fib_sink;

/* The store after the second call keeps it a call: otherwise gcc and clang turn it into a
 * loop at -O2 (tail recursion with an accumulator), which deepprof cc, instrumenting after
 * optimisation, then rightly does not count (nor does gprof). */
NOINLINE static long fib(long n)
{
	long a, b;

	if (n < 2)
		return n;
	a = fib(n - 1);
	b = fib(n - 2);
	fib_sink = b;
	return a + b;
}

NOINLINE static int is_odd(long n);

NOINLINE static int is_even(long n)
{
	return n == 0 ? 1 : is_odd(n - 1);
}

NOINLINE static int is_odd(long n)
{
	return n == 0 ? 0 : is_even(n - 1);
}

int main(int argc, char **argv)
{
	long n = dpt_arg(argc, argv, 1, 20), m = dpt_arg(argc, argv, 2, 1000);

	printf("fib=%ld even=%d\n", fib(n), is_even(m));
	return 0;
}
