/*
 * tests/integration/progs/libtime.c - CPU time spent outside instrumented code, each part
 * about a third of work(): lt_spin in a plainly built shared library, busy (excluded
 * from instrumentation) in this program, own (instrumented) for comparison; scan, whose
 * time is the C library's memchr; ping, which calls a library function through the PLT
 * all the time; and count, whose time is in assembly without a symbol size.
 * usage: libtime N    (N loop steps per part)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned long lt_spin(unsigned long n);
unsigned long lt_next(unsigned long i);
unsigned long lt_count(unsigned long n);

__attribute__((noinline, no_instrument_function)) unsigned long busy(unsigned long n)
{
	volatile unsigned long x = 0;

	for (unsigned long i = 0; i < n; i++)
		x += i * 3;
	return x;
}

__attribute__((noinline)) unsigned long own(unsigned long n)
{
	volatile unsigned long x = 0;

	for (unsigned long i = 0; i < n; i++)
		x += i * 5;
	return x;
}

__attribute__((noinline)) unsigned long work(unsigned long n)
{
	return lt_spin(n) + busy(n) + own(n);
}

/* memchr over a buffer without the byte: the C library's loop does all the work */
__attribute__((noinline)) unsigned long scan(unsigned long n)
{
	static char buf[1 << 16];
	unsigned long found = 0;

	memset(buf, 'a', sizeof(buf));
	for (unsigned long i = 0; i < n / 1024; i++) /* a new start each time: not hoisted */
		found += memchr(buf + (i & 63), 'b', sizeof(buf) - 64) != NULL;
	return found;
}

__attribute__((noinline)) unsigned long ping(unsigned long n)
{
	unsigned long i = 0;

	while (i < n)
		i = lt_next(i);
	return i;
}

__attribute__((noinline)) unsigned long count(unsigned long n)
{
	return lt_count(n) + 1; /* not a tail call: lt_count runs under count */
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;

	printf("work=%lu scan=%lu ping=%lu count=%lu\n", work(n) % 1000, scan(n),
	       ping(n / 2) - n / 2, count(n));
	return 0;
}
