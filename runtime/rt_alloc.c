/*
 * runtime/rt_alloc.c - the allocation functions (malloc, calloc, realloc,
 * posix_memalign, aligned_alloc, memalign, valloc, pvalloc): each forwards to glibc's
 * exported __libc_* implementation and charges the current CSD with one allocation of
 * the requested size. Works before the runtime is initialised (TLS is zero then).
 * Built twice: under the functions' own names, which the program's references bind to
 * (dynamic links), and, in rt_alloc_wrap.c (DP_RT_WRAP), as __wrap_malloc and so on for
 * static links, where libc.a's malloc.o defines the names too and `deepprof cc -static`
 * redirects the references with the linker's --wrap.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "rt_int.h"

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t nmemb, size_t size);
extern void *__libc_realloc(void *p, size_t n);
extern void *__libc_memalign(size_t align, size_t n);
extern void *__libc_valloc(size_t n);
extern void *__libc_pvalloc(size_t n);

#ifdef DP_RT_WRAP
#define DP_RT_ALLOC(name) __wrap_##name
#else
#define DP_RT_ALLOC(name) name
#endif

void *DP_RT_ALLOC(malloc)(size_t n);
void *DP_RT_ALLOC(calloc)(size_t nmemb, size_t size);
void *DP_RT_ALLOC(realloc)(void *p, size_t n);
int DP_RT_ALLOC(posix_memalign)(void **out, size_t align, size_t n);
void *DP_RT_ALLOC(aligned_alloc)(size_t align, size_t n);
void *DP_RT_ALLOC(memalign)(size_t align, size_t n);
void *DP_RT_ALLOC(valloc)(size_t n);
void *DP_RT_ALLOC(pvalloc)(size_t n);

DP_RT_NOINST static inline void dp_rt_count_alloc(size_t n)
{
	struct dp_rt_tls *t = &dp_rt_tls;
	struct dp_rt_csd *cur;

	if (dp_unlikely(!t->limit || t->inside))
		return;
	if (dp_unlikely(dp_rt_g.stopped)) {
		t->th->lost_allocs++;
		return;
	}
	cur = t->top->csd;
	dp_rt_cold(cur)->allocs++;
	dp_rt_cold(cur)->alloc_bytes += n;
}

/* malloc - glibc's malloc, counted. */
DP_RT_API void *DP_RT_ALLOC(malloc)(size_t n)
{
	void *p = __libc_malloc(n);

	if (p)
		dp_rt_count_alloc(n);
	return p;
}

/* calloc - glibc's calloc, counted as nmemb * size bytes. */
DP_RT_API void *DP_RT_ALLOC(calloc)(size_t nmemb, size_t size)
{
	void *p = __libc_calloc(nmemb, size);

	if (p)
		dp_rt_count_alloc(nmemb * size);
	return p;
}

/* realloc - glibc's realloc; one allocation of the new size (nothing when n is 0). */
DP_RT_API void *DP_RT_ALLOC(realloc)(void *old, size_t n)
{
	void *p = __libc_realloc(old, n);

	if (p && n)
		dp_rt_count_alloc(n);
	return p;
}

/* posix_memalign - POSIX semantics (EINVAL, ENOMEM returned; errno kept). */
DP_RT_API int DP_RT_ALLOC(posix_memalign)(void **out, size_t align, size_t n)
{
	int saved = errno;
	void *p;

	if (align % sizeof(void *) != 0 || (align & (align - 1)) != 0 || align == 0)
		return EINVAL;
	p = __libc_memalign(align, n);
	errno = saved;
	if (!p)
		return ENOMEM;
	*out = p;
	dp_rt_count_alloc(n);
	return 0;
}

/* aligned_alloc - C11; @align must be a power of two (EINVAL otherwise, as glibc). */
DP_RT_API void *DP_RT_ALLOC(aligned_alloc)(size_t align, size_t n)
{
	void *p;

	if (align == 0 || (align & (align - 1)) != 0) {
		errno = EINVAL;
		return NULL;
	}
	p = __libc_memalign(align, n);
	if (p)
		dp_rt_count_alloc(n);
	return p;
}

/* memalign - glibc's memalign, counted. */
DP_RT_API void *DP_RT_ALLOC(memalign)(size_t align, size_t n)
{
	void *p = __libc_memalign(align, n);

	if (p)
		dp_rt_count_alloc(n);
	return p;
}

/* valloc - glibc's valloc, counted. */
DP_RT_API void *DP_RT_ALLOC(valloc)(size_t n)
{
	void *p = __libc_valloc(n);

	if (p)
		dp_rt_count_alloc(n);
	return p;
}

/* pvalloc - glibc's pvalloc, counted (requested size, not the rounded one). */
DP_RT_API void *DP_RT_ALLOC(pvalloc)(size_t n)
{
	void *p = __libc_pvalloc(n);

	if (p)
		dp_rt_count_alloc(n);
	return p;
}
