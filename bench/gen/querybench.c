/*
 * bench/gen/querybench.c - deepprof-querybench: load one data file as `deepprof serve`
 * does (a session: the merged view analysed; the flame index built and the per-thread
 * view analysed on the background thread, which it waits for), then time the
 * answer to each query given, in HTML as the web front ends ask for it: one answer to
 * warm up, then N timed ones (wall clock: the big pages read on two cores). In a query,
 * {P} stands for the procedure with the most contexts in the merged view (the worst case
 * of the proc, callers and flame_callers pages). Prints one line per query:
 *   QUERY<TAB>median ms<TAB>min ms<TAB>max ms<TAB>status<TAB>bytes
 * Usage: deepprof-querybench FILE N QUERY...
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"
#include "core/err.h"
#include "front/session.h"

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static int cmp_double(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return (a > b) - (a < b);
}

/* @q with every {P} replaced by @ps, into @out (@size bytes). */
static void expand(const char *q, uint32_t ps, char *out, size_t size)
{
	size_t n = 0;

	for (; *q && n + 12 < size; q++) {
		if (strncmp(q, "{P}", 3) == 0) {
			n += (size_t)snprintf(out + n, size - n, "%u", ps);
			q += 2;
		} else {
			out[n++] = *q;
		}
	}
	out[n] = '\0';
}

int main(int argc, char **argv)
{
	struct dp_session *s = dp_session_new(DP_SESSION_QUIET | DP_SESSION_BACKGROUND);
	int n = argc > 2 ? atoi(argv[2]) : 0;
	double *t = malloc((n > 0 ? (size_t)n : 1) * sizeof(*t));
	uint32_t ps;

	if (argc < 4 || n < 1 || n > 100000) {
		fprintf(stderr, "usage: deepprof-querybench FILE N QUERY...\n");
		return 2;
	}
	if (!s || !t || dp_session_open(s, argv[1], NULL) < 0) {
		fprintf(stderr, "deepprof-querybench: %s: %s\n", argv[1], dp_errmsg());
		return 1;
	}
	dp_session_wait(s); /* the flame index built, as a server has it after its load */
	ps = dp_session_widest_ps(s, 0);
	for (int qi = 3; qi < argc; qi++) {
		char q[1024];
		struct dp_answer ans;
		int status = 0;
		size_t bytes = 0;

		expand(argv[qi], ps, q, sizeof(q));
		for (int i = -1; i < n; i++) {
			double t0 = now_ms();

			if (dp_session_answer(s, 0, q, DP_FMT_HTML, NULL, &ans) < 0) {
				fprintf(stderr, "deepprof-querybench: %s: %s\n", q, dp_errmsg());
				return 1;
			}
			if (i >= 0)
				t[i] = now_ms() - t0;
			status = ans.status;
			bytes = ans.body.len;
			dp_buf_release(&ans.body);
		}
		qsort(t, (size_t)n, sizeof(*t), cmp_double);
		printf("%s\t%.3f\t%.3f\t%.3f\t%d\t%zu\n", q, t[n / 2], t[0], t[n - 1], status,
		       bytes);
	}
	free(t);
	dp_session_free(s);
	return 0;
}
