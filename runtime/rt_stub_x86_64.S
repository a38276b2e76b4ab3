/*
 * runtime/rt_stub_x86_64.S - the instrumentation stubs of the default method, x86-64:
 * called with no arguments (the tail-exit stub takes one), they take what they need from
 * the stack and preserve every register they touch (the flags excepted), so that the
 * instrumented functions compile as they would without profiling
 * (docs/internals/runtime.md, "The stubs").
 *
 *   __deepprof_fentry, __fentry__   at a function's entry, before its prologue (gcc's
 *                                   -mfentry under a -mfentry-name, clang's fentry call):
 *                                   (%rsp) = the return address into the function, its
 *                                   key; 8(%rsp) = the function's return address, the call
 *                                   site; %rsp = the function's frame address (CFA - 16)
 *   __return__                      after the epilogue, before the `ret` or a sibling
 *                                   call's jump (gcc's -minstrument-return=call): (%rsp) =
 *                                   the address of that instruction; %rsp = the frame
 *                                   address; a jump makes it a tail exit
 *   __deepprof_exit                 before the epilogue (clang, preserve_all): the frame
 *                                   address is %rbp
 *   __deepprof_tail                 the same before a sibling call, %rdi = the callee
 *
 * Fast paths (the call counted through the CSD in its first table slot, the exit of the
 * top activation) run here with a few registers saved in the red zone below %rsp, which
 * is free at all four call points. Everything else jumps to dp_rt_stub_slow, which saves
 * the other general registers and calls dp_rt_stub_light (rt_stub.c, built without
 * vector or x87 registers); when that asks for it (a thread's first call, which runs
 * libc), the whole extended state is saved with xsave around dp_rt_stub_full.
 *
 * Built with DP_RT_STATIC (libdeepprof.a: local-exec TLS) or without (libdeepprof.so:
 * initial-exec, %r11 holds the offset); with DP_RT_NOOP (libdeepprof_stubs.a) only weak
 * do-nothing stubs, for shared objects loaded where no runtime is.
 */
#include "rt_asm.h"

	.section .note.GNU-stack, "", @progbits

#ifdef DP_RT_NOOP

	.text
	.p2align 4
	.weak __deepprof_fentry, __fentry__, __return__, __deepprof_exit, __deepprof_tail
	.type __deepprof_fentry, @function
	.type __fentry__, @function
	.type __return__, @function
	.type __deepprof_exit, @function
	.type __deepprof_tail, @function
__deepprof_fentry:
__fentry__:
__return__:
__deepprof_exit:
__deepprof_tail:
	.cfi_startproc
	ret
	.cfi_endproc
	.size __deepprof_fentry, . - __deepprof_fentry
	.size __fentry__, . - __fentry__
	.size __return__, . - __return__
	.size __deepprof_exit, . - __deepprof_exit
	.size __deepprof_tail, . - __deepprof_tail

#else /* !DP_RT_NOOP */

#ifdef DP_RT_STATIC
#define TLS(off)  %fs:dp_rt_tls@tpoff + off
#define TLS_ENTER
#define TLS_LEAVE
#else
/* %r11 saved at -40(%rsp) and loaded with the offset of the thread-local state */
#define TLS(off)  %fs:off(%r11)
#define TLS_ENTER movq %r11, -40(%rsp); movq dp_rt_tls@gottpoff(%rip), %r11
#define TLS_LEAVE movq -40(%rsp), %r11
#endif

/* The entry stub's fourth register: %r11 where the thread-local state needs none (free
 * at a function's entry: no argument, static chain or return value uses it); else %rsi,
 * saved, which the slow path restores from -32(%rsp) (so saved there on the way). */
#ifdef DP_RT_STATIC
#define XS	   %r11
#define XS_SAVE
#define XS_RESTORE
#define XS_SLOW	   movq %rsi, -32(%rsp)
#else
#define XS	   %rsi
#define XS_SAVE	   movq %rsi, -32(%rsp)
#define XS_RESTORE movq -32(%rsp), %rsi
#define XS_SLOW
#endif

