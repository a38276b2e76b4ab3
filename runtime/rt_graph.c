/*
 * runtime/rt_graph.c - the per-thread graph's memory and lookup structures, all on the
 * slow path: mmap'd node chunks (with the DEEPPROF_MAX_MB budget), the fn -> PS table,
 * CSD/PD creation (into the caller PD's table: rt_tab.c), and shadow-stack growth.
 * Never calls malloc; nodes are published with release stores for the writer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "rt_int.h"

#define DP_RT_CHUNK_MIN	  (16u << 10)
#define DP_RT_CHUNK_MAX	  (2u << 20)
#define DP_RT_STACK_MAX	  ((size_t)1 << 25) /* entries: 1 GiB of shadow stack */
#define DP_RT_PS_TAB_INIT 64u

/*
 * dp_rt_map - @bytes of zeroed anonymous memory, or NULL after stopping collection.
 * @counted charges the DEEPPROF_MAX_MB budget. Keeps errno.
 */
DP_RT_NOINST void *dp_rt_map(size_t bytes, int counted)
{
	int saved = errno;
	void *p;

	if (counted) {
		uint64_t used = __atomic_add_fetch(&dp_rt_g.used_bytes, bytes, __ATOMIC_RELAXED);

		if (used > dp_rt_g.max_bytes) {
			__atomic_sub_fetch(&dp_rt_g.used_bytes, bytes, __ATOMIC_RELAXED);
			dp_rt_stop("profile memory over DEEPPROF_MAX_MB", NULL);
			errno = saved;
			return NULL;
		}
	}
	p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		if (counted)
			__atomic_sub_fetch(&dp_rt_g.used_bytes, bytes, __ATOMIC_RELAXED);
		dp_rt_stop("out of memory (mmap failed)", NULL);
		p = NULL;
	}
	errno = saved;
	return p;
}

/* dp_rt_unmap - give back memory from dp_rt_map() with the same @bytes and @counted. */
DP_RT_NOINST void dp_rt_unmap(void *p, size_t bytes, int counted)
{
	int saved = errno;

	if (!p)
		return;
	munmap(p, bytes);
	if (counted)
		__atomic_sub_fetch(&dp_rt_g.used_bytes, bytes, __ATOMIC_RELAXED);
	errno = saved;
}

/* A chunk of DP_RT_CSD_CHUNK bytes aligned to that size (dp_rt_cold), or NULL. */
DP_RT_NOINST static void *dp_rt_map_csd_chunk(void)
{
	char *p = dp_rt_map(2 * DP_RT_CSD_CHUNK, 1);
	uintptr_t head;

	if (!p)
		return NULL;
	head = (DP_RT_CSD_CHUNK - ((uintptr_t)p & (DP_RT_CSD_CHUNK - 1))) & (DP_RT_CSD_CHUNK - 1);
	if (head)
		dp_rt_unmap(p, head, 0);
	dp_rt_unmap(p + head + DP_RT_CSD_CHUNK, DP_RT_CSD_CHUNK - head, 0);
	__atomic_sub_fetch(&dp_rt_g.used_bytes, DP_RT_CSD_CHUNK, __ATOMIC_RELAXED);
	return p + head;
}

/* A new zeroed node at the end of @n; publish it with dp_rt_node_publish(). */
DP_RT_NOINST static void *dp_rt_node_alloc(struct dp_rt_nodes *n)
{
	struct dp_rt_chunk *c = n->tail, *nc;

	if (!c || c->used == c->cap) {
		size_t bytes = n->fixed ? DP_RT_CSD_CHUNK : c ? c->bytes * 2 : DP_RT_CHUNK_MIN;

		if (bytes > DP_RT_CHUNK_MAX)
			bytes = DP_RT_CHUNK_MAX;
		nc = n->fixed ? dp_rt_map_csd_chunk() : dp_rt_map(bytes, 1);
		if (!nc)
			return NULL;
		nc->bytes = bytes;
		nc->cap = (uint32_t)(n->fixed ? DP_RT_CSD_CAP : (bytes - sizeof(*nc)) / n->size);
		nc->ordinal = c ? c->ordinal + 1 : 0;
		if (c)
			DP_RT_STORE_REL(&c->next, nc);
		else
			DP_RT_STORE_REL(&n->head, nc);
		n->tail = nc;
		c = nc;
	}
	return (char *)(c + 1) + (size_t)c->used++ * n->size;
}

DP_RT_NOINST static void dp_rt_node_publish(struct dp_rt_nodes *n)
{
	DP_RT_STORE_REL(&n->count, n->count + 1);
}

/* dp_rt_iter_init - iterate over the first @count nodes of @n (count read by the caller
 * with an acquire load, so that those nodes are complete). */
