/*
 * core/par.h - a loop of independent iterations split between this thread and one more.
 * For the scans of a query that are bound by memory latency: all over a large profile,
 * each load waits on the memory, and two cores keep twice as many loads in flight.
 * Depends on pthreads.
 */
#ifndef DP_CORE_PAR_H
#define DP_CORE_PAR_H

#include <stdint.h>

/*
 * dp_par_split - run @fn(@arg, lo, hi) over [0, @n) in chunks (a sixteenth of @n each),
 * which this thread and a second one claim in turn, when @n is at least @min and a thread
 * can be had; else @fn(@arg, 0, @n) here. Returns when every chunk is done (a helper
 * started late takes fewer, or none). @fn must touch only what its items own (and read
 * what nobody writes meanwhile), for any split of the range; it cannot fail.
 */
void dp_par_split(void (*fn)(void *arg, uint32_t lo, uint32_t hi), void *arg, uint32_t n,
		  uint32_t min);

#endif /* DP_CORE_PAR_H */
