/*
 * runtime/rt_sample.c - CPU-time sampling: one timer per thread on its CPU-time clock
 * delivering SIGPROF to that thread, and the handler, which increments a counter: the
 * current CSD's samples (by 1 + the timer's overrun count), or the thread's
 * samples_inside when it was inside the runtime (inside flag, or PC in dp_rt_hot); and
 * counts the sample under (current CSD, interrupted PC) in the thread's table of sampled
 * PCs, from which the symbolizer names the code outside instrumented functions.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "rt_int.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

/* Bounds of the hooks' section, defined by the linker. */
extern const char __start_dp_rt_hot[] __attribute__((visibility("hidden")));
extern const char __stop_dp_rt_hot[] __attribute__((visibility("hidden")));

DP_RT_NOINST static uintptr_t dp_rt_pc(void *ucv)
{
	const ucontext_t *uc = ucv;

#if defined(__x86_64__)
	return (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	return (uintptr_t)uc->uc_mcontext.pc;
#else
	(void)uc;
	return 0;
#endif
}

/*
 * A table of DP_RT_PCS_MIN entries, or twice @old's with @old's entries, NULL if none can
 * be had (at DP_RT_PCS_MAX, over DEEPPROF_MAX_MB or out of memory: never a reason to stop
 * collecting). Runs in the handler: mmap(2) is a system call, no lock is taken.
 */
DP_RT_NOINST static struct dp_rt_pcs_tab *dp_rt_pcs_grow(struct dp_rt_pcs_tab *old)
{
	uint32_t cap = old ? old->cap * 2 : DP_RT_PCS_MIN;
	size_t bytes = sizeof(*old) + (size_t)cap * sizeof(old->ent[0]);
	struct dp_rt_pcs_tab *tab;
	uint64_t used;

	if (cap > DP_RT_PCS_MAX)
		return NULL;
	used = __atomic_add_fetch(&dp_rt_g.used_bytes, bytes, __ATOMIC_RELAXED);
	tab = used > dp_rt_g.max_bytes ? MAP_FAILED
				       : mmap(NULL, bytes, PROT_READ | PROT_WRITE,
					      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (tab == MAP_FAILED) {
		__atomic_sub_fetch(&dp_rt_g.used_bytes, bytes, __ATOMIC_RELAXED);
		return NULL;
	}
	tab->prev = old;
	tab->bytes = bytes;
	tab->cap = cap;
	for (uint32_t i = 0; old && i < old->cap; i++) {
		const struct dp_rt_pcs_ent *e = &old->ent[i];
		uint32_t h;

		if (!e->pc)
			continue;
		for (h = (uint32_t)dp_rt_pcs_hash(e->pc, e->csd) & (cap - 1); tab->ent[h].pc;
		     h = (h + 1) & (cap - 1))
			;
		tab->ent[h] = *e;
		tab->used++;
	}
	return tab;
}

/*
 * Count @n samples of @th at (@csd, @pc). The thread's own handler is the only writer
 * (SIGPROF is blocked while it runs); the writer thread may read at any time, so a new
 * entry is published by its pc, last, and a grown table by th->pcs, after its entries.
 * Samples that find no room are counted in pcs_missed (they stay the CSD's own).
 */
DP_RT_NOINST static void dp_rt_pcs_add(struct dp_rt_thread *th, const struct dp_rt_csd *csd,
				       uintptr_t pc, uint64_t n)
{
	struct dp_rt_pcs_tab *tab = th->pcs, *big;
	uint32_t key = csd == th->root_csd ? DP_RT_PCS_ROOT : dp_rt_csd_index(csd), h;
	struct dp_rt_pcs_ent *e;

	if (!pc)
		goto missed;
	if ((!tab || (tab->used + 1) * 4 > tab->cap * 3) && (big = dp_rt_pcs_grow(tab))) {
		DP_RT_STORE_REL(&th->pcs, big);
		tab = big;
	}
	if (!tab)
		goto missed;
	for (h = (uint32_t)dp_rt_pcs_hash(pc, key) & (tab->cap - 1);;
	     h = (h + 1) & (tab->cap - 1)) {
		e = &tab->ent[h];
		if (!e->pc)
			break;
		if (e->pc == pc && e->csd == key) {
			if (e->n > UINT32_MAX - n)
				goto missed;
			__atomic_store_n(&e->n, e->n + (uint32_t)n, __ATOMIC_RELAXED);
			return;
		}
	}
	if ((tab->used + 1) * 4 > tab->cap * 3 || n > UINT32_MAX)
		goto missed;
	e->csd = key;
	e->n = (uint32_t)n;
	DP_RT_STORE_REL(&e->pc, pc);
	tab->used++;
	return;
missed:
	__atomic_store_n(&th->pcs_missed, th->pcs_missed + n, __ATOMIC_RELAXED);
}

/* dp_rt_pcs_zero - forget @th's sampled PCs (a fork child starts from zero). */
DP_RT_NOINST void dp_rt_pcs_zero(struct dp_rt_thread *th)
{
	if (th->pcs) {
		memset(th->pcs->ent, 0, th->pcs->cap * sizeof(th->pcs->ent[0]));
		th->pcs->used = 0;
	}
	th->pcs_missed = 0;
}

DP_RT_NOINST static void dp_rt_on_sigprof(int sig, siginfo_t *si, void *ucv)
{
	struct dp_rt_tls *t = &dp_rt_tls;
	struct dp_rt_csd *csd;
	uintptr_t pc;
	uint64_t n;
	int saved = errno;

	(void)sig;
	if (!t->limit)
		return;
	/* CPU timers expire on scheduler ticks: the periods merged into this signal */
	n = 1 + (uint64_t)(si->si_code == SI_TIMER && si->si_overrun > 0 ? si->si_overrun : 0);
	pc = dp_rt_pc(ucv);
	if (t->inside || (pc >= (uintptr_t)__start_dp_rt_hot && pc < (uintptr_t)__stop_dp_rt_hot))
		t->th->samples_inside += n;
	else if (dp_rt_g.stopped)
		t->th->lost_samples += n;
	else {
		csd = t->top->csd; /* not inside a hook: top is complete */
		dp_rt_cold(csd)->samples += n;
		dp_rt_pcs_add(t->th, csd, pc, n);
	}
	errno = saved;
}

/*
 * dp_rt_sample_install - install the SIGPROF handler unless DEEPPROF_HZ is 0 or the
 * program already has one (then sampling stays off, said once). Returns 0 if on.
 */
DP_RT_NOINST int dp_rt_sample_install(void)
{
	struct sigaction sa, old;

	if (!dp_rt_g.hz)
		return -1;
	if (sigaction(SIGPROF, NULL, &old) != 0)
		return -1;
	if ((old.sa_flags & SA_SIGINFO)
		    ? old.sa_sigaction != NULL
		    : (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN)) {
		dp_rt_say("deepprof: SIGPROF already has a handler; sampling off\n", NULL, NULL);
		return -1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = dp_rt_on_sigprof;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGPROF, &sa, NULL) != 0)
		return -1;
	dp_rt_g.sampling = 1;
	return 0;
}

/*
 * dp_rt_sample_check - turn sampling off for good, deleting every thread's timer, if the
 * program has replaced our SIGPROF handler (its handler must not receive our ticks).
 * Called on the slow paths (thread start, write). Returns 1 if sampling is still on.
 */
DP_RT_NOINST int dp_rt_sample_check(void)
{
	struct sigaction cur;
	struct dp_rt_thread *th;

	if (!dp_rt_g.sampling)
		return 0;
	if (sigaction(SIGPROF, NULL, &cur) != 0 ||
	    ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == dp_rt_on_sigprof))
		return 1;
	if (!__atomic_exchange_n(&dp_rt_g.sampling, 0, __ATOMIC_SEQ_CST))
		return 0;
	dp_rt_say("deepprof: the program replaced the SIGPROF handler; sampling off\n", NULL, NULL);
	pthread_mutex_lock(&dp_rt_g.threads_lock);
	for (th = dp_rt_g.threads; th; th = th->next)
		dp_rt_sample_thread_stop(th);
	pthread_mutex_unlock(&dp_rt_g.threads_lock);
	return 0;
}

