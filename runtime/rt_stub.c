/*
 * runtime/rt_stub.c - the slow paths of the stubs (rt_stub_x86_64.S): an entry the fast
 * path could not count (a CSD to create or found past its first slot, dead activations
 * to pop, a tail call, a full shadow stack, a thread without state), an exit that is not
 * the top activation's, and the tail exits. Also the entry address of a function keyed
 * by its entry stub's return address, and the size of the state the full path saves.
 *
 * Built, like rt_hooks.c, rt_graph.c and rt_trouble.c, without vector or x87 registers
 * (-mgeneral-regs-only): the stubs promise to preserve every register, and their
 * trampoline saves only the general ones before calling dp_rt_stub_light. So this code
 * calls nothing of libc but system-call wrappers (mmap, mremap, munmap, write,
 * process_vm_readv, getpid) and __errno_location (the test runtime_light checks the
 * objects' undefined symbols). What needs more (a thread's first call: libc, pthreads)
 * returns 1, and the trampoline calls dp_rt_stub_full with the whole state saved.
 */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>
#include <unistd.h>

#include "rt_int.h"

/* The layout rt_asm.h gives the assembly. */
_Static_assert(offsetof(struct dp_rt_tls, top) == DP_TLS_TOP, "rt_asm.h");
_Static_assert(offsetof(struct dp_rt_tls, limit) == DP_TLS_LIMIT, "rt_asm.h");
_Static_assert(offsetof(struct dp_rt_tls, last) == DP_TLS_LAST, "rt_asm.h");
_Static_assert(offsetof(struct dp_rt_pd, tab) == DP_PD_TAB, "rt_asm.h");
_Static_assert(offsetof(struct dp_rt_pd, mask) == DP_PD_MASK, "rt_asm.h");
_Static_assert(offsetof(struct dp_rt_frame, csd) == DP_FRAME_CSD, "rt_asm.h");
_Static_assert(offsetof(struct dp_rt_frame, pd) == DP_FRAME_PD, "rt_asm.h");
_Static_assert(offsetof(struct dp_rt_frame, fp) == DP_FRAME_FP, "rt_asm.h");
_Static_assert(offsetof(struct dp_rt_frame, fn) == DP_FRAME_FN, "rt_asm.h");
_Static_assert(sizeof(struct dp_rt_frame) == DP_FRAME_SIZE, "rt_asm.h");
_Static_assert(offsetof(struct dp_rt_csd, site) == DP_CSD_SITE, "rt_asm.h");
_Static_assert(offsetof(struct dp_rt_csd, fn) == DP_CSD_FN, "rt_asm.h");
_Static_assert(offsetof(struct dp_rt_csd, caller) == DP_CSD_CALLER, "rt_asm.h");
_Static_assert(offsetof(struct dp_rt_csd, callee) == DP_CSD_CALLEE, "rt_asm.h");
_Static_assert(offsetof(struct dp_rt_csd, calls) == DP_CSD_CALLS, "rt_asm.h");
_Static_assert(offsetof(struct dp_rt_csd, exits) == DP_CSD_EXITS, "rt_asm.h");
_Static_assert(offsetof(struct dp_rt_csd, callseqs) == DP_CSD_CALLSEQS, "rt_asm.h");

/* A marker's callee that is the address of the jump instruction a gcc tail exit left
 * through (decoded at the callee's entry, after the jump ran: a PLT slot is bound by
 * then), rather than the callee's address. */
#define DP_RT_JUMP_AT DP_RT_TAIL_SITE

#define DP_RT_PAGE ((uintptr_t)4096)

unsigned dp_rt_xsave_size;

/*
 * Copy the @n (<= 4096) bytes at @p into @out, where the byte at @sure is code that ran
 * (readable). The bytes on another page than @sure's may not be (a page before or after
 * code: a gap, unmapped, or mapped without read access): they are read with
 * process_vm_readv, which fails instead of faulting, and left 0 if it fails.
 */
DP_RT_HOT static void dp_rt_peek(uint8_t *out, uintptr_t p, size_t n, uintptr_t sure)
{
	uintptr_t page = sure & ~(DP_RT_PAGE - 1);

	for (size_t i = 0; i < n;) {
		uintptr_t a = p + i, end = (a & ~(DP_RT_PAGE - 1)) + DP_RT_PAGE;
		size_t k = end - a < n - i ? (size_t)(end - a) : n - i;

		if ((a & ~(DP_RT_PAGE - 1)) == page) {
			for (size_t j = 0; j < k; j++)
				out[i + j] = ((const volatile uint8_t *)a)[j];
		} else {
			struct iovec local = {out + i, k}, remote = {(void *)a, k};

			if (process_vm_readv(getpid(), &local, 1, &remote, 1, 0) != (ssize_t)k)
				for (size_t j = 0; j < k; j++)
					out[i + j] = 0;
		}
		i += k;
	}
}

