/*
 * core/hash.c - table sizes and the maps of hash.h. The three maps differ only in their
 * keys: MAP_DEFINE writes the probe, the growth and the four functions once for each.
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

/*
 * MAP_DEFINE - the functions of map @M (struct M: slot, size, n; slots struct M##_slot:
 * key of type @K, val) whose keys hash with HASH(key) and compare equal with EQ(x, y):
 * static M##_slot() (where a key is, or the empty slot where it would go; the table is
 * never full; always inlined, so that a key of three words stays in registers),
 * M##_resize() (a table of @size slots, the keys moved into it), M##_get_key() and
 * M##_intern_key() (which doubles the table, from 256 slots, when it would be more than
 * half full); M##_reserve() and M##_free().
 */
#define MAP_DEFINE(M, K, HASH, EQ)                                                                \
	static inline __attribute__((always_inline))                                              \
	uint32_t M##_slot(const struct M##_slot *slot, uint32_t size, K key)                      \
	{                                                                                         \
		uint32_t s = HASH(key) & (size - 1);                                              \
                                                                                                  \
		while (slot[s].val != DP_MAP32_NONE && !EQ(slot[s].key, key))                     \
			s = (s + 1) & (size - 1);                                                 \
		return s;                                                                         \
	}                                                                                         \
                                                                                                  \
	static int M##_resize(struct M *m, uint32_t size)                                         \
	{                                                                                         \
		struct M##_slot *slot = malloc((size_t)size * sizeof(*slot));                     \
                                                                                                  \
		if (!slot)                                                                        \
			return dp_error(DP_ENOMEM, "out of memory growing a table to %u slots",   \
					size);                                                    \
		for (uint32_t i = 0; i < size; i++)                                               \
			slot[i].val = DP_MAP32_NONE;                                              \
		for (uint32_t i = 0; i < m->size; i++)                                            \
			if (m->slot[i].val != DP_MAP32_NONE)                                      \
				slot[M##_slot(slot, size, m->slot[i].key)] = m->slot[i];          \
		free(m->slot);                                                                    \
		m->slot = slot;                                                                   \
		m->size = size;                                                                   \
		return 0;                                                                         \
	}                                                                                         \
                                                                                                  \
	static uint32_t M##_get_key(const struct M *m, K key)                                     \
	{                                                                                         \
		return m->size ? m->slot[M##_slot(m->slot, m->size, key)].val : DP_MAP32_NONE;    \
	}                                                                                         \
                                                                                                  \
	static uint32_t M##_intern_key(struct M *m, K key, uint32_t val)                          \
	{                                                                                         \
		uint32_t s = 0;                                                                   \
                                                                                                  \
		assert(val != DP_MAP32_NONE);                                                     \
		if (m->size) {                                                                    \
			s = M##_slot(m->slot, m->size, key);                                      \
			if (m->slot[s].val != DP_MAP32_NONE)                                      \
				return m->slot[s].val;                                            \
		}                                                                                 \
		if (2 * ((uint64_t)m->n + 1) > m->size) {                                         \
			if (M##_reserve(m, m->n + 1) < 0)                                         \
				return DP_MAP32_NONE;                                             \
			s = M##_slot(m->slot, m->size, key);                                      \
		}                                                                                 \
		m->slot[s].key = key;                                                             \
		m->slot[s].val = val;                                                             \
		m->n++;                                                                           \
		return val;                                                                       \
	}                                                                                         \
                                                                                                  \
	int M##_reserve(struct M *m, uint32_t n)                                                  \
	{                                                                                         \
		uint32_t size = m->size ? m->size : 256;                                          \
                                                                                                  \
		while ((uint64_t)2 * n > size) {                                                  \
			if (size > UINT32_MAX / 4)                                                \
				return dp_error(DP_ENOMEM, "a table of %u keys is too large", n); \
			size *= 2;                                                                \
		}                                                                                 \
		return size == m->size ? 0 : M##_resize(m, size);                                 \
	}                                                                                         \
                                                                                                  \
	void M##_free(struct M *m)                                                                \
	{                                                                                         \
		free(m->slot);                                                                    \
		m->slot = NULL;                                                                   \
		m->size = m->n = 0;                                                               \
	}

#define SAME(x, y) ((x) == (y))

MAP_DEFINE(dp_map32, uint32_t, dp_hash_u64, SAME)

uint32_t dp_map32_get(const struct dp_map32 *m, uint32_t key)
{
	return dp_map32_get_key(m, key);
}

uint32_t dp_map32_intern(struct dp_map32 *m, uint32_t key, uint32_t val)
{
	return dp_map32_intern_key(m, key, val);
}

#define HASH64(k) dp_hash_end(dp_hash_add(0, (k)))

MAP_DEFINE(dp_map64, uint64_t, HASH64, SAME)

uint32_t dp_map64_get(const struct dp_map64 *m, uint64_t key)
{
	return dp_map64_get_key(m, key);
}

uint32_t dp_map64_intern(struct dp_map64 *m, uint64_t key, uint32_t val)
{
	return dp_map64_intern_key(m, key, val);
}

#define HASH3(k)    dp_hash_end(dp_hash_add(dp_hash_add(dp_hash_add(0, (k).a), (k).b), (k).c))
#define SAME3(x, y) ((x).a == (y).a && (x).b == (y).b && (x).c == (y).c)

MAP_DEFINE(dp_map3, struct dp_key3, HASH3, SAME3)

uint32_t dp_map3_get(const struct dp_map3 *m, uint64_t a, uint64_t b, uint64_t c)
{
	return dp_map3_get_key(m, (struct dp_key3){a, b, c});
}

uint32_t dp_map3_intern(struct dp_map3 *m, uint64_t a, uint64_t b, uint64_t c, uint32_t val)
{
	return dp_map3_intern_key(m, (struct dp_key3){a, b, c}, val);
}
