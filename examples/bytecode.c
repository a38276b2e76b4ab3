/*
 * examples/bytecode.c - a small stack-machine interpreter whose guest functions appear in
 * the deep profile as regions (deepprof_enter/deepprof_leave through the DEEPPROF_ENTER
 * and DEEPPROF_LEAVE macros, which `deepprof cc` turns on and a plain build compiles
 * away). The interpreter is one loop in one C function, so without regions its profile
 * is flat: run() and the few helpers it calls. With them, the guest program's calling
 * contexts show: guest main calls sum and fib, fib's recursion folds into one clique, and
 * the host helpers each guest function calls (vm_print, vm_checked_add) are its children.
 *
 * Build and profile:
 *     deepprof cc -O2 -o bytecode examples/bytecode.c
 *     deepprof run -- ./bytecode 20
 *     deepprof tree Deep.data
 * Usage: bytecode [N=20]: prints sum(1..1000+N) and fib(N), computed in the guest language.
 */
#include <deepprof/deepprof.h>
#include <stdio.h>
#include <stdlib.h>

enum op {
	OP_PUSH,  /* push imm */
	OP_ARG,	  /* push the current frame's argument */
	OP_ADD,	  /* a b -> a+b (checked) */
	OP_SUB,	  /* a b -> a-b */
	OP_LT,	  /* a b -> a<b */
	OP_JZ,	  /* a -> ; jump to imm if a == 0 */
	OP_JMP,	  /* jump to imm */
	OP_CALL,  /* a -> f(a), f = function imm */
	OP_RET,	  /* return the top of the stack */
	OP_PRINT, /* a -> a, printed */
	OP_POP,	  /* a -> */
	OP_SETA,  /* a -> ; the frame's argument = a */
};

struct insn {
	enum op op;
	long imm;
};

struct func {
	const char *name;
	const struct insn *code;
};

/* fib(n): n < 2 ? n : fib(n - 1) + fib(n - 2) */
static const struct insn fib_code[] = {
	{OP_ARG, 0}, {OP_PUSH, 2}, {OP_LT, 0},	{OP_JZ, 6},   {OP_ARG, 0}, {OP_RET, 0},
	{OP_ARG, 0}, {OP_PUSH, 1}, {OP_SUB, 0}, {OP_CALL, 1}, {OP_ARG, 0}, {OP_PUSH, 2},
	{OP_SUB, 0}, {OP_CALL, 1}, {OP_ADD, 0}, {OP_RET, 0},
};

/* sum(n): 1 + 2 + ... + n, a loop on the argument (one checked add per step) */
static const struct insn sum_code[] = {
	{OP_PUSH, 0}, {OP_ARG, 0}, {OP_JZ, 10},	 {OP_ARG, 0}, {OP_ADD, 0}, {OP_ARG, 0},
	{OP_PUSH, 1}, {OP_SUB, 0}, {OP_SETA, 0}, {OP_JMP, 1}, {OP_RET, 0},
};

/* main(n): print(sum(1000 + n)); print(fib(n)) */
static const struct insn main_code[] = {
	{OP_PUSH, 1000}, {OP_ARG, 0}, {OP_ADD, 0},  {OP_CALL, 3},  {OP_PRINT, 0},
	{OP_POP, 0},	 {OP_ARG, 0}, {OP_CALL, 1}, {OP_PRINT, 0}, {OP_RET, 0},
};

static const struct func funcs[] = {
	{"main", main_code},
	{"fib", fib_code},
	{"unused", NULL},
	{"sum", sum_code},
};

#define STACK  4096
#define FRAMES 1024

struct frame {
	const struct func *f;
	long pc, arg;
};

/* Host helpers the guest reaches: instrumented functions, children of the regions. */
__attribute__((noinline)) static long vm_checked_add(long a, long b)
{
	long r;

	if (__builtin_add_overflow(a, b, &r)) {
		fprintf(stderr, "bytecode: overflow\n");
		exit(1);
	}
	return r;
}

__attribute__((noinline)) static void vm_print(long v)
{
	printf("%ld\n", v);
}

/* run - interpret function @entry with argument @arg; returns its result. One C frame
 * for the whole guest program: guest calls are frames of the interpreter's own stack. */
static long run(const struct func *entry, long arg)
{
	static long stack[STACK];
	static struct frame frames[FRAMES];
	long sp = 0, fp = 0, a, b;
	struct frame *fr = &frames[0];

	fr->f = entry;
	fr->pc = 0;
	fr->arg = arg;
	DEEPPROF_ENTER(entry->name);
	for (;;) {
		const struct insn *in = &fr->f->code[fr->pc++];

		switch (in->op) {
		case OP_PUSH:
			stack[sp++] = in->imm;
			break;
		case OP_ARG:
			stack[sp++] = fr->arg;
			break;
		case OP_ADD:
			b = stack[--sp];
			a = stack[--sp];
			stack[sp++] = vm_checked_add(a, b);
			break;
		case OP_SUB:
			b = stack[--sp];
			a = stack[--sp];
			stack[sp++] = a - b;
			break;
		case OP_LT:
			b = stack[--sp];
			a = stack[--sp];
			stack[sp++] = a < b;
			break;
		case OP_JZ:
			if (stack[--sp] == 0)
				fr->pc = in->imm;
			break;
		case OP_JMP:
			fr->pc = in->imm;
			break;
		case OP_CALL:
			if (fp + 1 >= FRAMES || sp >= STACK - 8) {
				fprintf(stderr, "bytecode: guest stack overflow\n");
				exit(1);
			}
			fr = &frames[++fp];
			fr->f = &funcs[in->imm];
			fr->pc = 0;
			fr->arg = stack[--sp];
			DEEPPROF_ENTER(fr->f->name); /* the guest function is a region */
			break;
		case OP_RET:
			DEEPPROF_LEAVE(fr->f->name);
			if (fp == 0)
				return stack[sp - 1];
			fr = &frames[--fp];
			break;
		case OP_PRINT:
			vm_print(stack[sp - 1]);
			break;
		case OP_POP:
			sp--;
			break;
		case OP_SETA:
			fr->arg = stack[--sp];
			break;
		}
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 20;

	if (n < 0 || n > 40) {
		fprintf(stderr, "usage: bytecode [N=20], 0 <= N <= 40\n");
		return 2;
	}
	run(&funcs[0], n);
	return 0;
}