/* The 32-bit little-endian signed value at @b. */
DP_RT_HOT static int32_t dp_rt_s32(const uint8_t *b)
{
	return (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
			 (uint32_t)b[3] << 24);
}

/* Whether the 4 bytes at @b are endbr64. */
DP_RT_HOT static int dp_rt_endbr(const uint8_t *b)
{
	return b[0] == 0xf3 && b[1] == 0x0f && b[2] == 0x1e && b[3] == 0xfa;
}

/*
 * dp_rt_stub_entry - the entry address of the function whose entry stub call returns to
 * @key: the call is the first instruction, after an endbr64 if there is one, and is
 * `call rel32` (5 bytes: e8; gcc without PIC, clang), `call *GOT(%rip)` (6: ff 15; gcc
 * with PIC, in a shared object) or `addr32 call rel32` (6: 67 e8; the linker's form of
 * the latter in an executable).
 */
DP_RT_HOT uintptr_t dp_rt_stub_entry(uintptr_t key)
{
	uint8_t b[10]; /* the bytes at key - 10 .. key - 1 */
	uintptr_t n;

	dp_rt_peek(b, key - sizeof(b), sizeof(b), key - 1);
	n = (b[4] == 0x67 && b[5] == 0xe8) || (b[4] == 0xff && b[5] == 0x15) ? 6 : 5;
	if (dp_rt_endbr(b + sizeof(b) - n - 4))
		n += 4;
	return key - n;
}

/* The function a PLT entry at @t jumps to (`jmp *GOT(%rip)`, after endbr64 and bnd
 * prefixes), or @t if it is not one. */
DP_RT_HOT static uintptr_t dp_rt_through_plt(uintptr_t t)
{
	uint8_t b[16];
	size_t o = 0;

	if (!t)
		return 0;
	dp_rt_peek(b, t, 12, t);
	if (dp_rt_endbr(b))
		o = 4;
	if (b[o] == 0xf2) /* bnd */
		o++;
	if (b[o] != 0xff || b[o + 1] != 0x25)
		return t;
	return *(const uintptr_t *)(t + o + 6 + (uintptr_t)(intptr_t)dp_rt_s32(b + o + 2));
}

/*
 * The function a tail-call marker's @callee names: 0 (unknown), the address the clang
 * tail-exit stub was given, or the jump at the address marked DP_RT_JUMP_AT (rel32,
 * rel8, or through a GOT slot; 0 for a jump through a register); either through a PLT
 * entry.
 */
DP_RT_HOT static uintptr_t dp_rt_marker_callee(uintptr_t callee)
{
	uint8_t b[6];
	uintptr_t a = callee & ~DP_RT_JUMP_AT;

	if (!(callee & DP_RT_JUMP_AT))
		return dp_rt_through_plt(callee);
	dp_rt_peek(b, a, 2, a);
	if (b[0] == 0xeb)
		return dp_rt_through_plt(a + 2 + (uintptr_t)(intptr_t)(int8_t)b[1]);
	dp_rt_peek(b, a, 6, a);
	if (b[0] == 0xe9)
		return dp_rt_through_plt(a + 5 + (uintptr_t)(intptr_t)dp_rt_s32(b + 1));
	if (b[0] == 0xff && b[1] == 0x25)
		return dp_rt_through_plt(
			*(const uintptr_t *)(a + 6 + (uintptr_t)(intptr_t)dp_rt_s32(b + 2)));
	return 0;
}

/*
 * Whether a tail-call marker's @callee is the function keyed @key: at once if @callee is
 * its entry (the key is 5, 6, 9 or 10 bytes after it: dp_rt_stub_entry; the same function
 * for a key of any other function would have to start less than 5 bytes before it), else
 * after decoding both; unknown callees (0) are taken as it.
 */
DP_RT_HOT static int dp_rt_is_callee(uintptr_t callee, uintptr_t key)
{
	uintptr_t d = key - callee;

	if (!callee || (!(callee & DP_RT_JUMP_AT) && (d == 5 || d == 6 || d == 9 || d == 10)))
		return 1;
	return dp_rt_marker_callee(callee) == dp_rt_stub_entry(key);
}

/*
 * The entry stub's slow path: function @key entered from @site at frame @fp (exactly:
 * the stub runs before the prologue). As the -finstrument-functions enter hook's general
 * case (rt_hooks.c), with the frame known. Returns 1 if the thread needs its state (the
 * full path), else 0.
 */
