/* mutual.c - mutual recursion that must fold into one clique: is_even(n) and is_odd(n)
 * call each other down to 0, and every level calls leaf(), which allocates 16 bytes.
 * main calls is_even(N) R times. Known: is_even + is_odd calls = R * (N + 1); leaf calls
 * R * (N + 1); the clique's inherited bytes = 16 * R * (N + 1), charged once (no double
 * counting through the recursive calls). */
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))
#define N	 20
#define R	 3

static void *volatile sink;

NOINLINE static void leaf(void)
{
	void *p = malloc(16);

	sink = p;
	free(p);
}

NOINLINE static int is_odd(int n);

NOINLINE static int is_even(int n)
{
	leaf();
	return n == 0 ? 1 : is_odd(n - 1);
}

NOINLINE static int is_odd(int n)
{
	leaf();
	return n == 0 ? 0 : is_even(n - 1);
}

int main(void)
{
	int r, acc = 0;

	for (r = 0; r < R; r++)
		acc += is_even(N);
	return acc == R ? 0 : 1;
}
