/*
 * core/hash.c - table sizes and the 32-bit map of hash.h.
 */
#include "hash.h"

#include <assert.h>
#include <stdlib.h>

#include "err.h"

size_t dp_hash_room(size_t n)
{
	size_t size = 16;

	while (size < 2 * n)
		size *= 2;
	return size;
}

/* The slot of @key in a table of @size slots: where it is, or the empty one where it
 * would go. The table is never full. */
static uint32_t map_slot(const struct dp_map32_slot *slot, uint32_t size, uint32_t key)
{
	uint32_t s = dp_hash_u64(key) & (size - 1);

	while (slot[s].val != DP_MAP32_NONE && slot[s].key != key)
		s = (s + 1) & (size - 1);
	return s;
}

uint32_t dp_map32_get(const struct dp_map32 *m, uint32_t key)
{
	return m->size ? m->slot[map_slot(m->slot, m->size, key)].val : DP_MAP32_NONE;
}

/* map_grow - a table twice as big (256 slots at first), the keys moved into it */
static int map_grow(struct dp_map32 *m)
{
	uint32_t size = m->size ? 2 * m->size : 256;
	struct dp_map32_slot *slot;

	if (m->size > UINT32_MAX / 4)
		return dp_error(DP_ENOMEM, "a table of %u keys is too large", m->n);
	slot = malloc((size_t)size * sizeof(*slot));
	if (!slot)
		return dp_error(DP_ENOMEM, "out of memory growing a table to %u slots", size);
	for (uint32_t i = 0; i < size; i++)
		slot[i].val = DP_MAP32_NONE;
	for (uint32_t i = 0; i < m->size; i++)
		if (m->slot[i].val != DP_MAP32_NONE)
			slot[map_slot(slot, size, m->slot[i].key)] = m->slot[i];
	free(m->slot);
	m->slot = slot;
	m->size = size;
	return 0;
}

uint32_t dp_map32_intern(struct dp_map32 *m, uint32_t key, uint32_t val)
{
	uint32_t s;

	assert(val != DP_MAP32_NONE);
	if (m->size) {
		s = map_slot(m->slot, m->size, key);
		if (m->slot[s].val != DP_MAP32_NONE)
			return m->slot[s].val;
	}
	if (2 * ((uint64_t)m->n + 1) > m->size && map_grow(m) < 0)
		return DP_MAP32_NONE;
	s = map_slot(m->slot, m->size, key);
	m->slot[s].key = key;
	m->slot[s].val = val;
	m->n++;
	return val;
}

void dp_map32_free(struct dp_map32 *m)
{
	free(m->slot);
	m->slot = NULL;
	m->size = m->n = 0;
}
