/*
 * export/export.h - write a profile, or one subtree of its calling-context tree, in the
 * formats other tools read: Callgrind (callgrind_annotate, KCachegrind), pprof's
 * profile.proto (go tool pprof, Pyroscope, Parca), folded stacks (flamegraph.pl, inferno,
 * speedscope), speedscope's JSON, Graphviz dot and deepprof's own JSON dump. Each format's
 * mapping (what is kept, what is lost) is in docs/EXPORTS.md. Depends on analysis/,
 * query/ (the metric names), format/ and core/; never prints.
 */
#ifndef DP_EXPORT_EXPORT_H
#define DP_EXPORT_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../analysis/analysis.h"
#include "../query/query.h"

enum dp_export_format {
	DP_EXPORT_CALLGRIND = 0,
	DP_EXPORT_PPROF,
	DP_EXPORT_FOLDED,
	DP_EXPORT_SPEEDSCOPE,
	DP_EXPORT_DOT,
	DP_EXPORT_JSON,
	DP_EXPORT_COUNT
};

/* Where the tree starts (the QUERY of `deepprof export`). */
enum dp_export_root {
	DP_EXPORT_ALL = 0, /* the whole profile, from the program root */
	DP_EXPORT_CLIQUE,  /* the subtree of clique @id: its members and all below */
	DP_EXPORT_PROC	   /* the subtrees of every context of procedure @id */
};

struct dp_export_opts {
	enum dp_export_format format;
	enum dp_export_root root;
	uint32_t id;	       /* clique or PS id for DP_EXPORT_CLIQUE / DP_EXPORT_PROC */
	bool has_metric;       /* false: the format's default metric (see below) */
	enum dp_metric metric; /* folded, dot, speedscope's per-thread profiles */
	unsigned context;      /* callgrind: caller levels encoded in names (0..8) */
	double min_pct;	       /* dot: nodes and edges under this % of the total are left out */
	bool per_thread;       /* view=threads: the profile is the per-thread view */
	const char *version;   /* "deepprof@VERSION" in speedscope's exporter, creator lines */
};

#define DP_EXPORT_MAX_CONTEXT 8

/* dp_export_opts_init - the defaults: callgrind, whole profile, default metric, no
 * context, min 0.5 %, merged view. */
void dp_export_opts_init(struct dp_export_opts *o);

/* dp_export_format_parse - the format named @name ("callgrind", "pprof", ...);
 * -DP_EUSAGE with a message listing the formats if unknown. */
int dp_export_format_parse(const char *name, enum dp_export_format *out);

/* dp_export_format_name - the name of @f. */
const char *dp_export_format_name(enum dp_export_format f);

/* The bytes of the export go to write(@arg, data, len), which returns 0 or a negative
 * dp_err (which stops the export). */
typedef int (*dp_export_write_fn)(void *arg, const void *data, size_t len);

/*
 * dp_export - write the export of @a (borrowed; its profile is the view to export) as
 * @o says, in chunks of about 1 MiB, to @write. pprof output is gzip-compressed here.
 * Return: 0; -DP_EUSAGE for an id out of range or an option the format does not take
 * (message says which); -DP_ENOMEM; or the write function's error.
 */
int dp_export(const struct dp_analysis *a, const struct dp_export_opts *o, dp_export_write_fn write,
	      void *arg);

#endif /* DP_EXPORT_EXPORT_H */
