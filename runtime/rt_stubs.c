/*
 * runtime/rt_stubs.c - libdeepprof_stubs.a: weak, do-nothing definitions of the runtime
 * entry points that only deepprof's runtime provides (glibc has no-op
 * __cyg_profile_func_enter/exit hooks of its own, but no tail-call hook and no region
 * API), for the shared objects `deepprof cc -shared` links.
 *
 * A deepprof-built shared object calls __deepprof_func_tail_exit before its kept tail
 * calls, and deepprof_enter/leave/write when its code marks regions. Loaded by a program
 * without the runtime (a plain interpreter run without `deepprof run`), it must still
 * load and run as it would have without profiling: these definitions then answer its
 * calls. They have default visibility and are weak, so the dynamic linker, which takes
 * the first definition in the lookup scope, binds the object's calls to the runtime's
 * when the runtime is there: linked into the executable (which exports these names) or
 * preloaded (LD_PRELOAD comes before the objects a program loads).
 */
#include "deepprof/deepprof.h"

#define DP_STUB __attribute__((weak, visibility("default"), no_instrument_function))

void __deepprof_func_tail_exit(void *fn, void *site, void *callee);

/* __deepprof_func_tail_exit - no runtime: a tail call is only a call. */
DP_STUB void __deepprof_func_tail_exit(void *fn, void *site, void *callee)
{
	(void)fn;
	(void)site;
	(void)callee;
}

/* deepprof_enter - no runtime: no region. */
DP_STUB void deepprof_enter(const char *name)
{
	(void)name;
}

/* deepprof_leave - no runtime: no region. */
DP_STUB void deepprof_leave(const char *name)
{
	(void)name;
}

/* deepprof_write - no runtime: nothing to write; -1 as for a profile not written. */
DP_STUB int deepprof_write(void)
{
	return -1;
}
