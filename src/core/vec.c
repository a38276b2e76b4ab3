/*
 * core/vec.c - growable arrays (vec.h).
 */
#include "vec.h"

#include <stdlib.h>
#include <string.h>

#include "err.h"

int dp_vec_grow(void *pv, uint32_t *cap, uint32_t need, size_t size)
{
	uint32_t c = *cap ? *cap : 16;
	void *v, *nv;

	if (need <= *cap)
		return 0;
	while (c < need) {
		if (c > UINT32_MAX / 2)
			return dp_error(DP_ENOMEM, "an array of %u elements is too large", need);
		c *= 2;
	}
	if ((size_t)c > SIZE_MAX / (size ? size : 1))
		return dp_error(DP_ENOMEM, "an array of %u elements is too large", need);
	memcpy(&v, pv, sizeof(v)); /* the caller's pointer, whatever its type */
	nv = realloc(v, (size_t)c * size);
	if (!nv)
		return dp_error(DP_ENOMEM, "out of memory growing an array to %u elements", c);
	memcpy(pv, &nv, sizeof(nv));
	*cap = c;
	return 0;
}
