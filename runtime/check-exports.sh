#!/bin/sh
# runtime/check-exports.sh LIB - fail unless LIB's dynamic symbol table defines exactly
# the runtime API: the hooks, deepprof_write and the allocation functions.
want="__cyg_profile_func_enter __cyg_profile_func_exit __deepprof_func_tail_exit aligned_alloc calloc deepprof_enter deepprof_leave deepprof_write malloc memalign posix_memalign pvalloc realloc valloc"
got=$(nm -D --defined-only "$1" | awk '{print $3}' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
if [ "$got" != "$want" ]; then
	echo "exported: $got" >&2
	echo "expected: $want" >&2
	exit 1
fi
