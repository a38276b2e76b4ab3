/*
 * runtime/rt_tab.c - the PDs' CSD tables (struct dp_rt_pd): each PD's callees' CSDs in a
 * table of its own, open addressing from dp_rt_home, grown by doubling. Small tables
 * come from per-thread chunks, bump-allocated, and return to a free list per size when
 * their PD's table grows; bigger ones are mappings of their own. A thread's tables go
 * when it ends (its nodes stay for the writer). Slow paths only; built without vector
 * registers, as the code the stubs' slow path runs (rt_stub.c).
 */
#define _GNU_SOURCE
#include <stdint.h>

#include "rt_int.h"

#define DP_RT_TAB_CHUNK ((size_t)256 << 10)
/* Tables up to this size come from the chunks. */
#define DP_RT_TAB_SMALL_LG 11 /* 2048 slots, 16 KiB */
/* A table's slots when its PD gets its first callee. */
#define DP_RT_TAB_MIN 4
/* A table smaller than this doubles rather than put a new CSD past its first slot, which
 * the enter hooks' fast paths read alone: the few callees of most contexts (fib's two
 * calls of itself) then never push each other out of it. */
#define DP_RT_TAB_SPREAD 64
/* The header of a chunk or of a big table's mapping (a page, before the table). */
#define DP_RT_TAB_HEAD ((size_t)4096)

struct dp_rt_tab_map {
	struct dp_rt_tab_map *next, *prev;
	size_t bytes;
};

/* The table of a PD without callees: one empty slot. */
struct dp_rt_csd *dp_rt_no_tab[1] = {&dp_rt_idle_csd};

/* A table of 2^@lg slots, all empty, or NULL after stopping. */
DP_RT_NOINST static struct dp_rt_csd **dp_rt_tab_alloc(struct dp_rt_tabs *tb, unsigned lg)
{
	size_t slots = (size_t)1 << lg, bytes = slots * sizeof(struct dp_rt_csd *);
	struct dp_rt_tab_map *m;
	struct dp_rt_csd **tab;

	if (lg <= DP_RT_TAB_SMALL_LG && (tab = tb->free[lg])) {
		tb->free[lg] = (struct dp_rt_csd **)(void *)tab[0];
	} else if (lg <= DP_RT_TAB_SMALL_LG) {
		if ((size_t)(tb->end - tb->room) < bytes) {
			m = dp_rt_map(DP_RT_TAB_CHUNK, 1);
			if (!m)
				return NULL;
			m->bytes = DP_RT_TAB_CHUNK;
			m->next = tb->maps;
			if (tb->maps)
				tb->maps->prev = m;
			tb->maps = m;
			tb->room = (char *)m + sizeof(*m);
			tb->end = (char *)m + DP_RT_TAB_CHUNK;
		}
		tab = (struct dp_rt_csd **)(void *)tb->room;
		tb->room += bytes;
	} else {
		m = dp_rt_map(DP_RT_TAB_HEAD + bytes, 1);
		if (!m)
			return NULL;
		m->bytes = DP_RT_TAB_HEAD + bytes;
		m->next = tb->maps;
		if (tb->maps)
			tb->maps->prev = m;
		tb->maps = m;
		tab = (struct dp_rt_csd **)(void *)((char *)m + DP_RT_TAB_HEAD);
	}
	for (size_t i = 0; i < slots; i++)
		tab[i] = &dp_rt_idle_csd;
	return tab;
}

/* Give back the table @tab of 2^@lg slots. */
DP_RT_NOINST static void dp_rt_tab_free(struct dp_rt_tabs *tb, struct dp_rt_csd **tab, unsigned lg)
{
	struct dp_rt_tab_map *m;

	if (tab == dp_rt_no_tab)
		return;
	if (lg <= DP_RT_TAB_SMALL_LG) {
		tab[0] = (struct dp_rt_csd *)(void *)tb->free[lg];
		tb->free[lg] = tab;
		return;
	}
	m = (struct dp_rt_tab_map *)(void *)((char *)tab - DP_RT_TAB_HEAD);
	if (m->prev)
		m->prev->next = m->next;
	else
		tb->maps = m->next;
	if (m->next)
		m->next->prev = m->prev;
	dp_rt_unmap(m, m->bytes, 1);
}

