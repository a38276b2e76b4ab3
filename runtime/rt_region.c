/*
 * runtime/rt_region.c - user regions (MLton's Enter/Leave): deepprof_enter(name) and
 * deepprof_leave(name) make a named region a procedure of the graph, of kind region. Names
 * are interned by content in one process-wide table, so that a program may pass a buffer
 * it reuses: the first use of a name takes a mutex and copies it into mmap'd memory; every
 * later use hashes the string and finds it with acquire loads, no lock and no malloc. A
 * region's procedure is keyed by DP_RT_REGION_FN(id) in each thread's graph; its
 * activations live on the shadow stack like a function's (rt_hooks.c).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "deepprof/deepprof.h"
#include "deepprof/format.h"
#include "rt_int.h"

/* At most this many distinct names (later ones are not profiled: lost calls). */
#define DP_RT_REGION_CAP   (1u << 16)
#define DP_RT_REGION_SLOTS (2 * DP_RT_REGION_CAP) /* open addressing, half full at most */
/* Longer names are cut here (the profile shows the first bytes). */
#define DP_RT_REGION_NAME_MAX 1024u
#define DP_RT_REGION_CHUNK    ((size_t)64 << 10)

struct dp_rt_region {
	uint64_t hash;
	uint64_t mismatched; /* leaves naming it that found another region innermost */
	uint32_t id;	     /* from 1 */
	uint32_t len;
	char name[]; /* len bytes */
};

static struct {
	pthread_mutex_t lock;	     /* insertions only */
	struct dp_rt_region **slots; /* DP_RT_REGION_SLOTS, published with release */
	struct dp_rt_region **by_id; /* [id], DP_RT_REGION_CAP + 1 */
	uint32_t n;		     /* names interned */
	char *room, *room_end;	     /* the current chunk of name memory */
} dp_rt_rg = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* FNV-1a over @len bytes of @s. */
DP_RT_NOINST static uint64_t dp_rt_region_hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
	return h;
}

/* The region named @s (@len bytes, hash @h) in @slots, or NULL. Lock-free. */
DP_RT_NOINST static struct dp_rt_region *dp_rt_region_find(struct dp_rt_region **slots,
							   const char *s, uint32_t len, uint64_t h)
{
	struct dp_rt_region *r;

	for (uint32_t i = (uint32_t)h & (DP_RT_REGION_SLOTS - 1); (r = DP_RT_LOAD_ACQ(&slots[i]));
	     i = (i + 1) & (DP_RT_REGION_SLOTS - 1))
		if (r->hash == h && r->len == len && memcmp(r->name, s, len) == 0)
			return r;
	return NULL;
}

/* Under the lock: the table made, @s copied and published. NULL if out of room. */
DP_RT_NOINST static struct dp_rt_region *dp_rt_region_add(const char *s, uint32_t len, uint64_t h)
{
	size_t need = (sizeof(struct dp_rt_region) + len + 7) & ~(size_t)7;
	struct dp_rt_region *r;
	uint32_t i;

	if (!dp_rt_rg.slots) {
		struct dp_rt_region **slots, **by_id;

		slots = dp_rt_map(DP_RT_REGION_SLOTS * sizeof(*slots), 1);
		by_id = slots ? dp_rt_map((DP_RT_REGION_CAP + 1) * sizeof(*by_id), 1) : NULL;
		if (!by_id)
			return NULL;
		dp_rt_rg.by_id = by_id;
		DP_RT_STORE_REL(&dp_rt_rg.slots, slots);
	}
	if ((r = dp_rt_region_find(dp_rt_rg.slots, s, len, h)))
		return r; /* another thread was first */
	if (dp_rt_rg.n >= DP_RT_REGION_CAP)
		return NULL;
	if ((size_t)(dp_rt_rg.room_end - dp_rt_rg.room) < need) {
		char *c = dp_rt_map(DP_RT_REGION_CHUNK, 1);

		if (!c)
			return NULL;
		dp_rt_rg.room = c;
		dp_rt_rg.room_end = c + DP_RT_REGION_CHUNK;
	}
	r = (struct dp_rt_region *)(void *)dp_rt_rg.room;
	dp_rt_rg.room += need;
	r->hash = h;
	r->len = len;
	r->id = dp_rt_rg.n + 1;
	memcpy(r->name, s, len);
	dp_rt_rg.by_id[r->id] = r;
	for (i = (uint32_t)h & (DP_RT_REGION_SLOTS - 1); dp_rt_rg.slots[i];
	     i = (i + 1) & (DP_RT_REGION_SLOTS - 1))
		;
	DP_RT_STORE_REL(&dp_rt_rg.slots[i], r);
	DP_RT_STORE_REL(&dp_rt_rg.n, r->id);
	return r;
}

