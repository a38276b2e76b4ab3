# fib: the call-heavy kernel. fib(36) calls dp_bench_fib 2*F(37) - 1 times; with main
# that is 2*F(37) calls, computed here (not measured) and checked against deepprof's.
# Workload fields (single-quoted, expanded when used): label, pkg (Debian source
# package to fetch into $SRC), prepare (run once in $input to make inputs), build (run
# in the empty build directory $dir with $cc $cxx $cflags $ldflags $objs), exe (built
# program, relative to $dir), args (its arguments), calls (exact call count, if known),
# real (1 for real programs: BENCH_REAL_REPS repetitions), target (deepprof's target,
# bench/render.awk: "percall N", "ratio R", "context N", "gprofhalf"), contexts (the
# calling contexts it creates, for "context N").
label='fib(36), naive recursion'
build='$cc $cflags -o fib "$BENCH/src/fib.c" $objs $ldflags'
exe='fib'
args='36'
calls='$(awk "BEGIN { a = 1; b = 1; for (i = 3; i <= 37; i++) { c = a + b; a = b; b = c }; print 2 * b }")'
target='percall 5'
