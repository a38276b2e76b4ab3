/*
 * runtime/rt_hooks.c - the instrumentation hooks __cyg_profile_func_enter/exit: the
 * per-call fast paths (Mercury's call and exit ports, save/restore variant) and the
 * shadow-stack repair after longjmp and exceptions, by comparing canonical frame
 * addresses. Everything here lives in the dp_rt_hot section; no locks, atomics or
 * calls on the fast path. Node creation and thread set-up: rt_graph.c, rt_thread.c.
 */
#define _GNU_SOURCE
#include <stdint.h>

#include "rt_int.h"

/* Not exported from any header: the hooks' prototypes, to satisfy -Wmissing-prototypes. */
void __cyg_profile_func_enter(void *fn, void *site);
void __cyg_profile_func_exit(void *fn, void *site);
void __deepprof_func_tail_exit(void *fn, void *site, void *callee);

/* An enter hook finding fn's frame pointer farther than this above its own frame takes the
 * slow path, which accepts up to DP_RT_SLOW_FRAME (bounded by the top of the stack). */
#define DP_RT_FAST_FRAME ((uintptr_t)4096)
#define DP_RT_SLOW_FRAME ((uintptr_t)1 << 20)

/*
 * The hooks need two things about the instrumented function's frame: the hook's own
 * frame address fa (its CFA - 16, so that fa + 8 is its return slot) and the frame-pointer
 * register as the function left it (its frame pointer, or, for an exit hook tail-called
 * after `leave`, its caller's). Built by gcc on x86-64, this file is compiled with
 * -fomit-frame-pointer -ffixed-rbp (DP_RT_HOOK_NOFRAME, runtime/CMakeLists.txt): the hooks
 * build no frame and never touch %rbp, so the register is read as it is and fa comes from
 * the CFA, which saves a push, a pop and a load per hook. Otherwise (clang, which has no
 * -ffixed-rbp) the hooks keep a frame: fa is their frame pointer and the function's frame
 * pointer is the one their prologue saved at fa. The slow paths, given fa, read the
 * register the same way: with gcc it still holds the function's value (nothing here
 * changes it); with clang the value at fa is the one the hook saved there, or, after a
 * tail jump from the hook, the same value saved there again by the slow path's prologue.
 */
#ifdef DP_RT_HOOK_NOFRAME
#define DP_RT_FA()		 ((uintptr_t)__builtin_dwarf_cfa() - 2 * sizeof(void *))
#define DP_RT_CALLER_FP(fa, out) __asm__("mov %%rbp, %0" : "=r"(out))
/* The enter hook passes 0 and its slow path takes its own frame address: the hook's after
 * the tail jump, or a few words lower if it was called, which only widens the frame
 * search by those words (an enter hook is never tail-called, so its return slot is not
 * looked at); the fast path keeps one register less live (no push and pop). */
#define DP_RT_ENTER_FA(fa) ((uintptr_t)0)
#else
#define DP_RT_FA()		 ((uintptr_t)__builtin_frame_address(0))
#define DP_RT_CALLER_FP(fa, out) ((out) = *(const uintptr_t *)(fa))
#define DP_RT_ENTER_FA(fa)	 (fa)
#endif

/*
 * How far fn's frame pointer @xr lies above the hook's frame address @fa (huge if below),
 * for the enter hook's sanity bound. Frameless (gcc), fa = CFA - 16 = %rsp - 8, so it is
 * (xr + 8) - %rsp: a lea and a sub, where gcc computed both addresses first (one
 * instruction more per call). An adjustment of %rsp by the compiler before this point
 * would only shift the bound by a few words; the frame itself is checked against the site.
 */
DP_RT_HOT __attribute__((always_inline)) static inline uintptr_t dp_rt_frame_dist(uintptr_t xr,
										  uintptr_t fa)
{
#ifdef DP_RT_HOOK_NOFRAME
	uintptr_t d = xr + sizeof(void *);

	(void)fa;
	__asm__("sub %%rsp, %0" : "+r"(d) : : "cc");
	return d;
#else
	return xr - fa;
#endif
}

/* Each hook starts on a cache line, so that its fast path occupies the fewest lines (and
 * micro-op cache windows) whatever the size of the code before it: without it, a change
 * elsewhere in the file moved the exit hook across a line and the timings with it. */
#define DP_RT_HOOK_ALIGN __attribute__((aligned(64)))

/* The state of a thread without state: its CSD's fn (0) matches no function. It also
 * marks empty CSD table slots. */
