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

/* dp_vec_growz - dp_vec_grow() with a size_t capacity, for arrays that may pass 2^32
 * elements (byte buffers, scratch arrays sized by bytes of input). */
int dp_vec_growz(void *pv, size_t *cap, size_t need, size_t size);

/* dp_vec_room, dp_vec_roomz - dp_vec_grow() and dp_vec_growz() with the check for room
 * inline: arrays that grow by one element on a hot path (a context stack's push) pay a
 * comparison, not a call. */
static inline int dp_vec_room(void *pv, uint32_t *cap, uint32_t need, size_t size)
{
	return need <= *cap ? 0 : dp_vec_grow(pv, cap, need, size);
}

static inline int dp_vec_roomz(void *pv, size_t *cap, size_t need, size_t size)
{
	return need <= *cap ? 0 : dp_vec_growz(pv, cap, need, size);
}

/* DP_VEC_GROW - dp_vec_grow() of array @v (an lvalue pointer) with capacity @cap. */
#define DP_VEC_GROW(v, cap, need) dp_vec_room(&(v), &(cap), (need), sizeof(*(v)))

/* DP_VEC_GROWZ - dp_vec_growz() of array @v with size_t capacity @cap. */
#define DP_VEC_GROWZ(v, cap, need) dp_vec_roomz(&(v), &(cap), (need), sizeof(*(v)))

#endif /* DP_CORE_VEC_H */
