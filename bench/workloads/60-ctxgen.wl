# ctxgen: the cost of new calling contexts. bench/src/ctxgen.c walks a call tree six
# levels deep below main, ten call sites per function, once: each of its 1,111,111
# calls (main's included) creates a context of its own, the deepest 10^6.
label='ctxgen, 1.1 million new contexts'
build='$cc $cflags -o ctxgen "$BENCH/src/ctxgen.c" $objs $ldflags'
exe='ctxgen'
args='1'
calls='1111111'
target='context 200'
contexts='1111111'
