/*
 * tests/unit/test_rt_proc.c - the runtime seen from outside: the test re-runs itself
 * with DP_RT_MODE and DEEPPROF_* settings and checks the file written at exit (exit
 * status), an unwritable output (one message, exit status kept), the memory ceiling
 * (collection stops, losses recorded), DEEPPROF_SIGNAL and DEEPPROF_INTERVAL writes (in
 * fork children too),
 * %p/%e names, and that files are complete (truncation detected, no temporary left).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_rt.h"

#define NOINL __attribute__((noinline))

static volatile int sink;
static char dir[4096];

NOINL static void work(int n)
{
	sink += n;
}

NOINL static void *thread_main(void *arg)
{
	work((int)(intptr_t)arg);
	return NULL;
}

RT_NOINST static int first_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	(void)size;
	*(uintptr_t *)arg = (uintptr_t)info->dlpi_addr;
	return 1;
}

/* Where @fn is in the process that wrote @p (another run of this PIE program). */
RT_NOINST static uintptr_t there(const struct dp_profile *p, uintptr_t fn)
{
	uintptr_t bias = 0;

	dl_iterate_phdr(first_object, &bias);
	return fn - bias + (uintptr_t)p->objects[1].bias;
}

/* Wait up to 5 s for @path to exist; 0 if it does. */
RT_NOINST static int wait_file(const char *path)
{
	struct timespec ts = {0, 10000000};

	for (int i = 0; i < 500; i++) {
		if (access(path, F_OK) == 0)
			return 0;
		nanosleep(&ts, NULL);
	}
	return -1;
}

/*
 * fork-signal, fork-interval: a child forks off and, without ever exiting normally
 * (_exit, so no write at exit), must find its own file (@out with its pid before
 * ".data") written by its writer thread, on the signal it sends itself or after the
 * interval, and holding its call of work(). Returns the child's status.
 */
NOINL static int fork_mode(const char *how, const char *out)
{
	char path[8192];
	struct dp_profile p;
	pid_t c = fork();
	int status, rc = 1;

	if (c < 0)
		return 1;
	if (c == 0) {
		work(7);
		snprintf(path, sizeof(path), "%.*s.%d.data", (int)(strlen(out) - 5), out,
			 (int)getpid());
		if (!strcmp(how, "signal"))
			kill(getpid(), SIGUSR1);
		if (wait_file(path) == 0 && dp_read_file(path, &p) == 0) {
			uintptr_t from = there(&p, (uintptr_t)fork_mode),
				  to = there(&p, (uintptr_t)work);

			rc = p.pid == (uint64_t)getpid() && rt_edges_(&p, from, to).calls == 1 ? 0
											       : 3;
			dp_profile_release(&p);
		}
		unlink(path);
		_exit(rc);
	}
	if (waitpid(c, &status, 0) != c || !WIFEXITED(status))
		return 1;
	return WEXITSTATUS(status);
}

/* The modes the test runs itself in; each returns the process exit status. */
NOINL static int run_mode(const char *mode)
{
	const char *out = getenv("DEEPPROF_OUTPUT");
	struct dp_profile p;

	for (int i = 0; i < 5; i++)
		work(i);
	if (!strcmp(mode, "exit"))
		exit(3);
	if (!strcmp(mode, "unwritable"))
		return deepprof_write() == -1 ? 5 : 6;
	if (!strcmp(mode, "maxmb")) {
		for (int i = 0; i < 40; i++) {
			pthread_t t;

			pthread_create(&t, NULL, thread_main, (void *)(intptr_t)i);
			pthread_join(t, NULL);
		}
		for (int i = 0; i < 10; i++)
			work(i);
		return 4;
	}
	if (!strncmp(mode, "fork-", 5))
		return fork_mode(mode + 5, out);
	if (!strcmp(mode, "signal") || !strcmp(mode, "interval")) {
		if (!strcmp(mode, "signal"))
			kill(getpid(), SIGUSR1);
		if (wait_file(out) != 0 || dp_read_file(out, &p) != 0)
			return 1;
		dp_profile_release(&p);
		return 0;
	}
	return 2;
}