struct dp_rt_csd dp_rt_idle_csd;
struct dp_rt_frame dp_rt_idle_frame = {.csd = &dp_rt_idle_csd};
_Thread_local struct dp_rt_tls dp_rt_tls
	__attribute__((tls_model(DP_RT_TLS_MODEL))) = {.top = &dp_rt_idle_frame};

/*
 * dp_rt_pop_entry - leave the top activation of the shadow stack: through the exit hook
 * (@how 0: exits++) or without it (@how 1: unwinds++). Never pops the sentinel. A
 * tail-call marker (fp 0) is popped without a count: its activation has left already.
 */
DP_RT_HOT void dp_rt_pop_entry(struct dp_rt_tls *t, int how)
{
	struct dp_rt_frame *e = t->top;
	struct dp_rt_csd *csd = e->csd;

	if (!e->fp)
		;
	else if (how)
		dp_rt_cold(csd)->unwinds++;
	else
		csd->exits++;
	t->top = e - 1;
}

/*
 * dp_rt_unwind_to - pop, as unwinds, every activation whose frame is gone: those whose
 * frame address is < @fp, the stack growing down (the exit hook of the activation at
 * @fp). The sentinel (fp = UINTPTR_MAX) is never popped.
 */
DP_RT_HOT void dp_rt_unwind_to(struct dp_rt_tls *t, uintptr_t fp)
{
	while (t->top->fp < fp)
		dp_rt_pop_entry(t, 1);
}

/*
 * Before entering @fn from @site with frame address @fp: pop, as unwinds, the activations
 * whose frames are gone: frame address below @fp, or equal to it (a sibling called after
 * a longjmp or catch), except the activations of a function into which @fn was inlined:
 * its hooks run in the container's frame, with the container's return address as @site.
 */
DP_RT_HOT void dp_rt_unwind_enter(struct dp_rt_tls *t, uintptr_t fn, uintptr_t site, uintptr_t fp)
{
	const struct dp_rt_frame *e;

	while ((e = t->top)->fp <= fp) {
		if (e->fp == fp && e->csd->site == site && e->csd->fn != fn)
			break;
		dp_rt_pop_entry(t, 1);
	}
}

/*
 * The frame address of the instrumented function that called the hook whose frame address
 * is @fa (its CFA - 16: its caller's stack pointer before the call is just above its
 * return address @site), @xr being the frame-pointer register at the hook's entry. Either
 * the hook was tail-called from the function's epilogue (an exit hook: @is_exit), and the
 * hook's own return slot holds @site; or @xr is the function's frame pointer
 * (-fno-omit-frame-pointer), pointing at its saved frame pointer with @site above it. Both
 * are checked against @site. Returns 0 if neither holds (a function built without frame
 * pointers).
 */
DP_RT_HOT __attribute__((noinline)) static uintptr_t
dp_rt_find_fp(const struct dp_rt_tls *t, uintptr_t fa, uintptr_t xr, uintptr_t site, int is_exit)
{
	const uintptr_t *hook = (const uintptr_t *)fa;
	uintptr_t end = fa + DP_RT_SLOW_FRAME;

	if (is_exit && hook[1] == site)
		return fa;
	if (t->th->stack_hi > fa && t->th->stack_hi < end)
		end = t->th->stack_hi;
	if (xr > fa && xr + 2 * sizeof(void *) <= end && !(xr & (sizeof(void *) - 1)) &&
	    ((const uintptr_t *)xr)[1] == site)
		return xr;
	return 0;
}

/*
 * The CSD of (current PD, @site, @fn), or NULL if it does not exist yet (any slot). A CSD
 * found past its first slot is swapped into it, so that the fast path, which looks only
 * there, finds it next time. Swapping two entries of one probe run keeps every entry
 * reachable: the slots between stay occupied.
 */
DP_RT_HOT struct dp_rt_csd *dp_rt_lookup(const struct dp_rt_tls *t, uintptr_t fn, uintptr_t site)
{
	const struct dp_rt_pd *pd = t->top->pd;
	uintptr_t home = dp_rt_home(dp_rt_key(site, fn), pd->mask), h = home;
	struct dp_rt_csd *csd;

	while ((csd = *dp_rt_slot(pd, h)) != &dp_rt_idle_csd) {
		if (csd->site == site && csd->fn == fn)
			break;
		h = (h + sizeof(*pd->tab)) & pd->mask;
	}
	if (csd == &dp_rt_idle_csd)
		return NULL;
	if (h != home) {
		*dp_rt_slot(pd, h) = *dp_rt_slot(pd, home);
		*dp_rt_slot(pd, home) = csd;
	}
	return csd;
}

