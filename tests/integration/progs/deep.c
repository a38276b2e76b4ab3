/* deep.c - 100,000-deep mutual recursion down_a -> down_b -> down_a ... in a thread
 * with a 512 MiB stack. Usage: deep [D=100000]. */
#include <pthread.h>
#include <stdio.h>

#include "dpt.h"

static volatile long sink;

NOINLINE static long down_b(long n);

NOINLINE static long down_a(long n)
{
	long r = n == 0 ? 0 : down_b(n - 1);

	sink++;
	return r + 1;
}

NOINLINE static long down_b(long n)
{
	long r = n == 0 ? 0 : down_a(n - 1);

	sink++;
	return r + 1;
}

static void *run(void *arg)
{
	return (void *)down_a((long)arg);
}

int main(int argc, char **argv)
{
	long d = dpt_arg(argc, argv, 1, 100000);
	pthread_attr_t attr;
	pthread_t t;
	void *res;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, (size_t)512 << 20);
	if (pthread_create(&t, &attr, run, (void *)d))
		return 1;
	pthread_join(t, &res);
	printf("depth=%ld\n", (long)res);
	return 0;
}
