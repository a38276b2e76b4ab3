/*
 * bench/src/launch.c - run one benchmark command and measure it: wall time (monotonic
 * clock), user and system CPU time and peak resident memory (from wait4's rusage, which
 * covers the process and the descendants it waited for).
 * Usage: launch RESULT-FILE PROG [ARGS...]; appends one line to RESULT-FILE:
 *   wall_ns user_ns sys_ns maxrss_kb exit_status
 * and exits with the program's status (128 + signal when killed).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static long long tv_ns(struct timeval tv)
{
	return (long long)tv.tv_sec * 1000000000LL + (long long)tv.tv_usec * 1000LL;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	long long t0, t1;
	int status, code;
	FILE *out;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: launch RESULT-FILE PROG [ARGS...]\n");
		return 125;
	}
	t0 = now_ns();
	pid = fork();
	if (pid < 0) {
		perror("launch: fork");
		return 125;
	}
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "launch: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	while (wait4(pid, &status, 0, &ru) < 0) {
		if (errno != EINTR) {
			perror("launch: wait4");
			return 125;
		}
	}
	t1 = now_ns();
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	out = fopen(argv[1], "a");
	if (!out) {
		perror(argv[1]);
		return 125;
	}
	fprintf(out, "%lld %lld %lld %ld %d\n", t1 - t0, tv_ns(ru.ru_utime), tv_ns(ru.ru_stime),
		ru.ru_maxrss, code);
	if (fclose(out) != 0) {
		perror(argv[1]);
		return 125;
	}
	return code;
}
