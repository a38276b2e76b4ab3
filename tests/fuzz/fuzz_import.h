/*
 * tests/fuzz/fuzz_import.h - what the importers' fuzz targets and the corpus replay
 * share (fuzz_import.c).
 */
#ifndef DP_TESTS_FUZZ_IMPORT_H
#define DP_TESTS_FUZZ_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "import/import.h"

/* dp_fuzz_import_one - import @size bytes at @data as @from, named @name in messages
 * (uftrace: through a record directory made in @dir), then check the profile. Aborts on
 * a broken promise (a rejection that does not name the input, an imported profile the
 * reader refuses). Return: 0 imported, 1 rejected, -1 the directory could not be
 * written. */
int dp_fuzz_import_one(enum dp_import_from from, const char *name, const uint8_t *data, size_t size,
		       const char *dir);

/* dp_fuzz_uftrace_dir - write a uftrace record directory into @dir (existing) for the
 * input @data (see fuzz_import.c). Return: 0 or -1. */
int dp_fuzz_uftrace_dir(const char *dir, const uint8_t *data, size_t size);

#endif /* DP_TESTS_FUZZ_IMPORT_H */
