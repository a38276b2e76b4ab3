# msort: moderately call-dense. 3 rounds of a top-down merge sort of 10^6 ints:
# 1 + 3 * (3 * 10^6 - 2) calls (see bench/src/msort.c).
label='merge sort, 3 x 10^6 ints'
build='$cc $cflags -o msort "$BENCH/src/msort.c" $objs $ldflags'
exe='msort'
args='1000000 3'
calls='$((1 + 3 * (3 * 1000000 - 2)))'
