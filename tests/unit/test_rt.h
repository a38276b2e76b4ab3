/*
 * tests/unit/test_rt.h - helpers shared by the runtime tests (test_rt_*.c): read the
 * profile the test program just wrote (with the real reader) and query it by function
 * address: PS of a function, its PDs, the CSDs between two functions, and the
 * invariants every profile must satisfy. Everything is static; include once per test.
 */
#ifndef DP_TEST_RT_H
#define DP_TEST_RT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "core/err.h"
#include "deepprof/deepprof.h"
#include "deepprof/format.h"
#include "format/profile.h"
#include "format/reader.h"
#include "harness.h"

#define RT_NOINST __attribute__((no_instrument_function))

/* Sums over the CSDs selected by rt_edges(). */
struct rt_edge {
	uint64_t n_csd, calls, exits, unwinds, samples, callseqs, allocs, alloc_bytes;
};

/* Write the profile now and read it back into @p; exits the test on failure. */
RT_NOINST static void rt_snapshot(struct dp_profile *p)
{
	const char *path = getenv("DEEPPROF_OUTPUT");

	if (!path) {
		fprintf(stderr, "DEEPPROF_OUTPUT not set\n");
		exit(1);
	}
	if (deepprof_write() != 0 || dp_read_file(path, p) != 0) {
		fprintf(stderr, "cannot write or read %s: %s\n", path, dp_errmsg());
		exit(1);
	}
}

/* The PS id of the function at @fn, 0 if absent. */
RT_NOINST static uint32_t rt_ps_(const struct dp_profile *p, uintptr_t fn)
{
	for (uint32_t i = 1; i <= p->n_ps; i++)
		if (p->ps[i].kind == DP_PS_FUNCTION && p->ps[i].addr == (uint64_t)fn)
			return i;
	return 0;
}

/* The number of PDs of @fn. */
RT_NOINST __attribute__((unused)) static uint32_t rt_n_pd_(const struct dp_profile *p, uintptr_t fn)
{
	uint32_t ps = rt_ps_(p, fn), n = 0;

	for (uint32_t i = 1; ps && i <= p->n_pd; i++)
		n += p->pd[i].ps == ps;
	return n;
}

/* Sums over the CSDs whose callee PD is a PD of @callee and whose caller PD is a PD of
 * @caller (any caller if NULL). */
RT_NOINST static struct rt_edge rt_edges_(const struct dp_profile *p, uintptr_t caller,
					  uintptr_t callee)
{
	struct rt_edge e = {0};
	uint32_t from = caller ? rt_ps_(p, caller) : 0, to = rt_ps_(p, callee);

	for (uint32_t i = 1; to && i <= p->n_csd; i++) {
		const struct dp_csd *c = &p->csd[i];

		if (p->pd[c->callee].ps != to || (caller && p->pd[c->caller].ps != from))
			continue;
		e.n_csd++;
		e.calls += c->calls;
		e.exits += c->exits;
		e.unwinds += c->unwinds;
		e.samples += c->samples;
		e.callseqs += c->callseqs;
		e.allocs += c->allocs;
		e.alloc_bytes += c->alloc_bytes;
	}
	return e;
}

/* Functions (pointers or NULL) are passed as integers: ISO C has no function-to-void*. */
#define rt_ps(p, fn)	      rt_ps_((p), (uintptr_t)(fn))
#define rt_n_pd(p, fn)	      rt_n_pd_((p), (uintptr_t)(fn))
#define rt_edges(p, from, to) rt_edges_((p), (uintptr_t)(from), (uintptr_t)(to))

/* Invariants of every profile: calls >= exits + unwinds, each CSS's PS is its caller
 * PD's PS, sums in INFO match. */
RT_NOINST static void rt_check_invariants(const struct dp_profile *p)
{
	uint64_t samples = 0, callseqs = 0;

	CHECK(p->root_pd == 1);
	for (uint32_t i = 1; i <= p->n_csd; i++) {
		const struct dp_csd *c = &p->csd[i];

		CHECK(c->calls >= c->exits + c->unwinds);
		CHECK_EQ(p->css[c->css].ps, p->pd[c->caller].ps);
		samples += c->samples;
		callseqs += c->callseqs;
	}
	CHECK_EQ(samples, p->samples_outside);
	CHECK_EQ(callseqs, p->total_callseqs);
}

#endif /* DP_TEST_RT_H */
