/*
 * analysis/pmerge_files.c - dp_merge_files(): fold data files into one merged profile,
 * reading one file at a time, and write it atomically. Depends on format/ (reader,
 * writer) and pmerge.c.
 */
#include <stdlib.h>

#include "../core/err.h"
#include "../format/reader.h"
#include "../format/writer.h"
#include "profile_merge.h"

int dp_merge_files(const char *const *paths, uint32_t n, unsigned flags, struct dp_buf *notes,
		   const char *out_path)
{
	struct dp_profile acc, next, merged;
	const char *names[2] = {"the files before", NULL};
	int rc;

	if (n == 0)
		return dp_error(DP_EFORMAT, "nothing to merge");
	if ((rc = dp_read_file(paths[0], &next)) < 0)
		return rc;
	names[0] = paths[0];
	rc = dp_profile_merge((const struct dp_profile *const[]){&next}, names, 1, flags, notes,
			      &acc);
	dp_profile_release(&next);
	for (uint32_t i = 1; rc == 0 && i < n; i++) {
		const struct dp_profile *two[2] = {&acc, &next};

		if ((rc = dp_read_file(paths[i], &next)) < 0)
			break;
		names[0] = i == 1 ? paths[0] : "the files before";
		names[1] = paths[i];
		rc = dp_profile_merge(two, names, 2, flags, notes, &merged);
		dp_profile_release(&next);
		dp_profile_release(&acc);
		acc = merged;
	}
	if (rc == 0)
		rc = dp_write_file(&acc, out_path);
	dp_profile_release(&acc);
	return rc;
}