/* The first slot of a new shadow-stack entry, relative to the top one. */
#define NEW(f) DP_FRAME_SIZE + f

	.section .rodata
	.p2align 3
dp_rt_hash_mul:
	.quad DP_RT_HASH_MUL

	/* the fast paths and the slow path's trampoline: in the hooks' section, where the
	 * sampling handler knows it is inside the runtime (rt_sample.c) */
	.section dp_rt_hot, "ax", @progbits

/*
 * The entry stub: the call of the function keyed by (%rsp), from the site 8(%rsp), in
 * the frame %rsp. Fast path: state and room (top < last), the top activation alive (its
 * frame above this one), the CSD of (site, key) in its first slot of the top PD's table;
 * then
 * callseqs of the caller's CSD and calls of this one counted and the activation pushed.
 * A tail-call marker on top (frame address 0) is taken here too: when the function is
 * its callee (the key 5, 6, 9 or 10 bytes after the callee's address, or the callee
 * unknown) and entered in the frame the tail caller left, the call is a tail call, from
 * the entry below through the site marked tail, looked up by the site and the key
 * (dp_rt_key); otherwise the marker is stale (its callee was not instrumented and has
 * returned) and dropped. A callee still to be decoded, and dead activations (longjmp,
 * exceptions), go to the slow path.
 */
	.p2align 6
	.globl __deepprof_fentry, __fentry__
	.hidden dp_rt_stub_slow
	.type __deepprof_fentry, @function
	.type __fentry__, @function
__deepprof_fentry:
__fentry__:
	.cfi_startproc
	movq	%rax, -8(%rsp)
	movq	%rcx, -16(%rsp)
	movq	%rdx, -24(%rsp)
	XS_SAVE
	TLS_ENTER
	movq	TLS(DP_TLS_TOP), %rax
	cmpq	TLS(DP_TLS_LAST), %rax
	jae	.Lenter_slow
	movq	8(%rsp), XS
	movq	XS, %rdx
	cmpq	%rsp, DP_FRAME_FP(%rax)
	jbe	.Lenter_marker
.Lenter_lookup:				/* XS the site, %rdx its key */
	movq	DP_FRAME_PD(%rax), %rcx
	imulq	dp_rt_hash_mul(%rip), %rdx
	shrq	$32, %rdx
	andq	DP_PD_MASK(%rcx), %rdx
	addq	DP_PD_TAB(%rcx), %rdx
	movq	(%rdx), %rdx
	cmpq	XS, DP_CSD_SITE(%rdx)
	jne	.Lenter_slow
	movq	(%rsp), XS
	cmpq	XS, DP_CSD_FN(%rdx)
	jne	.Lenter_slow
	movq	DP_FRAME_CSD(%rax), %rcx
	incq	DP_CSD_CALLSEQS(%rcx)
	incq	DP_CSD_CALLS(%rdx)
	movq	%rdx, NEW(DP_FRAME_CSD)(%rax)
	movq	DP_CSD_CALLEE(%rdx), %rcx
	movq	%rcx, NEW(DP_FRAME_PD)(%rax)
	movq	%rsp, NEW(DP_FRAME_FP)(%rax)
	movq	XS, NEW(DP_FRAME_FN)(%rax)
	addq	$DP_FRAME_SIZE, %rax
	movq	%rax, TLS(DP_TLS_TOP)
	TLS_LEAVE
	movq	-8(%rsp), %rax
	movq	-16(%rsp), %rcx
	movq	-24(%rsp), %rdx
	XS_RESTORE
	ret
.Lenter_marker:
	cmpq	$0, DP_FRAME_FP(%rax)
	jne	.Lenter_slow		/* dead activations */
	movq	DP_FRAME_PD(%rax), %rcx	/* the marker's callee */
	testq	%rcx, %rcx
	jz	1f
	js	.Lenter_slow		/* a jump to decode (DP_RT_JUMP_AT, bit 63) */
	negq	%rcx
	addq	(%rsp), %rcx		/* key - callee */
	cmpq	$10, %rcx
	ja	2f
	movl	$0x660, %edx		/* bits 5, 6, 9 and 10 */
	btq	%rcx, %rdx
	jnc	2f
