/* longjmp.c - main calls a() -> b() -> c() N times; c() longjmps back to main when the
 * iteration number is even (a, b, c unwound), else returns normally. After each round
 * main calls after(), which must be attributed to main. Usage: longjmp [N=100]. */
#include <setjmp.h>
#include <stdio.h>

#include "dpt.h"

static jmp_buf env;
static volatile long sink;

NOINLINE static void c(long i)
{
	if (i % 2 == 0)
		longjmp(env, 1);
	sink += i;
}

NOINLINE static void b(long i)
{
	c(i);
	sink++;
}

NOINLINE static void a(long i)
{
	b(i);
	sink++;
}

NOINLINE static void after(long i)
{
	sink += i;
}

int main(int argc, char **argv)
{
	long n = dpt_arg(argc, argv, 1, 100);
	volatile long i, jumps = 0;

	for (i = 0; i < n; i++) {
		if (setjmp(env) == 0)
			a(i);
		else
			jumps++;
		after(i);
	}
	printf("jumps=%ld\n", (long)jumps);
	return 0;
}
