/*
 * cli/cmd_common.c - the options, usage errors and file opening shared by the commands
 * that read profiles (report, top, tree, check, serve), and where the runtime's libraries
 * are (cc, run).
 */
#include "cmd_common.h"

#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "../core/err.h"
#include "commands.h"

#ifndef DP_LIBDIR
#define DP_LIBDIR "lib"
#endif

static const char *const dp_libdirs[DP_CLI_N_LIBDIRS] = {DP_LIBDIR, "lib"};

/* dp_cli_lib_file - see cmd_common.h. */
char *dp_cli_lib_file(const char *prefix, int i, const char *rel)
{
	const char *sep = strcmp(prefix, "/") ? "/" : "";
	size_t n = strlen(prefix) + strlen(dp_libdirs[i]) + strlen(rel) + 3;
	char *p = malloc(n);

	if (!p) {
		fprintf(stderr, "deepprof: out of memory\n");
		exit(1);
	}
	snprintf(p, n, "%s%s%s/%s", prefix, sep, dp_libdirs[i], rel);
	return p;
}

/* dp_cli_runtime_file - see cmd_common.h. */
char *dp_cli_runtime_file(const char *name)
{
	char *lib = NULL;

	for (int i = 0; i < DP_CLI_N_LIBDIRS; i++) {
		free(lib);
		lib = dp_cli_lib_file(dp_cli_prefix(), i, name);
		if (access(lib, R_OK) == 0)
			return lib;
	}
	fprintf(stderr, "deepprof: runtime library %s: %s (is deepprof built/installed?)\n", lib,
		strerror(errno));
	free(lib);
	return NULL;
}

int dp_cli_usage_error(const char *cmd, const char *usage, const char *what, const char *arg)
{
	fprintf(stderr, "deepprof %s: %s%s\n", cmd, what, arg);
	fputs(usage, stderr);
	return 2;
}

/* The text width without --width: a terminal's (its size, else $COLUMNS), else 100. */
static unsigned cli_width(void)
{
	struct winsize ws;
	const char *c;
	long v = 0;

	if (!isatty(STDOUT_FILENO))
		return 100;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40)
		return ws.ws_col <= 1000 ? ws.ws_col : 1000;
	c = getenv("COLUMNS");
	v = c ? strtol(c, NULL, 10) : 0;
	return v >= 40 && v <= 1000 ? (unsigned)v : 100;
}

/* Parses one common option @a (value @val or NULL); returns -1 if not common, 1 if it
 * used @val, 0 if not, 2 on a bad value. */
static int cli_common_opt(const char *a, const char *val, struct dp_cli_report_opts *o)
{
	char *end = NULL;
	long w;

	if (strcmp(a, "--format") == 0) {
		if (!val)
			return 2;
		if (strcmp(val, "text") == 0)
			o->format = DP_FMT_TEXT;
		else if (strcmp(val, "json") == 0)
			o->format = DP_FMT_JSON;
		else if (strcmp(val, "html") == 0)
			o->format = DP_FMT_HTML;
		else
			return 2;
		return 1;
	}
	if (strcmp(a, "--contour") == 0) {
		if (!val)
			return 2;
		o->contour = val;
		return 1;
	}
	if (strcmp(a, "--base") == 0) {
		if (!val || !*val)
			return 2;
		o->base = val;
		return 1;
	}
	if (strcmp(a, "--absolute") == 0) {
		o->absolute = true;
		return 0;
	}
	if (strcmp(a, "--width") == 0) {
		if (!val)
			return 2;
		w = strtol(val, &end, 10);
		if (*end || w < 40 || w > 1000)
			return 2;
		o->width = (unsigned)w;
		return 1;
	}
	return -1;
}

int dp_cli_report_args(int argc, char **argv, const char *usage, const char *extra_names,
		       struct dp_cli_report_opts *o)
{
	int (*extra)(const char *, const char *, void *) = extra_names ? o->extra : NULL;
	void *extra_ctx = o->extra_ctx;
	int i, used;

	memset(o, 0, sizeof(*o));
	o->width = cli_width();
	for (i = 1; i < argc; i++) {
		char name[64];
		const char *a = argv[i], *eq, *val;

		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(usage, stdout);
			return 0;
		}
		if (a[0] != '-' || !a[1]) {
			if (!o->file)
				o->file = a;
			else if (o->n_rest < DP_CLI_MAX_REST)
				o->rest[o->n_rest++] = a;
			else
				return dp_cli_usage_error(argv[0], usage, "too many arguments", "");
			continue;
		}
		eq = strchr(a, '=');
		snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - a) : (int)strlen(a), a);
		val = eq ? eq + 1 : (i + 1 < argc ? argv[i + 1] : NULL);
		used = cli_common_opt(name, val, o);
		if (used == -1 && extra)
			used = extra(name, val, extra_ctx);
		if (used == -1)
			return dp_cli_usage_error(argv[0], usage, "unknown option: ", a);
		if (used == 2)
			return dp_cli_usage_error(argv[0], usage, "bad or missing value for ",
						  name);
		if (used == 1 && !eq)
			i++;
	}
	for (; i < argc; i++) {
		if (!o->file)
			o->file = argv[i];
		else if (o->n_rest < DP_CLI_MAX_REST)
			o->rest[o->n_rest++] = argv[i];
	}
	if (!o->file)
		o->file = DP_CLI_DEFAULT_FILE;
	if (o->absolute && !o->base)
		return dp_cli_usage_error(argv[0], usage, "--absolute needs --base", "");
	return -1;
}

struct dp_session *dp_cli_open(const struct dp_cli_report_opts *o)
{
	struct dp_session *s = dp_session_new(0);

	if (!s) {
		fprintf(stderr, "deepprof: out of memory\n");
		return NULL;
	}
	if ((o->base &&
	     dp_session_set_base(s, o->base, o->contour, o->absolute ? DP_BASE_ABSOLUTE : 0) < 0) ||
	    dp_session_open(s, o->file, o->contour) < 0) {
		if (!strcmp(o->file, DP_CLI_DEFAULT_FILE) && access(o->file, F_OK) != 0)
			fprintf(stderr,
				"deepprof: no %s here (the file every command reads when none is "
				"given; deepprof run writes it)\n",
				o->file);
		else
			fprintf(stderr, "deepprof: %s\n", dp_errmsg());
		dp_session_free(s);
		return NULL;
	}
	fputs(dp_session_warnings(s, 0), stderr);
	return s;
}

int dp_cli_has_samples(const struct dp_session *s)
{
	return dp_session_has_samples(s, 0);
}
