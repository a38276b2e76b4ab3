/*
 * format/reader.h - read and validate a deepprof data file (docs/FORMAT.md) into a
 * struct dp_profile. Every byte of the input is treated as hostile: nothing is used
 * before it is checked. Depends on format/profile and core.
 */
#ifndef DP_FORMAT_READER_H
#define DP_FORMAT_READER_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

/*
 * dp_read_buffer - parse the @len bytes at @data (borrowed; not kept) into @p, which
 * this function initialises (the caller passes an unused struct). @name names the input
 * in messages.
 * Return: 0 with @p filled (release it with dp_profile_release()); or -DP_EFORMAT with
 * the message "NAME: <what is wrong> at byte N" (N the absolute offset of the offending
 * byte), or -DP_ENOMEM. On error @p is released (empty). Allocation is bounded by a small
 * multiple of @len whatever the input says.
 */
int dp_read_buffer(const uint8_t *data, size_t len, const char *name, struct dp_profile *p);

/*
 * dp_read_file - dp_read_buffer() on the contents of the file at @path (read in full,
 * its size from fstat), named @path in messages.
 * Return: as dp_read_buffer(), or -DP_EIO / -DP_ENOENT if the file cannot be read.
 */
int dp_read_file(const char *path, struct dp_profile *p);

#endif /* DP_FORMAT_READER_H */
