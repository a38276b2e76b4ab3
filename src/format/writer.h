/*
 * format/writer.h - the tool-side writer of deepprof data files (docs/FORMAT.md): turns a
 * struct dp_profile back into the file format, e.g. after `deepprof symbolize` added
 * names. Output is canonical: write -> read -> write gives the same bytes.
 * Depends on format/profile and core.
 */
#ifndef DP_FORMAT_WRITER_H
#define DP_FORMAT_WRITER_H

#include "../core/buf.h"
#include "profile.h"

/*
 * dp_write_buffer - append the complete file for @p (borrowed) to @out: header, chunks
 * (SYMS when DP_FEAT_SYMBOLIZED is set, coverage points when DP_FEAT_COVERAGE is set,
 * ORIG when @p->origin is set),
 * table of contents and end record. The profile is not validated here.
 * Return: 0, or -DP_ENOMEM (@out's ceiling or malloc).
 */
int dp_write_buffer(const struct dp_profile *p, struct dp_buf *out);

/*
 * dp_write_file - write @p to @path atomically: the file is built in memory, checked by
 * reading it back (so an inconsistent profile never replaces a good file), written to
 * PATH.tmp.PID in the same directory, fsync'd and renamed over @path.
 * Return: 0; -DP_EFORMAT if @p is inconsistent (the reader's message, naming
 * "PATH (as written)"); -DP_EIO on a system call failure (the temporary file is removed);
 * -DP_ENOMEM.
 */
int dp_write_file(const struct dp_profile *p, const char *path);

#endif /* DP_FORMAT_WRITER_H */
