# lua: Lua 5.4, Debian's source package, its core, libraries and interpreter compiled
# together (the package's own build goes through libtool and builds a C++ copy as well),
# running bench/src/bench.lua twice: an interpreter's many short C calls (36 million per
# pass), tables, strings, closures and a sort with a Lua comparator.
label='Lua 5.4, bench.lua x2 (Debian source)'
pkg='lua5.4'
build='echo "#define DEB_HOST_MULTIARCH \"$(gcc -print-multiarch)\"" >lua5.4-deb-multiarch.h && $cc $cflags -I. -DLUA_COMPAT_5_3 -DLUA_USE_LINUX -o lua $(ls "$SRC"/src/*.c | grep -v /luac.c) $objs $ldflags -lm -ldl'
exe='lua'
args='"$BENCH/src/bench.lua" 2'
real='1'
target='ratio 1.5'
