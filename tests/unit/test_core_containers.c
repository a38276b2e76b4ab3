/*
 * test_core_containers.c - unit tests of core/'s containers: growable arrays (vec.h),
 * the hash and the maps (hash.h), the merge sort, selection by rank and k-th
 * largest (sort.h), each against a plain, obviously right version on random inputs.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "core/hash.h"
#include "core/sort.h"
#include "core/vec.h"
#include "harness.h"

static uint64_t rng = 88172645463325252ull;

static uint32_t rnd(uint32_t below)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % below);
}

TEST(vec_grows_by_doubling)
{
	uint32_t *v = NULL, cap = 0;

	CHECK_EQ(DP_VEC_GROW(v, cap, 0), 0);
	CHECK(v == NULL && cap == 0); /* nothing needed: nothing allocated */
	CHECK_EQ(DP_VEC_GROW(v, cap, 1), 0);
	CHECK_EQ(cap, 16);
	for (uint32_t i = 0; i < 16; i++)
		v[i] = i;
	CHECK_EQ(DP_VEC_GROW(v, cap, 16), 0);
	CHECK_EQ(cap, 16); /* room enough */
	CHECK_EQ(DP_VEC_GROW(v, cap, 100), 0);
	CHECK_EQ(cap, 128);
	for (uint32_t i = 0; i < 16; i++)
		CHECK_EQ(v[i], i); /* kept */
	free(v);
}

TEST(vec_growz_by_doubling)
{
	uint8_t *b = NULL;
	size_t cap = 0;

	CHECK_EQ(DP_VEC_GROWZ(b, cap, 0), 0);
	CHECK(b == NULL && cap == 0);
	CHECK_EQ(DP_VEC_GROWZ(b, cap, 17), 0);
	CHECK_EQ(cap, 32);
	memset(b, 7, 17);
	CHECK_EQ(DP_VEC_GROWZ(b, cap, 5000), 0);
	CHECK_EQ(cap, 8192);
	for (uint32_t i = 0; i < 17; i++)
		CHECK_EQ(b[i], 7);				      /* kept */
	CHECK_EQ(DP_VEC_GROWZ(b, cap, SIZE_MAX / 2 + 2), -DP_ENOMEM); /* no power of two */
	CHECK_EQ(cap, 8192);					      /* unchanged */
	CHECK_EQ(b[16], 7);
	free(b);
}

TEST(hash_room_and_spread)
{
	uint32_t hit[64] = {0}, max = 0;

	CHECK_EQ(dp_hash_room(0), 16);
	CHECK_EQ(dp_hash_room(8), 16);
	CHECK_EQ(dp_hash_room(9), 32);
	CHECK_EQ(dp_hash_room(1000), 2048);
	/* consecutive ids, the tables' usual keys, spread over the low bits */
	for (uint32_t k = 1; k <= 6400; k++)
		hit[dp_hash_u64(k) & 63]++;
	for (uint32_t i = 0; i < 64; i++)
		max = hit[i] > max ? hit[i] : max;
	CHECK(max < 2 * 100);
}

/* The words hashed by dp_hash_add(), as keys of 1 to 3 words; @step: word 0's,
 * word 1's or word 2's increment, the others fixed. */
static uint32_t hash_words(uint32_t words, uint32_t step, uint64_t k)
{
	uint64_t w[3] = {5, 0xffff0000u, 1ull << 40}, h = 0;

	w[step] += k << (step == 2 ? 32 : 4); /* high words and aligned addresses too */
	for (uint32_t i = 0; i < words; i++)
		h = dp_hash_add(h, w[i]);
	return dp_hash_end(h);
}

TEST(hash_words_spread)
{
	/* keys that differ in one word only, in its low or high bits, fill 64 slots evenly */
	for (uint32_t words = 1; words <= 3; words++) {
		for (uint32_t step = 0; step < words; step++) {
			uint32_t hit[64] = {0}, max = 0;

			for (uint64_t k = 0; k < 6400; k++)
				hit[hash_words(words, step, k) & 63]++;
			for (uint32_t i = 0; i < 64; i++)
				max = hit[i] > max ? hit[i] : max;
			CHECK(max < 2 * 100);
		}
	}
	CHECK(dp_hash_end(dp_hash_add(dp_hash_add(0, 1), 2)) !=
	      dp_hash_end(dp_hash_add(dp_hash_add(0, 2), 1))); /* the order counts */
}

