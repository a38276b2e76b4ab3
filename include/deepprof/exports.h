/*
 * deepprof/exports.h - the symbols libdeepprof exports, as an X-macro, for the tools that
 * must know them: `deepprof cc` exports them from executables that link the static
 * runtime, and the symbolizer leaves calls to them out of the never-taken call sites.
 * runtime/libdeepprof.map (the shared library's version script) is the list of these
 * names; the test runtime_exports_header checks this one against it.
 * Not installed: an internal contract between the runtime and the tools.
 */
#ifndef DEEPPROF_EXPORTS_H
#define DEEPPROF_EXPORTS_H

/* DP_RT_ALLOCS(X) - calls X("name") for each allocation function the runtime counts
 * (which `deepprof cc -static` wraps with the linker's --wrap), comma-separated. */
#define DP_RT_ALLOCS(X)                                                                  \
	X("malloc"), X("calloc"), X("realloc"), X("posix_memalign"), X("aligned_alloc"), \
		X("memalign"), X("valloc"), X("pvalloc")

/* DP_RT_EXPORTS(X) - calls X("name") for each exported symbol, comma-separated:
 * __cxa_begin_catch (runtime/rt_catch.c) is not defined by the -static runtime; the
 * stubs (runtime/rt_stub_x86_64.S) only on x86-64. */
#define DP_RT_EXPORTS(X)                                                                          \
	X("__cyg_profile_func_enter"), X("__cyg_profile_func_exit"),                              \
		X("__deepprof_func_tail_exit"), X("__deepprof_fentry"), X("__fentry__"),          \
		X("__return__"), X("__deepprof_exit"), X("__deepprof_tail"), X("deepprof_write"), \
		X("deepprof_enter"), X("deepprof_leave"), X("__cxa_begin_catch"), DP_RT_ALLOCS(X)

#define DP_RT_EXPORT_NAME(s) s

#endif /* DEEPPROF_EXPORTS_H */
