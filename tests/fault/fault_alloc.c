/*
 * tests/fault/fault_alloc.c - the allocation wrappers of fault_alloc.h, for programs
 * linked with -Wl,--wrap=malloc,... (dp_fault_inject()). Thread-safe: the load and the
 * session use threads, so the counters are atomic and the one failure goes to whichever
 * allocation is the N-th.
 */
#define _GNU_SOURCE /* backtrace */
#include "fault_alloc.h"

#include <execinfo.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
void __wrap_free(void *p);

static atomic_uint_fast64_t count;  /* allocations since armed */
static atomic_uint_fast64_t target; /* the one to fail, 0 = none */
static atomic_bool fired;
static atomic_int_fast64_t live;

void dp_fault_arm(uint64_t n)
{
	atomic_store(&target, 0);
	atomic_store(&count, 0);
	atomic_store(&fired, false);
	atomic_store(&target, n);
}

uint64_t dp_fault_count(void)
{
	return atomic_load(&count);
}

bool dp_fault_fired(void)
{
	return atomic_load(&fired);
}

int64_t dp_fault_live(void)
{
	return atomic_load(&live);
}

/* DP_FAULT_ALLOC=N in the environment arms the N-th allocation of the program. */
__attribute__((constructor)) static void fault_from_env(void)
{
	const char *e = getenv("DP_FAULT_ALLOC");

	if (e && *e)
		dp_fault_arm(strtoull(e, NULL, 10));
}

/* Whether this allocation is the one to fail. */
static bool fail_now(void)
{
	uint64_t k = atomic_fetch_add(&count, 1) + 1, t = atomic_load(&target);

	if (t == 0 || k != t)
		return false;
	atomic_store(&fired, true);
	if (getenv("DP_FAULT_TRACE")) { /* where the failure is, for its investigation */
		void *pc[32];

		backtrace_symbols_fd(pc, backtrace(pc, 32), 2);
	}
	return true;
}

void *__wrap_malloc(size_t n)
{
	void *p = fail_now() ? NULL : __real_malloc(n);

	if (p)
		atomic_fetch_add(&live, 1);
	return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
	void *p = fail_now() ? NULL : __real_calloc(n, size);

	if (p)
		atomic_fetch_add(&live, 1);
	return p;
}

void *__wrap_realloc(void *p, size_t n)
{
	void *q;

	if (fail_now())
		return NULL; /* p stays valid, as realloc leaves it */
	q = __real_realloc(p, n);
	if (q && !p)
		atomic_fetch_add(&live, 1);
	return q;
}

char *__wrap_strdup(const char *s)
{
	char *p = fail_now() ? NULL : __real_strdup(s);

	if (p)
		atomic_fetch_add(&live, 1);
	return p;
}

void __wrap_free(void *p)
{
	if (p)
		atomic_fetch_sub(&live, 1);
	__real_free(p);
}
