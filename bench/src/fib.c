/*
 * bench/src/fib.c - the call-heavy benchmark workload: naive recursive Fibonacci.
 * `fib N` calls dp_bench_fib exactly 2*F(N+1) - 1 times (F(1) = F(2) = 1), so the cost
 * added per call by a profiler is (t_profiled - t_plain) / calls. Prints F(N).
 */
#include <stdio.h>
#include <stdlib.h>

/* Keep the workload's functions real, separate calls under both gcc and clang. */
#ifdef __clang__
#define DP_BENCH_NOINLINE __attribute__((noinline))
#else
#define DP_BENCH_NOINLINE __attribute__((noinline, noclone))
#endif

/*
 * dp_bench_fib - F(n) by the naive double recursion. noinline and noclone keep every
 * call a real call, and the empty asm keeps the second call out of tail position (gcc
 * would otherwise turn it into a loop in the plain build only, which then makes half
 * the calls): every configuration does the same calls.
 */
DP_BENCH_NOINLINE long dp_bench_fib(int n);

long dp_bench_fib(int n)
{
	if (n < 2)
		return n;
	long a = dp_bench_fib(n - 1);
	long b = dp_bench_fib(n - 2);

	__asm__ volatile("" : "+r"(b));
	return a + b;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 30;

	if (n < 0 || n > 60) {
		fprintf(stderr, "fib: N must be in 0..60\n");
		return 2;
	}
	printf("%ld\n", dp_bench_fib(n));
	return 0;
}