1:	cmpq	%rsp, DP_FRAME_FN(%rax)
	jne	2f
	subq	$DP_FRAME_SIZE, %rax	/* a tail call: from the entry below */
	btsq	$63, XS		/* DP_RT_TAIL_SITE */
	movq	(%rsp), %rdx
	shlq	$3, %rdx
	xorq	XS, %rdx
	cmpq	%rsp, DP_FRAME_FP(%rax)
	ja	.Lenter_lookup
	jmp	.Lenter_slow
2:	subq	$DP_FRAME_SIZE, %rax	/* stale: dropped */
	movq	XS, %rdx
	cmpq	%rsp, DP_FRAME_FP(%rax)
	ja	.Lenter_lookup
.Lenter_slow:
	XS_SLOW
	movl	$DP_STUB_ENTER, %ecx
	movq	(%rsp), %rax
	movq	8(%rsp), %rsi
	movq	%rsp, %rdx
	jmp	dp_rt_stub_slow
	.cfi_endproc
	.size __deepprof_fentry, . - __deepprof_fentry
	.size __fentry__, . - __fentry__

/*
 * The exit stub after the epilogue: the frame %rsp leaves through the instruction at
 * (%rsp): `ret` (0xc3), or a jump (a sibling call: the tail exit). Fast path: the top
 * activation is this frame's, or the one below a stale tail-call marker; then a tail-call
 * marker takes its entry if a jump follows, with the callee as the marker's: the target
 * of a direct jump (e9 rel32, eb rel8), else the jump's address marked for decoding at
 * the callee's entry (rt_stub.c).
 */
	.p2align 6
	.globl __return__
	.type __return__, @function
__return__:
	.cfi_startproc
	movq	%rax, -8(%rsp)
	movq	%rcx, -16(%rsp)
	TLS_ENTER
	movq	TLS(DP_TLS_TOP), %rax
	cmpq	%rsp, DP_FRAME_FP(%rax)
	jne	.Lret_marker
.Lret_top:
	movq	(%rsp), %rcx
	cmpb	$0xc3, (%rcx)
	jne	.Lret_jump
	movq	DP_FRAME_CSD(%rax), %rcx
	incq	DP_CSD_EXITS(%rcx)
	subq	$DP_FRAME_SIZE, %rax
	movq	%rax, TLS(DP_TLS_TOP)
	TLS_LEAVE
	movq	-8(%rsp), %rax
	movq	-16(%rsp), %rcx
	ret
.Lret_jump:
	cmpb	$0xf3, (%rcx)		/* rep ret */
	je	.Lret_slow
	movq	%rdx, -24(%rsp)
	movzbl	(%rcx), %edx
	cmpl	$0xe9, %edx
	je	1f
	cmpl	$0xeb, %edx
	je	2f
	movq	%rcx, %rdx		/* another jump: decoded at the entry */
	btsq	$63, %rdx		/* DP_RT_JUMP_AT */
	jmp	3f
1:	movslq	1(%rcx), %rdx
	leaq	5(%rcx, %rdx), %rdx
	jmp	3f
2:	movsbq	1(%rcx), %rdx
	leaq	2(%rcx, %rdx), %rdx
3:	movq	DP_FRAME_CSD(%rax), %rcx
	incq	DP_CSD_EXITS(%rcx)
	movq	DP_FRAME_CSD - DP_FRAME_SIZE(%rax), %rcx
	movq	%rcx, DP_FRAME_CSD(%rax)
	movq	%rdx, DP_FRAME_PD(%rax)
	movq	%rsp, DP_FRAME_FN(%rax)
	movq	$0, DP_FRAME_FP(%rax)
	TLS_LEAVE
	movq	-8(%rsp), %rax
	movq	-16(%rsp), %rcx
	movq	-24(%rsp), %rdx
	ret
