/*
 * import/import.h - other tools' profiles as deepprof profiles (`deepprof import`,
 * docs/IMPORTS.md): uftrace record directories, perf.data (through `perf script`) or
 * `perf script` text, pprof profile.proto (gzip'd or not) and folded stacks. Each is
 * walked with a per-thread context stack into the calling-context graph, recursion folded
 * onto the outermost activation as the runtime does, so every report works on the result.
 * Depends on format/ and core/.
 */
#ifndef DP_IMPORT_IMPORT_H
#define DP_IMPORT_IMPORT_H

#include <stdint.h>

#include "../format/profile.h"

enum dp_import_from {
	DP_IMPORT_AUTO = 0,    /* guess from the input (dp_import_guess()) */
	DP_IMPORT_FOLDED,      /* `a;b;c N` lines */
	DP_IMPORT_UFTRACE,     /* a `uftrace record` directory */
	DP_IMPORT_PERF,	       /* a perf.data file, read by running `perf script` */
	DP_IMPORT_PERF_SCRIPT, /* the text `perf script` prints */
	DP_IMPORT_PPROF,       /* profile.proto, gzip-compressed or not */
};

struct dp_import_opts {
	enum dp_import_from from;
	const char *input;  /* file or directory */
	uint32_t metric;    /* folded: the DP_CSD_* counter the weights count (default samples) */
	uint64_t period_ns; /* folded: ns per sample (0 unknown) */
	const char *perf;   /* perf: the perf executable (NULL: "perf" on PATH) */
	/* folded, perf-script, pprof: when @data is set, the input's @len bytes (borrowed)
	 * instead of reading @input, which still names it in messages (fuzzing, tests) */
	const uint8_t *data;
	size_t len;
};

/* dp_import_from_name - the format named @s ("folded", "uftrace", "perf", "perf-script",
 * "pprof"). Return: 0, or -DP_EUSAGE (message set). */
int dp_import_from_name(const char *s, enum dp_import_from *from);

/* dp_import_guess - the format of @path by its contents: a directory with an `info`
 * file is uftrace's, "PERFILE2" perf.data, gzip or a protobuf start pprof, a line
 * starting with a tab after a header `perf script`, else folded.
 * Return: 0, or -DP_ENOENT / -DP_EIO when @path cannot be read. */
int dp_import_guess(const char *path, enum dp_import_from *from);

/*
 * dp_import - convert @o->input into @out (initialised here; release it with
 * dp_profile_release()). The profile is complete, symbolized (names from the input) and
 * carries its origin (ORIG: tool, input, the counters measured).
 * Return: 0; -DP_EFORMAT with "INPUT: <position>: <what is wrong>" for bad input;
 * -DP_ENOENT, -DP_EIO, -DP_ENOMEM, -DP_EUSAGE. On error @out is empty.
 */
int dp_import(const struct dp_import_opts *o, struct dp_profile *out);

#endif /* DP_IMPORT_IMPORT_H */
