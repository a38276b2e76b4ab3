/*
 * tests/fault/fault_alloc.h - allocation fault injection (after SQLite's test_malloc.c):
 * a program linked with dp_fault_inject() (cmake/Fault.cmake) has its calls to malloc,
 * calloc, realloc, strdup and free go through the wrappers of fault_alloc.c, which count
 * the allocations and make the N-th one fail (return NULL, as when memory runs out).
 * N is set by dp_fault_arm(), or at start-up by the environment variable DP_FAULT_ALLOC
 * (the DP_FAULT=ON build of deepprof). Only the program's own calls are wrapped, not
 * those inside the C library or other shared libraries. Test code only.
 */
#ifndef DP_TEST_FAULT_ALLOC_H
#define DP_TEST_FAULT_ALLOC_H

#include <stdbool.h>
#include <stdint.h>

/* dp_fault_arm - count allocations from 0 again and make the @n-th from now (1-based)
 * fail, once; 0: none fails. */
void dp_fault_arm(uint64_t n);

/* dp_fault_count - the allocations since the last dp_fault_arm() (the failed one too). */
uint64_t dp_fault_count(void);

/* dp_fault_fired - whether the armed failure has happened. */
bool dp_fault_fired(void);

/* dp_fault_live - allocations made through the wrappers and not freed yet. */
int64_t dp_fault_live(void);

#endif /* DP_TEST_FAULT_ALLOC_H */
