/* tests/integration/progs/libtime_lib.c - built plainly (no instrumentation) into a shared
 * library: code outside instrumented functions, as a library's is. */
unsigned long lt_spin(unsigned long n)
{
	volatile unsigned long x = 0;

	for (unsigned long i = 0; i < n; i++)
		x += i * 7;
	return x;
}
