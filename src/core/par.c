/*
 * core/par.c - dp_par_split: a loop in chunks that this thread and a second one, made for
 * the call (about 30 microseconds: worth it for loops of thousands of loads from all over
 * memory, which is what the callers use it for), claim in turn, so that a helper the
 * system starts late takes less of the work instead of making the caller wait for it.
 */
#include "par.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

/* The shared state, on the heap: the helper may outlive the call (it can start after the
 * caller has done every chunk); whichever of the two drops the last reference frees it. */
struct par_job {
	void (*fn)(void *arg, uint32_t lo, uint32_t hi);
	void *arg;
	uint32_t n, chunk;
	atomic_ullong next;   /* the first item no one has claimed (past n at the end: 64 bits) */
	atomic_uint done;     /* items finished */
	atomic_int refs;      /* 2 while both threads may touch the job */
	pthread_mutex_t lock; /* with cond: the caller waits for the helper's last chunk */
	pthread_cond_t cond;
};

static void job_drop(struct par_job *j)
{
	if (atomic_fetch_sub(&j->refs, 1) == 1) {
		pthread_cond_destroy(&j->cond);
		pthread_mutex_destroy(&j->lock);
		free(j);
	}
}

/* work - claim chunks and run them until none is left; wake the caller if this one
 * finished the last item. */
static void work(struct par_job *j)
{
	unsigned long long at;

	while ((at = atomic_fetch_add(&j->next, j->chunk)) < j->n) {
		uint32_t lo = (uint32_t)at, hi = j->n - lo < j->chunk ? j->n : lo + j->chunk;

		j->fn(j->arg, lo, hi);
		if (atomic_fetch_add(&j->done, hi - lo) + (hi - lo) == j->n) {
			pthread_mutex_lock(&j->lock);
			pthread_cond_signal(&j->cond);
			pthread_mutex_unlock(&j->lock);
		}
	}
}

static void *par_run(void *p)
{
	work(p);
	job_drop(p);
	return NULL;
}

void dp_par_split(void (*fn)(void *arg, uint32_t lo, uint32_t hi), void *arg, uint32_t n,
		  uint32_t min)
{
	struct par_job *j = n >= min && n >= 2 ? malloc(sizeof(*j)) : NULL;
	pthread_attr_t attr;
	pthread_t th;
	int started = 0;

	if (!j) {
		fn(arg, 0, n);
		return;
	}
	j->fn = fn;
	j->arg = arg;
	j->n = n;
	j->chunk = n / 16 ? n / 16 : 1;
	atomic_init(&j->next, 0);
	atomic_init(&j->done, 0);
	atomic_init(&j->refs, 2);
	pthread_mutex_init(&j->lock, NULL);
	pthread_cond_init(&j->cond, NULL);
	if (pthread_attr_init(&attr) == 0) {
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		started = pthread_create(&th, &attr, par_run, j) == 0;
		pthread_attr_destroy(&attr);
	}
	if (!started)
		atomic_store(&j->refs, 1);
	work(j);
	pthread_mutex_lock(&j->lock);
	while (atomic_load(&j->done) != n)
		pthread_cond_wait(&j->cond, &j->lock);
	pthread_mutex_unlock(&j->lock);
	job_drop(j);
}
