/* fork.c - main calls before() B times, forks; the child calls in_child() C times and
 * exits, the parent waits and calls in_parent() P times. Prints child_pid=PID.
 * Usage: fork [B=10] [C=20] [P=30]. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dpt.h"

static volatile long sink;

NOINLINE static void before(long i)
{
	sink += i;
}

NOINLINE static void in_child(long i)
{
	sink += i;
}

NOINLINE static void in_parent(long i)
{
	sink += i;
}

int main(int argc, char **argv)
{
	long b = dpt_arg(argc, argv, 1, 10), c = dpt_arg(argc, argv, 2, 20);
	long p = dpt_arg(argc, argv, 3, 30), i;
	int status;
	pid_t pid;

	for (i = 0; i < b; i++)
		before(i);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return 1;
	if (pid == 0) {
		for (i = 0; i < c; i++)
			in_child(i);
		return 0;
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	for (i = 0; i < p; i++)
		in_parent(i);
	printf("child_pid=%ld\n", (long)pid);
	return 0;
}
