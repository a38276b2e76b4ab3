/*
 * core/hash.h - hashing for open-addressing tables: the one multiplicative hash every
 * table of the tool uses (Fibonacci hashing: the key times 2^64 / phi, the high bits
 * kept), its form for keys of several words, table sizes, and maps to 32-bit values
 * with linear probing, kept at most half full: from 32-bit keys (struct dp_map32), from
 * 64-bit keys (struct dp_map64) and from keys of three 64-bit words (struct dp_map3).
 * Tables with needs of their own (stamped slots, keys kept elsewhere, entries that go
 * stale) use dp_hash_u64() or dp_hash_add() and dp_hash_room() with their own slots.
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

/*
 * dp_hash_add - a key of several words hashed word by word: running hash @h (0 before the
 * first word) times the multiplier of dp_hash_u64(), plus word @w. A sum of products has
 * bad low bits: end with dp_hash_end().
 */
static inline uint64_t dp_hash_add(uint64_t h, uint64_t w)
{
	return h * DP_HASH_MUL + w;
}

/* dp_hash_end - 32 well-mixed bits of running hash @h: every bit of it moved into the low
 * ones that a table's slot takes (the first half of murmur3's 64-bit finaliser). */
static inline uint32_t dp_hash_end(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xFF51AFD7ED558CCDull;
	h ^= h >> 33;
	return (uint32_t)h;
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

#define DP_MAP32_NONE UINT32_MAX /* the one value a map cannot hold (any of the three) */

/* dp_map32_get - the value of @key in @m, or DP_MAP32_NONE. */
uint32_t dp_map32_get(const struct dp_map32 *m, uint32_t key);

/*
 * dp_map32_intern - the value of @key in @m; when @key is new, @val (not DP_MAP32_NONE)
 * becomes its value and is returned. Grows the map as needed.
 * Return: the value, or DP_MAP32_NONE when out of memory (message set; @m unchanged).
 */
uint32_t dp_map32_intern(struct dp_map32 *m, uint32_t key, uint32_t val);

/*
 * dp_map32_reserve - room in @m for @n keys without growing (a caller that knows how
 * many keys come saves the copies of growth).
 * Return: 0, or -DP_ENOMEM (message set; @m unchanged).
 */
int dp_map32_reserve(struct dp_map32 *m, uint32_t n);

/* dp_map32_free - free what @m holds and make it empty. */
void dp_map32_free(struct dp_map32 *m);

/* A map from uint64_t keys to uint32_t values, as struct dp_map32; zero-initialised it is
 * empty. */
struct dp_map64 {
	struct dp_map64_slot {
		uint64_t key;
		uint32_t val; /* DP_MAP32_NONE: an empty slot */
	} * slot;
	uint32_t size, n;
};

/* dp_map64_get, dp_map64_intern, dp_map64_reserve, dp_map64_free - as dp_map32_get(),
 * dp_map32_intern(), dp_map32_reserve() and dp_map32_free(), for 64-bit keys. */
uint32_t dp_map64_get(const struct dp_map64 *m, uint64_t key);
uint32_t dp_map64_intern(struct dp_map64 *m, uint64_t key, uint32_t val);
int dp_map64_reserve(struct dp_map64 *m, uint32_t n);
void dp_map64_free(struct dp_map64 *m);

/* A key of three 64-bit words (ids, addresses; unused words 0). */
struct dp_key3 {
	uint64_t a, b, c;
};

/* A map from struct dp_key3 keys to uint32_t values, as struct dp_map32; zero-initialised
 * it is empty. */
struct dp_map3 {
	struct dp_map3_slot {
		struct dp_key3 key;
		uint32_t val; /* DP_MAP32_NONE: an empty slot */
	} * slot;
	uint32_t size, n;
};

/* dp_map3_get, dp_map3_intern, dp_map3_reserve, dp_map3_free - as dp_map32_get(),
 * dp_map32_intern(), dp_map32_reserve() and dp_map32_free(), for the key (@a, @b, @c). */
uint32_t dp_map3_get(const struct dp_map3 *m, uint64_t a, uint64_t b, uint64_t c);
uint32_t dp_map3_intern(struct dp_map3 *m, uint64_t a, uint64_t b, uint64_t c, uint32_t val);
int dp_map3_reserve(struct dp_map3 *m, uint32_t n);
void dp_map3_free(struct dp_map3 *m);

#endif /* DP_CORE_HASH_H */
