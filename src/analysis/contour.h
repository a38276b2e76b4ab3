/*
 * analysis/contour.h - contour exclusion (mercury-deep-profiler.md C.9): a FILE.contour
 * names modules whose procedures are "excluded" (library layers such as a container
 * module), and callers pages then group each caller call site under the nearest ancestor
 * call site whose caller is not excluded. Depends on analysis.h.
 */
#ifndef DP_ANALYSIS_CONTOUR_H
#define DP_ANALYSIS_CONTOUR_H

#include <stdint.h>

#include "analysis.h"

/*
 * A parsed contour file. Lines are "all MODULE" (every procedure of the module) or
 * "internal MODULE" (its procedures with static linkage); blank lines and lines starting
 * with '#' are ignored. MODULE names a module (a source file, matched exactly, or by a
 * trailing path suffix starting after a '/') or an object (executable or shared library,
 * by path or file name).
 */
struct dp_contour {
	uint32_t n_ps;	     /* the profile's n_ps */
	uint8_t *excluded;   /* [1..n_ps] 1 = excluded */
	uint32_t n_excluded; /* procedures excluded */
	char *warnings;	     /* "FILE:LINE: unknown module 'x'\n"..., "" if none */
};

/*
 * dp_contour_parse - parse contour text @text (@len bytes, any bytes) named @path (for
 * messages) against analysis @a, into *@out (free with dp_contour_free()).
 * Return: 0; or -DP_EUSAGE for a malformed line ("PATH:LINE: expected 'all MODULE' or
 * 'internal MODULE', got ...") or when every named module is unknown; -DP_ENOMEM.
 * Unknown modules otherwise only add a warning.
 */
int dp_contour_parse(const char *path, const char *text, size_t len, const struct dp_analysis *a,
		     struct dp_contour **out);

/* dp_contour_read - read file @path and dp_contour_parse() it; -DP_EIO if unreadable. */
int dp_contour_read(const char *path, const struct dp_analysis *a, struct dp_contour **out);

/* dp_contour_free - free @c (NULL is fine). */
void dp_contour_free(struct dp_contour *c);

/*
 * dp_contour_site - the CSD that caller CSD @csd is grouped under: @csd itself if its
 * caller PD's procedure is not excluded, else, repeatedly, the entry CSD of the caller's
 * clique, until one whose caller is not excluded (or the clique has no entry: then the
 * last CSD reached). Iterative; O(depth of the clique tree).
 */
uint32_t dp_contour_site(const struct dp_analysis *a, const struct dp_contour *c, uint32_t csd);

#endif /* DP_ANALYSIS_CONTOUR_H */
