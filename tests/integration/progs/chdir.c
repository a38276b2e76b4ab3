/*
 * progs/chdir.c - a program that changes directory: it makes DIR (argv[2]), calls
 * work() N times (argv[1]) after chdir(DIR), and with a third argument "rm" removes the
 * directory it started in (empty, DIR elsewhere), so that its profile's directory is gone.
 * Usage: chdir N DIR [rm].
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dpt.h"

static volatile long sink;

NOINLINE static void work(long i)
{
	sink += i;
}

int main(int argc, char **argv)
{
	long n = dpt_arg(argc, argv, 1, 10);
	const char *dir = argc > 2 ? argv[2] : "sub";
	char start[4096];

	if (!getcwd(start, sizeof(start)) || mkdir(dir, 0777) != 0 || chdir(dir) != 0) {
		perror(dir);
		return 1;
	}
	for (long i = 0; i < n; i++)
		work(i);
	if (argc > 3 && strcmp(argv[3], "rm") == 0) {
		if (rmdir(start) != 0) {
			perror("rmdir");
			return 1;
		}
	}
	printf("sink=%ld\n", sink);
	return 0;
}
