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

_Thread_local struct dp_rt_tls dp_rt_tls __attribute__((tls_model("initial-exec")));

/* Not exported from any header: the hooks' prototypes, to satisfy -Wmissing-prototypes. */
void __cyg_profile_func_enter(void *fn, void *site);
void __cyg_profile_func_exit(void *fn, void *site);

/* A frame pointer farther than this above the hook's frame is checked on the slow path. */
#define DP_RT_FAST_FRAME ((uintptr_t)4096)
#define DP_RT_SLOW_FRAME ((uintptr_t)1 << 20)

/*
 * dp_rt_pop_entry - leave the top activation of the shadow stack: through the exit hook
 * (@how 0: exits++) or without it (@how 1: unwinds++). Restores the callee's outermost
 * activation and the current CSD exactly as the exit port does. Never pops the sentinel.
 */
DP_RT_HOT static void dp_rt_pop_entry(struct dp_rt_tls *t, int how)
{
	struct dp_rt_frame *e = t->top;
	struct dp_rt_csd *csd = e->csd;

	if (how)
		csd->unwinds++;
	else
		csd->exits++;
	csd->ps->outermost = e->saved;
	t->cur = e->prev;
	t->top = e - 1;
}

/*
 * dp_rt_unwind_to - pop, as unwinds, every activation whose frame is gone: those whose
 * CFA is < @cfa, the stack growing down (the exit hook of the activation at @cfa). The
 * sentinel (cfa = UINTPTR_MAX) is never popped.
 */
DP_RT_HOT static void dp_rt_unwind_to(struct dp_rt_tls *t, uintptr_t cfa)
{
	while (t->top->cfa < cfa)
		dp_rt_pop_entry(t, 1);
}

/*
 * Before entering @fn from @site at @cfa: pop, as unwinds, the activations whose frames
 * are gone: CFA below @cfa, or equal to it (a sibling called after a longjmp or catch),
 * except the activations of a function into which @fn was inlined: its hooks run in the
 * container's frame, with the container's return address as @site.
 */
DP_RT_HOT static void dp_rt_unwind_enter(struct dp_rt_tls *t, uintptr_t fn, uintptr_t site,
					 uintptr_t cfa)
{
	const struct dp_rt_frame *e;

	while ((e = t->top)->cfa <= cfa) {
		if (e->cfa == cfa && e->csd->site == site && e->csd->fn != fn)
			break;
		dp_rt_pop_entry(t, 1);
	}
}

/*
 * The CFA of the instrumented function that called the hook whose frame address is @fa
 * (its caller's stack pointer before the call: just above its return address @site).
 * Either the hook was tail-called from the function's epilogue, and the hook's own
 * return slot holds @site; or the function's frame pointer (-fno-omit-frame-pointer),
 * saved by the hook's prologue at @fa, points at the function's saved frame pointer with
 * @site above it. Both are checked against @site. Returns 0 if neither holds (a function
 * built without frame pointers).
 */
DP_RT_HOT __attribute__((noinline)) static uintptr_t dp_rt_find_cfa(const struct dp_rt_tls *t,
								    uintptr_t fa, uintptr_t site)
{
	const uintptr_t *hook = (const uintptr_t *)fa;
	uintptr_t xr = hook[0], end = fa + DP_RT_SLOW_FRAME;

	if (hook[1] == site)
		return fa + 2 * sizeof(void *);
	if (t->th->stack_hi > fa && t->th->stack_hi < end)
		end = t->th->stack_hi;
	if (xr > fa && xr + 2 * sizeof(void *) <= end && !(xr & (sizeof(void *) - 1)) &&
	    ((const uintptr_t *)xr)[1] == site)
		return xr + 2 * sizeof(void *);
	return 0;
}

/* Push the activation of @csd (the caller's CSD was t->cur) and make it current. */
DP_RT_HOT __attribute__((always_inline)) static inline void
dp_rt_push(struct dp_rt_tls *t, struct dp_rt_csd *csd, uintptr_t cfa)
{
	struct dp_rt_frame *top = t->top + 1;
	struct dp_rt_ps *ps = csd->ps;

	t->cur->callseqs++;
	csd->calls++;
	top->csd = csd;
	top->prev = t->cur;
	top->saved = ps->outermost;
	top->cfa = cfa;
	t->top = top;
	ps->outermost = csd->callee;
	t->cur = csd;
}

/* The CSD of (current PD, @site, @fn), or NULL if it does not exist yet. */
DP_RT_HOT __attribute__((always_inline)) static inline struct dp_rt_csd *
dp_rt_lookup(const struct dp_rt_tls *t, uintptr_t fn, uintptr_t site)
{
	const struct dp_rt_pd *pd = t->cur->callee;
	uintptr_t h = dp_rt_hash(pd, site, t->mask);
	struct dp_rt_csd *csd;

	while ((csd = t->tab[h])) {
		if (dp_likely(csd->site == site && csd->fn == fn && csd->caller == pd))
			break;
		h = (h + 1) & t->mask;
	}
	return csd;
}

/*
 * The enter hook's general case: the CFA checked anew, dead activations popped, the
 * CSD created if new, the shadow stack grown if full. @fa: the hook's frame address.
 */
