/* indirect.c - one call site through a function pointer reaching three callees:
 * apply() calls ops[i % 3] for i < 30, so add, sub and mul are each called 10 times from
 * that one site; mul allocates 8 bytes per call. */
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

static void *volatile sink;

NOINLINE static long add(long a)
{
	return a + 1;
}

NOINLINE static long sub(long a)
{
	return a - 1;
}

NOINLINE static long mul(long a)
{
	void *p = malloc(8);

	sink = p;
	free(p);
	return a * 2;
}

static long (*volatile ops[3])(long) = {add, sub, mul};

NOINLINE static long apply(void)
{
	long acc = 0;
	int i;

	for (i = 0; i < 30; i++)
		acc = ops[i % 3](acc) % 1000;
	return acc;
}

int main(void)
{
	return apply() < 0;
}