TEST(map32_against_array)
{
	enum { KEYS = 5000 };
	static uint32_t val_of[KEYS];
	struct dp_map32 m = {0};
	uint32_t n = 0;

	CHECK_EQ(dp_map32_get(&m, 7), DP_MAP32_NONE); /* empty, no table yet */
	for (uint32_t i = 0; i < KEYS; i++)
		val_of[i] = DP_MAP32_NONE;
	for (uint32_t round = 0; round < 40000; round++) {
		uint32_t key = rnd(KEYS), got = dp_map32_intern(&m, key * 7919u, n);

		if (val_of[key] == DP_MAP32_NONE) {
			CHECK_EQ(got, n); /* new: the value given */
			val_of[key] = n++;
		} else {
			CHECK_EQ(got, val_of[key]); /* old: its value, not the one given */
		}
	}
	CHECK_EQ(m.n, n);
	CHECK(m.size >= 2 * m.n && (m.size & (m.size - 1)) == 0);
	for (uint32_t i = 0; i < KEYS; i++)
		CHECK_EQ(dp_map32_get(&m, i * 7919u), val_of[i]);
	CHECK_EQ(dp_map32_get(&m, 1), DP_MAP32_NONE); /* not a multiple of 7919 */
	dp_map32_free(&m);
	CHECK(m.slot == NULL && m.n == 0 && m.size == 0);
	CHECK_EQ(dp_map32_intern(&m, 0, 3), 3); /* usable again; 0 is a key like any */
	CHECK_EQ(dp_map32_get(&m, 0), 3);
	dp_map32_free(&m);
}

/* dp_map64 and dp_map3 against an array, as map32_against_array: keys that differ only in
 * their high bits (map64) or in one of their words (map3), so that a probe comparing part
 * of a key fails; a reserved map that does not grow, a reserve that moves a full map. */
TEST(map64_map3_against_array)
{
	enum { KEYS = 3000 };
	static uint32_t val_of[KEYS];
	struct dp_map64 m = {0};
	struct dp_map3 t = {0};
	uint32_t n = 0;

	CHECK_EQ(dp_map64_get(&m, 7), DP_MAP32_NONE);
	CHECK_EQ(dp_map3_get(&t, 7, 0, 0), DP_MAP32_NONE);
	CHECK_EQ(dp_map64_reserve(&m, KEYS), 0); /* room made at once: no growth below */
	CHECK_EQ(m.size, 8192);
	CHECK_EQ(dp_map64_get(&m, 7), DP_MAP32_NONE);
	for (uint32_t i = 0; i < KEYS; i++)
		val_of[i] = DP_MAP32_NONE;
	for (uint32_t round = 0; round < 30000; round++) {
		uint32_t key = rnd(KEYS), v, w;
		/* key: 3 values of a, 10 of b, 100 of c */
		uint64_t a = key % 3, b = (key / 3) % 10 * 0x100000000ull, c = key / 30;

		v = dp_map64_intern(&m, (uint64_t)key << 32 | 5, n);
		w = dp_map3_intern(&t, a, b, c, n);
		if (val_of[key] == DP_MAP32_NONE) {
			CHECK_EQ(v, n);
			CHECK_EQ(w, n);
			val_of[key] = n++;
		} else {
			CHECK_EQ(v, val_of[key]);
			CHECK_EQ(w, val_of[key]);
		}
	}
	CHECK_EQ(m.n, n);
	CHECK_EQ(m.size, 8192);
	CHECK_EQ(t.n, n);
	CHECK(t.size >= 2 * t.n && (t.size & (t.size - 1)) == 0);
	CHECK_EQ(dp_map3_reserve(&t, 5 * KEYS), 0); /* a full map moved to a bigger table */
	CHECK_EQ(t.size, 32768);
	CHECK_EQ(dp_map3_reserve(&t, 10), 0); /* never shrinks */
	CHECK_EQ(t.size, 32768);
	CHECK_EQ(dp_map3_reserve(&t, UINT32_MAX), -DP_ENOMEM);
	CHECK_EQ(t.size, 32768);
	for (uint32_t key = 0; key < KEYS; key++) {
		CHECK_EQ(dp_map64_get(&m, (uint64_t)key << 32 | 5), val_of[key]);
		CHECK_EQ(dp_map3_get(&t, key % 3, (key / 3) % 10 * 0x100000000ull, key / 30),
			 val_of[key]);
	}
	CHECK_EQ(dp_map64_get(&m, 5), val_of[0]);
	CHECK_EQ(dp_map64_get(&m, 6), DP_MAP32_NONE);
	CHECK_EQ(dp_map3_get(&t, 0, 0, 100), DP_MAP32_NONE); /* c past its range */
	CHECK_EQ(dp_map3_get(&t, 0, 1, 0), DP_MAP32_NONE);   /* b not a multiple of 2^32 */
	dp_map64_free(&m);
	dp_map3_free(&t);
	CHECK(m.slot == NULL && m.n == 0 && m.size == 0);
	CHECK(t.slot == NULL && t.n == 0 && t.size == 0);
	CHECK_EQ(dp_map3_intern(&t, 0, 0, 0, 4), 4); /* usable again */
	CHECK_EQ(dp_map3_get(&t, 0, 0, 0), 4);
	dp_map3_free(&t);
}

