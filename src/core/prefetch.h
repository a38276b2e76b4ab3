/*
 * core/prefetch.h - how to write a function made only of prefetches so that it stays.
 *
 * A prefetch has no side effect GCC can see, so GCC finds such a function pure; a call to
 * a pure function whose result is unused is dead, and GCC deletes it before the inliner
 * would have copied the prefetches into the loop: the prefetches silently vanish (GCC 12
 * at -O2 did so to five of our helpers). Forcing the inlining keeps them.
 */
#ifndef DP_CORE_PREFETCH_H
#define DP_CORE_PREFETCH_H

/* DP_PREFETCHER - the storage class and attributes of a prefetch-only helper. */
#define DP_PREFETCHER static inline __attribute__((always_inline))

#endif
