/*
 * runtime/rt_int.h - the private interface between the files of libdeepprof: the
 * per-thread graph nodes (PS, PD, CSD), the shadow stack, the thread-local hot state,
 * the global state, and the slow-path entry points. Included only by the runtime sources,
 * which define _GNU_SOURCE; depends on nothing but libc and include/deepprof/.
 */
#ifndef DP_RT_INT_H
#define DP_RT_INT_H

#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "rt_asm.h"

/* Everything declared here is internal to the library: direct access, no GOT or PLT. */
#pragma GCC visibility push(hidden)

/* Every runtime function: never instrumented, even if someone adds the flag. */
#define DP_RT_NOINST __attribute__((no_instrument_function))
/* The exported API (the library is built with -fvisibility=hidden). */
#define DP_RT_API __attribute__((visibility("default"), no_instrument_function))
/* The per-call fast paths live in their own section so that the sampling handler can
 * tell "inside the runtime" from the interrupted PC (__start_/__stop_dp_rt_hot). */
#define DP_RT_HOT  __attribute__((section("dp_rt_hot"), no_instrument_function))
#define DP_RT_COLD __attribute__((noinline, cold, no_instrument_function))

#define dp_likely(x)   __builtin_expect(!!(x), 1)
#define dp_unlikely(x) __builtin_expect(!!(x), 0)

#define DP_RT_LOAD_ACQ(p)     __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define DP_RT_STORE_REL(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

struct dp_rt_pd;

/* ProcStatic, per thread: one per function key (fn 0 = the thread root). A function's
 * key is its entry address under the -finstrument-functions hooks, and the return address
 * of its entry stub's call under the stubs (rt_stub.c), which @entry turns into the entry
 * address the file needs. */
struct dp_rt_ps {
	uintptr_t fn;
	uintptr_t entry; /* the function's entry address (what the file says) */
	uint32_t index;	 /* sequential per thread, 0 = the thread root PS */
	uint32_t id;	 /* the writer's: its global id in the current write */
};

/*
 * ProcDynamic: one per (function, ancestor context). The CSDs of the calls made from it
 * are in its own table (open addressing, keyed by site and callee: dp_rt_home), which the
 * enter hooks read first: a context's callees stay together, so that creating one touches
 * its parent's small table, which is in cache, and no table of the whole thread is ever
 * rehashed. Until its first callee it shares dp_rt_no_tab (one empty slot, mask 0).
 */
struct dp_rt_pd {
	struct dp_rt_csd **tab; /* slots; an empty one holds &dp_rt_idle_csd, never NULL */
	uintptr_t mask;		/* (slots - 1) * sizeof(*tab): the byte offset of a slot */
	struct dp_rt_ps *ps;
	uint32_t index; /* sequential per thread, 0 = the thread root PD */
	uint32_t n;	/* CSDs in tab */
};

/* CallSiteDynamic: one per (caller PD, site, callee fn), one cache line: everything the
 * enter and exit hooks touch. Its other counters are in its cold record (dp_rt_cold). */
struct dp_rt_csd {
	uintptr_t site;		 /* return address into the caller */
	uintptr_t fn;		 /* callee key (struct dp_rt_ps) */
	struct dp_rt_pd *caller; /* NULL for a thread's root CSD */
	struct dp_rt_pd *callee;
	struct dp_rt_ps *ps; /* the callee's PS */
	uint64_t calls, exits, callseqs;
} __attribute__((aligned(64)));

/* The counters of a CSD that few of them ever change: they are not in its cache line,
 * so that a new context touches half the memory. */
struct dp_rt_cold {
	uint64_t unwinds, samples, allocs, alloc_bytes;
};

/*
 * CSDs live in chunks of DP_RT_CSD_CHUNK bytes aligned to that size: a header, then
 * DP_RT_CSD_CAP CSDs, then their cold records in the same order, so that a CSD's cold
 * record is found from its address alone (dp_rt_cold): the sampling handler, the
 * allocation functions and the unwind repair need no pointer in the CSD.
 */
#define DP_RT_CSD_CHUNK	   ((uintptr_t)64 << 10)
#define DP_RT_CSD_CAP	   ((DP_RT_CSD_CHUNK - 64) / (64 + sizeof(struct dp_rt_cold)))
#define DP_RT_CSD_COLD_OFF (64 + DP_RT_CSD_CAP * 64)