DP_RT_HOT __attribute__((noinline)) static void dp_rt_enter_miss(struct dp_rt_tls *t, uintptr_t fn,
								 uintptr_t site, uintptr_t fa)
{
	uintptr_t cfa = dp_rt_find_cfa(t, fa, site);
	struct dp_rt_csd *csd;

	if (cfa)
		dp_rt_unwind_enter(t, fn, site, cfa);
	else
		cfa = (t->top->cfa - 2) | 1; /* unknown (odd): nested in the top activation */
	csd = dp_rt_lookup(t, fn, site);
	if (!csd) {
		csd = dp_rt_csd_create(t, t->cur->callee, site, fn);
		if (!csd)
			return;
	}
	if (t->top + 1 >= t->limit && dp_rt_stack_grow(t) != 0)
		return;
	dp_rt_push(t, csd, cfa);
}

/* The enter hook without usable state: first hook of the thread, or collection stopped. */
DP_RT_COLD static void dp_rt_enter_slow(struct dp_rt_tls *t, uintptr_t fn, uintptr_t site,
					uintptr_t fa)
{
	if (t->cur) {
		t->th->lost_calls++;
		return;
	}
	if (t->disabled || t->th)
		return;
	dp_rt_thread_start(t);
	if (t->cur && !dp_rt_g.stopped)
		dp_rt_enter_miss(t, fn, site, fa);
}

/*
 * __cyg_profile_func_enter - called by instrumented code on entry to @fn; @site is the
 * return address into the caller. Finds or creates the CSD of (current PD, site, fn),
 * counts the call, pushes the activation and makes its CSD current.
 */
DP_RT_API DP_RT_HOT void __cyg_profile_func_enter(void *fn, void *site)
{
	struct dp_rt_tls *t = &dp_rt_tls;
	uintptr_t fa = (uintptr_t)__builtin_frame_address(0);
	uintptr_t xr = *(const uintptr_t *)fa; /* fn's frame pointer */
	const struct dp_rt_frame *top;
	struct dp_rt_csd *csd;

	if (dp_unlikely(!t->cur || dp_rt_g.stopped)) {
		dp_rt_enter_slow(t, (uintptr_t)fn, (uintptr_t)site, fa);
		return;
	}
	/* fn's CFA is xr + 16 if its frame holds @site there */
	if (dp_unlikely(xr - fa - 1 >= DP_RT_FAST_FRAME ||
			((const uintptr_t *)xr)[1] != (uintptr_t)site || t->top + 1 >= t->limit))
		goto miss;
	/* the top must be alive: below us, or the container fn was inlined into */
	top = t->top;
	if (dp_unlikely(top->cfa <= xr + 2 * sizeof(void *)) &&
	    (top->cfa != xr + 2 * sizeof(void *) || top->csd->site != (uintptr_t)site ||
	     top->csd->fn == (uintptr_t)fn))
		goto miss;
	csd = dp_rt_lookup(t, (uintptr_t)fn, (uintptr_t)site);
	if (dp_unlikely(!csd))
		goto miss;
	dp_rt_push(t, csd, xr + 2 * sizeof(void *));
	return;
miss:
	dp_rt_enter_miss(t, (uintptr_t)fn, (uintptr_t)site, fa);
}

/* The exit hook's general case: pop what is dead, then @fn's activation at this CFA. */
DP_RT_HOT __attribute__((noinline)) static void dp_rt_exit_miss(struct dp_rt_tls *t, uintptr_t fn,
								uintptr_t site, uintptr_t fa)
{
	uintptr_t cfa = dp_rt_find_cfa(t, fa, site);
	struct dp_rt_frame *e;

	if (cfa)
		dp_rt_unwind_to(t, cfa);
	for (e = t->top; e > t->th->stack; e--)
		if (e->csd->fn == fn && (!cfa || e->cfa == cfa || (e->cfa & 1)))
			break;
	if (e == t->th->stack)
		return; /* not on the stack: entered before we could see it */
	while (t->top > e)
		dp_rt_pop_entry(t, 1);
	dp_rt_pop_entry(t, 0);
}

/*
 * __cyg_profile_func_exit - called by instrumented code when @fn returns (@site: its
 * return address). Counts the exit and restores the caller's context; activations left
 * without their exit hook are popped as unwinds first.
 */
DP_RT_API DP_RT_HOT void __cyg_profile_func_exit(void *fn, void *site)
{
	struct dp_rt_tls *t = &dp_rt_tls;
	uintptr_t fa = (uintptr_t)__builtin_frame_address(0);
	const uintptr_t *hook = (const uintptr_t *)fa;
	struct dp_rt_frame *top = t->top;
	struct dp_rt_csd *csd;
	uintptr_t xr;

	if (dp_unlikely(!t->cur || dp_rt_g.stopped))
		return;
	csd = top->csd;
	if (dp_likely(csd->fn == (uintptr_t)fn)) {
		/* fn's CFA: the hook was tail-called (its return slot holds @site), or
		 * fn's frame pointer is saved at fa */
		xr = hook[1] == (uintptr_t)site ? fa : hook[0];
		if (dp_likely(xr - fa < DP_RT_FAST_FRAME &&
			      ((const uintptr_t *)xr)[1] == (uintptr_t)site &&
			      top->cfa == xr + 2 * sizeof(void *))) {
			csd->exits++;
			csd->ps->outermost = top->saved;
			t->cur = top->prev;
			t->top = top - 1;
			return;
		}
	}
	dp_rt_exit_miss(t, (uintptr_t)fn, (uintptr_t)site, fa);
}
