/*
 * tailcall.c - a two-state machine written with tail calls: st_a and st_b call each other
 * in tail position, so that the program runs in constant stack (it needs 10^8 frames
 * otherwise). Each step does a little arithmetic, so that the time is the functions'.
 * Usage: tailcall [STEPS=100000000]; prints the steps and a checksum. Built with
 * -DDPT_MUSTTAIL under clang, the tail calls are marked musttail.
 */
#include <stdio.h>

#include "dpt.h"

#if defined(DPT_MUSTTAIL) && defined(__clang__)
#define TAIL __attribute__((musttail))
#else
#define TAIL
#endif

NOINLINE static unsigned long st_b(long n, unsigned long acc);

/* A few dependent multiply-adds: the step's own work. */
static inline unsigned long mix(unsigned long acc, long n)
{
	for (int i = 0; i < 24; i++)
		acc = acc * 6364136223846793005ul + (unsigned long)n + (unsigned long)i;
	return acc;
}

NOINLINE static unsigned long st_a(long n, unsigned long acc)
{
	if (n <= 0)
		return acc;
	TAIL return st_b(n - 1, mix(acc, n));
}

NOINLINE static unsigned long st_b(long n, unsigned long acc)
{
	if (n <= 0)
		return acc;
	TAIL return st_a(n - 1, mix(acc ^ 0x5bd1e995ul, n));
}

int main(int argc, char **argv)
{
	long steps = dpt_arg(argc, argv, 1, 100000000);

	/* st_a runs for the odd n from steps - 1 down, st_b for the even ones down to 0 */
	printf("steps=%ld sum=%lu\n", steps, st_a(steps - 1, 1));
	return 0;
}
