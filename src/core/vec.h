/*
 * core/vec.h - growable arrays (git's ALLOC_GROW, Lua's luaM_growvector): an array, its
 * capacity and a count kept by the caller, and one call that makes room for the next
 * elements by doubling. Depends on err.
 */
#ifndef DP_CORE_VEC_H
#define DP_CORE_VEC_H

#include <stddef.h>
#include <stdint.h>

/*
 * dp_vec_grow - make room for @need elements of @size bytes in the array *@pv (a pointer
 * to the caller's array pointer, of any object type) whose capacity is *@cap: nothing
 * when @need <= *@cap; else realloc() it to the smallest power-of-two multiple of the
 * capacity (16 at least) that holds @need, and update *@pv and *@cap. The elements kept
 * are unchanged, the new ones undefined.
 * Return: 0, or -DP_ENOMEM (message set; *@pv and *@cap unchanged, the array still valid).
 */
int dp_vec_grow(void *pv, uint32_t *cap, uint32_t need, size_t size);

/* DP_VEC_GROW - dp_vec_grow() of array @v (an lvalue pointer) with capacity @cap. */
#define DP_VEC_GROW(v, cap, need) dp_vec_grow(&(v), &(cap), (need), sizeof(*(v)))

#endif /* DP_CORE_VEC_H */
