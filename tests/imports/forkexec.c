/*
 * forkexec.c - for the uftrace import test: fork; the child calls parentwork() once and
 * execs argv[1] (ctxcost built with -pg, "1000 0"), so its trace holds two programs; the
 * parent waits and calls parentwork() once.
 */
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static int parentwork(int n)
{
	volatile int s = 0;

	for (int i = 0; i < n; i++)
		s += i;
	return s;
}

int main(int argc, char **argv)
{
	pid_t p;

	if (argc < 2)
		return 2;
	p = fork();
	if (p == 0) {
		parentwork(10);
		execl(argv[1], argv[1], "1000", "0", (char *)0);
		_exit(1);
	}
	waitpid(p, 0, 0);
	return parentwork(100) & 1;
}
