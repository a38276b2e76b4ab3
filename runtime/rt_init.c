/*
 * runtime/rt_init.c - the runtime's global state: one-time initialisation (environment,
 * exit handler, sampling, the writer thread), the DEEPPROF_SIGNAL / DEEPPROF_INTERVAL
 * writer thread, and the public deepprof_write(). Printing uses write(2) only
 * (rt_trouble.c).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deepprof/deepprof.h"
#include "deepprof/format.h"
#include "rt_int.h"

struct dp_rt_global dp_rt_g = {
	.hz = 1000,
	.max_bytes = (uint64_t)4096 << 20,
	.threads_lock = PTHREAD_MUTEX_INITIALIZER,
	.write_lock = PTHREAD_MUTEX_INITIALIZER,
};

static pthread_once_t dp_rt_once = PTHREAD_ONCE_INIT;
static sem_t dp_rt_wsem;
static unsigned dp_rt_interval; /* seconds, 0 = no periodic write */
static int dp_rt_wsig;		/* 0 = no write signal */

/* dp_rt_now_ns - @clk's time in ns. */
DP_RT_NOINST uint64_t dp_rt_now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* An unsigned decimal environment variable, or @def if unset or malformed. */
DP_RT_NOINST static uint64_t dp_rt_env_num(const char *name, uint64_t def)
{
	const char *s = getenv(name);
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return def;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || *s == '-') {
		dp_rt_say("deepprof: ignoring malformed ", name, "\n");
		return def;
	}
	return v;
}

/* The signal number named by @s: "USR1", "SIGUSR1" or a number; 0 if unknown. */
DP_RT_NOINST static int dp_rt_signum(const char *s)
{
	static const struct {
		const char *name;
		int num;
	} names[] = {{"HUP", SIGHUP},	  {"INT", SIGINT},   {"QUIT", SIGQUIT}, {"USR1", SIGUSR1},
		     {"USR2", SIGUSR2},	  {"ALRM", SIGALRM}, {"TERM", SIGTERM}, {"CONT", SIGCONT},
		     {"WINCH", SIGWINCH}, {"PWR", SIGPWR}};
	char *end;
	long v;

	if (!strncmp(s, "SIG", 3))
		s += 3;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].name))
			return names[i].num;
	v = strtol(s, &end, 10);
	if (*s && !*end && v > 0 && v < NSIG && v != SIGPROF && v != SIGKILL && v != SIGSTOP)
		return (int)v;
	return 0;
}

DP_RT_NOINST static void dp_rt_on_wsig(int sig)
{
	int saved = errno;

	(void)sig;
	sem_post(&dp_rt_wsem);
	errno = saved;
}

DP_RT_NOINST static void *dp_rt_writer_main(void *arg)
{
	struct timespec ts;
	int r;

	(void)arg;
	for (;;) {
		if (dp_rt_interval) {
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += dp_rt_interval;
			do
				r = sem_timedwait(&dp_rt_wsem, &ts);
			while (r != 0 && errno == EINTR);
		} else {
			do
				r = sem_wait(&dp_rt_wsem);
			while (r != 0 && errno == EINTR);
		}
		dp_rt_write(0);
	}
	return NULL;
}

/* Whether the writer thread runs in this process (then dp_rt_wsem is initialised). */
static int dp_rt_writer_on;

/* Start the writer thread, which takes no signal but the write signal; its semaphore
 * made anew. */