/* dp_rt_cold - @csd's cold record (a CSD of a node chunk; not the idle CSD). */
static inline __attribute__((no_instrument_function)) struct dp_rt_cold *
dp_rt_cold(const struct dp_rt_csd *csd)
{
	uintptr_t a = (uintptr_t)csd, base = a & ~(DP_RT_CSD_CHUNK - 1);

	return (struct dp_rt_cold *)(base + DP_RT_CSD_COLD_OFF + (a - base - 64) / 2);
}

/*
 * One shadow-stack entry per active instrumented activation. The current CSD is
 * t->top->csd (the sentinel, entry 0, holds the thread's root CSD). A tail-call marker
 * (fp 0, only ever the top entry) is left by the tail-exit hook in the entry of the
 * activation that left: csd is the entry below's (the caller's caller's: samples and
 * allocations until the next hook are charged there, where control returns if the tail
 * callee is not instrumented), callee the address called (0 unknown) and fn the frame
 * address left, which the tail callee's enter hook compares with its own (rt_hooks.c).
 */
struct dp_rt_frame {
	struct dp_rt_csd *csd;
	union {
		struct dp_rt_pd *pd; /* csd->callee: the lookup key of the calls it makes */
		uintptr_t callee;    /* a tail-call marker's */
	};
	/* the activation's frame address: its canonical frame address (just above its return
	 * address) - 16, i.e. its frame pointer; odd = unknown */
	uintptr_t fp;
	uintptr_t fn; /* csd->fn, here so that the exit hook's check needs no CSD load */
};

/* The mark of a CSD's site entered through a tail call: bit 63, which no user-space
 * return address has on x86-64 and aarch64. The writer gives such sites their own CSS,
 * of kind DP_CSS_TAIL, at the address without the bit. */
#define DP_RT_TAIL_SITE ((uintptr_t)1 << 63)

/* The function key of a user region (rt_region.c): its id with bit 62 set, which no code
 * address has, so that a region is a procedure like a function in each thread's graph. */
#define DP_RT_REGION_BIT    ((uintptr_t)1 << 62)
#define DP_RT_REGION_FN(id) (DP_RT_REGION_BIT | (uintptr_t)(id))
#define DP_RT_IS_REGION(fn) (((fn) & (DP_RT_REGION_BIT | DP_RT_TAIL_SITE)) == DP_RT_REGION_BIT)

/* A chunk of nodes of one kind, mmap'd; filled completely before the next one. */
struct dp_rt_chunk {
	struct dp_rt_chunk *next;
	size_t bytes; /* mapping size, header included */
	uint32_t cap; /* nodes it holds */
	uint32_t used;
	uint64_t ordinal; /* chunks before it in its list (dp_rt_csd_index) */
	uint64_t pad[4];
};

struct dp_rt_nodes {
	struct dp_rt_chunk *head, *tail;
	uint32_t count; /* published with a release store after the node is initialised */
	uint32_t size;	/* node size */
	uint32_t fixed; /* chunks of DP_RT_CSD_CHUNK bytes, aligned (the CSDs'), or 0 */
	uint32_t lead;	/* nodes before the counted ones (the CSDs': the thread's root CSD) */
};

/* dp_rt_csd_index - @csd's per-thread index, its place among the thread's counted CSDs
 * (the order the writer walks them in): from its chunk's ordinal and its slot, the root
 * CSD (the list's lead node) left out. */
static inline __attribute__((no_instrument_function)) uint32_t
dp_rt_csd_index(const struct dp_rt_csd *csd)
{
	uintptr_t a = (uintptr_t)csd, base = a & ~(DP_RT_CSD_CHUNK - 1);
	const struct dp_rt_chunk *c = (const struct dp_rt_chunk *)base;

	return (uint32_t)(c->ordinal * DP_RT_CSD_CAP + (a - base - 64) / 64 - 1);
}

/*
 * The thread-local hot state: read by every hook, no pointer chase. Without state (before
 * the thread's first hook, after its end, or if it never collects) limit is NULL, so the
 * enter hook's stack check fails, and top points at a constant idle entry whose CSD
 * matches no function, so the exit hook's check fails: both take their slow path.
 */
