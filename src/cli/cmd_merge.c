/*
 * cli/cmd_merge.c - `deepprof merge [--force] -o OUT IN...`: sum the profiles of many
 * runs into one data file (src/analysis/pmerge*.c does the work; this file parses the
 * command line and prints).
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../analysis/profile_merge.h"
#include "../core/err.h"
#include "commands.h"

static const char merge_usage[] =
	"usage: deepprof merge [--force] -o OUT IN...\n"
	"       deepprof merge [--force] -o OUT DIR\n"
	"\n"
	"Merge deepprof data files into OUT: the profiles of one program (the same build-id)\n"
	"are summed context by context, every counter exactly; different programs each get\n"
	"a node of their own under the root. Merging is associative and commutative: any\n"
	"order and grouping of partial merges writes the same file. OUT is written\n"
	"atomically and may be one of the inputs. Given a directory, merge its *.data files.\n"
	"\n"
	"  -o, --output OUT  the merged data file (required)\n"
	"  --force           match functions by name and source position, and programs by\n"
	"                    file name, across rebuilds; report the functions that matched\n"
	"                    nothing in the other inputs\n"
	"  -h, --help        show this help\n"
	"\n"
	"Exit status: 0 success, 2 bad usage or an unreadable input (named).\n";

static int merge_usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "deepprof merge: %s%s\n", what, arg);
	fputs(merge_usage, stderr);
	return 2;
}

/* dp_cmd_merge - `deepprof merge`; returns the exit status (see commands.h). */
int dp_cmd_merge(int argc, char **argv)
{
	const char *out = NULL;
	unsigned flags = 0;
	struct dp_buf notes;
	struct stat st;
	int i, rc;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			fputs(merge_usage, stdout);
			return 0;
		}
		if (strcmp(argv[i], "--force") == 0 || strcmp(argv[i], "-f") == 0) {
			flags |= DP_MERGE_FORCE;
		} else if (strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--output") == 0) {
			if (++i >= argc)
				return merge_usage_error("missing file after ", argv[i - 1]);
			out = argv[i];
		} else if (strncmp(argv[i], "--output=", 9) == 0) {
			out = argv[i] + 9;
		} else {
			return merge_usage_error("unknown option: ", argv[i]);
		}
	}
	if (!out || !*out)
		return merge_usage_error("missing -o OUT", "");
	if (i >= argc)
		return merge_usage_error("missing input files", "");
	dp_buf_init(&notes, (size_t)1 << 20);
	if (argc - i == 1 && stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
		rc = dp_merge_dir(argv[i], flags, &notes, out);
	else
		rc = dp_merge_files((const char *const *)argv + i, (uint32_t)(argc - i), flags,
				    &notes, out);
	for (const char *l = dp_buf_cstr(&notes), *e; *l; l = *e ? e + 1 : e) {
		e = strchr(l, '\n');
		e = e ? e : l + strlen(l);
		fprintf(stderr, "deepprof merge: %.*s\n", (int)(e - l), l);
	}
	dp_buf_release(&notes);
	if (rc < 0) {
		fprintf(stderr, "deepprof: %s\n", dp_errmsg());
		return 2;
	}
	return 0;
}
