/*
 * format/dump.h - render every node and field of a profile as text or JSON (the output
 * of `deepprof dump`, like Mercury's mdprof_dump). The JSON schema is documented in
 * docs/FORMAT.md ("deepprof dump --format=json"); tools and tests rely on its names.
 * Renders into a struct dp_buf; printing is the caller's. Depends on format/profile, core.
 */
#ifndef DP_FORMAT_DUMP_H
#define DP_FORMAT_DUMP_H

#include "../core/buf.h"
#include "profile.h"

/* Called when the output buffer holds more than DP_DUMP_CHUNK bytes: consume and reset
 * it; return 0 or a negative dp_err (which stops the dump). */
typedef int (*dp_dump_flush_fn)(struct dp_buf *out, void *arg);

#define DP_DUMP_CHUNK ((size_t)64 << 10)

/*
 * dp_dump_json - append @p (borrowed) as one JSON object (plus a newline) to @out,
 * calling @flush (may be NULL: everything accumulates) between records.
 * Return: 0, the flush function's error, or -DP_ENOMEM.
 */
int dp_dump_json(const struct dp_profile *p, struct dp_buf *out, dp_dump_flush_fn flush, void *arg);

/* dp_dump_text - the same information as aligned, readable sections; @name is the file
 * name shown in the title. Return: as dp_dump_json(). */
int dp_dump_text(const struct dp_profile *p, const char *name, struct dp_buf *out,
		 dp_dump_flush_fn flush, void *arg);

/* Names of enumerated values as used in both dumps ("?" when out of range). */
const char *dp_dump_ps_kind(uint32_t kind);
const char *dp_dump_css_kind(uint32_t kind);
const char *dp_dump_linkage(uint32_t linkage);

#endif /* DP_FORMAT_DUMP_H */
