/*
 * cli/cmd_dump.c - `deepprof dump [--format=text|json] FILE`: read and validate a data
 * file and print every node (src/format/dump.c renders; this file parses the command
 * line, prints and chooses the exit status).
 */
#include <stdio.h>
#include <string.h>

#include "../core/buf.h"
#include "../core/err.h"
#include "../format/dump.h"
#include "../format/reader.h"
#include "commands.h"

static const char dump_usage[] =
	"usage: deepprof dump [--format=text|json] FILE\n"
	"\n"
	"Print every node of a deepprof data file (ProcStatic, CallSiteStatic, ProcDynamic,\n"
	"CallSiteDynamic), its threads, objects and run information.\n"
	"\n"
	"  --format=text   aligned, readable sections (default)\n"
	"  --format=json   one JSON object (schema: docs/FORMAT.md, \"deepprof dump\n"
	"                  --format=json\")\n"
	"  -h, --help      show this help\n"
	"\n"
	"Exit status: 0 success, 2 bad usage or malformed file, 1 output error.\n";

static int dump_flush(struct dp_buf *out, void *arg)
{
	FILE *f = arg;

	if (out->len && fwrite(out->data, 1, out->len, f) != out->len)
		return dp_error(DP_EIO, "write to standard output failed");
	dp_buf_reset(out);
	return 0;
}

/* Prints "deepprof dump: @what @arg" and the usage on stderr; returns exit status 2. */
static int dump_usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "deepprof dump: %s%s\n", what, arg);
	fputs(dump_usage, stderr);
	return 2;
}

/* Parses the options; sets *@json and *@file. Returns -1 to go on, else an exit status. */
static int dump_args(int argc, char **argv, int *json, const char **file)
{
	int i;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(dump_usage, stdout);
			return 0;
		}
		if (strcmp(a, "--format=text") == 0)
			*json = 0;
		else if (strcmp(a, "--format=json") == 0)
			*json = 1;
		else if (strncmp(a, "--format=", 9) == 0)
			return dump_usage_error("unknown format (text or json): ", a + 9);
		else
			return dump_usage_error("unknown option: ", a);
	}
	if (i >= argc)
		return dump_usage_error("missing FILE", "");
	if (i + 1 < argc)
		return dump_usage_error("unexpected argument: ", argv[i + 1]);
	*file = argv[i];
	return -1;
}

int dp_cmd_dump(int argc, char **argv)
{
	struct dp_profile p;
	struct dp_buf out;
	const char *file = NULL;
	int json = 0, rc;

	rc = dump_args(argc, argv, &json, &file);
	if (rc >= 0)
		return rc;
	if (dp_read_file(file, &p) < 0) {
		fprintf(stderr, "deepprof: %s\n", dp_errmsg());
		return 2;
	}
	dp_buf_init(&out, (size_t)1 << 30);
	if (json)
		rc = dp_dump_json(&p, &out, dump_flush, stdout);
	else
		rc = dp_dump_text(&p, file, &out, dump_flush, stdout);
	if (rc == 0)
		rc = dump_flush(&out, stdout);
	if (rc == 0 && fflush(stdout) != 0)
		rc = dp_error(DP_EIO, "write to standard output failed");
	dp_buf_release(&out);
	dp_profile_release(&p);
	if (rc < 0) {
		fprintf(stderr, "deepprof: %s\n", dp_errmsg());
		return 1;
	}
	return 0;
}