static pid_t pid; /* of the last spawn() */

/* Run this program in @mode with the environment assignments @env (NULL-terminated),
 * stderr into @err; returns the exit status or -1. */
RT_NOINST static int spawn(const char *mode, const char *const *env, char *err, size_t len)
{
	int fds[2], status;
	ssize_t n = 0, r;

	if (pipe(fds) != 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		setenv("DP_RT_MODE", mode, 1);
		for (; *env; env++)
			putenv((char *)(uintptr_t)*env);
		execl("/proc/self/exe", "test_rt_proc", mode, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while (len > 1 && (r = read(fds[0], err + n, len - 1 - (size_t)n)) > 0)
		n += r;
	err[n] = 0;
	close(fds[0]);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

RT_NOINST static int count(const char *hay, const char *needle)
{
	int n = 0;

	for (const char *s = hay; (s = strstr(s, needle)); s++)
		n++;
	return n;
}

TEST(exit_status_and_names)
{
	char out[8192], env_out[8300], path[8192], err[4096];
	const char *env[] = {env_out, NULL};
	struct dp_profile p;

	snprintf(out, sizeof(out), "%s/rt-%%e-%%p.data", dir);
	snprintf(env_out, sizeof(env_out), "DEEPPROF_OUTPUT=%s", out);
	CHECK_EQ(spawn("exit", env, err, sizeof(err)), 3);
	CHECK_STR(err, "");
	/* rt-%e-%p.data: the program's basename and the pid */
	{
		char exe[4096] = "";
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		const char *base;

		exe[n > 0 ? n : 0] = 0;
		base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
		snprintf(path, sizeof(path), "%s/rt-%s-%d.data", dir, base, (int)pid);
	}
	CHECK(dp_read_file(path, &p) == 0);
	CHECK_EQ(p.exit_status, 4);
	CHECK_EQ(rt_edges_(&p, there(&p, (uintptr_t)run_mode), there(&p, (uintptr_t)work)).calls,
		 5);
	CHECK_EQ(p.argc, 2);
	CHECK_STR(dp_profile_str(&p, p.argv[1]), "exit");
	CHECK_EQ(p.pid, (uint64_t)pid);
	dp_profile_release(&p);
	unlink(path);
}

TEST(unwritable_output)
{
	const char *env[] = {"DEEPPROF_OUTPUT=/nonexistent-dir/x/Deep.data",
			     "TMPDIR=/nonexistent-dir/t", NULL};
	char err[4096];

	CHECK_EQ(spawn("unwritable", env, err, sizeof(err)), 5);
	CHECK_EQ(count(err, "deepprof: "), 1);
	CHECK(strstr(err, "deepprof: profile lost: cannot write /nonexistent-dir/x/Deep.data: "
			  "No such file or directory, nor /nonexistent-dir/t/Deep.data: No such "
			  "file or directory; profiling stopped\n") != NULL);
}

/* An output that cannot be written goes to $TMPDIR, said once for both writes. */
TEST(fallback_output)
{
	char env_tmp[8300], path[8192], err[4096], want[8400];
	const char *env[] = {"DEEPPROF_OUTPUT=/nonexistent-dir/x/rt-fb.data", env_tmp, NULL};
	struct dp_profile p;

	snprintf(path, sizeof(path), "%s/rt-fb.data", dir);
	snprintf(env_tmp, sizeof(env_tmp), "TMPDIR=%s", dir);
	unlink(path);
	CHECK_EQ(spawn("unwritable", env, err, sizeof(err)), 6);
	CHECK_EQ(count(err, "deepprof: "), 1);
	snprintf(want, sizeof(want),
		 "deepprof: cannot write /nonexistent-dir/x/rt-fb.data: No such file or "
		 "directory; the profile went to %s\n",
		 path);
	CHECK(strstr(err, want) != NULL);
	CHECK(dp_read_file(path, &p) == 0);
	CHECK(!(p.features & DP_FEAT_STOPPED));
	CHECK_EQ(p.exit_status, 6u + 1);
	dp_profile_release(&p);
	unlink(path);
}

TEST(memory_ceiling)
{
	char env_out[8300], path[8192], err[4096];
	const char *env[] = {env_out, "DEEPPROF_MAX_MB=1", NULL};
	struct dp_profile p;

	snprintf(path, sizeof(path), "%s/rt-maxmb.data", dir);
	snprintf(env_out, sizeof(env_out), "DEEPPROF_OUTPUT=%s", path);
	CHECK_EQ(spawn("maxmb", env, err, sizeof(err)), 4);
	CHECK_EQ(count(err, "deepprof: "), 1);
	CHECK(strstr(err, "DEEPPROF_MAX_MB") != NULL);
	CHECK(dp_read_file(path, &p) == 0);
	CHECK(p.features & DP_FEAT_STOPPED);
	CHECK(strstr(dp_profile_str(&p, p.stop_reason), "DEEPPROF_MAX_MB") != NULL);
	CHECK(p.lost_calls >= 10);
	CHECK(p.n_threads > 1 && p.n_threads < 41);
	CHECK_EQ(p.exit_status, 5);
	rt_check_invariants(&p);
	dp_profile_release(&p);
	unlink(path);
}

RT_NOINST static void periodic(const char *mode, const char *setting)
{
	char env_out[8300], path[8192], err[4096];
	const char *env[] = {env_out, setting, NULL};

	snprintf(path, sizeof(path), "%s/rt-%s.data", dir, mode);
	unlink(path);
	snprintf(env_out, sizeof(env_out), "DEEPPROF_OUTPUT=%s", path);
	CHECK_EQ(spawn(mode, env, err, sizeof(err)), 0);
	CHECK_STR(err, "");
	unlink(path);
}

TEST(signal_and_interval_writes)
{
	periodic("signal", "DEEPPROF_SIGNAL=USR1");
	periodic("interval", "DEEPPROF_INTERVAL=1");
	/* and in a fork child, which does not inherit the writer thread */
	periodic("fork-signal", "DEEPPROF_SIGNAL=USR1");
	periodic("fork-interval", "DEEPPROF_INTERVAL=1");
}

TEST(complete_files_only)
{
	const char *path = getenv("DEEPPROF_OUTPUT");
	struct dp_profile p;
	struct stat st;
	uint8_t *buf;
	size_t n_bad = 0, n_tries = 0;
	FILE *f;
	DIR *d;
	struct dirent *e;

	rt_snapshot(&p);
	dp_profile_release(&p);
	CHECK(stat(path, &st) == 0);
	buf = malloc((size_t)st.st_size);
	f = fopen(path, "rb");
	CHECK(f && fread(buf, 1, (size_t)st.st_size, f) == (size_t)st.st_size);
	if (f)
		fclose(f);
	for (size_t len = 0; len < (size_t)st.st_size; len += 1 + len / 8) {
		n_tries++;
		if (dp_read_buffer(buf, len, "cut", &p) != 0)
			n_bad++;
	}
	CHECK_EQ(n_bad, n_tries);
	buf[st.st_size / 2] ^= 1;
	CHECK(dp_read_buffer(buf, (size_t)st.st_size, "flip", &p) != 0);
	free(buf);
	d = opendir(dir);
	while (d && (e = readdir(d)))
		CHECK(strstr(e->d_name, ".tmp.") == NULL);
	if (d)
		closedir(d);
}

int main(int argc, char **argv)
{
	const char *mode = getenv("DP_RT_MODE");
	const char *out = getenv("DEEPPROF_OUTPUT");
	const char *slash = out ? strrchr(out, '/') : NULL;

	(void)argc;
	(void)argv;
	if (mode)
		return run_mode(mode);
	if (!slash) {
		fprintf(stderr, "DEEPPROF_OUTPUT must be an absolute path\n");
		return 1;
	}
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - out), out);
	test_exit_status_and_names();
	test_unwritable_output();
	test_fallback_output();
	test_memory_ceiling();
	test_signal_and_interval_writes();
	test_complete_files_only();
	if (dp_test_failures)
		fprintf(stderr, "%d check(s) failed\n", dp_test_failures);
	return dp_test_failures ? 1 : 0;
}
