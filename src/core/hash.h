/*
 * core/hash.h - hashing for open-addressing tables: the one multiplicative hash every
 * table of the tool uses (Fibonacci hashing: the key times 2^64 / phi, the high bits
 * kept), table sizes, and a map from 32-bit keys to 32-bit values with linear probing,
 * kept at most half full. Tables with needs of their own (stamped slots, keys kept
 * elsewhere) use dp_hash_u64() and dp_hash_room() with their own slots.
 * Depends on err.
 */
#ifndef DP_CORE_HASH_H
#define DP_CORE_HASH_H

#include <stddef.h>
#include <stdint.h>

/* 2^64 / the golden ratio, odd */
#define DP_HASH_MUL 0x9E3779B97F4A7C15ull

/* dp_hash_u64 - 32 well-mixed bits of @key: the high half of key * DP_HASH_MUL. A table
 * of 2^k slots takes its low k bits. */
static inline uint32_t dp_hash_u64(uint64_t key)
{
	return (uint32_t)((key * DP_HASH_MUL) >> 32);
}

/* dp_hash_room - the slots of a table for @n keys: the smallest power of two that is at
 * least 2 * @n and at least 16 (so that linear probes stay short). */
size_t dp_hash_room(size_t n);

/* A map from uint32_t keys to uint32_t values; zero-initialised it is empty. */
struct dp_map32 {
	struct dp_map32_slot {
		uint32_t key, val; /* val DP_MAP32_NONE: an empty slot */
	} * slot;
	uint32_t size; /* slots: 0 or a power of two, at least twice n */
	uint32_t n;    /* keys held */
};

#define DP_MAP32_NONE UINT32_MAX /* the one value a map cannot hold */

/* dp_map32_get - the value of @key in @m, or DP_MAP32_NONE. */
uint32_t dp_map32_get(const struct dp_map32 *m, uint32_t key);

/*
 * dp_map32_intern - the value of @key in @m; when @key is new, @val (not DP_MAP32_NONE)
 * becomes its value and is returned. Grows the map as needed.
 * Return: the value, or DP_MAP32_NONE when out of memory (message set; @m unchanged).
 */
uint32_t dp_map32_intern(struct dp_map32 *m, uint32_t key, uint32_t val);

/* dp_map32_free - free what @m holds and make it empty. */
void dp_map32_free(struct dp_map32 *m);

#endif /* DP_CORE_HASH_H */
