/*
 * tests/unit/test_rt_fork.c - fork(): the child starts from zeroed counters (the
 * activations it inherited count one call each), keeps only the forking thread, and
 * writes its own file with its pid in the name and its exit status; the parent's
 * counts are untouched.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_rt.h"

#define NOINL __attribute__((noinline))

static volatile int sink;
static pthread_mutex_t hold = PTHREAD_MUTEX_INITIALIZER;

NOINL static void g(void)
{
	sink++;
}

NOINL static void child_work(void)
{
	for (int i = 0; i < 3; i++)
		g();
	exit(7);
}

NOINL static void *blocked(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&hold);
	pthread_mutex_unlock(&hold);
	return NULL;
}

NOINL static pid_t fork_here(void)
{
	pid_t pid = fork();

	if (pid == 0)
		child_work();
	return pid;
}

/* DEEPPROF_OUTPUT dir/test_rt_fork.data -> dir/test_rt_fork.PID.data */
RT_NOINST static void child_path(char *buf, size_t len, pid_t pid)
{
	const char *out = getenv("DEEPPROF_OUTPUT");
	size_t n = strlen(out) - strlen(".data");

	snprintf(buf, len, "%.*s.%d.data", (int)n, out, (int)pid);
}

TEST(fork_child_file)
{
	struct dp_profile p, c;
	pthread_t tid;
	char path[4096];
	int status = 0;
	pid_t pid;

	pthread_mutex_lock(&hold);
	CHECK(pthread_create(&tid, NULL, blocked, NULL) == 0);
	g();
	g();
	pid = fork_here();
	CHECK(pid > 0);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 7);
	pthread_mutex_unlock(&hold);
	pthread_join(tid, NULL);

	child_path(path, sizeof(path), pid);
	CHECK(dp_read_file(path, &c) == 0);
	rt_check_invariants(&c);
	CHECK_EQ(c.pid, (uint64_t)pid);
	CHECK_EQ(c.ppid, (uint64_t)getpid());
	CHECK_EQ(c.exit_status, 8);
	CHECK_EQ(c.n_threads, 1);
	CHECK(c.threads[1].flags & DP_THREAD_MAIN);
	CHECK_EQ(c.threads[1].tid, (uint64_t)pid);
	CHECK_EQ(rt_edges(&c, NULL, g).calls, 3); /* the parent's two calls are not there */
	CHECK_EQ(rt_edges(&c, child_work, g).exits, 3);
	/* inherited activations: one call each, never left */
	CHECK_EQ(rt_edges(&c, test_fork_child_file, fork_here).calls, 1);
	CHECK_EQ(rt_edges(&c, test_fork_child_file, fork_here).exits, 0);
	CHECK_EQ(rt_edges(&c, fork_here, child_work).calls, 1);
	CHECK_EQ(rt_edges(&c, NULL, test_fork_child_file).calls, 1);
	CHECK_EQ(rt_edges(&c, NULL, blocked).calls, 0);
	dp_profile_release(&c);
	unlink(path);

	rt_snapshot(&p);
	rt_check_invariants(&p);
	CHECK_EQ(p.n_threads, 2);
	CHECK_EQ(rt_edges(&p, NULL, g).calls, 2);
	CHECK_EQ(rt_edges(&p, NULL, child_work).calls, 0);
	CHECK_EQ(rt_edges(&p, test_fork_child_file, fork_here).exits, 1);
	CHECK_EQ(rt_edges(&p, NULL, blocked).calls, 1);
	dp_profile_release(&p);
}

DP_TEST_MAIN(test_fork_child_file)
