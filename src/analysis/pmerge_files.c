/*
 * analysis/pmerge_files.c - dp_merge_files(): fold data files into one merged profile,
 * reading one file at a time, and write it atomically; dp_merge_dir() does it for the
 * data files of a directory. Depends on format/ (reader,
 * writer) and pmerge.c.
 */
#define _POSIX_C_SOURCE 200809L /* dirent, strdup */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/vec.h"
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

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether @name ends in ".data" (the runtime's per-process files end ".PID.data"). */
static int is_data(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && strcmp(name + n - 5, ".data") == 0 && name[0] != '.';
}

int dp_merge_dir(const char *dir, unsigned flags, struct dp_buf *notes, const char *out_path)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **paths = NULL;
	uint32_t n = 0, cap = 0;
	int rc = 0;

	if (!d)
		return dp_error(DP_EIO, "%s: cannot open the directory", dir);
	while (rc == 0 && (e = readdir(d))) {
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		char *p;

		if (!is_data(e->d_name))
			continue;
		if (DP_VEC_GROW(paths, cap, n + 1) < 0) {
			rc = dp_error(DP_ENOMEM, "out of memory listing %s", dir);
			break;
		}
		if (!(p = malloc(len))) {
			rc = dp_error(DP_ENOMEM, "out of memory listing %s", dir);
			break;
		}
		snprintf(p, len, "%s/%s", dir, e->d_name);
		paths[n++] = p;
	}
	closedir(d);
	if (rc == 0 && n == 0)
		rc = dp_error(DP_ENOENT, "%s: no data files (*.data) to merge", dir);
	if (rc == 0) {
		qsort(paths, n, sizeof(*paths), cmp_path);
		rc = dp_merge_files((const char *const *)paths, n, flags, notes, out_path);
	}
	for (uint32_t i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
	return rc;
}