/*
 * The tail callee's enter hook through its CSD's first slot: @fn entered at frame @fp,
 * the one its tail caller left, from the current (the tail caller's caller's) PD through
 * @site, marked. The marker's entry is free again, so there is room. Returns 0 if the
 * general case must decide.
 */
DP_RT_HOT int dp_rt_tail_enter(struct dp_rt_tls *t, uintptr_t fn, uintptr_t site, uintptr_t fp)
{
	struct dp_rt_frame *top = t->top;
	struct dp_rt_pd *pd = top->pd;
	struct dp_rt_csd *csd = *dp_rt_slot(pd, dp_rt_home(dp_rt_key(site, fn), pd->mask));

	if (csd->site != site || csd->fn != fn || top->fp <= fp ||
	    ((const uintptr_t *)fp)[1] != (site & ~DP_RT_TAIL_SITE))
		return 0;
	dp_rt_push(t, top->csd, csd, fn, fp);
	return 1;
}

/* The first hook of a thread: give it state. Returns 0 if it collects. */
DP_RT_COLD int dp_rt_enter_first(struct dp_rt_tls *t)
{
	if (t->disabled || t->th)
		return -1; /* never collects, or ended */
	dp_rt_thread_start(t);
	return t->limit && !dp_rt_g.stopped ? 0 : -1;
}

/*
 * The enter hook's general case: state set up, the frame checked anew, dead activations
 * popped, the CSD looked up in every slot or created, the shadow stack grown if full.
 * @fa: the hook's frame address, or 0 (DP_RT_ENTER_FA).
 */
DP_RT_HOT __attribute__((noinline)) static void dp_rt_enter_miss(uintptr_t fn, uintptr_t site,
								 uintptr_t fa)
{
	struct dp_rt_tls *t = &dp_rt_tls;
	struct dp_rt_csd *csd;
	uintptr_t fp, xr, tail = 1; /* the frame of a tail caller (odd: unknown), or 1 */

	if (!fa)
		fa = DP_RT_FA(); /* DP_RT_ENTER_FA */
	DP_RT_CALLER_FP(fa, xr);

	if (dp_unlikely(!t->limit) && dp_rt_enter_first(t) != 0)
		return;
	if (!t->top->fp) { /* a tail-call marker: fn is the frame its caller left */
		if (!t->top->callee || t->top->callee == fn)
			tail = t->top->fn;
		t->top--;
		if (tail == xr && dp_rt_tail_enter(t, fn, site | DP_RT_TAIL_SITE, xr))
			return;
	}
	if (dp_unlikely(dp_rt_g.stopped)) {
		t->th->lost_calls++;
		return;
	}
	fp = dp_rt_find_fp(t, fa, xr, site, 0);
	/* the function called, entered in the frame its tail caller left (a sibling call):
	 * from the caller's caller, through the site marked tail; else the marker was stale
	 * (the tail callee was not instrumented and has returned, or gcc emitted a real
	 * call after all) */
	if (tail != 1 && (fp ? fp == tail : (tail & 1)))
		site |= DP_RT_TAIL_SITE;
	if (fp)
		dp_rt_unwind_enter(t, fn, site, fp);
	else
		fp = (t->top->fp - 2) | 1; /* unknown (odd): nested in the top activation */
	csd = dp_rt_lookup(t, fn, site);
	if (!csd) {
		csd = dp_rt_csd_create(t, t->top->pd, site, fn, 0);
		if (!csd)
			return;
	}
	if (t->top + 1 >= t->limit && dp_rt_stack_grow(t) != 0)
		return;
	dp_rt_push(t, t->top->csd, csd, fn, fp);
}

/*
 * __cyg_profile_func_enter - called by instrumented code on entry to @fn; @site is the
 * return address into the caller. Finds or creates the CSD of (current PD, site, fn),
 * counts the call, pushes the activation and makes its CSD current. The fast path: state,
 * room, fn's frame pointer (the frame-pointer register at the hook's entry) sane, the top
 * activation alive, the CSD in its first table slot. It does not look at dp_rt_g.stopped
 * (a load, a test and a branch less per call): a stop only forbids new nodes, so after
 * one a call through an existing CSD is still counted exactly, and every call the fast
 * path cannot take reaches the slow path, which counts it in lost_calls.
 */