/* The region named @name, interned on its first use (with @add); NULL if none. */
DP_RT_NOINST static struct dp_rt_region *dp_rt_region_get(const char *name, int add)
{
	struct dp_rt_region **slots = DP_RT_LOAD_ACQ(&dp_rt_rg.slots), *r = NULL;
	size_t n = name ? strnlen(name, DP_RT_REGION_NAME_MAX) : 0;
	uint64_t h = dp_rt_region_hash(name, n);
	struct dp_rt_tls *t = &dp_rt_tls;
	int inside = t->inside;

	if (!name)
		return NULL;
	if (slots && (r = dp_rt_region_find(slots, name, (uint32_t)n, h)))
		return r;
	if (!add)
		return NULL;
	t->inside = 1; /* samples of the first use are the runtime's */
	pthread_mutex_lock(&dp_rt_rg.lock);
	r = dp_rt_region_add(name, (uint32_t)n, h);
	pthread_mutex_unlock(&dp_rt_rg.lock);
	t->inside = inside;
	return r;
}

/*
 * The frame of the function that called deepprof_enter/leave: the frame pointer saved at
 * the API function's own frame address @fa (the runtime keeps frame pointers, and so
 * does code built by `deepprof cc`), if it is plausible (above, within 1 MiB, aligned);
 * else 0 (unknown).
 */
DP_RT_NOINST static uintptr_t dp_rt_region_frame(uintptr_t fa)
{
	uintptr_t fp = *(const uintptr_t *)fa;

	if (fp > fa && fp - fa < ((uintptr_t)1 << 20) && !(fp & (sizeof(void *) - 1)))
		return fp;
	return 0;
}

/* deepprof_enter - the API (include/deepprof/deepprof.h): push region @name's activation
 * in the calling function's frame; a name that cannot be interned is a lost call. */
DP_RT_API __attribute__((noinline)) void deepprof_enter(const char *name)
{
	uintptr_t site = (uintptr_t)__builtin_return_address(0);
	uintptr_t fp = dp_rt_region_frame((uintptr_t)__builtin_frame_address(0));
	struct dp_rt_region *r = dp_rt_region_get(name, 1);

	if (!r) {
		if (dp_rt_tls.th)
			dp_rt_tls.th->lost_calls++;
		return;
	}
	dp_rt_region_push(DP_RT_REGION_FN(r->id), site, fp);
}

/* deepprof_leave - the API: pop region @name's activation, or count a mismatched leave. */
DP_RT_API __attribute__((noinline)) void deepprof_leave(const char *name)
{
	uintptr_t fp = dp_rt_region_frame((uintptr_t)__builtin_frame_address(0));
	struct dp_rt_region *r = dp_rt_region_get(name, 1);

	if (r && dp_rt_region_pop(DP_RT_REGION_FN(r->id), fp) != 0)
		__atomic_fetch_add(&r->mismatched, 1, __ATOMIC_RELAXED);
}

/*
 * dp_rt_region_put - append region @fn's name (str) and mismatched leaves (num) to @b,
 * the rest of its PSTA record (the writer).
 */
DP_RT_NOINST void dp_rt_region_put(struct dp_rt_buf *b, uintptr_t fn)
{
	uint32_t id = (uint32_t)(fn & ~DP_RT_REGION_BIT);
	const struct dp_rt_region *r =
		id && id <= DP_RT_LOAD_ACQ(&dp_rt_rg.n) ? dp_rt_rg.by_id[id] : NULL;

	if (!r) {
		dp_rt_buf_str(b, "", 0);
		dp_rt_buf_num(b, 0);
		return;
	}
	dp_rt_buf_str(b, r->name, r->len);
	dp_rt_buf_num(b, __atomic_load_n(&r->mismatched, __ATOMIC_RELAXED));
}

/* dp_rt_region_fork - the names' table across fork() (rt_thread.c's handlers). */
DP_RT_NOINST void dp_rt_region_fork(int phase)
{
	if (phase == 0) {
		pthread_mutex_lock(&dp_rt_rg.lock);
		return;
	}
	if (phase == 1) {
		pthread_mutex_unlock(&dp_rt_rg.lock);
		return;
	}
	pthread_mutex_init(&dp_rt_rg.lock, NULL);
	for (uint32_t id = 1; id <= dp_rt_rg.n; id++)
		dp_rt_rg.by_id[id]->mismatched = 0;
}
