/*
 * cli/cmd_symbolize.c - `deepprof symbolize [--force] FILE`: add names, source positions
 * and static call sites to a data file written by a program started without `deepprof
 * run` (src/symbol does the work; this file parses the command line and prints).
 */
#include <stdio.h>
#include <string.h>

#include "../core/err.h"
#include "../symbol/symbol.h"
#include "commands.h"

static const char symbolize_usage[] =
	"usage: deepprof symbolize [--force] FILE\n"
	"\n"
	"Symbolize a deepprof data file in place: function names (C++ demangled), source\n"
	"files and lines of functions and call sites, linkage, objects, and the call sites\n"
	"never taken (from DWARF call-site information), so that the file stays readable\n"
	"after the program is rebuilt or deleted. The objects must still be the ones that\n"
	"ran: their build-ids are checked.\n"
	"\n"
	"  --force     symbolize even if an object's build-id differs from the one recorded\n"
	"  -h, --help  show this help\n"
	"\n"
	"Exit status: 0 success, 2 bad usage, unreadable file or failed symbolization.\n";

static int symbolize_usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "deepprof symbolize: %s%s\n", what, arg);
	fputs(symbolize_usage, stderr);
	return 2;
}

/* dp_cmd_symbolize - `deepprof symbolize`; returns the exit status (see commands.h). */
int dp_cmd_symbolize(int argc, char **argv)
{
	struct dp_symbolize_opts opts = {0};
	const char *file = NULL;
	char summary[4096];
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			fputs(symbolize_usage, stdout);
			return 0;
		}
		if (strcmp(argv[i], "--force") == 0 || strcmp(argv[i], "-f") == 0)
			opts.force = 1;
		else
			return symbolize_usage_error("unknown option: ", argv[i]);
	}
	if (i >= argc)
		return symbolize_usage_error("missing FILE", "");
	if (i + 1 < argc)
		return symbolize_usage_error("unexpected argument: ", argv[i + 1]);
	file = argv[i];
	if (dp_symbolize_file(file, &opts, summary, sizeof(summary)) < 0) {
		fprintf(stderr, "deepprof: %s\n", dp_errmsg());
		return 2;
	}
	printf("%s\n", summary);
	return 0;
}
