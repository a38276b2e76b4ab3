/*
 * core/vec.c - growable arrays (vec.h).
 */
#include "vec.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

/* dp_vec_growz() for capacities of at most @max elements. */
static int vec_grow(void *pv, size_t *cap, size_t need, size_t size, size_t max)
{
	size_t c = *cap ? *cap : 16;
	void *v, *nv;

	if (need <= *cap)
		return 0;
	while (c < need) {
		if (c > max / 2)
			return dp_error(DP_ENOMEM, "an array of %zu elements is too large", need);
		c *= 2;
	}
	if (c > SIZE_MAX / (size ? size : 1))
		return dp_error(DP_ENOMEM, "an array of %zu elements is too large", need);
	memcpy(&v, pv, sizeof(v)); /* the caller's pointer, whatever its type */
	nv = realloc(v, c * size);
	if (!nv)
		return dp_error(DP_ENOMEM, "out of memory growing an array to %zu elements", c);
	memcpy(pv, &nv, sizeof(nv));
	*cap = c;
	return 0;
}

int dp_vec_grow(void *pv, uint32_t *cap, uint32_t need, size_t size)
{
	size_t c = *cap;
	int rc = vec_grow(pv, &c, need, size, UINT32_MAX);

	*cap = (uint32_t)c;
	return rc;
}

int dp_vec_growz(void *pv, size_t *cap, size_t need, size_t size)
{
	return vec_grow(pv, cap, need, size, SIZE_MAX);
}
