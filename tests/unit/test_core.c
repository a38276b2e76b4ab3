/*
 * test_core.c - unit tests of core/: arena, strtab, err, par.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/arena.h"
#include "core/err.h"
#include "core/par.h"
#include "core/strtab.h"
#include "core/suggest.h"
#include "deepprof/format.h"
#include "harness.h"

TEST(arena_zeroed_aligned)
{
	struct dp_arena a;

	dp_arena_init(&a, 0);
	for (int i = 1; i < 5000; i += 7) {
		unsigned char *p = dp_arena_alloc(&a, (size_t)i);

		CHECK(p != NULL);
		CHECK_EQ((uintptr_t)p % 16, 0);
		for (int j = 0; j < i; j++)
			CHECK_EQ(p[j], 0);
		p[i - 1] = 1;
	}
	CHECK(dp_arena_alloc(&a, (size_t)1 << 22) != NULL); /* dedicated block */
	CHECK(dp_arena_array(&a, SIZE_MAX / 2, 4) == NULL); /* overflow */
	dp_arena_release(&a);
}

TEST(arena_limit)
{
	struct dp_arena a;

	dp_arena_init(&a, (size_t)1 << 20);
	CHECK(dp_arena_alloc(&a, (size_t)2 << 20) == NULL);
	CHECK(dp_arena_alloc(&a, 100) != NULL);
	dp_arena_release(&a);
}

/* Blocks released by one arena serve the next (the cache), and what they hand out is
 * zero again although it was written: small pieces, a block's first piece, a dedicated
 * block; a limit below a cached block's size is still kept. */
TEST(arena_reuse_zeroed)
{
	struct dp_arena a, b;
	unsigned char *pa[40], *pb[40], *big_a, *big_b;

	dp_arena_init(&a, 0);
	for (int i = 0; i < 40; i++) {
		pa[i] = dp_arena_alloc(&a, 3000);
		CHECK(pa[i] != NULL);
		if (pa[i])
			memset(pa[i], 0xA5, 3000);
	}
	big_a = dp_arena_alloc(&a, (size_t)3 << 20); /* dedicated: more than half a block */
	CHECK(big_a != NULL);
	if (big_a)
		memset(big_a, 0x5A, (size_t)3 << 20);
	dp_arena_release(&a);

	dp_arena_init(&b, 0);
	for (int i = 0; i < 40; i++) {
		pb[i] = dp_arena_alloc(&b, 3000);
		CHECK(pb[i] != NULL);
		for (size_t k = 0; pb[i] && k < 3000; k++)
			if (pb[i][k] != 0) {
				CHECK_EQ(pb[i][k], 0);
				break;
			}
	}
	CHECK(pb[0] == pa[0]); /* the same block again: the cache was used */
	big_b = dp_arena_alloc(&b, (size_t)3 << 20);
	CHECK(big_b == big_a);
	for (size_t k = 0; big_b && k < ((size_t)3 << 20); k += 4093)
		if (big_b[k] != 0) {
			CHECK_EQ(big_b[k], 0);
			break;
		}
	dp_arena_release(&b);

	dp_arena_init(&b, (size_t)1 << 20); /* the 3 MiB block is cached, but too big */
	CHECK(dp_arena_alloc(&b, (size_t)900 << 10) != NULL);
	CHECK(b.total <= ((size_t)1 << 20));
	dp_arena_release(&b);

	/* a ceiling that only a block of the exact size fits: every cached block that is
	 * big enough (the 3 MiB one at least) is too big, so a fresh one serves */
	dp_arena_init(&b, ((size_t)900 << 10) + 16);
	CHECK(dp_arena_alloc(&b, (size_t)900 << 10) != NULL);
	CHECK(b.total <= ((size_t)900 << 10) + 16);
	dp_arena_release(&b);
}

/* dp_par_split: every item done exactly once, by whichever thread, for sizes around the
 * threshold (0, 1, odd, even, below and above it) and the chunk size (a sixteenth), and
 * again and again (the helper thread starts at a different moment each time, before,
 * during or after the caller's chunks) */
static pthread_t par_caller;

static void par_mark(void *arg, uint32_t lo, uint32_t hi)
{
	uint32_t *done = arg;
	struct timespec slow = {0, 200000};

	if (!pthread_equal(pthread_self(), par_caller))
		nanosleep(&slow, NULL); /* the helper's chunks end late: the caller must wait */
	for (uint32_t i = lo; i < hi; i++)
		done[i] += i + 1;
}

