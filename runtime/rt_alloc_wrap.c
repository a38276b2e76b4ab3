/*
 * runtime/rt_alloc_wrap.c - the allocation functions as __wrap_malloc and so on, for
 * programs linked with -static (libdeepprof_static.a; rt_alloc.c has the why).
 */
#define DP_RT_WRAP
#include "rt_alloc.c"
