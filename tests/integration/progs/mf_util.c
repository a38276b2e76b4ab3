/* mf_util.c - the middle of the multi-file test program. */
#include "dpt.h"
#include "mf.h"

NOINLINE long util_twice(long i)
{
	return more_leaf(i) + more_leaf(i + 1);
}