DP_RT_NOINST void dp_rt_iter_init(struct dp_rt_iter *it, const struct dp_rt_nodes *n,
				  uint32_t count)
{
	it->chunk = DP_RT_LOAD_ACQ(&n->head);
	it->i = n->lead;
	it->left = count;
	it->size = n->size;
}

/* dp_rt_iter_next - the next node, or NULL after the last. */
DP_RT_NOINST void *dp_rt_iter_next(struct dp_rt_iter *it)
{
	if (!it->left || !it->chunk)
		return NULL;
	if (it->i == it->chunk->cap) {
		it->chunk = DP_RT_LOAD_ACQ(&it->chunk->next);
		it->i = 0;
		if (!it->chunk)
			return NULL;
	}
	it->left--;
	return (char *)(it->chunk + 1) + (size_t)it->i++ * it->size;
}

DP_RT_NOINST static uint32_t dp_rt_ps_slot(uintptr_t fn, uint32_t cap)
{
	return (uint32_t)(((uint64_t)fn * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

DP_RT_NOINST static int dp_rt_ps_tab_grow(struct dp_rt_thread *th)
{
	uint32_t cap = th->ps_cap * 2, i, h;
	struct dp_rt_ps **tab = dp_rt_map(cap * sizeof(*tab), 1);

	if (!tab)
		return -1;
	for (i = 0; i < th->ps_cap; i++) {
		struct dp_rt_ps *ps = th->ps_tab[i];

		if (!ps)
			continue;
		for (h = dp_rt_ps_slot(ps->fn, cap); tab[h]; h = (h + 1) & (cap - 1))
			;
		tab[h] = ps;
	}
	dp_rt_unmap(th->ps_tab, th->ps_cap * sizeof(*tab), 1);
	th->ps_tab = tab;
	th->ps_cap = cap;
	return 0;
}

/* The thread's PS of function key @fn, created if new (@stub: the key is an entry stub's
 * return address, whose function's entry the PS records); NULL after stopping. */
DP_RT_NOINST static struct dp_rt_ps *dp_rt_ps_get(struct dp_rt_thread *th, uintptr_t fn, int stub)
{
	struct dp_rt_ps *ps;
	uint32_t h;

	for (h = dp_rt_ps_slot(fn, th->ps_cap); (ps = th->ps_tab[h]);
	     h = (h + 1) & (th->ps_cap - 1))
		if (ps->fn == fn)
			return ps;
	if ((th->ps.count + 1) * 2 > th->ps_cap) {
		if (dp_rt_ps_tab_grow(th) != 0)
			return NULL;
		for (h = dp_rt_ps_slot(fn, th->ps_cap); th->ps_tab[h];
		     h = (h + 1) & (th->ps_cap - 1))
			;
	}
	ps = dp_rt_node_alloc(&th->ps);
	if (!ps)
		return NULL;
	ps->fn = fn;
	ps->entry = stub ? dp_rt_stub_entry(fn) : fn;
	ps->index = th->ps.count;
	th->ps_tab[h] = ps;
	dp_rt_node_publish(&th->ps);
	return ps;
}

/*
 * The PD of the innermost active activation of function @fn (its key), or NULL. Recursion
 * folds, so it is also the outermost one's unless the function is reached through a CSD
 * created before it was active. The hooks keep no per-PS state: a search down the shadow
 * stack on CSD creation (rare) instead of a save and a restore on every call; it stops at
 * once for direct recursion, and compares the entries' own keys (a tail-call marker's is
 * a frame address, and its frame address 0), reading no CSD.
 */
DP_RT_NOINST static struct dp_rt_pd *dp_rt_active_pd(const struct dp_rt_tls *t, uintptr_t fn)
{
	const struct dp_rt_frame *e;

	for (e = t->top; e > t->th->stack; e--)
		if (e->fn == fn && e->fp)
			return e->pd;
	return NULL;
}

/* PD and CSD creation proper; the caller keeps errno and the inside flag. */
DP_RT_NOINST static struct dp_rt_csd *dp_rt_csd_new(struct dp_rt_tls *t, struct dp_rt_pd *caller,
						    uintptr_t site, uintptr_t fn, int stub)
{
	struct dp_rt_thread *th = t->th;
	struct dp_rt_csd **slot = dp_rt_tab_reserve(th, caller, dp_rt_key(site, fn));
	struct dp_rt_ps *ps;
	struct dp_rt_pd *callee;
	struct dp_rt_csd *csd;

	if (!slot)
		return NULL;
	ps = dp_rt_ps_get(th, fn, stub);
	if (!ps)
		return NULL;
	/* Mercury's call port: reuse the PD of fn's active activation (recursion), else
	 * a new PD. The callee never changes after this. */
	callee = dp_rt_active_pd(t, fn);
	if (!callee) {
		callee = dp_rt_node_alloc(&th->pd);
		if (!callee)
			return NULL;
		callee->tab = dp_rt_no_tab;
		callee->ps = ps;
		callee->index = th->pd.count;
		dp_rt_node_publish(&th->pd);
	}
	csd = dp_rt_node_alloc(&th->csd);
	if (!csd)
		return NULL;
	csd->site = site;
	csd->fn = fn;
	csd->caller = caller;
	csd->callee = callee;
	csd->ps = ps;
	*slot = csd;
	caller->n++;
	dp_rt_node_publish(&th->csd);
	return csd;
}

/*
 * dp_rt_ps_note - make sure the calling thread's graph has a PS for @fn (a region named
 * by a mismatched leave only, which the file must still list with its count).
 */
DP_RT_NOINST void dp_rt_ps_note(struct dp_rt_tls *t, uintptr_t fn)
{
	t->inside = 1;
	if (!dp_rt_g.stopped)
		(void)dp_rt_ps_get(t->th, fn, 0);
	t->inside = 0;
}

/*
 * dp_rt_csd_create - the CSD of (@caller, @site, @fn) in the calling thread, created with
 * its callee PD set (Mercury's call port); @stub: @fn is an entry stub's key
 * (dp_rt_ps_get). Returns NULL if collection stopped.
 */
DP_RT_NOINST struct dp_rt_csd *dp_rt_csd_create(struct dp_rt_tls *t, struct dp_rt_pd *caller,
						uintptr_t site, uintptr_t fn, int stub)
{
	struct dp_rt_csd *csd = NULL;

	t->inside = 1;
	if (!dp_rt_g.stopped)
		csd = dp_rt_csd_new(t, caller, site, fn, stub);
	if (!csd)
		t->th->lost_calls++;
	t->inside = 0;
	return csd;
}

/*
 * dp_rt_stack_grow - double the calling thread's shadow stack (mremap). Returns 0, or -1
 * after stopping collection (the call is then counted as lost).
 */
DP_RT_NOINST int dp_rt_stack_grow(struct dp_rt_tls *t)
{
	struct dp_rt_thread *th = t->th;
	size_t off = (size_t)(t->top - th->stack), cap = th->stack_cap * 2;
	int saved = errno;
	void *p;

	t->inside = 1;
	if (cap > DP_RT_STACK_MAX) {
		dp_rt_stop("shadow stack over 2^25 activations", NULL);
		goto fail;
	}
	p = mremap(th->stack, th->stack_cap * sizeof(*th->stack), cap * sizeof(*th->stack),
		   MREMAP_MAYMOVE);
	if (p == MAP_FAILED) {
		dp_rt_stop("cannot grow the shadow stack (mremap failed)", NULL);
		goto fail;
	}
	th->stack = p;
	th->stack_cap = cap;
	t->top = th->stack + off;
	t->limit = th->stack + cap;
	t->last = t->limit - 1;
	t->inside = 0;
	errno = saved;
	return 0;
fail:
	th->lost_calls++;
	t->inside = 0;
	errno = saved;
	return -1;
}

/*
 * dp_rt_graph_init - set up @th's empty graph (thread root PS and PD, the root CSD,
 * lookup tables, shadow stack with its sentinel) and the hot fields of @t (t->limit, set,
 * gives the thread state). Returns 0 or -1 (collection stopped).
 */
DP_RT_NOINST int dp_rt_graph_init(struct dp_rt_thread *th, struct dp_rt_tls *t)
{
	struct dp_rt_ps *ps;
	struct dp_rt_pd *pd;

	th->ps.size = sizeof(struct dp_rt_ps);
	th->pd.size = sizeof(struct dp_rt_pd);
	th->csd.size = sizeof(struct dp_rt_csd);
	th->csd.fixed = 1;
	th->csd.lead = 1;
	th->ps_cap = DP_RT_PS_TAB_INIT;
	th->stack_cap = 1024;
	th->ps_tab = dp_rt_map(th->ps_cap * sizeof(*th->ps_tab), 1);
	th->stack = dp_rt_map(th->stack_cap * sizeof(*th->stack), 0);
	ps = dp_rt_node_alloc(&th->ps);
	pd = dp_rt_node_alloc(&th->pd);
	th->root_csd = dp_rt_node_alloc(&th->csd); /* never counted: csd.lead */
	if (!th->ps_tab || !th->stack || !ps || !pd || !th->root_csd)
		return -1;
	dp_rt_node_publish(&th->ps);
	pd->tab = dp_rt_no_tab;
	pd->ps = ps;
	dp_rt_node_publish(&th->pd);
	th->root_csd->callee = pd;
	th->root_csd->ps = ps;
	th->root_csd->calls = 1;
	th->stack[0].csd = th->root_csd;
	th->stack[0].pd = pd;
	th->stack[0].fp = UINTPTR_MAX;
	th->stack[0].fn = 0; /* matches no function */
	t->top = th->stack;
	t->limit = th->stack + th->stack_cap;
	t->last = t->limit - 1;
	t->th = th;
	return 0;
}
