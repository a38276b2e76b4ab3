#!/bin/sh
# runtime/check-exports.sh LIB | --header FILE - the runtime's exported names are listed
# once, in runtime/libdeepprof.map (the shared library's version script); the other lists
# are generated from it (tests/unit/runtime.cmake) or checked against it here:
#   LIB            fail unless LIB's dynamic symbol table defines exactly those names;
#   --header FILE  fail unless FILE (include/deepprof/exports.h) names exactly those.
map="$(dirname "$0")/libdeepprof.map"
want=$(sed -n '/global:/,/local:/p' "$map" | grep -o '^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*;' |
	tr -d ' \t;' | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
if [ "$1" = "--header" ]; then
	got=$(grep -v '^[[:space:]]*\(/\*\|\*\)' "$2" | grep -o 'X("[A-Za-z_][A-Za-z0-9_]*")' | sed 's/X("\(.*\)")/\1/' |
		LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//')
else
	got=$(nm -D --defined-only "$1" | awk '{print $3}' | LC_ALL=C sort | tr '\n' ' ' |
		sed 's/ $//')
fi
if [ -z "$want" ] || [ "$got" != "$want" ]; then
	echo "${2:-$1}: $got" >&2
	echo "$map: $want" >&2
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