DP_RT_HOT static int dp_rt_stub_enter(struct dp_rt_tls *t, uintptr_t key, uintptr_t site,
				      uintptr_t fp)
{
	struct dp_rt_csd *csd;
	uintptr_t tail = 1; /* the frame a tail caller left, or 1 */

	if (dp_unlikely(!t->limit))
		return !t->disabled && !t->th;
	if (!t->top->fp) { /* a tail-call marker: fn is the frame its caller left */
		if (dp_rt_is_callee(t->top->callee, key))
			tail = t->top->fn;
		t->top--;
		if (tail == fp && dp_rt_tail_enter(t, key, site | DP_RT_TAIL_SITE, fp))
			return 0;
	}
	if (dp_unlikely(dp_rt_g.stopped)) {
		t->th->lost_calls++;
		return 0;
	}
	if (tail == fp)
		site |= DP_RT_TAIL_SITE;
	dp_rt_unwind_enter(t, key, site, fp);
	csd = dp_rt_lookup(t, key, site);
	if (!csd && !(csd = dp_rt_csd_create(t, t->top->pd, site, key, 1)))
		return 0;
	if (t->top + 1 >= t->limit && dp_rt_stack_grow(t) != 0)
		return 0;
	dp_rt_push(t, t->top->csd, csd, key, fp);
	return 0;
}

/*
 * An exit stub's slow path: the activation at frame @fp leaves, through a tail call of
 * @callee if @tail (a marker then takes its entry). Activations of frames below it are
 * popped as unwinds first; an activation not on the stack (entered before the thread
 * had state) is ignored.
 */
DP_RT_HOT static void dp_rt_stub_leave(struct dp_rt_tls *t, uintptr_t fp, int tail,
				       uintptr_t callee)
{
	struct dp_rt_frame *e;

	if (!t->limit || dp_rt_g.stopped)
		return;
	if (!t->top->fp)
		t->top--; /* a tail-call marker whose callee was not instrumented */
	dp_rt_unwind_to(t, fp);
	e = t->top;
	if (e == t->th->stack || e->fp != fp)
		return;
	e->csd->exits++;
	if (!tail) {
		t->top = e - 1;
		return;
	}
	e->csd = e[-1].csd;
	e->callee = callee;
	e->fn = fp;
	e->fp = 0;
}

/*
 * dp_rt_stub_light - the stubs' slow path (dp_rt_stub_slow in rt_stub_x86_64.S): @kind
 * DP_STUB_ENTER (@a the key, @b the site), DP_STUB_RET (@a the address of the `ret` or
 * jump the function leaves through), DP_STUB_EXIT, DP_STUB_TAIL (@a the callee), all at
 * frame address @fp. Returns 1 if the full path must run it again.
 */
DP_RT_HOT int dp_rt_stub_light(uintptr_t kind, uintptr_t a, uintptr_t b, uintptr_t fp)
{
	struct dp_rt_tls *t = &dp_rt_tls;
	uint8_t op;

	switch (kind) {
	case DP_STUB_ENTER:
		return dp_rt_stub_enter(t, a, b, fp);
	case DP_STUB_RET:
		dp_rt_peek(&op, a, 1, a);
		if (op == 0xc3 || op == 0xf3) /* ret, rep ret */
			dp_rt_stub_leave(t, fp, 0, 0);
		else
			dp_rt_stub_leave(t, fp, 1, a | DP_RT_JUMP_AT);
		return 0;
	case DP_STUB_EXIT:
		dp_rt_stub_leave(t, fp, 0, 0);
		return 0;
	default:
		dp_rt_stub_leave(t, fp, 1, a);
		return 0;
	}
}

/* dp_rt_stub_full - the same with the whole extended state saved: a thread's first call
 * gets its state (which runs libc) first. */
DP_RT_NOINST void dp_rt_stub_full(uintptr_t kind, uintptr_t a, uintptr_t b, uintptr_t fp)
{
	struct dp_rt_tls *t = &dp_rt_tls;

	if (kind == DP_STUB_ENTER && !t->limit && dp_rt_enter_first(t) != 0)
		return;
	(void)dp_rt_stub_light(kind, a, b, fp);
}

/*
 * dp_rt_xsave_init - the bytes the full slow path saves the extended state in (and sets
 * dp_rt_xsave_size): XSAVE's standard-format size for the components the system enables,
 * rounded up to 64, if the processor and the system support XSAVE; else 512 (fxsave).
 */
DP_RT_NOINST unsigned dp_rt_xsave_init(void)
{
	unsigned a, b, c, d, size = 512;

	__asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	if ((c & (1u << 26)) && (c & (1u << 27))) { /* XSAVE, OSXSAVE */
		__asm__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0xd), "c"(0));
		if (b > 512)
			size = (b + 63) & ~63u;
	}
	__atomic_store_n(&dp_rt_xsave_size, size, __ATOMIC_RELAXED);
	return size;
}