DP_RT_NOINST static void dp_rt_writer_spawn(void)
{
	sigset_t all, old;
	pthread_t tid;

	dp_rt_writer_on = 0;
	if (sem_init(&dp_rt_wsem, 0, 0) != 0)
		return;
	sigfillset(&all);
	if (dp_rt_wsig)
		sigdelset(&all, dp_rt_wsig);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pthread_create(&tid, NULL, dp_rt_writer_main, NULL) == 0) {
		pthread_detach(tid);
		dp_rt_writer_on = 1;
	} else {
		dp_rt_say("deepprof: cannot start the writer thread\n", NULL, NULL);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* The writer thread for DEEPPROF_SIGNAL and DEEPPROF_INTERVAL, if either is set. */
DP_RT_NOINST static void dp_rt_writer_start(void)
{
	const char *sig = getenv("DEEPPROF_SIGNAL");
	struct sigaction sa;

	dp_rt_interval = (unsigned)dp_rt_env_num("DEEPPROF_INTERVAL", 0);
	if (sig && *sig) {
		dp_rt_wsig = dp_rt_signum(sig);
		if (!dp_rt_wsig)
			dp_rt_say("deepprof: unknown DEEPPROF_SIGNAL ", sig, "; ignored\n");
	}
	if (!dp_rt_interval && !dp_rt_wsig)
		return;
	if (dp_rt_wsig) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = dp_rt_on_wsig;
		sa.sa_flags = SA_RESTART;
		sigemptyset(&sa.sa_mask);
		sigaction(dp_rt_wsig, &sa, NULL);
	}
	dp_rt_writer_spawn();
}

/*
 * dp_rt_writer_fork_child - in a fork child (the atfork handler, its only thread), the
 * writer thread again if the parent had one: threads are not inherited, and a child that
 * runs on (a pre-forked server's worker) must write every DEEPPROF_INTERVAL seconds and
 * on DEEPPROF_SIGNAL as its parent does. The signal's handler is inherited.
 */
DP_RT_NOINST void dp_rt_writer_fork_child(void)
{
	if (dp_rt_writer_on)
		dp_rt_writer_spawn();
}

DP_RT_NOINST static void dp_rt_at_exit(int status, void *arg)
{
	(void)arg;
#ifndef DP_RT_STATIC
	/* Preloaded (deepprof run, a program not built with deepprof cc): a process in
	 * which no instrumented code ran (the interpreter's helpers, the commands it runs)
	 * writes no profile, which would replace a useful one of the same name. */
	if (!__atomic_load_n(&dp_rt_g.threads, __ATOMIC_ACQUIRE))
		return;
#endif
	dp_rt_g.exit_status = status;
	dp_rt_g.exit_status_known = 1;
	dp_rt_write(1);
}

DP_RT_NOINST static void dp_rt_init_once(void)
{
	uint64_t mb;

	dp_rt_g.pid = getpid();
	dp_rt_g.start_ns = dp_rt_now_ns(CLOCK_REALTIME);
	mb = dp_rt_env_num("DEEPPROF_MAX_MB", 4096);
	dp_rt_g.max_bytes = mb > (UINT64_MAX >> 21) ? UINT64_MAX : mb << 20;
	dp_rt_g.hz = dp_rt_env_num("DEEPPROF_HZ", 1000);
	if (dp_rt_g.hz > 1000000000u)
		dp_rt_g.hz = 1000000000u;
	dp_rt_output_init();
	dp_rt_threads_init();
	on_exit(dp_rt_at_exit, NULL);
	dp_rt_sample_install();
	dp_rt_writer_start();
}

/* dp_rt_global_init - initialise the runtime once; safe to call from any thread. */
DP_RT_NOINST void dp_rt_global_init(void)
{
	int saved = errno;

	pthread_once(&dp_rt_once, dp_rt_init_once);
	errno = saved;
}

#ifndef DP_RT_STATIC
/* This copy's deepprof_write, by a name no other object interposes (the address of
 * deepprof_write itself would be the first definition's). */
extern int dp_rt_own_write(void) __attribute__((alias("deepprof_write"), visibility("hidden")));
#endif

/* Early, so that our exit handler runs after the program's own atexit handlers. */
__attribute__((constructor(101), no_instrument_function)) static void dp_rt_ctor(void)
{
#ifndef DP_RT_STATIC
	/* libdeepprof.so preloaded into a program that has its own runtime (built with
	 * deepprof cc; LD_PRELOAD passed on to it by a parent): that copy comes first in
	 * the lookup order and takes every hook and allocation; this one stays idle (no
	 * timer, no exit handler, no file). */
	void *first = dlsym(RTLD_DEFAULT, "deepprof_write");

	if (first && (uintptr_t)first != (uintptr_t)dp_rt_own_write)
		return;
#endif
	dp_rt_global_init();
}

/* deepprof_write - see include/deepprof/deepprof.h. */
DP_RT_API int deepprof_write(void)
{
	dp_rt_global_init();
	return dp_rt_write(0);
}
