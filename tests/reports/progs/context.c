/* context.c - one function, compute(n), cheap from one caller and expensive from
 * another: light() calls it 10 times with n = 10, heavy() once with n = 100000. Each
 * compute(n) calls step() n times and allocates n bytes. A gprof-style average would
 * charge light() 10/11 of compute's cost; the deep profile must charge heavy() with
 * 100,000 step calls and 100,000 bytes, light() with 100 and 100, at every level of
 * context (main -> via_heavy -> heavy -> compute and main -> via_light -> light -> compute). */
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

static volatile long total;
static void *volatile sink;

NOINLINE static void step(long i)
{
	total += i;
}

NOINLINE static void compute(long n)
{
	long i;
	void *p = malloc((size_t)n);

	sink = p;
	for (i = 0; i < n; i++)
		step(i);
	free(p);
}

NOINLINE static void light(void)
{
	int i;

	for (i = 0; i < 10; i++)
		compute(10);
}

NOINLINE static void heavy(void)
{
	compute(100000);
}

NOINLINE static void via_light(void)
{
	light();
}

NOINLINE static void via_heavy(void)
{
	heavy();
}

int main(void)
{
	via_light();
	via_heavy();
	return 0;
}
