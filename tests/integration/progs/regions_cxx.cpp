// regions_cxx.cpp - a region left open by an exception: thrower() enters region "exc"
// and throws; main catches. Usage: regions_cxx [N=50]; prints N.
#include <cstdio>
#include <stdexcept>

#include <deepprof/deepprof.h>

#include "dpt.h"

static volatile long sink;

NOINLINE static void work(long i)
{
	sink = i;
}

NOINLINE static void thrower(long i)
{
	DEEPPROF_ENTER("exc");
	work(i);
	if (sink >= 0)
		throw std::runtime_error("out");
	DEEPPROF_LEAVE("exc");
}

int main(int argc, char **argv)
{
	long n = dpt_arg(argc, argv, 1, 50);

	for (long i = 0; i < n; i++) {
		try {
			thrower(i);
		} catch (const std::exception &) {
			work(-i); // from main, the region closed
		}
	}
	std::printf("n=%ld\n", n);
	return 0;
}
