/*
 * core/sort.c - the k-th largest of sort.h, for integers and reals (one template).
 */
#include "sort.h"

#include <assert.h>

/* KTH_LARGEST(name, T) - the body of dp_kth_largest_u64() for element type T */
#define KTH_LARGEST(name, T)                                                               \
	T name(T *v, uint32_t n, uint32_t k)                                               \
	{                                                                                  \
		uint32_t lo = 0, hi = n - 1, want = k - 1; /* index in descending order */ \
                                                                                           \
		assert(k >= 1 && k <= n);                                                  \
		while (lo < hi) {                                                          \
			T pivot = v[lo + (hi - lo) / 2];                                   \
			uint32_t i = lo, j = hi;                                           \
                                                                                           \
			while (i <= j) {                                                   \
				while (v[i] > pivot)                                       \
					i++;                                               \
				while (v[j] < pivot)                                       \
					j--;                                               \
				if (i <= j) {                                              \
					T tmp = v[i];                                      \
                                                                                           \
					v[i] = v[j];                                       \
					v[j] = tmp;                                        \
					i++;                                               \
					if (j == 0)                                        \
						break;                                     \
					j--;                                               \
				}                                                          \
			}                                                                  \
			if (want <= j)                                                     \
				hi = j;                                                    \
			else if (want >= i)                                                \
				lo = i;                                                    \
			else                                                               \
				break;                                                     \
		}                                                                          \
		return v[want];                                                            \
	}

KTH_LARGEST(dp_kth_largest_u64, uint64_t)
KTH_LARGEST(dp_kth_largest_f64, double)
