/*
 * tests/integration/progs/builtins.c - functions that end in a call of a gcc builtin,
 * which gcc's tailc pass marks as a tail call but the expansion makes inline code: an
 * atomic store (sqlite3_interrupt's shape) and a fixed-size memcpy.
 * usage: builtins N    (N rounds)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct flag {
	int pad;
	volatile int on;
};

__attribute__((noinline)) void raise_flag(struct flag *f)
{
	__atomic_store_n(&f->on, 1, __ATOMIC_RELAXED);
}

__attribute__((noinline)) void *copy16(void *d, const void *s)
{
	return memcpy(d, s, 16);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10;
	struct flag f = {0, 0};
	char a[16] = "0123456789abcde", b[16];

	for (long i = 0; i < n; i++) {
		raise_flag(&f);
		copy16(b, a);
	}
	printf("on=%d b=%s\n", f.on, b);
	return 0;
}
