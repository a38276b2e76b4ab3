/* threads.c - the main thread and 4 workers. Each worker runs worker(), which calls
 * chunk() 50 times (each allocating 64 bytes); main calls setup() once. Merged view:
 * one worker() context with 4 calls and 200 chunk() calls; per-thread view: four worker()
 * contexts with 50 chunk() calls each. */
#include <pthread.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define WORKERS	 4

static void *volatile sink;

NOINLINE static void chunk(void)
{
	void *p = malloc(64);

	sink = p;
	free(p);
}

NOINLINE static void *worker(void *arg)
{
	int i;

	for (i = 0; i < 50; i++)
		chunk();
	return arg;
}

NOINLINE static void setup(void)
{
	chunk();
}

int main(void)
{
	pthread_t t[WORKERS];
	int i;

	setup();
	for (i = 0; i < WORKERS; i++)
		if (pthread_create(&t[i], NULL, worker, NULL) != 0)
			return 1;
	for (i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	return 0;
}
