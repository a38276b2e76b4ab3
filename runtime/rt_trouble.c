/*
 * runtime/rt_trouble.c - stopping collection on trouble, with one message on stderr, and
 * the string helpers it uses. Reached from the hooks' and stubs' slow paths (memory
 * over budget, a shadow stack too deep), so built like them without vector or x87
 * registers (rt_stub.c): byte loops and write(2), no libc string functions.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <unistd.h>

#include "deepprof/format.h"
#include "rt_int.h"

/* dp_rt_say - write the concatenation of @a, @b, @c (@b, @c may be NULL) to stderr in one
 * write(2); keeps errno. */
DP_RT_NOINST void dp_rt_say(const char *a, const char *b, const char *c)
{
	char msg[2048];
	size_t n = 0;
	const char *parts[3] = {a, b, c};
	int saved = errno;

	for (int i = 0; i < 3; i++) {
		for (const char *s = parts[i]; s && *s && n < sizeof(msg) - 1; s++)
			msg[n++] = *s;
	}
	if (write(STDERR_FILENO, msg, n) < 0)
		errno = saved;
	errno = saved;
}

/*
 * dp_rt_stop - stop collecting for good: the hooks then only count what is lost. The
 * first reason (@why, then ": " @detail if not NULL) is kept for the file and printed
 * once. Callable from any thread, not from a signal handler.
 */
DP_RT_NOINST void dp_rt_stop(const char *why, const char *detail)
{
	struct dp_rt_thread *th = dp_rt_tls.th;
	size_t n = 0;

	if (th)
		th->flags |= DP_THREAD_STOPPED;
	if (__atomic_exchange_n(&dp_rt_g.stopped, 1, __ATOMIC_SEQ_CST))
		return;
	for (const char *s = why; *s && n < sizeof(dp_rt_g.stop_reason) - 1; s++)
		dp_rt_g.stop_reason[n++] = *s;
	if (detail) {
		for (const char *s = ": "; *s && n < sizeof(dp_rt_g.stop_reason) - 1; s++)
			dp_rt_g.stop_reason[n++] = *s;
		for (const char *s = detail; *s && n < sizeof(dp_rt_g.stop_reason) - 1; s++)
			dp_rt_g.stop_reason[n++] = *s;
	}
	dp_rt_g.stop_reason[n] = 0;
	if (detail) { /* in full: the file keeps the first 159 bytes */
		char line[2048];

		dp_rt_join(line, sizeof(line), "deepprof: ", why, ": ");
		dp_rt_say(line, detail, "; profiling stopped\n");
	} else {
		dp_rt_say("deepprof: ", why, "; profiling stopped\n");
	}
}

/* dp_rt_join - @a, @b and @c concatenated into @out (@len bytes), truncated. */
DP_RT_NOINST void dp_rt_join(char *out, size_t len, const char *a, const char *b, const char *c)
{
	size_t n = 0;
	const char *parts[3] = {a, b, c};

	for (int i = 0; i < 3; i++)
		for (const char *s = parts[i]; s && *s && n + 1 < len; s++)
			out[n++] = *s;
	out[n] = 0;
}