DP_RT_API DP_RT_HOT DP_RT_HOOK_ALIGN void __cyg_profile_func_enter(void *fn, void *site)
{
	struct dp_rt_tls *t = &dp_rt_tls;
	uintptr_t fa = DP_RT_FA(), xr; /* xr: fn's frame pointer */
	struct dp_rt_frame *top = t->top;
	struct dp_rt_csd *cur, *csd;
	struct dp_rt_pd *pd;

	DP_RT_CALLER_FP(fa, xr);

	if (dp_unlikely(top + 1 >= t->limit || dp_rt_frame_dist(xr, fa) > DP_RT_FAST_FRAME ||
			((const uintptr_t *)xr)[1] != (uintptr_t)site))
		goto miss;
	/* the top must be alive: above us, or the container fn was inlined into */
	cur = top->csd;
	if (dp_unlikely(top->fp <= xr) &&
	    (top->fp != xr || cur->site != (uintptr_t)site || cur->fn == (uintptr_t)fn))
		goto miss;
	pd = top->pd;
	csd = *dp_rt_slot(pd, dp_rt_home((uintptr_t)site, pd->mask));
	if (dp_unlikely(csd->site != (uintptr_t)site ||
			csd->fn != (uintptr_t)fn)) /* an empty slot holds the idle CSD: site 0 */
		goto miss;
	dp_rt_push(t, cur, csd, (uintptr_t)fn, xr);
	return;
miss:
	dp_rt_enter_miss((uintptr_t)fn, (uintptr_t)site, DP_RT_ENTER_FA(fa));
}

/* The exit hook's general case: pop what is dead, then @fn's activation at this frame.
 * Returns the popped activation's frame address, or 0 if none was popped. */
DP_RT_HOT __attribute__((noinline)) static uintptr_t dp_rt_exit_miss(uintptr_t fn, uintptr_t site,
								     uintptr_t fa)
{
	struct dp_rt_tls *t = &dp_rt_tls;
	uintptr_t fp, xr;
	struct dp_rt_frame *e;

	DP_RT_CALLER_FP(fa, xr);

	if (!t->limit || dp_rt_g.stopped)
		return 0;
	if (!t->top->fp)
		t->top--; /* a tail-call marker whose callee was not instrumented */
	fp = dp_rt_find_fp(t, fa, xr, site, 1);
	if (fp)
		dp_rt_unwind_to(t, fp);
	for (e = t->top; e > t->th->stack; e--)
		if (e->csd->fn == fn && (!fp || e->fp == fp || (e->fp & 1)))
			break;
	/* An exit in a frame below its entry's: the outlined part of a function split by
	 * partial inlining (f.part.0) runs in its own frame, called from the head inlined
	 * into the caller, which ran the enter hook in the caller's frame. The innermost
	 * live entry of fn above the exit's frame is the one leaving. */
	if (e == t->th->stack && fp)
		for (e = t->top; e > t->th->stack; e--)
			if (e->fn == fn && e->fp > fp)
				break;
	if (e == t->th->stack)
		return 0; /* not on the stack: entered before we could see it */
	while (t->top > e)
		dp_rt_pop_entry(t, 1);
	fp = e->fp;
	dp_rt_pop_entry(t, 0);
	return fp;
}

/*
 * __cyg_profile_func_exit - called by instrumented code when @fn returns (@site: its
 * return address). Counts the exit and restores the caller's context; activations left
 * without their exit hook are popped as unwinds first. The fast path: the top activation
 * is fn's (its entry keeps fn: no CSD load) at the frame the hook finds (tail-called: the
 * hook's return slot holds @site; else the frame-pointer register is fn's frame pointer).
 * The top's frame address was checked against @site at its entry, so equality is enough:
 * an entry of unknown frame has an odd address, which no frame pointer equals, and a hook
 * return slot never holds @site unless tail-called (it returns into fn, @site is in fn's
 * caller).
 */
DP_RT_API DP_RT_HOT DP_RT_HOOK_ALIGN void __cyg_profile_func_exit(void *fn, void *site)
{
	struct dp_rt_tls *t = &dp_rt_tls;
	uintptr_t fa = DP_RT_FA(), xr;
	const uintptr_t *hook = (const uintptr_t *)fa;
	struct dp_rt_frame *top = t->top;

	DP_RT_CALLER_FP(fa, xr);
	if (dp_likely(top->fn == (uintptr_t)fn)) {
		if (dp_likely(top->fp == (hook[1] == (uintptr_t)site ? fa : xr))) {
			top->csd->exits++;
			t->top = top - 1;
			return;
		}
	}
	dp_rt_exit_miss((uintptr_t)fn, (uintptr_t)site, fa);
}

