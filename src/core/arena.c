/*
 * core/arena.c - block-chained bump allocator. Blocks double in size up to 64 MiB, and a
 * request larger than half a block gets a block of its own. Blocks of 4 MiB and more are
 * backed by transparent huge pages where the kernel allows (see dp_advise_huge()); blocks
 * for requests of 16 MiB and more are faulted in on a helper thread (arena_pf_start()).
 * Released blocks of up to 16 MiB are kept for the next arena (cache_take()).
 */
#define _DEFAULT_SOURCE /* madvise */
#include "arena.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct dp_arena_block {
	struct dp_arena_block *next;
	size_t size;
	int reused; /* taken from the cache: not zero, each piece is zeroed as handed out */
	_Alignas(16) unsigned char data[];
};

#define ARENA_MIN_BLOCK ((size_t)64 << 10)
#define ARENA_MAX_BLOCK ((size_t)64 << 20)

void dp_arena_init(struct dp_arena *a, size_t limit)
{
	memset(a, 0, sizeof(*a));
	a->limit = limit;
}

#define ARENA_HUGE ((size_t)2 << 20)

/*
 * dp_advise_huge asks for huge pages on the 2 MiB-aligned interior of a fresh block,
 * before its first touch (calloc of a large block maps new zero pages and does not write
 * them). Loading a large profile is dominated by the kernel faulting in 4 KiB zero pages:
 * at 1.4 million contexts this cuts 329,000 page faults to 56,000 and the load's CPU time
 * by a quarter (docs/PERFORMANCE.md). Only advice: ignored where THP is off.
 */
void dp_advise_huge(void *p, size_t size)
{
#ifdef MADV_HUGEPAGE
	uintptr_t lo = ((uintptr_t)p + ARENA_HUGE - 1) & ~(uintptr_t)(ARENA_HUGE - 1);
	uintptr_t hi = ((uintptr_t)p + size) & ~(uintptr_t)(ARENA_HUGE - 1);

	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
	(void)p;
	(void)size;
#endif
}

void *dp_big_malloc(size_t n, size_t size)
{
	size_t bytes;
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	bytes = n * size;
	p = malloc(bytes > 0 ? bytes : 1);
	if (p && bytes >= ((size_t)8 << 20)) /* big enough to hold several huge pages */
		dp_advise_huge(p, bytes);
	return p;
}

/*
 * Faulting in big blocks on the second core. The arrays of a large profile are single big
 * requests that are then filled front to back; the kernel's zeroing of their pages was a
 * sixth of a large load's CPU time. When asked to (dp_arena_prefault()), the arena has a
 * helper thread ask the kernel to populate each such block (MADV_POPULATE_WRITE maps
 * zeroed pages and never changes their contents, so it may race with the owner's writes)
 * while the owner fills it from the front. Blocks are queued for one helper at a time,
 * which exits when the queue is empty and is joined when the next one starts or by
 * dp_arena_release().
 */
#define ARENA_PF_MIN   ((size_t)16 << 20)
#define ARENA_PF_QUEUE 32
#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older kernels say EINVAL: harmless */
#endif

struct dp_arena_pf {
	pid_t pid; /* the process whose thread it is: a child of fork() has no helper */
	pthread_mutex_t lock;
	pthread_t thread;
	bool started; /* thread is to be joined */
	bool running; /* thread still takes blocks from the queue */
	unsigned head, n;
	struct {
		void *start;
		size_t size;
	} q[ARENA_PF_QUEUE];
};

static void *arena_pf_run(void *arg)
{
	struct dp_arena_pf *pf = arg;
	const size_t step = (size_t)32 << 20;

	for (;;) {
		void *start;
		size_t size;

		pthread_mutex_lock(&pf->lock);
		if (pf->head == pf->n) {
			pf->running = false;
			pthread_mutex_unlock(&pf->lock);
			return NULL;
		}
		start = pf->q[pf->head].start;
		size = pf->q[pf->head++].size;
		pthread_mutex_unlock(&pf->lock);
		/* in steps, from the front: the owner writes from the front too */
		for (size_t off = 0; off < size; off += step)
			if (madvise((char *)start + off, size - off < step ? size - off : step,
				    MADV_POPULATE_WRITE) != 0)
				break;
	}
}

