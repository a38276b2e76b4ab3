/* mf_more.c - the leaf of the multi-file test program. */
#include "dpt.h"
#include "mf.h"

NOINLINE long more_leaf(long i)
{
	return i * 3;
}
