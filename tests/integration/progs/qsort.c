/* qsort.c - qsort (uninstrumented libc) calling back an instrumented comparator, which
 * calls key(). Prints the comparator count it made itself: cmp_calls=K.
 * Usage: qsort [N=5000]. */
#include <stdio.h>
#include <stdlib.h>

#include "dpt.h"

static long cmp_calls;

NOINLINE static int key(const int *p)
{
	return *p % 1000;
}

NOINLINE static int cmp(const void *a, const void *b)
{
	int x = key(a), y = key(b);

	cmp_calls++;
	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long n = dpt_arg(argc, argv, 1, 5000), i;
	int *v = malloc((size_t)n * sizeof(*v));
	unsigned s = 12345;

	if (!v)
		return 1;
	for (i = 0; i < n; i++) {
		s = s * 1103515245u + 12345u;
		v[i] = (int)(s >> 8);
	}
	qsort(v, (size_t)n, sizeof(*v), cmp);
	printf("cmp_calls=%ld\n", cmp_calls);
	free(v);
	return 0;
}
