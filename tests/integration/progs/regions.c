/*
 * regions.c - user regions (deepprof_enter/leave through the DEEPPROF_ENTER/LEAVE
 * macros, which `deepprof cc` turns on): nesting, recursion through a region, names in
 * a reused buffer, threads, a region left open by return and by longjmp, mismatched
 * leaves. Usage: regions [N=100] [M=1]: M mismatched leaves of region "b"; prints N.
 */
#include <deepprof/deepprof.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>

#include "dpt.h"

#define THREADS 3

static volatile long sink;
static jmp_buf env;

NOINLINE static void work(long i)
{
	sink = i;
}

/* rec(d) enters region "rec" and calls rec(d - 1) inside it: one clique. */
NOINLINE static void rec(long d)
{
	DEEPPROF_ENTER("rec");
	if (d > 0)
		rec(d - 1);
	else
		work(d);
	DEEPPROF_LEAVE("rec");
}

/* Returns with region "leak" open: closed as an unwind with its function. */
NOINLINE static void leaky(long i)
{
	DEEPPROF_ENTER("leak");
	work(i);
}

NOINLINE static void jump_out(long i)
{
	work(i);
	longjmp(env, 1);
}

/* Leaves region "jump" open through longjmp. */
NOINLINE static void jumper(long i)
{
	DEEPPROF_ENTER("jump");
	jump_out(i);
	DEEPPROF_LEAVE("jump");
}

static void *thread_main(void *arg)
{
	long n = (long)arg;

	for (long i = 0; i < n; i++) {
		DEEPPROF_ENTER("thr");
		work(i);
		DEEPPROF_LEAVE("thr");
	}
	return NULL;
}

int main(int argc, char **argv)
{
	long n = dpt_arg(argc, argv, 1, 100), m = dpt_arg(argc, argv, 2, 1);
	pthread_t th[THREADS];
	char name[16];

	DEEPPROF_ENTER("outer");
	for (long i = 0; i < n; i++) {
		DEEPPROF_ENTER("inner");
		work(i);
		DEEPPROF_LEAVE("inner");
	}
	DEEPPROF_LEAVE("outer");
	rec(n);
	for (long i = 0; i < 3 * n; i++) { /* one buffer, three names */
		snprintf(name, sizeof(name), "name%ld", i % 3);
		DEEPPROF_ENTER(name);
		work(i);
		snprintf(name, sizeof(name), "name%ld", i % 3);
		DEEPPROF_LEAVE(name);
	}
	for (long i = 0; i < n; i++)
		leaky(i);
	for (long i = 0; i < n; i++)
		if (!setjmp(env))
			jumper(i);
	work(-1); /* after the last longjmp: from main again */
	DEEPPROF_ENTER("a");
	for (long i = 0; i < m; i++)
		DEEPPROF_LEAVE("b"); /* mismatched: b is not the innermost (nor open) */
	DEEPPROF_LEAVE("a");
	for (int t = 0; t < THREADS; t++)
		pthread_create(&th[t], NULL, thread_main, (void *)n);
	for (int t = 0; t < THREADS; t++)
		pthread_join(th[t], NULL);
	printf("n=%ld threads=%d\n", n, THREADS);
	return 0;
}
