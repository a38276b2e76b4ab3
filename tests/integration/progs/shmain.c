/* shmain.c - the executable using libshape.so: main calls lib_entry(N, from_lib).
 * Usage: shmain [N=50]. */
#include <stdio.h>

#include "dpt.h"

long lib_entry(long n, void (*cb)(long));

static volatile long sink;

NOINLINE static void from_lib(long n)
{
	sink += n;
}

int main(int argc, char **argv)
{
	long n = dpt_arg(argc, argv, 1, 50);

	printf("r=%ld\n", lib_entry(n, from_lib));
	return 0;
}