struct dp_rt_tls {
	struct dp_rt_frame *top;   /* shadow stack top entry; top->csd is the current CSD */
	struct dp_rt_frame *limit; /* one past the last usable entry; NULL = no state */
	struct dp_rt_frame *last;  /* limit - 1 (NULL = no state): the stubs' room check */
	int inside;		   /* the thread is executing runtime code (slow paths) */
	int disabled;		   /* this thread never collects (failed, exited, no state) */
	struct dp_rt_thread *th;
};

/* The memory of a thread's PD tables (rt_tab.c). */
struct dp_rt_tabs {
	struct dp_rt_tab_map *maps;  /* chunks and big tables, for the thread's end */
	char *room, *end;	     /* the current chunk's free part */
	struct dp_rt_csd **free[12]; /* free small tables by log2(slots), linked by slot 0 */
};

/*
 * The sampled PCs of one thread (rt_sample.c): (CSD, interrupted PC) -> samples, open
 * addressing, written only by the thread's own SIGPROF handler and read by the writer.
 * An entry is published by a release store of its pc (0 = empty slot) after its csd and
 * n. Tables double from DP_RT_PCS_MIN to DP_RT_PCS_MAX entries at 3/4 load; an outgrown
 * table stays mapped (prev) since the writer may be reading it. The symbolizer tells
 * from the PCs which samples ran outside instrumented code (docs/FORMAT.md, SPCS).
 */
struct dp_rt_pcs_ent {
	uintptr_t pc;
	uint32_t csd; /* the CSD's per-thread index; DP_RT_PCS_ROOT for the root CSD */
	uint32_t n;   /* samples */
};

struct dp_rt_pcs_tab {
	struct dp_rt_pcs_tab *prev; /* the table this one replaced */
	size_t bytes;		    /* mapping size, header included */
	uint32_t cap, used;
	struct dp_rt_pcs_ent ent[];
};

#define DP_RT_PCS_ROOT UINT32_MAX
#define DP_RT_PCS_MIN  1024u
#define DP_RT_PCS_MAX  65536u

/* dp_rt_pcs_hash - the home slot of (@pc, @csd) before the table's mask. */
DP_RT_NOINST static inline uint64_t dp_rt_pcs_hash(uintptr_t pc, uint32_t csd)
{
	return (((uint64_t)pc ^ ((uint64_t)csd << 20)) * 0x9E3779B97F4A7C15ull) >> 32;
}

/* Per-thread state, mmap'd; outlives the thread (the writer reads it). */
struct dp_rt_thread {
	struct dp_rt_csd *root_csd; /* root -> thread root, the first CSD node (not counted) */
	struct dp_rt_thread *next;  /* registration order */
	struct dp_rt_nodes ps, pd, csd;
	struct dp_rt_ps **ps_tab;  /* fn -> PS, open addressing */
	uint32_t ps_cap;	   /* its size (a power of two) */
	struct dp_rt_tabs tabs;	   /* the memory of its PDs' CSD tables */
	struct dp_rt_frame *stack; /* shadow stack base (entry 0 = sentinel) */
	uintptr_t stack_hi;	   /* top of the thread's C stack (bounds the CFA search) */
	size_t stack_cap;	   /* entries */
	int64_t tid;
	uint64_t start_ns, end_ns;
	uint64_t samples_inside;
	uint64_t lost_calls, lost_samples, lost_allocs;
	struct dp_rt_pcs_tab *pcs; /* sampled PCs (NULL before the first sample) */
	uint64_t pcs_missed;	   /* samples charged without a PC entry (table full) */
	uint32_t flags;		   /* DP_THREAD_* */
	int alive_in_file;	   /* 0 after fork() for threads other than the forking one */
	int has_timer;
	timer_t timer;
	char name[16];
};

/* The global state. */
struct dp_rt_global {
	int stopped;	      /* collection stopped: no new nodes (read by the slow paths) */
	char pad_stopped[60]; /* alone in its cache line: the rest is written at times */
	int sampling;
	uint64_t hz, period_ns;
	uint64_t start_ns;
	uint64_t max_bytes, used_bytes;
	int64_t pid;
	int forked_child;
	int exit_status_known;
	int exit_status;
	char stop_reason[160];
	pthread_mutex_t threads_lock;
	struct dp_rt_thread *threads, *threads_tail;
	pthread_key_t key;
	pthread_mutex_t write_lock;
} __attribute__((aligned(64)));

extern struct dp_rt_global dp_rt_g;