.Lret_marker:				/* a stale marker above this frame's entry */
	cmpq	$0, DP_FRAME_FP(%rax)
	jne	.Lret_slow
	subq	$DP_FRAME_SIZE, %rax
	cmpq	%rsp, DP_FRAME_FP(%rax)
	je	.Lret_top
.Lret_slow:
	movq	%rdx, -24(%rsp)
	movq	%rsi, -32(%rsp)
	movl	$DP_STUB_RET, %ecx
	movq	(%rsp), %rax
	xorl	%esi, %esi
	movq	%rsp, %rdx
	jmp	dp_rt_stub_slow
	.cfi_endproc
	.size __return__, . - __return__

/* The exit stub before the epilogue (clang): the frame %rbp leaves. Fast path: it is the
 * top activation's, or the one below a stale tail-call marker. */
	.p2align 6
	.globl __deepprof_exit
	.type __deepprof_exit, @function
__deepprof_exit:
	.cfi_startproc
	movq	%rax, -8(%rsp)
	movq	%rcx, -16(%rsp)
	TLS_ENTER
	movq	TLS(DP_TLS_TOP), %rax
	cmpq	%rbp, DP_FRAME_FP(%rax)
	jne	.Lexit_marker
.Lexit_top:
	movq	DP_FRAME_CSD(%rax), %rcx
	incq	DP_CSD_EXITS(%rcx)
	subq	$DP_FRAME_SIZE, %rax
	movq	%rax, TLS(DP_TLS_TOP)
	TLS_LEAVE
	movq	-8(%rsp), %rax
	movq	-16(%rsp), %rcx
	ret
.Lexit_marker:				/* a stale marker above this frame's entry */
	cmpq	$0, DP_FRAME_FP(%rax)
	jne	.Lexit_slow
	subq	$DP_FRAME_SIZE, %rax
	cmpq	%rbp, DP_FRAME_FP(%rax)
	je	.Lexit_top
.Lexit_slow:
	movq	%rdx, -24(%rsp)
	movq	%rsi, -32(%rsp)
	movl	$DP_STUB_EXIT, %ecx
	xorl	%eax, %eax
	xorl	%esi, %esi
	movq	%rbp, %rdx
	jmp	dp_rt_stub_slow
	.cfi_endproc
	.size __deepprof_exit, . - __deepprof_exit

/*
 * The tail-exit stub before the epilogue and a sibling call of %rdi (clang): the frame
 * %rbp leaves, and a tail-call marker takes its entry (rt_int.h, struct dp_rt_frame):
 * the CSD below it, the callee, the frame left, frame address 0.
 */
	.p2align 6
	.globl __deepprof_tail
	.type __deepprof_tail, @function
__deepprof_tail:
	.cfi_startproc
	movq	%rax, -8(%rsp)
	movq	%rcx, -16(%rsp)
	TLS_ENTER
	movq	TLS(DP_TLS_TOP), %rax
	cmpq	%rbp, DP_FRAME_FP(%rax)
	jne	.Ltail_slow
	movq	DP_FRAME_CSD(%rax), %rcx
	incq	DP_CSD_EXITS(%rcx)
	movq	DP_FRAME_CSD - DP_FRAME_SIZE(%rax), %rcx
	movq	%rcx, DP_FRAME_CSD(%rax)
	movq	%rdi, DP_FRAME_PD(%rax)
	movq	%rbp, DP_FRAME_FN(%rax)
	movq	$0, DP_FRAME_FP(%rax)
	TLS_LEAVE
	movq	-8(%rsp), %rax
	movq	-16(%rsp), %rcx
	ret
.Ltail_slow:
	movq	%rdx, -24(%rsp)
	movq	%rsi, -32(%rsp)
	movl	$DP_STUB_TAIL, %ecx
	movq	%rdi, %rax
	xorl	%esi, %esi
	movq	%rbp, %rdx
	jmp	dp_rt_stub_slow
	.cfi_endproc
	.size __deepprof_tail, . - __deepprof_tail

