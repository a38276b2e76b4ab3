/*
 * progs/dpt.h - shared helpers of the integration test programs: NOINLINE keeps every
 * call a real call at -O2 with gcc and clang (no inlining, no cloning), and dpt_arg()
 * reads a parameter from the command line so that no count is a compile-time constant.
 */
#ifndef DPT_H
#define DPT_H

#include <stdlib.h>

#ifdef __clang__
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noipa))
#endif

/* dpt_arg - argv[i] as a number, or @def when absent. Not instrumented, so that it does
 * not appear in the profiles (inlined hooks are tested on their own by inlined.c). */
__attribute__((no_instrument_function)) static inline long dpt_arg(int argc, char **argv, int i,
								   long def)
{
	return argc > i ? strtol(argv[i], NULL, 10) : def;
}

#endif
