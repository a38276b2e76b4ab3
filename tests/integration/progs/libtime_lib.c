/* tests/integration/progs/libtime_lib.c - built plainly (no instrumentation) into a shared
 * library: code outside instrumented functions, as a library's is. */
unsigned long lt_spin(unsigned long n)
{
	volatile unsigned long x = 0;

	for (unsigned long i = 0; i < n; i++)
		x += i * 7;
	return x;
}

/* called through the PLT many times: its stubs are the caller's own code */
unsigned long lt_next(unsigned long i)
{
	return i + 1;
}

/* lt_count(n) counts n down, in assembly without a .size: its symbol has size 0 */
#if defined(__x86_64__)
__asm__(".text\n"
	".globl lt_count\n"
	".type lt_count, @function\n"
	"lt_count:\n"
	"	movq %rdi, %rax\n"
	"1:	subq $1, %rax\n"
	"	jnz 1b\n"
	"	ret\n");
#else
unsigned long lt_count(unsigned long n)
{
	volatile unsigned long x = n;

	while (x)
		x--;
	return 0;
}
#endif
