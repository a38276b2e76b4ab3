/*
 * bench/src/ctxgen.c - the context-creation workload: a call tree of six levels below
 * main in which each function calls the next level's through ten call sites of its own,
 * so that every call of a run creates a calling context of its own: 10 + 100 + ... +
 * 10^6 = 1,111,110 contexts (and as many calls) per pass, the deepest 10^6. `ctxgen
 * [PASSES=1]` walks the tree PASSES times (the later passes reuse the contexts) and
 * prints a checksum.
 */
#include <stdio.h>
#include <stdlib.h>

#ifdef __clang__
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE __attribute__((noinline, noclone))
#endif

/* Ten calls of F, through ten call sites. */
#define TEN(F, v)                                                                            \
	(F((v), 0) + F((v), 1) + F((v), 2) + F((v), 3) + F((v), 4) + F((v), 5) + F((v), 6) + \
	 F((v), 7) + F((v), 8) + F((v), 9))

NOINLINE static long l6(long v, int i)
{
	return v * 31 + i;
}
NOINLINE static long l5(long v, int i)
{
	return TEN(l6, v * 7 + i);
}
NOINLINE static long l4(long v, int i)
{
	return TEN(l5, v * 7 + i);
}
NOINLINE static long l3(long v, int i)
{
	return TEN(l4, v * 7 + i);
}
NOINLINE static long l2(long v, int i)
{
	return TEN(l3, v * 7 + i);
}
NOINLINE static long l1(long v, int i)
{
	return TEN(l2, v * 7 + i);
}

int main(int argc, char **argv)
{
	int passes = argc > 1 ? (int)strtol(argv[1], NULL, 10) : 1;
	long s = 0;

	for (int p = 0; p < passes; p++)
		s += TEN(l1, p);
	printf("%ld\n", s);
	return 0;
}