/* Join the helper (if it is this process's: after fork() the child has only the state,
 * whose lock may even be held, so it drops it). */
static void arena_pf_join(struct dp_arena *a)
{
	if (!a->pf)
		return;
	if (a->pf->pid == getpid()) {
		if (a->pf->started)
			pthread_join(a->pf->thread, NULL);
		pthread_mutex_destroy(&a->pf->lock);
	}
	free(a->pf);
	a->pf = NULL;
}

/* Queue the page-aligned interior of [@p, @p + @size) for the helper, starting one if
 * none runs; nothing happens when the queue is full or a thread cannot be had. */
static void arena_pf_start(struct dp_arena *a, void *p, size_t size)
{
	uintptr_t lo = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	uintptr_t hi = ((uintptr_t)p + size) & ~(uintptr_t)4095;
	struct dp_arena_pf *pf = a->pf;

	if (hi <= lo)
		return;
	if (pf && pf->pid != getpid()) {
		arena_pf_join(a);
		pf = NULL;
	}
	if (!pf) {
		if (!(pf = calloc(1, sizeof(*pf))) || pthread_mutex_init(&pf->lock, NULL) != 0) {
			free(pf);
			return;
		}
		pf->pid = getpid();
		a->pf = pf;
	}
	pthread_mutex_lock(&pf->lock);
	if (!pf->running) /* the queue is drained */
		pf->head = pf->n = 0;
	if (pf->n == ARENA_PF_QUEUE || pf->running) {
		if (pf->n < ARENA_PF_QUEUE) {
			pf->q[pf->n].start = (void *)lo;
			pf->q[pf->n++].size = hi - lo;
		}
		pthread_mutex_unlock(&pf->lock);
		return;
	}
	pf->q[pf->n].start = (void *)lo;
	pf->q[pf->n++].size = hi - lo;
	pf->running = true;
	pthread_mutex_unlock(&pf->lock);
	if (pf->started) /* the last one has left its loop: a quick join */
		pthread_join(pf->thread, NULL);
	pf->started = pthread_create(&pf->thread, NULL, arena_pf_run, pf) == 0;
	if (!pf->started) {
		pf->running = false;
		pf->head = pf->n = 0;
	}
}

/*
 * The cache of released blocks. Short-lived arenas (one per query: a report, a display)
 * would otherwise get fresh blocks from calloc every time, which on a big page cost more
 * than the page's own work: the kernel faulting in and zeroing new pages, or calloc
 * zeroing whole blocks of which a part is used. Released blocks of up to
 * ARENA_CACHE_BLOCK bytes are kept, ARENA_CACHE_BYTES in all, and handed to the next
 * arena that grows; only what is handed out of them is zeroed. A trylock: a thread that
 * finds the cache busy (or a child of fork() that inherited it locked) goes without.
 */
#define ARENA_CACHE_BLOCK ((size_t)16 << 20)
#define ARENA_CACHE_BYTES ((size_t)64 << 20)

static pthread_mutex_t arena_cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct dp_arena_block *arena_cache;
static size_t arena_cache_bytes;

/* A cached block of @size to @max bytes (the smallest such), or NULL. */
static struct dp_arena_block *cache_take(size_t size, size_t max)
{
	struct dp_arena_block **at, **best = NULL, *b;

	if (size > ARENA_CACHE_BLOCK || pthread_mutex_trylock(&arena_cache_lock) != 0)
		return NULL;
	for (at = &arena_cache; *at; at = &(*at)->next)
		if ((*at)->size >= size && (*at)->size <= max &&
		    (!best || (*at)->size < (*best)->size))
			best = at;
	b = best ? *best : NULL;
	if (b) {
		*best = b->next;
		arena_cache_bytes -= b->size;
	}
	pthread_mutex_unlock(&arena_cache_lock);
	return b;
}

/* Keep released block @b in the cache if it fits there; else free it. */
static void cache_give(struct dp_arena_block *b)
{
	if (b->size <= ARENA_CACHE_BLOCK && pthread_mutex_trylock(&arena_cache_lock) == 0) {
		int kept = arena_cache_bytes + b->size <= ARENA_CACHE_BYTES;

		if (kept) {
			b->reused = 1;
			b->next = arena_cache;
			arena_cache = b;
			arena_cache_bytes += b->size;
		}
		pthread_mutex_unlock(&arena_cache_lock);
		if (kept)
			return;
	}
	free(b);
}

