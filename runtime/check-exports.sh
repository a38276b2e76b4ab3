#!/bin/sh
# runtime/check-exports.sh LIB - fail unless LIB's dynamic symbol table defines exactly
# the runtime API: the hooks, deepprof_write, the allocation functions and
# __cxa_begin_catch, with no symbol versions.
want="__cxa_begin_catch __cyg_profile_func_enter __cyg_profile_func_exit aligned_alloc calloc deepprof_write malloc memalign posix_memalign pvalloc realloc valloc"
got=$(nm -D --defined-only "$1" | awk '{print $3}' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
if [ "$got" != "$want" ]; then
	echo "exported: $got" >&2
	echo "expected: $want" >&2
	exit 1
fi
# No version definitions: the hooks and allocators of every other object are versioned
# references to glibc's (__cyg_profile_func_enter@GLIBC_2.2.5, glibc's no-op hooks), and
# the dynamic linker lets a definition in an object without version information satisfy
# them. A version node here would send a deepprof-built shared object's hooks, in a
# program with libdeepprof.so preloaded, back to glibc's no-op ones.
if readelf -V "$1" | grep -q "Version definition section"; then
	echo "$1 has version definitions: versioned references would skip it" >&2
	exit 1
fi
