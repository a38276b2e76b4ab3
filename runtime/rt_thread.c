/*
 * runtime/rt_thread.c - per-thread state: created lazily on a thread's first hook,
 * registered in the global thread list (kept for the writer after the thread ends),
 * finished by a pthread key destructor; and fork(): the child starts from zeroed
 * counters and keeps only the forking thread, the writer thread started again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "deepprof/format.h"
#include "rt_int.h"

/* The top of the calling thread's C stack, or 0 if unknown. */
DP_RT_NOINST static uintptr_t dp_rt_stack_top(void)
{
	pthread_attr_t a;
	void *lo;
	size_t size;
	uintptr_t hi = 0;

	if (pthread_getattr_np(pthread_self(), &a) != 0)
		return 0;
	if (pthread_attr_getstack(&a, &lo, &size) == 0)
		hi = (uintptr_t)lo + size;
	pthread_attr_destroy(&a);
	return hi;
}

/* Key destructor: the thread is exiting. Its graph stays for the writer. */
DP_RT_NOINST static void dp_rt_thread_end(void *arg)
{
	struct dp_rt_thread *th = arg;
	struct dp_rt_tls *t = &dp_rt_tls;
	int saved = errno;

	if (t->th != th)
		return;
	t->inside = 1;
	dp_rt_sample_thread_stop(th);
	prctl(PR_GET_NAME, th->name, 0, 0, 0);
	th->name[sizeof(th->name) - 1] = 0;
	th->end_ns = dp_rt_now_ns(CLOCK_REALTIME);
	__atomic_or_fetch(&th->flags, DP_THREAD_ENDED, __ATOMIC_RELEASE);
	/* Later hooks (other key destructors) are ignored; the lookup structures go. */
	t->limit = NULL;
	t->last = NULL;
	t->top = &dp_rt_idle_frame;
	t->disabled = 1;
	dp_rt_tabs_release(&th->tabs);
	dp_rt_unmap(th->ps_tab, th->ps_cap * sizeof(*th->ps_tab), 1);
	dp_rt_unmap(th->stack, th->stack_cap * sizeof(*th->stack), 0);
	th->ps_tab = NULL;
	th->stack = NULL;
	t->inside = 0;
	errno = saved;
}

/* Zero every counter of @th's graph, as a freshly forked child sees it. */
DP_RT_NOINST static void dp_rt_thread_zero(struct dp_rt_thread *th)
{
	struct dp_rt_iter it;
	struct dp_rt_csd *csd;

	dp_rt_iter_init(&it, &th->csd, th->csd.count);
	while ((csd = dp_rt_iter_next(&it))) {
		csd->calls = csd->exits = csd->callseqs = 0;
		*dp_rt_cold(csd) = (struct dp_rt_cold){0};
	}
	csd = th->root_csd;
	csd->exits = csd->callseqs = 0;
	*dp_rt_cold(csd) = (struct dp_rt_cold){0};
	th->samples_inside = th->lost_calls = th->lost_samples = th->lost_allocs = 0;
	dp_rt_pcs_zero(th);
}

DP_RT_NOINST static void dp_rt_fork_prepare(void)
{
	pthread_mutex_lock(&dp_rt_g.write_lock);
	pthread_mutex_lock(&dp_rt_g.threads_lock);
	dp_rt_region_fork(0);
}

DP_RT_NOINST static void dp_rt_fork_parent(void)
{
	dp_rt_region_fork(1);
	pthread_mutex_unlock(&dp_rt_g.threads_lock);
	pthread_mutex_unlock(&dp_rt_g.write_lock);
}

/*
 * The child: counters start from zero, except that every activation on the forking
 * thread's shadow stack counts one call (the child inherited it and will leave it); the
 * other threads do not exist in the child and are left out of its file; the writer
 * thread, if there was one, is started again.
 */
DP_RT_NOINST static void dp_rt_fork_child(void)
{
	struct dp_rt_tls *t = &dp_rt_tls;
	struct dp_rt_thread *th, *self = t->th;

	pthread_mutex_init(&dp_rt_g.threads_lock, NULL);
	pthread_mutex_init(&dp_rt_g.write_lock, NULL);
	dp_rt_region_fork(2);
	dp_rt_g.pid = getpid();
	dp_rt_g.forked_child = 1;
	dp_rt_g.start_ns = dp_rt_now_ns(CLOCK_REALTIME);
	for (th = dp_rt_g.threads; th; th = th->next) {
		th->alive_in_file = th == self && !t->disabled;
		dp_rt_thread_zero(th);
	}
	if (self && !t->disabled) {
		for (struct dp_rt_frame *e = self->stack + 1; e <= t->top; e++)
			if (e->fp) /* not a tail-call marker: its activation has left */
				e->csd->calls++;
		self->tid = gettid();
		self->flags = DP_THREAD_MAIN | (self->flags & DP_THREAD_STOPPED);
		self->start_ns = dp_rt_g.start_ns;
		self->has_timer = 0; /* POSIX timers are not inherited */
		dp_rt_sample_thread_start(self);
	}
	dp_rt_writer_fork_child(); /* nor are threads */
}

/* dp_rt_threads_init - the thread-exit key and the fork handlers (global init only). */
DP_RT_NOINST void dp_rt_threads_init(void)
{
	pthread_key_create(&dp_rt_g.key, dp_rt_thread_end);
	pthread_atfork(dp_rt_fork_prepare, dp_rt_fork_parent, dp_rt_fork_child);
}

/*
 * dp_rt_thread_start - give the calling thread its state on its first hook: the graph,
 * registration, exit key, sampling timer (t->limit set: the thread has state). On
 * failure the thread is marked disabled and never collects.
 */
DP_RT_NOINST void dp_rt_thread_start(struct dp_rt_tls *t)
{
	struct dp_rt_thread *th;
	int saved = errno;

	t->inside = 1;
	dp_rt_global_init();
	if (dp_rt_g.stopped)
		goto fail;
	th = dp_rt_map(sizeof(*th), 1);
	if (!th)
		goto fail;
	if (dp_rt_graph_init(th, t) != 0)
		goto fail;
	th->tid = gettid();
	th->start_ns = dp_rt_now_ns(CLOCK_REALTIME);
	th->alive_in_file = 1;
	th->stack_hi = dp_rt_stack_top();
	if (th->tid == getpid())
		th->flags |= DP_THREAD_MAIN;
	pthread_setspecific(dp_rt_g.key, th);
	pthread_mutex_lock(&dp_rt_g.threads_lock);
	if (dp_rt_g.threads_tail)
		dp_rt_g.threads_tail->next = th;
	else
		dp_rt_g.threads = th;
	dp_rt_g.threads_tail = th;
	pthread_mutex_unlock(&dp_rt_g.threads_lock);
	dp_rt_sample_thread_start(th);
	t->inside = 0;
	errno = saved;
	return;
fail:
	t->limit = NULL;
	t->last = NULL;
	t->top = &dp_rt_idle_frame;
	t->disabled = 1;
	t->th = NULL;
	t->inside = 0;
	errno = saved;
}
