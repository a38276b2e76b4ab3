/* mf_main.c - multi-file build: main (here) calls util_twice() (mf_util.c) N times,
 * which calls more_leaf() (mf_more.c) twice. Usage: mf [N=40]. */
#include <stdio.h>

#include "dpt.h"
#include "mf.h"

int main(int argc, char **argv)
{
	long n = dpt_arg(argc, argv, 1, 40), i, s = 0;

	for (i = 0; i < n; i++)
		s += util_twice(i);
	printf("s=%ld\n", s);
	return 0;
}
