/* threads.c - 8 threads named worker-I; thread I calls work(), which calls leaf()
 * (I+1)*K times. Usage: threads [K=1000]. */
#include <pthread.h>
#include <stdio.h>

#include "dpt.h"

#define NT 8

static long k;
static volatile long sink;

NOINLINE static void leaf(long i)
{
	sink += i;
}

NOINLINE static void work(long n)
{
	long i;

	for (i = 0; i < n; i++)
		leaf(i);
}

static void *worker(void *arg)
{
	long i = (long)arg;
	char name[16];

	snprintf(name, sizeof(name), "worker-%ld", i);
	pthread_setname_np(pthread_self(), name);
	work((i + 1) * k);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[NT];
	long i;

	k = dpt_arg(argc, argv, 1, 1000);
	for (i = 0; i < NT; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)i))
			return 1;
	for (i = 0; i < NT; i++)
		pthread_join(t[i], NULL);
	printf("sink=%ld\n", sink);
	return 0;
}