/*
 * dp_rt_stub_slow - the stubs' slow path, jumped to with %rsp as at the stub's entry,
 * %rax, %rcx, %rdx, %rsi (and %r11 in the shared library) saved at -8 to -40(%rsp), and
 * %ecx = the kind (DP_STUB_*), %rax and %rsi its two values, %rdx the frame address.
 * Saves the rest of the caller-saved general registers (the C code it calls uses no
 * others: rt_stub.c) and calls dp_rt_stub_light(kind, a, b, fp); if that returns
 * nonzero, saves the whole extended state (xsave, fxsave without it) and calls
 * dp_rt_stub_full(kind, a, b, fp), which may run libc. Returns for the stub.
 */
	.p2align 4
	.type dp_rt_stub_slow, @function
dp_rt_stub_slow:
	.cfi_startproc
#ifdef DP_RT_STATIC
	movq	%r11, -40(%rsp)
#endif
	movq	%rdi, -48(%rsp)
	movq	%r8, -56(%rsp)
	movq	%r9, -64(%rsp)
	movq	%r10, -72(%rsp)
	leaq	-72(%rsp), %rsp
	.cfi_adjust_cfa_offset 72
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%rbx
	.cfi_rel_offset %rbx, -8
	andq	$-64, %rsp
	subq	$64, %rsp
	movq	%rcx, 0(%rsp)
	movq	%rax, 8(%rsp)
	movq	%rsi, 16(%rsp)
	movq	%rdx, 24(%rsp)
	movl	%ecx, %edi
	movq	%rdx, %rcx
	movq	%rsi, %rdx
	movq	%rax, %rsi
	call	dp_rt_stub_light
	testl	%eax, %eax
	jnz	.Lfull
.Lback:
	movq	-8(%rbp), %rbx
	movq	%rbp, %rsp
	popq	%rbp
	.cfi_def_cfa %rsp, 80
	.cfi_restore %rbp
	.cfi_restore %rbx
	leaq	72(%rsp), %rsp
	.cfi_adjust_cfa_offset -72
	movq	-8(%rsp), %rax
	movq	-16(%rsp), %rcx
	movq	-24(%rsp), %rdx
	movq	-32(%rsp), %rsi
	movq	-40(%rsp), %r11
	movq	-48(%rsp), %rdi
	movq	-56(%rsp), %r8
	movq	-64(%rsp), %r9
	movq	-72(%rsp), %r10
	ret
.Lfull:
	.cfi_def_cfa %rbp, 88
	.cfi_offset %rbp, -88
	.cfi_offset %rbx, -96
	movl	dp_rt_xsave_size(%rip), %ebx
	testl	%ebx, %ebx
	jnz	1f
	call	dp_rt_xsave_init
	movl	%eax, %ebx
1:	subq	%rbx, %rsp
	cmpl	$512, %ebx
	je	2f
	xorl	%eax, %eax
	movq	%rax, 512(%rsp)
	movq	%rax, 520(%rsp)
	movq	%rax, 528(%rsp)
	movq	%rax, 536(%rsp)
	movq	%rax, 544(%rsp)
	movq	%rax, 552(%rsp)
	movq	%rax, 560(%rsp)
	movq	%rax, 568(%rsp)
	movl	$0xfff9ffff, %eax	/* every component but AMX's tiles (call-clobbered) */
	movl	$0xffffffff, %edx
	xsave	(%rsp)
	jmp	3f
2:	fxsave	(%rsp)
3:	movq	0(%rsp, %rbx), %rdi
	movq	8(%rsp, %rbx), %rsi
	movq	16(%rsp, %rbx), %rdx
	movq	24(%rsp, %rbx), %rcx
	call	dp_rt_stub_full
	cmpl	$512, %ebx
	je	4f
	movl	$0xfff9ffff, %eax
	movl	$0xffffffff, %edx
	xrstor	(%rsp)
	jmp	.Lback
4:	fxrstor	(%rsp)
	jmp	.Lback
	.cfi_endproc
	.size dp_rt_stub_slow, . - dp_rt_stub_slow

#endif /* !DP_RT_NOOP */
