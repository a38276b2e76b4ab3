/*
 * ctxcost.c - a program whose cost depends on its caller two levels up, for the import
 * tests: work() does 1 unit when light() called shared_step(), 9 units when heavy() did.
 * main calls light() 3 times and heavy() 2 times, and rec(10) (11 activations, one
 * context once recursion is folded). "ctxcost SCALE THREADS": THREADS more threads each
 * call heavy() once.
 */
#include <pthread.h>
#include <stdlib.h>

static unsigned long scale = 1000;

__attribute__((noinline)) static unsigned long work(unsigned long n)
{
	volatile unsigned long s = 0;

	for (unsigned long i = 0; i < n; i++)
		s += i;
	return s;
}

__attribute__((noinline)) static unsigned long shared_step(unsigned long n)
{
	return work(n);
}

__attribute__((noinline)) static unsigned long light(void)
{
	return shared_step(scale);
}

__attribute__((noinline)) static unsigned long heavy(void)
{
	return shared_step(9 * scale);
}

__attribute__((noinline)) static unsigned long rec(int d)
{
	return d ? rec(d - 1) + 1 : 0;
}

static void *worker(void *arg)
{
	(void)arg;
	heavy();
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 2 ? atoi(argv[2]) : 0;
	pthread_t t[16];

	if (argc > 1)
		scale = strtoul(argv[1], NULL, 10);
	if (threads > 16)
		threads = 16;
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 3; i++)
		light();
	for (int i = 0; i < 2; i++)
		heavy();
	rec(10);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	return 0;
}
