/*
 * splits.c - functions gcc splits at -O2: split_part() has a cheap early exit that
 * partial inlining (-fpartial-inlining) copies into its caller and a large rest left in
 * split_part.part.0; split_cold() has an unlikely path calling a cold function, which
 * -freorder-blocks-and-partition moves to split_cold.cold; split_cp() is always called
 * with the same constant (split_cp.constprop.0) and split_isra() never uses an argument
 * (split_isra.isra.0). Usage: splits [N=1000]; prints N and a checksum. Every function is
 * called exactly N times (split_part and split_cold, whose odd and negative cases are
 * half of them, N/2 each for their expensive part).
 */
#include <stdio.h>

#include "dpt.h"

static volatile long sink;

NOINLINE static long leaf(long x)
{
	sink = x;
	return x + 1;
}

/* Too big to inline whole: the test before the loop is what partial inlining copies
 * (void, like Lua's luaV_concat: with -finstrument-functions each return keeps its own
 * exit hook, so the header returns on its own). */
static void split_part(long x)
{
	long acc = 0;

	if (__builtin_expect((x & 3) != 0, 1))
		return;
	for (long i = 0; i < (x & 15) + 8; i++) {
		acc += leaf(i * x);
		acc ^= acc << 7;
		acc += (acc >> 3) * i;
		sink = acc;
		acc -= leaf(acc);
		acc *= 2654435761;
		acc += leaf(acc ^ i) * leaf(acc + x) - leaf(acc - i);
		sink = acc;
		acc ^= leaf(acc >> 5) + leaf(acc << 3) + leaf(i);
	}
	for (long i = 0; i < (x & 7); i++)
		acc += leaf(acc) * leaf(i) + leaf(x ^ i);
	sink = acc;
}

__attribute__((cold, noinline)) static long complain(long x)
{
	sink = -x;
	return -x;
}

NOINLINE static long split_cold(long x)
{
	if (__builtin_expect(x < 0, 0)) {
		sink = complain(x) + leaf(x);
		return sink * 3;
	}
	return leaf(x) * 2;
}

__attribute__((noinline)) static long split_cp(long x, long k)
{
	sink = x;
	return leaf(x * k) + k;
}

struct pair {
	long a, b;
};

/* Reads only p->a: gcc passes the field instead of the pointer. */
__attribute__((noinline)) static long split_isra(const struct pair *p)
{
	sink = p->a;
	return leaf(p->a);
}

/* Two callers of split_part, so that it is not inlined whole into its only one. */
NOINLINE static long part_one(long i)
{
	split_part(i);
	return sink + 1;
}

NOINLINE static long part_two(long i)
{
	split_part(i);
	return sink + 2;
}

int main(int argc, char **argv)
{
	long n = dpt_arg(argc, argv, 1, 1000), sum = 0;

	for (long i = 0; i < n; i++) {
		struct pair pr = {i, -i};

		sum += i & 2 ? part_one(i) : part_two(i);
		sum += split_cold(i & 1 ? -i : i);
		sum += split_cp(i, 7);
		sum += split_isra(&pr);
	}
	printf("n=%ld sum=%ld\n", n, sum);
	return 0;
}