/*
 * dp_rt_home - the byte offset of the first slot of key @key (dp_rt_key) in a PD's CSD
 * table of byte mask @mask: the high half of a multiplicative hash, which the site,
 * known at the hook's entry, gets off the critical path (the next call waits for the
 * PD this one leaves on the shadow stack, and the mask is read from it).
 */
DP_RT_NOINST static inline uintptr_t dp_rt_home(uintptr_t key, uintptr_t mask)
{
	return (uintptr_t)(((uint64_t)key * (uint64_t)DP_RT_HASH_MUL) >> 32) & mask;
}

/*
 * dp_rt_key - the site a CSD of (@site, @fn) is hashed by: the site itself, but for a
 * tail site the callee too, since one tail site reaches every function of a tail-call
 * loop in turn (st_a, st_b, st_a, ...), whose CSDs would otherwise share one first slot
 * and push each other out of it on every call.
 */
DP_RT_NOINST static inline uintptr_t dp_rt_key(uintptr_t site, uintptr_t fn)
{
	return site & DP_RT_TAIL_SITE ? site ^ (fn << 3) : site;
}

/* The slot at byte offset @h of @pd's CSD table. */
DP_RT_NOINST static inline struct dp_rt_csd **dp_rt_slot(const struct dp_rt_pd *pd, uintptr_t h)
{
	return (struct dp_rt_csd **)(void *)((char *)pd->tab + h);
}
/*
 * The thread-local state is initial-exec in libdeepprof.so (preloaded: in the static TLS
 * block) and local-exec in libdeepprof.a (DP_RT_STATIC: always linked into the executable,
 * never into a shared library), where %fs:offset needs no register for the offset.
 */
#ifdef DP_RT_STATIC
#define DP_RT_TLS_MODEL "local-exec"
#else
#define DP_RT_TLS_MODEL "initial-exec"
#endif
extern _Thread_local struct dp_rt_tls dp_rt_tls __attribute__((tls_model(DP_RT_TLS_MODEL)));
/* The shadow-stack entry of a thread without state, and its CSD, which matches no call
 * (fn 0, site 0) and marks empty table slots (rt_hooks.c); the table of PDs that have no
 * callee yet (rt_graph.c). */
extern struct dp_rt_frame dp_rt_idle_frame;
extern struct dp_rt_csd dp_rt_idle_csd;
extern struct dp_rt_csd *dp_rt_no_tab[1];

/* dp_rt_push - push the activation of @csd (of function key @fn) at frame address @fp,
 * called from the current CSD @cur: the call port's counts and the new top entry. */
DP_RT_NOINST __attribute__((always_inline)) static inline void
dp_rt_push(struct dp_rt_tls *t, struct dp_rt_csd *cur, struct dp_rt_csd *csd, uintptr_t fn,
	   uintptr_t fp)
{
	struct dp_rt_frame *top = t->top + 1;

	cur->callseqs++;
	csd->calls++;
	top->csd = csd;
	top->pd = csd->callee;
	top->fp = fp;
	top->fn = fn;
	t->top = top;
}

/* rt_hooks.c, the hooks' shared steps (slow paths; see there): the top entry popped as an
 * exit (@how 0) or an unwind (1); every activation whose frame is below @fp popped as
 * unwinds, or before entering @fn from @site at @fp the dead ones; the CSD of (top PD,
 * @site, @fn) in any slot; a tail callee entered through its first slot; a thread's first
 * hook. */
void dp_rt_pop_entry(struct dp_rt_tls *t, int how);
void dp_rt_unwind_to(struct dp_rt_tls *t, uintptr_t fp);
void dp_rt_unwind_enter(struct dp_rt_tls *t, uintptr_t fn, uintptr_t site, uintptr_t fp);
struct dp_rt_csd *dp_rt_lookup(const struct dp_rt_tls *t, uintptr_t fn, uintptr_t site);
int dp_rt_tail_enter(struct dp_rt_tls *t, uintptr_t fn, uintptr_t site, uintptr_t fp);
int dp_rt_enter_first(struct dp_rt_tls *t);

/* rt_stub.c: the stubs' slow paths (called by rt_stub_x86_64.S), the entry address of a
 * function keyed by its entry stub's return address, and the size of the extended state
 * (xsave area) the full slow path saves. */
int dp_rt_stub_light(uintptr_t kind, uintptr_t a, uintptr_t b, uintptr_t fp);
void dp_rt_stub_full(uintptr_t kind, uintptr_t a, uintptr_t b, uintptr_t fp);
uintptr_t dp_rt_stub_entry(uintptr_t key);
unsigned dp_rt_xsave_init(void);
extern unsigned dp_rt_xsave_size;