struct pair {
	uint32_t key, seq;
};

static inline bool pair_less(int unused, const struct pair *a, const struct pair *b)
{
	(void)unused;
	return a->key < b->key;
}

DP_MERGE_SORT_DEFINE(pair_sort, struct pair, int, pair_less)
DP_SELECT_RANK_DEFINE(pair_select, struct pair, int, pair_less)

TEST(merge_sort_stable)
{
	static struct pair a[1000], tmp[1000];

	for (uint32_t n = 0; n <= 1000; n += n < 20 ? 1 : 97) {
		struct pair *out;

		for (uint32_t i = 0; i < n; i++)
			a[i] = (struct pair){rnd(n / 3 + 1), i}; /* many ties */
		out = pair_sort(a, tmp, n, 0);
		CHECK(out == a || out == tmp);
		for (uint32_t i = 1; i < n; i++) {
			CHECK(out[i - 1].key <= out[i].key);
			if (out[i - 1].key == out[i].key)
				CHECK(out[i - 1].seq < out[i].seq); /* stable */
		}
	}
}

TEST(select_rank_partitions)
{
	static struct pair a[600];

	for (uint32_t n = 1; n <= 600; n += 37) {
		for (uint32_t r = 0; r < n; r += n / 5 + 1) {
			uint64_t sum = 0;

			for (uint32_t i = 0; i < n; i++) /* distinct keys: a permutation */
				a[i] = (struct pair){i, 0};
			for (uint32_t i = n; i > 1; i--) {
				uint32_t j = rnd(i);
				struct pair t = a[i - 1];

				a[i - 1] = a[j];
				a[j] = t;
			}
			CHECK_EQ(pair_select(a, 0, n, r, 0), 0);
			CHECK_EQ(a[r].key, r);
			for (uint32_t i = 0; i < n; i++) {
				CHECK(i < r ? a[i].key < r : i > r ? a[i].key > r : 1);
				sum += a[i].key;
			}
			CHECK_EQ(sum, (uint64_t)n * (n - 1) / 2); /* still a permutation */
		}
	}
}

static int cmp_desc(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? 1 : a > b ? -1 : 0;
}

TEST(kth_largest)
{
	static uint64_t v[500], s[500];
	static double d[500];

	for (uint32_t n = 1; n <= 500; n += 23) {
		for (uint32_t k = 1; k <= n; k += n / 7 + 1) {
			for (uint32_t i = 0; i < n; i++)
				s[i] = v[i] = rnd(i % 2 ? 50 : 1000000); /* ties and spread */
			qsort(s, n, sizeof(*s), cmp_desc);
			CHECK_EQ(dp_kth_largest_u64(v, n, k), s[k - 1]);
			for (uint32_t i = 0; i < k; i++) /* the k largest first */
				CHECK(v[i] >= s[k - 1]);
			for (uint32_t i = 0; i < n; i++)
				d[i] = (double)s[n - 1 - i] / 8.0; /* ascending */
			CHECK(dp_kth_largest_f64(d, n, k) == (double)s[k - 1] / 8.0);
		}
	}
}

DP_TEST_MAIN(test_vec_grows_by_doubling, test_vec_growz_by_doubling, test_hash_room_and_spread,
	     test_hash_words_spread, test_map32_against_array, test_map64_map3_against_array,
	     test_merge_sort_stable, test_select_rank_partitions, test_kth_largest)
