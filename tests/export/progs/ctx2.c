/* ctx2.c - a function whose cost depends on the caller two levels up: top_a() and
 * top_b() both call mid(), which calls work() twice; work() calls leaf() n times and
 * allocates n bytes, n being set by the top-level caller (3 under top_a, 50 under
 * top_b). top_a calls mid 3 times, top_b 5 times. Exact counts (calls metric):
 *   main;top_a;mid;work 6 calls, work;leaf 18     main;top_b;mid;work 10, leaf 500
 * A Callgrind file without context mixes them (work: 16 calls, leaf: 518); with
 * --context=2, work'mid'top_a and work'mid'top_b keep them apart.
 * fact() recurses 5 deep below main: recursion folded onto the outermost activation. */
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

static volatile long total;
static void *volatile sink;
static int n_steps;

NOINLINE static void leaf(long i)
{
	total += i;
}

NOINLINE static void work(void)
{
	void *p = malloc((size_t)n_steps);

	sink = p;
	for (int i = 0; i < n_steps; i++)
		leaf(i);
	free(p);
}

NOINLINE static void mid(void)
{
	work();
	work();
}

NOINLINE static void top_a(void)
{
	n_steps = 3;
	for (int i = 0; i < 3; i++)
		mid();
}

NOINLINE static void top_b(void)
{
	n_steps = 50;
	for (int i = 0; i < 5; i++)
		mid();
}

NOINLINE static long fact(long n)
{
	return n <= 1 ? 1 : n * fact(n - 1);
}

int main(void)
{
	top_a();
	top_b();
	total += fact(5);
	return 0;
}
