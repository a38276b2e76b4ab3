/*
 * core/sort.h - sorting and selection, said once: a stable merge sort and a quickselect
 * by rank as templates (a macro defines a static function for an element type and a
 * comparison, which the compiler inlines: the report pages sort tens of thousands of
 * keys per answer), and the k-th largest of an array of integers or reals.
 * Iterative throughout; nothing allocates.
 */
#ifndef DP_CORE_SORT_H
#define DP_CORE_SORT_H

#include <stddef.h>
#include <stdint.h>

/*
 * DP_MERGE_SORT_DEFINE(name, T, CTX, less) - define
 *	static T *name(T *a, T *tmp, size_t n, CTX ctx)
 * a stable bottom-up merge sort of @a[0..n) into the order of less(ctx, x, y) (true when
 * *x goes before *y; x, y are const T *), with @tmp (room for @n) as the other buffer.
 * Returns the buffer holding the sorted elements: @a or @tmp.
 */
#define DP_MERGE_SORT_DEFINE(name, T, CTX, less)                                                   \
	static T *name(T *a, T *tmp, size_t n, CTX ctx)                                            \
	{                                                                                          \
		T *src = a, *dst = tmp, *t_;                                                       \
                                                                                                   \
		for (size_t w = 1; w < n; w *= 2) {                                                \
			for (size_t lo = 0; lo < n; lo += 2 * w) {                                 \
				size_t mid = n - lo > w ? lo + w : n;                              \
				size_t hi = n - lo > 2 * w ? lo + 2 * w : n;                       \
				size_t i = lo, j = mid, o = lo;                                    \
                                                                                                   \
				while (i < mid && j < hi)                                          \
					dst[o++] =                                                 \
						less(ctx, &src[j], &src[i]) ? src[j++] : src[i++]; \
				while (i < mid)                                                    \
					dst[o++] = src[i++];                                       \
				while (j < hi)                                                     \
					dst[o++] = src[j++];                                       \
			}                                                                          \
			t_ = src;                                                                  \
			src = dst;                                                                 \
			dst = t_;                                                                  \
		}                                                                                  \
		return src;                                                                        \
	}

/*
 * DP_SELECT_RANK_DEFINE(name, T, CTX, less) - define
 *	static int name(T *k, uint32_t a, uint32_t b, uint32_t r, CTX ctx)
 * which reorders @k[a..b) (a <= r < b) so that k[r] holds the element of rank r in the
 * order of less(ctx, x, y), those before it not after it and those after it not before
 * it; quickselect with a median of three, for distinct keys. Returns 0, or -1, having
 * done part of the work (the elements are still a permutation), when it takes more than
 * about twice the expected rounds (an adversarial order): the caller then sorts instead.
 */
#define DP_SELECT_RANK_DEFINE(name, T, CTX, less)                                         \
	static void name##_swap(T *k, uint32_t i, uint32_t j)                             \
	{                                                                                 \
		T t = k[i];                                                               \
                                                                                          \
		k[i] = k[j];                                                              \
		k[j] = t;                                                                 \
	}                                                                                 \
                                                                                          \
	static int name(T *k, uint32_t a, uint32_t b, uint32_t r, CTX ctx)                \
	{                                                                                 \
		uint32_t rounds = 64;                                                     \
                                                                                          \
		for (uint32_t m = b - a; m; m /= 2)                                       \
			rounds += 2;                                                      \
		while (b - a > 2) {                                                       \
			uint32_t mid = a + (b - a) / 2, i = a, j = b - 1;                 \
                                                                                          \
			if (rounds-- == 0)                                                \
				return -1;                                                \
			if (less(ctx, &k[mid], &k[a]))                                    \
				name##_swap(k, mid, a);                                   \
			if (less(ctx, &k[b - 1], &k[a]))                                  \
				name##_swap(k, b - 1, a);                                 \
			if (less(ctx, &k[b - 1], &k[mid]))                                \
				name##_swap(k, b - 1, mid);                               \
			name##_swap(k, mid, b - 1); /* the pivot, the median, at b - 1 */ \
			for (uint32_t x = a; x < b - 1; x++)                              \
				if (less(ctx, &k[x], &k[b - 1]))                          \
					name##_swap(k, x, i++);                           \
			name##_swap(k, i, j); /* the pivot in its place, i */             \
			if (i == r)                                                       \
				return 0;                                                 \
			if (r < i)                                                        \
				b = i;                                                    \
			else                                                              \
				a = i + 1;                                                \
		}                                                                         \
		if (b - a == 2 && less(ctx, &k[a + 1], &k[a]))                            \
			name##_swap(k, a, a + 1);                                         \
		return 0;                                                                 \
	}

/*
 * dp_kth_largest_u64 - the @k-th largest (1-based, 1 <= @k <= @n) of @v[0..@n), which it
 * reorders so that the @k largest come first: quickselect (Hoare's partition), iterative.
 */
uint64_t dp_kth_largest_u64(uint64_t *v, uint32_t n, uint32_t k);

/* dp_kth_largest_f64 - the same for reals (none of them NaN). */
double dp_kth_largest_f64(double *v, uint32_t n, uint32_t k);

#endif /* DP_CORE_SORT_H */
