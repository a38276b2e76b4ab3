/* loops.c - four loops for deepprof diff: steady_a, steady_b and steady_c run N
 * iterations each, grows GROW * N (GROW is 1 unless the variant is built with -DGROW=4,
 * which also calls added() once). Each iteration does its work in the loop itself and
 * calls tick() once, so a loop's time is its own and its callseqs are exact.
 * Usage: loops [N=1000000]; prints the sum. */
#include <stdio.h>

#include "dpt.h"

#ifndef GROW
#define GROW 1
#endif

static volatile unsigned long sink;

NOINLINE static void tick(long i)
{
	sink += (unsigned long)i;
}

#define LOOP(name)                                              \
	NOINLINE static void name(long n)                       \
	{                                                       \
		for (long i = 0; i < n; i++) {                  \
			for (unsigned long k = 0; k < 400; k++) \
				sink += k;                      \
			tick(i);                                \
		}                                               \
	}

LOOP(steady_a)
LOOP(steady_b)
LOOP(steady_c)
LOOP(grows)

#if GROW > 1
NOINLINE static void added(void)
{
	sink += 1;
}
#endif

int main(int argc, char **argv)
{
	long n = dpt_arg(argc, argv, 1, 1000000);

	steady_a(n);
	grows(GROW * n);
	steady_b(n);
	steady_c(n);
#if GROW > 1
	added();
#endif
	printf("sum=%lu\n", (unsigned long)sink);
	return 0;
}
