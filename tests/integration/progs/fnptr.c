/* fnptr.c - one indirect call site reaching three callees, plus a direct call of one of
 * them. Usage: fnptr [N=1000]: the table is called N times (op i % 3), add directly once. */
#include <stdio.h>

#include "dpt.h"

NOINLINE static long add(long a, long b)
{
	return a + b;
}

NOINLINE static long sub(long a, long b)
{
	return a - b;
}

NOINLINE static long mul(long a, long b)
{
	return a * b;
}

static long (*volatile table[3])(long, long) = {add, sub, mul};

NOINLINE static long apply_all(long n)
{
	long acc = 0, i;

	for (i = 0; i < n; i++)
		acc = table[i % 3](acc, i) % 1000003; /* the one indirect site */
	return acc;
}

int main(int argc, char **argv)
{
	long n = dpt_arg(argc, argv, 1, 1000);

	printf("acc=%ld direct=%ld\n", apply_all(n), add(n, 1));
	return 0;
}
