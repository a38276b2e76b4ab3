/*
 * bench/src/msort.c - the moderately call-dense benchmark workload: top-down merge sort.
 * `msort N R` sorts R arrays of N pseudo-random ints. Per round, dp_bench_msort is
 * called exactly 2N - 1 times and dp_bench_merge N - 1 times, so with main the program
 * makes exactly 1 + R * (3N - 2) calls. Prints a checksum; exits 1 if a sort is wrong.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Keep the workload's functions real, separate calls under both gcc and clang. */
#ifdef __clang__
#define DP_BENCH_NOINLINE __attribute__((noinline))
#else
#define DP_BENCH_NOINLINE __attribute__((noinline, noclone))
#endif

/* dp_bench_merge - merge the sorted runs a[lo, mid) and a[mid, hi) through tmp. */
DP_BENCH_NOINLINE void dp_bench_merge(int *a, int *tmp, size_t lo, size_t mid, size_t hi);
/* dp_bench_msort - sort a[lo, hi) using tmp (as long as a) as scratch. */
DP_BENCH_NOINLINE void dp_bench_msort(int *a, int *tmp, size_t lo, size_t hi);

void dp_bench_merge(int *a, int *tmp, size_t lo, size_t mid, size_t hi)
{
	size_t i = lo, j = mid, k = lo;

	while (i < mid && j < hi)
		tmp[k++] = a[j] < a[i] ? a[j++] : a[i++];
	while (i < mid)
		tmp[k++] = a[i++];
	while (j < hi)
		tmp[k++] = a[j++];
	for (k = lo; k < hi; k++)
		a[k] = tmp[k];
}

void dp_bench_msort(int *a, int *tmp, size_t lo, size_t hi)
{
	size_t mid;

	if (hi - lo < 2)
		return;
	mid = lo + (hi - lo) / 2;
	dp_bench_msort(a, tmp, lo, mid);
	dp_bench_msort(a, tmp, mid, hi);
	dp_bench_merge(a, tmp, lo, mid, hi);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	long rounds = argc > 2 ? atol(argv[2]) : 1;
	uint64_t x = 88172645463325252u, sum = 0;
	int *a, *tmp;

	if (n < 1 || n > 100000000 || rounds < 1) {
		fprintf(stderr, "msort: usage: msort N ROUNDS\n");
		return 2;
	}
	a = malloc((size_t)n * sizeof(*a));
	tmp = malloc((size_t)n * sizeof(*tmp));
	if (!a || !tmp)
		return 2;
	for (long r = 0; r < rounds; r++) {
		for (long i = 0; i < n; i++) {
			x ^= x << 13; /* xorshift64 */
			x ^= x >> 7;
			x ^= x << 17;
			a[i] = (int)(x >> 33);
		}
		dp_bench_msort(a, tmp, 0, (size_t)n);
		for (long i = 1; i < n; i++) {
			if (a[i - 1] > a[i])
				return 1;
		}
		sum += (uint64_t)a[0] + (uint64_t)a[n / 2] + (uint64_t)a[n - 1];
	}
	printf("%llu\n", (unsigned long long)sum);
	free(a);
	free(tmp);
	return 0;
}
