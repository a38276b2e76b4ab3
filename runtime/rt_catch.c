/*
 * runtime/rt_catch.c - __cxa_begin_catch, interposed: when a C++ handler starts, the
 * activations of the frames the exception left are popped (as unwinds), so that what
 * the handler calls, and what __cxa_end_catch calls at its end (the exception's
 * destructor), is charged to the catching function's context.
 *
 * Without it, when the exception is thrown through functions whose exit hooks do not run
 * while unwinding (clang, the GCC plugin), their activations stay on the shadow stack
 * until a hook finds their frames gone. The enter hook does so by frame addresses, which
 * works for a function the handler calls itself (its frame is where the first callee of
 * the catching function was); but a destructor that __cxa_end_catch calls (and any
 * function called through uninstrumented code) lies deeper, among the dead frames, and
 * was charged to one of the functions the exception had left.
 *
 * The catching function calls __cxa_begin_catch directly, so this function's CFA is the
 * catching function's stack pointer: every live activation's frame address is at or
 * above it, every frame the exception left lies below. Only in executables linked
 * dynamically and in libdeepprof.so (a -static link takes libstdc++.a's definition, which
 * libdeepprof_static.a leaves alone); weak, so that a program linking libstdc++.a
 * (-static-libstdc++) keeps its own. The real function is found once with
 * dlsym(RTLD_NEXT). Never on the per-call path.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rt_int.h"

void *__cxa_begin_catch(void *exc);

typedef void *(*dp_rt_begin_catch_fn)(void *);

static dp_rt_begin_catch_fn dp_rt_real_begin_catch;

/* __cxa_begin_catch - pop the activations below the caller's stack pointer, then call
 * the C++ runtime's __cxa_begin_catch with @exc and return what it returns. */
DP_RT_API __attribute__((weak)) void *__cxa_begin_catch(void *exc)
{
	struct dp_rt_tls *t = &dp_rt_tls;
	uintptr_t sp = (uintptr_t)__builtin_dwarf_cfa();
	dp_rt_begin_catch_fn real = __atomic_load_n(&dp_rt_real_begin_catch, __ATOMIC_ACQUIRE);

	/* as the hooks' unwind repair does; the sentinel's frame (UINTPTR_MAX) stops it */
	if (t->limit) {
		while (t->top->fp < sp) {
			if (t->top->fp) /* not a tail-call marker: its activation has left */
				dp_rt_cold(t->top->csd)->unwinds++;
			t->top--;
		}
	}
	if (!real) {
		void *p = dlsym(RTLD_NEXT, "__cxa_begin_catch");

		if (!p) /* called, so some C++ runtime defines it: cannot happen */
			abort();
		memcpy(&real, &p, sizeof(real));
		__atomic_store_n(&dp_rt_real_begin_catch, real, __ATOMIC_RELEASE);
	}
	return real(exc);
}
