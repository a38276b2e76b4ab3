/*
 * runtime/rt_sample.c - CPU-time sampling: one timer per thread on its CPU-time clock
 * delivering SIGPROF to that thread, and the handler, which only increments a counter:
 * the current CSD's samples, or the thread's samples_inside when the thread was inside
 * the runtime (the inside flag, or an interrupted PC in the dp_rt_hot section).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
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

DP_RT_NOINST static void dp_rt_on_sigprof(int sig, siginfo_t *si, void *ucv)
{
	struct dp_rt_tls *t = &dp_rt_tls;
	struct dp_rt_csd *cur = t->cur;
	uintptr_t pc;
	int saved = errno;

	(void)sig;
	(void)si;
	if (!cur)
		return;
	pc = dp_rt_pc(ucv);
	if (t->inside || (pc >= (uintptr_t)__start_dp_rt_hot && pc < (uintptr_t)__stop_dp_rt_hot))
		t->th->samples_inside++;
	else if (dp_rt_g.stopped)
		t->th->lost_samples++;
	else
		cur->samples++;
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
	if ((old.sa_flags & SA_SIGINFO) ? old.sa_sigaction != NULL
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

/* dp_rt_sample_thread_start - arm @th's CPU-time timer (the calling thread's own) and
 * record the period the kernel really armed. Silent on failure: no samples. */
DP_RT_NOINST void dp_rt_sample_thread_start(struct dp_rt_thread *th)
{
	struct sigevent sev;
	struct itimerspec its, got;
	uint64_t ns;

	if (!dp_rt_g.sampling || th->has_timer)
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
	if (th->has_timer) {
		th->has_timer = 0;
		timer_delete(th->timer);
	}
}
