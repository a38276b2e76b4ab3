/*
 * tests/unit/harness.h - the unit-test harness: TEST() functions registered in a table
 * by the test file's main (DP_TEST_MAIN), CHECK macros that print file:line and both
 * values, and CTest's conventions (exit 0 pass, 77 skip, anything else fail).
 */
#ifndef DP_TEST_HARNESS_H
#define DP_TEST_HARNESS_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int dp_test_failures;

#define TEST(name) static void test_##name(void)

#define CHECK(cond)                                                                              \
	do {                                                                                     \
		if (!(cond)) {                                                                   \
			fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
			dp_test_failures++;                                                      \
		}                                                                                \
	} while (0)

#define CHECK_EQ(a, b)                                                                          \
	do {                                                                                    \
		uint64_t va_ = (uint64_t)(a), vb_ = (uint64_t)(b);                              \
		if (va_ != vb_) {                                                               \
			fprintf(stderr, "%s:%d: %s == %s failed: %" PRIu64 " != %" PRIu64 "\n", \
				__FILE__, __LINE__, #a, #b, va_, vb_);                          \
			dp_test_failures++;                                                     \
		}                                                                               \
	} while (0)

#define CHECK_STR(a, b)                                                                         \
	do {                                                                                    \
		const char *sa_ = (a), *sb_ = (b);                                              \
		if (!sa_ || !sb_ || strcmp(sa_, sb_) != 0) {                                    \
			fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n", __FILE__, \
				__LINE__, #a, #b, sa_ ? sa_ : "(null)", sb_ ? sb_ : "(null)");  \
			dp_test_failures++;                                                     \
		}                                                                               \
	} while (0)

#define CHECK_MEM(a, b, n) CHECK(memcmp((a), (b), (n)) == 0)

/* DP_TEST_MAIN(test_a, test_b, ...) - run each test, report, exit 0 or 1. */
#define DP_TEST_MAIN(...)                                                          \
	int main(void)                                                             \
	{                                                                          \
		void (*tests_[])(void) = {__VA_ARGS__};                            \
		for (size_t i_ = 0; i_ < sizeof(tests_) / sizeof(tests_[0]); i_++) \
			tests_[i_]();                                              \
		if (dp_test_failures)                                              \
			fprintf(stderr, "%d check(s) failed\n", dp_test_failures); \
		return dp_test_failures ? 1 : 0;                                   \
	}

#endif /* DP_TEST_HARNESS_H */
