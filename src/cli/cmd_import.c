/*
 * cli/cmd_import.c - `deepprof import [--from=FMT] INPUT -o OUT.data`: convert another
 * tool's profile into a deepprof data file (src/import does the work; this file parses
 * the command line, writes the file atomically and prints).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../format/writer.h"
#include "../import/import.h"
#include "commands.h"
#include "deepprof/format.h"

static const char import_usage[] =
	"usage: deepprof import [--from=FORMAT] [OPTIONS] INPUT -o OUT.data\n"
	"\n"
	"Convert another tool's profile into a deepprof data file that every deepprof\n"
	"command reads (report, top, tree, check, serve). Calling contexts are rebuilt\n"
	"with a context stack per thread, recursion folded onto the outermost activation.\n"
	"\n"
	"  --from=FORMAT   uftrace      a `uftrace record` directory (exact calls, time)\n"
	"                  perf         a perf.data from `perf record -g` (runs perf script)\n"
	"                  perf-script  the text `perf script` printed\n"
	"                  pprof        a profile.proto, gzip-compressed or not\n"
	"                  folded       `a;b;c N` lines (flamegraph.pl, inferno)\n"
	"                  (default: guessed from the input)\n"
	"  --metric=M      folded: what the weights count: samples (default), calls,\n"
	"                  callseqs, allocs, bytes\n"
	"  --period=NS     folded: nanoseconds per sample (default unknown)\n"
	"  --perf=PATH     perf: the perf executable (default perf on PATH)\n"
	"  -o OUT.data     the data file to write (required; replaced atomically)\n"
	"  -h, --help      show this help\n"
	"\n"
	"Exit status: 0 success, 2 bad usage or bad input (nothing is written).\n";

static int import_usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "deepprof import: %s%s\n", what, arg);
	fputs(import_usage, stderr);
	return 2;
}

static int parse_metric(const char *s, uint32_t *m)
{
	static const struct {
		const char *name;
		uint32_t bit;
	} names[] = {
		{"samples", DP_CSD_SAMPLES}, {"time", DP_CSD_SAMPLES},
		{"calls", DP_CSD_CALLS},     {"callseqs", DP_CSD_CALLSEQS},
		{"allocs", DP_CSD_ALLOCS},   {"bytes", DP_CSD_ALLOC_BYTES},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(s, names[i].name) == 0) {
			*m = names[i].bit;
			return 0;
		}
	}
	return -1;
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s < '0' || *s > '9')
		return -1;
	*v = strtoull(s, &end, 10);
	return *end ? -1 : 0;
}

/* One option (@a, with @next the following argument); returns how many arguments it
 * used, or -1 after printing a usage error. */
static int import_option(const char *a, const char *next, struct dp_import_opts *o,
			 const char **out)
{
	const char *v = strchr(a, '=');
	size_t n = v ? (size_t)(v - a) : strlen(a);
	int used = 1;

	if (v) {
		v++;
	} else if (next) {
		v = next; /* "--from uftrace", "-o FILE" */
		used = 2;
	} else {
		return import_usage_error("option needs a value: ", a), -1;
	}
	if (strcmp(a, "-o") == 0) {
		*out = v;
	} else if (strncmp(a, "--from", n) == 0 && n == 6) {
		if (dp_import_from_name(v, &o->from) < 0)
			return import_usage_error(dp_errmsg(), ""), -1;
	} else if (strncmp(a, "--metric", n) == 0 && n == 8) {
		if (parse_metric(v, &o->metric) < 0)
			return import_usage_error("unknown metric: ", v), -1;
	} else if (strncmp(a, "--period", n) == 0 && n == 8) {
		if (parse_u64(v, &o->period_ns) < 0)
			return import_usage_error("--period wants a number of ns, not ", v), -1;
	} else if (strncmp(a, "--perf", n) == 0 && n == 6) {
		o->perf = v;
	} else if (strncmp(a, "--output", n) == 0 && n == 8) {
		*out = v;
	} else {
		return import_usage_error("unknown option: ", a), -1;
	}
	return used;
}

int dp_cmd_import(int argc, char **argv)
{
	struct dp_import_opts o = {0};
	struct dp_profile p;
	const char *out = NULL;
	int rc;

	for (int i = 1; i < argc;) {
		const char *a = argv[i];
		int used;

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(import_usage, stdout);
			return 0;
		}
		if (a[0] != '-' || strcmp(a, "-") == 0) {
			if (o.input)
				return import_usage_error("more than one input: ", a);
			o.input = a;
			i++;
			continue;
		}
		used = import_option(a, i + 1 < argc ? argv[i + 1] : NULL, &o, &out);
		if (used < 0)
			return 2;
		i += used;
	}
	if (!o.input)
		return import_usage_error("no input given", "");
	if (!out || !*out)
		return import_usage_error("no output file given (-o OUT.data)", "");
	rc = dp_import(&o, &p);
	if (rc == 0) {
		rc = dp_write_file(&p, out);
		dp_profile_release(&p);
	}
	if (rc < 0) {
		fprintf(stderr, "deepprof: %s\n", dp_errmsg());
		return 2;
	}
	return 0;
}