/* rt_hooks.c: a region's activation pushed (entered from @site by the function whose frame
 * is @fp, 0 unknown) and popped (-1: the innermost activation is not region @fn's). */
void dp_rt_region_push(uintptr_t fn, uintptr_t site, uintptr_t fp);
int dp_rt_region_pop(uintptr_t fn, uintptr_t fp);

/* rt_graph.c: node memory, lookup tables, shadow stack (slow paths only). */
struct dp_rt_csd *dp_rt_csd_create(struct dp_rt_tls *t, struct dp_rt_pd *pd, uintptr_t site,
				   uintptr_t fn, int stub);
int dp_rt_stack_grow(struct dp_rt_tls *t);
void dp_rt_ps_note(struct dp_rt_tls *t, uintptr_t fn);
int dp_rt_graph_init(struct dp_rt_thread *th, struct dp_rt_tls *t);

/* rt_tab.c: the PDs' CSD tables. */
struct dp_rt_csd **dp_rt_tab_reserve(struct dp_rt_thread *th, struct dp_rt_pd *pd, uintptr_t key);
void dp_rt_tabs_release(struct dp_rt_tabs *tb);
void *dp_rt_map(size_t bytes, int counted);
void dp_rt_unmap(void *p, size_t bytes, int counted);

/* Walks the first nodes of a list in index order (the writer, the fork handler). */
struct dp_rt_iter {
	struct dp_rt_chunk *chunk;
	uint32_t i, left;
	uint32_t size;
};
void dp_rt_iter_init(struct dp_rt_iter *it, const struct dp_rt_nodes *n, uint32_t count);
void *dp_rt_iter_next(struct dp_rt_iter *it);

/* rt_thread.c: thread state. */
void dp_rt_threads_init(void);
void dp_rt_thread_start(struct dp_rt_tls *t);

/* rt_init.c: global state, trouble; the writer thread again in a fork child (it is not
 * inherited), if DEEPPROF_SIGNAL or DEEPPROF_INTERVAL asked for one. */
void dp_rt_global_init(void);
void dp_rt_writer_fork_child(void);
void dp_rt_stop(const char *why, const char *detail);
uint64_t dp_rt_now_ns(clockid_t clk);
void dp_rt_say(const char *a, const char *b, const char *c);

/* rt_sample.c: sampling. */
int dp_rt_sample_install(void);
void dp_rt_sample_thread_start(struct dp_rt_thread *th);
void dp_rt_sample_thread_stop(struct dp_rt_thread *th);
int dp_rt_sample_check(void);
void dp_rt_pcs_zero(struct dp_rt_thread *th);

/* rt_write.c: the writer. */
int dp_rt_write(int at_exit);

/* rt_meta.c: the writer's growable mmap'd buffers and what it learns about the process. */
struct dp_rt_buf {
	uint8_t *p;
	size_t len, cap;
	int failed; /* an allocation failed: the content is incomplete */
};
void dp_rt_buf_release(struct dp_rt_buf *b);
void *dp_rt_buf_room(struct dp_rt_buf *b, size_t n);
void dp_rt_buf_num(struct dp_rt_buf *b, uint64_t v);
void dp_rt_buf_nums(struct dp_rt_buf *b, const uint64_t *v, size_t n);
void dp_rt_buf_str(struct dp_rt_buf *b, const char *s, size_t n);
void dp_rt_output_init(void);
int dp_rt_output_names(char *name, char *tmp, size_t len);
void dp_rt_join(char *out, size_t len, const char *a, const char *b, const char *c);
const char *dp_rt_program(void);
uint32_t dp_rt_objects(struct dp_rt_buf *b);
uint32_t dp_rt_cmdline(struct dp_rt_buf *b);
void dp_rt_thread_name(const struct dp_rt_thread *th, char *out, size_t len);

/* rt_region.c: the rest of a region's PSTA record (name, mismatched leaves); fork():
 * @phase 0 before (takes the names' lock), 1 in the parent, 2 in the child (a new lock,
 * mismatched counts from zero). */
void dp_rt_region_put(struct dp_rt_buf *b, uintptr_t fn);
void dp_rt_region_fork(int phase);

#pragma GCC visibility pop

#endif /* DP_RT_INT_H */