TEST(par_split_covers)
{
	static const uint32_t sizes[] = {0, 1, 2, 3, 999, 1000, 1001, 1007, 1024, 65537};

	par_caller = pthread_self();

	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]) + 300; s++) {
		uint32_t n =
			s < sizeof(sizes) / sizeof(sizes[0]) ? sizes[s] : 1000 + (uint32_t)s * 7;
		uint32_t *done = calloc(n + 1, sizeof(*done)), bad = 0;

		CHECK(done != NULL);
		if (!done)
			return;
		dp_par_split(par_mark, done, n, 1000);
		for (uint32_t i = 0; i < n; i++)
			bad += done[i] != i + 1;
		CHECK_EQ(bad, 0);
		CHECK_EQ(done[n], 0); /* nothing past the end */
		free(done);
	}
}

TEST(strtab_interning)
{
	struct dp_strtab t;
	char buf[32];
	int64_t ids[3000];

	CHECK_EQ(dp_strtab_init(&t), 0);
	CHECK_EQ(dp_strtab_intern_cstr(&t, ""), 0);
	for (int i = 0; i < 3000; i++) {
		snprintf(buf, sizeof(buf), "name%d", i);
		ids[i] = dp_strtab_intern_cstr(&t, buf);
		CHECK_EQ(ids[i], i + 1);
	}
	for (int i = 0; i < 3000; i++) {
		snprintf(buf, sizeof(buf), "name%d", i);
		CHECK_EQ(dp_strtab_intern_cstr(&t, buf), ids[i]);
		CHECK_STR(dp_strtab_get(&t, (uint32_t)ids[i]), buf);
	}
	CHECK_STR(dp_strtab_get(&t, 0), "");
	CHECK_STR(dp_strtab_get(&t, 99999), "");
	dp_strtab_release(&t);
}

TEST(err_message)
{
	CHECK_EQ(dp_error(DP_EFORMAT, "bad %s at byte %d", "thing", 7), -DP_EFORMAT);
	CHECK_STR(dp_errmsg(), "bad thing at byte 7");
	CHECK_EQ(dp_errcode(), DP_EFORMAT);
}

/* edit distances and the nearest candidate, for "did you mean" */
TEST(suggest_nearest)
{
	static const char *const pages[] = {"menu", "proc", "top", "flame", "flame_callers"};

	CHECK_EQ(dp_edit_distance("kitten", "sitting", 10), 3);
	CHECK_EQ(dp_edit_distance("kitten", "sitting", 2), 3); /* past the bound: max + 1 */
	CHECK_EQ(dp_edit_distance("tpo", "top", 5), 1);	       /* a swap is one edit */
	CHECK_EQ(dp_edit_distance("Report", "report", 5), 0);  /* case aside */
	CHECK_EQ(dp_edit_distance("", "abc", 5), 3);
	CHECK_EQ(dp_edit_distance("abc", "", 1), 2);
	CHECK_STR(dp_suggest("prox", pages, 5), "proc");
	CHECK_STR(dp_suggest("flame_caller", pages, 5), "flame_callers");
	CHECK_STR(dp_suggest("tpo", pages, 5), "top");
	CHECK(dp_suggest("zzzz", pages, 5) == NULL); /* too far: nothing */
	CHECK(dp_suggest("top", pages, 5) == NULL);  /* itself is not a suggestion */
	CHECK_EQ(dp_suggest_max("ab"), 1);
	CHECK_EQ(dp_suggest_max("abcdefghijklmnop"), 3);
}

TEST(crc32_known_value)
{
	/* the standard check value of CRC-32/ISO-HDLC */
	CHECK_EQ(dp_fmt_crc32(0, (const uint8_t *)"123456789", 9), 0xCBF43926u);
	uint32_t c = dp_fmt_crc32(0, (const uint8_t *)"1234", 4);
	CHECK_EQ(dp_fmt_crc32(c, (const uint8_t *)"56789", 5), 0xCBF43926u);
}

DP_TEST_MAIN(test_arena_zeroed_aligned, test_arena_limit, test_arena_reuse_zeroed,
	     test_par_split_covers, test_strtab_interning, test_err_message, test_crc32_known_value,
	     test_suggest_nearest)
