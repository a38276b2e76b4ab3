/* recursion.c - fib(N) (folded into one PD) and is_even/is_odd mutual recursion.
 * Usage: recursion [N=20] [M=1000]; prints the results. */
#include <stdio.h>

#include "dpt.h"

NOINLINE static long fib(long n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
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