/* dp_rt_sample_thread_start - arm @th's CPU-time timer (the calling thread's own) and
 * record the period the kernel really armed. Silent on failure: no samples. */
DP_RT_NOINST void dp_rt_sample_thread_start(struct dp_rt_thread *th)
{
	struct sigevent sev;
	struct itimerspec its, got;
	uint64_t ns;

	if (th->has_timer || !dp_rt_sample_check())
		return;
	memset(&sev, 0, sizeof(sev));
	sev.sigev_notify = SIGEV_THREAD_ID;
	sev.sigev_signo = SIGPROF;
	sev.sigev_notify_thread_id = (pid_t)th->tid;
	if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &th->timer) != 0)
		return;
	ns = 1000000000u / dp_rt_g.hz;
	if (!ns)
		ns = 1;
	its.it_interval.tv_sec = (time_t)(ns / 1000000000u);
	its.it_interval.tv_nsec = (long)(ns % 1000000000u);
	its.it_value = its.it_interval;
	if (timer_settime(th->timer, 0, &its, NULL) != 0) {
		timer_delete(th->timer);
		return;
	}
	th->has_timer = 1;
	if (timer_gettime(th->timer, &got) == 0 && !dp_rt_g.period_ns)
		dp_rt_g.period_ns = (uint64_t)got.it_interval.tv_sec * 1000000000u +
				    (uint64_t)got.it_interval.tv_nsec;
}

/* dp_rt_sample_thread_stop - delete @th's timer (at thread exit). */
DP_RT_NOINST void dp_rt_sample_thread_stop(struct dp_rt_thread *th)
{
	if (__atomic_exchange_n(&th->has_timer, 0, __ATOMIC_SEQ_CST))
		timer_delete(th->timer);
}
