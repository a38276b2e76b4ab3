/* alloc.c - allocations of known sizes in known contexts: alloc_a() makes 3 malloc(100),
 * calloc(10, 20), realloc to 300, posix_memalign 128, aligned_alloc 256, realloc(p, 0)
 * (counts nothing); alloc_b(n) mallocs n bytes, called from one() with 1000 and from two()
 * with 24, R times each. Usage: alloc [R=5]. */
#include <stdio.h>
#include <stdlib.h>

#include "dpt.h"

static void *volatile sink[16];

NOINLINE static void alloc_a(void)
{
	void *p;
	int i;

	for (i = 0; i < 3; i++)
		sink[i] = malloc(100);
	sink[3] = calloc(10, 20);
	sink[3] = realloc(sink[3], 300);
	if (posix_memalign(&p, 64, 128) == 0)
		sink[4] = p;
	sink[5] = aligned_alloc(64, 256);
	sink[6] = malloc(8);
	sink[6] = realloc(sink[6], 0);
}

NOINLINE static void alloc_b(size_t n)
{
	sink[8] = malloc(n);
	free(sink[8]);
}

NOINLINE static void one(long r)
{
	long i;

	for (i = 0; i < r; i++)
		alloc_b(1000);
}

NOINLINE static void two(long r)
{
	long i;

	for (i = 0; i < r; i++)
		alloc_b(24);
}

int main(int argc, char **argv)
{
	long r = dpt_arg(argc, argv, 1, 5);
	int i;

	alloc_a();
	one(r);
	two(r);
	for (i = 0; i < 7; i++)
		free(sink[i]);
	printf("ok %d\n", sink[4] != NULL && sink[5] != NULL);
	return 0;
}