/* log2 of the number of slots of @pd's table. */
DP_RT_NOINST static unsigned dp_rt_tab_lg(const struct dp_rt_pd *pd)
{
	return (unsigned)__builtin_ctzll((uint64_t)(pd->mask / sizeof(*pd->tab) + 1));
}

/* Put @csd into @pd's table at the first free slot from its home. */
DP_RT_NOINST static void dp_rt_tab_put(struct dp_rt_pd *pd, struct dp_rt_csd *csd)
{
	uintptr_t h = dp_rt_home(dp_rt_key(csd->site, csd->fn), pd->mask);

	while (*dp_rt_slot(pd, h) != &dp_rt_idle_csd)
		h = (h + sizeof(*pd->tab)) & pd->mask;
	*dp_rt_slot(pd, h) = csd;
}

/* Move @pd's CSDs into a table of 2^@lg slots. Returns 0 or -1 (stopped). */
DP_RT_NOINST static int dp_rt_tab_grow(struct dp_rt_tabs *tb, struct dp_rt_pd *pd, unsigned lg)
{
	struct dp_rt_csd **old = pd->tab, **tab = dp_rt_tab_alloc(tb, lg);
	unsigned old_lg = dp_rt_tab_lg(pd);

	if (!tab)
		return -1;
	pd->tab = tab;
	pd->mask = (((uintptr_t)1 << lg) - 1) * sizeof(*tab);
	for (size_t i = 0; old != dp_rt_no_tab && i < (size_t)1 << old_lg; i++)
		if (old[i] != &dp_rt_idle_csd)
			dp_rt_tab_put(pd, old[i]);
	dp_rt_tab_free(tb, old, old_lg);
	return 0;
}

/*
 * dp_rt_tab_reserve - the slot of @pd's table (in @th's memory) that a new CSD of key
 * @key (dp_rt_key) takes: the table grown first if it would be over half full, or if
 * the key's first slot is taken while the table is small (DP_RT_TAB_SPREAD). NULL after
 * stopping. The caller stores the CSD there and counts it in pd->n.
 */
DP_RT_NOINST struct dp_rt_csd **dp_rt_tab_reserve(struct dp_rt_thread *th, struct dp_rt_pd *pd,
						  uintptr_t key)
{
	uintptr_t h;

	if (pd->tab == dp_rt_no_tab) {
		unsigned lg = 0;

		while (((size_t)1 << lg) < DP_RT_TAB_MIN)
			lg++;
		if (dp_rt_tab_grow(&th->tabs, pd, lg) != 0)
			return NULL;
	} else if ((pd->n + 1) * 2 > pd->mask / sizeof(*pd->tab) + 1 &&
		   dp_rt_tab_grow(&th->tabs, pd, dp_rt_tab_lg(pd) + 1) != 0) {
		return NULL;
	}
	while (*dp_rt_slot(pd, (h = dp_rt_home(key, pd->mask))) != &dp_rt_idle_csd &&
	       pd->mask / sizeof(*pd->tab) + 1 < DP_RT_TAB_SPREAD)
		if (dp_rt_tab_grow(&th->tabs, pd, dp_rt_tab_lg(pd) + 1) != 0)
			return NULL;
	while (*dp_rt_slot(pd, h) != &dp_rt_idle_csd)
		h = (h + sizeof(*pd->tab)) & pd->mask;
	return dp_rt_slot(pd, h);
}

/* dp_rt_tabs_release - unmap all of a thread's tables (it has ended). */
DP_RT_NOINST void dp_rt_tabs_release(struct dp_rt_tabs *tb)
{
	struct dp_rt_tab_map *m = tb->maps, *next;

	for (; m; m = next) {
		next = m->next;
		dp_rt_unmap(m, m->bytes, 1);
	}
	tb->maps = NULL;
	tb->room = tb->end = NULL;
	for (int i = 0; i <= DP_RT_TAB_SMALL_LG; i++)
		tb->free[i] = NULL;
}