void dp_arena_cache_drop(void)
{
	struct dp_arena_block *b;

	pthread_mutex_lock(&arena_cache_lock);
	b = arena_cache;
	arena_cache = NULL;
	arena_cache_bytes = 0;
	pthread_mutex_unlock(&arena_cache_lock);
	while (b) {
		struct dp_arena_block *next = b->next;

		free(b);
		b = next;
	}
}

static struct dp_arena_block *arena_grow(struct dp_arena *a, size_t need)
{
	size_t size = a->head ? a->head->size * 2 : ARENA_MIN_BLOCK;
	struct dp_arena_block *b;

	if (size > ARENA_MAX_BLOCK)
		size = ARENA_MAX_BLOCK;
	if (need > size / 2)
		size = need;
	if (size > SIZE_MAX - sizeof(*b))
		return NULL;
	if (a->limit && (a->total + size > a->limit || a->total + size < a->total))
		return NULL;
	b = cache_take(size, a->limit ? a->limit - a->total : SIZE_MAX); /* within the ceiling */
	if (b) {
		size = b->size;
	} else {
		b = calloc(1, sizeof(*b) + size);
		if (!b)
			return NULL;
		if (size >= 2 * ARENA_HUGE)
			dp_advise_huge(b->data, size);
		if (a->prefault && need >= ARENA_PF_MIN)
			arena_pf_start(a, b->data, size);
		b->size = size;
	}
	a->total += size;
	if (need > ARENA_MIN_BLOCK && a->head && a->used < a->head->size) {
		/* a dedicated big block goes behind the current one, which stays in use */
		b->next = a->head->next;
		a->head->next = b;
	} else {
		b->next = a->head;
		a->head = b;
		a->used = 0;
	}
	return b;
}

void *dp_arena_alloc(struct dp_arena *a, size_t size)
{
	size_t need = (size + 15) & ~(size_t)15;
	struct dp_arena_block *b;

	if (need < size)
		return NULL;
	if (a->head && a->head->size - a->used >= need) {
		void *p = a->head->data + a->used;

		a->used += need;
		if (a->head->reused)
			memset(p, 0, need);
		return p;
	}
	b = arena_grow(a, need);
	if (!b)
		return NULL;
	if (b == a->head)
		a->used = need;
	if (b->reused)
		memset(b->data, 0, need);
	return b->data; /* the head's first bytes, or a dedicated block */
}

void *dp_arena_array(struct dp_arena *a, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return dp_arena_alloc(a, n * size);
}

char *dp_arena_strndup(struct dp_arena *a, const char *s, size_t len)
{
	char *p = dp_arena_alloc(a, len + 1);

	if (p && len)
		memcpy(p, s, len);
	return p;
}

void dp_arena_prefault(struct dp_arena *a, int on)
{
	a->prefault = on;
}

void dp_arena_release(struct dp_arena *a)
{
	struct dp_arena_block *b = a->head;
	size_t limit = a->limit;
	int prefault = a->prefault;

	arena_pf_join(a);
	while (b) {
		struct dp_arena_block *next = b->next;

		cache_give(b);
		b = next;
	}
	dp_arena_init(a, limit);
	a->prefault = prefault;
}

char *dp_arena_vprintf(struct dp_arena *a, const char *fmt, va_list ap)
{
	char small[256], *s;
	va_list again;
	int len;

	va_copy(again, ap);
	len = vsnprintf(small, sizeof(small), fmt, ap);
	if (len < 0) {
		va_end(again);
		return NULL;
	}
	if ((size_t)len < sizeof(small)) {
		va_end(again);
		return dp_arena_strndup(a, small, (size_t)len);
	}
	s = dp_arena_alloc(a, (size_t)len + 1);
	if (s)
		vsnprintf(s, (size_t)len + 1, fmt, again);
	va_end(again);
	return s;
}

char *dp_arena_printf(struct dp_arena *a, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = dp_arena_vprintf(a, fmt, ap);
	va_end(ap);
	return s;
}