/*
 * __deepprof_func_tail_exit - called by code built with deepprof's GCC plugin just
 * before a call of @callee (0 if not known) in tail position that stays a sibling call
 * (a jump): @fn leaves now (the exit is counted as by __cyg_profile_func_exit; @site is
 * its return address; the hook is called, never tail-called), and a tail-call marker
 * takes its entry, so that the callee's enter hook, finding the marker, its own address
 * and its frame equal to the one @fn left, enters the callee from @fn's caller through
 * @site marked tail (MLton's rule: the exit moves before the call that is only not a tail
 * call because of it). Until then the caller's caller's CSD is current.
 */
DP_RT_API DP_RT_HOT DP_RT_HOOK_ALIGN void __deepprof_func_tail_exit(void *fn, void *site,
								    void *callee)
{
	struct dp_rt_tls *t = &dp_rt_tls;
	uintptr_t fa = DP_RT_FA(), xr;
	struct dp_rt_frame *top;

	DP_RT_CALLER_FP(fa, xr);
	top = t->top;
	if (dp_unlikely(top->fn != (uintptr_t)fn || top->fp != xr)) {
		/* regions fn left open, or a repaired stack: the general case, then the
		 * marker in the entry fn left, which is free */
		xr = dp_rt_exit_miss((uintptr_t)fn, (uintptr_t)site, fa);
		if (!xr)
			return;
		top = ++t->top;
	} else {
		top->csd->exits++;
	}
	top->csd = top[-1].csd; /* the marker, in the same entry: room is certain */
	top->callee = (uintptr_t)callee;
	top->fn = xr;
	top->fp = 0;
}

/*
 * dp_rt_region_push - deepprof_enter's push of region @fn (DP_RT_REGION_FN), called from
 * @site in the function whose frame is @fp (0 unknown). The activation's frame address is
 * fp - 1: odd, just below the function's own, so that the function's exit (or an enter at
 * its frame after a longjmp) pops it as an unwind, calls made in the region nest in it,
 * and regions the function opens at the same frame nest too. Activations of frames below
 * fp are dead (longjmp): popped as unwinds first.
 */
DP_RT_HOT void dp_rt_region_push(uintptr_t fn, uintptr_t site, uintptr_t fp)
{
	struct dp_rt_tls *t = &dp_rt_tls;
	struct dp_rt_csd *csd;

	if (dp_unlikely(!t->limit) && dp_rt_enter_first(t) != 0)
		return;
	if (!t->top->fp)
		t->top--; /* a stale tail-call marker */
	if (dp_unlikely(dp_rt_g.stopped)) {
		t->th->lost_calls++;
		return;
	}
	if (fp) {
		fp -= 1;
		while (t->top->fp < fp)
			dp_rt_pop_entry(t, 1);
	} else {
		fp = (t->top->fp - 2) | 1; /* unknown: nested in the top activation */
	}
	csd = dp_rt_lookup(t, fn, site);
	if (!csd && !(csd = dp_rt_csd_create(t, t->top->pd, site, fn, 0)))
		return;
	if (t->top + 1 >= t->limit && dp_rt_stack_grow(t) != 0)
		return;
	dp_rt_push(t, t->top->csd, csd, fn, fp);
}

/*
 * dp_rt_region_pop - deepprof_leave's pop of region @fn, called by the function whose
 * frame is @fp (0 unknown): activations of dead frames below it are popped as unwinds,
 * then the innermost one must be @fn's, left as an exit. Returns 0, or -1 if it is not
 * (nothing else popped: the region stays open until its function leaves).
 */
DP_RT_HOT int dp_rt_region_pop(uintptr_t fn, uintptr_t fp)
{
	struct dp_rt_tls *t = &dp_rt_tls;

	if (!t->limit || dp_rt_g.stopped)
		return 0; /* not collecting: nothing to compare with */
	if (!t->top->fp)
		t->top--; /* a stale tail-call marker */
	if (fp)
		dp_rt_unwind_to(t, fp - 1);
	if (t->top->fn != fn || t->top == t->th->stack) {
		dp_rt_ps_note(t, fn);
		return -1;
	}
	dp_rt_pop_entry(t, 0);
	return 0;
}
