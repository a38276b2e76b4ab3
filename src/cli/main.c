/*
 * cli/main.c - the deepprof executable's entry point: the command table, global options
 * (--help, --version), dispatch to cmd_<name>.c, and dp_cli_prefix() (where the runtime
 * and headers live, found from the executable's own location).
 * Only this directory prints or exits; commands return their exit status here.
 */
#define _GNU_SOURCE /* readlink, realpath */

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/suggest.h"
#include "commands.h"

#ifndef DP_VERSION
#define DP_VERSION "unknown"
#endif

struct dp_cli_command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static const struct dp_cli_command dp_commands[] = {
	{"cc", dp_cmd_cc, "compile and link C with profiling (like cc)"},
	{"c++", dp_cmd_cc, "compile and link C++ with profiling (like c++)"},
	{"run", dp_cmd_run, "run a program, symbolize its profile, print a summary"},
	{"dump", dp_cmd_dump, "print every node of a data file (text or JSON)"},
	{"symbolize", dp_cmd_symbolize, "add names and source positions to a data file"},
	{"merge", dp_cmd_merge, "sum the profiles of many runs into one data file"},
	{"diff", dp_cmd_diff, "compare two profiles per procedure and per context"},
	{"report", dp_cmd_report, "answer a query about a profile (text, JSON or HTML)"},
	{"top", dp_cmd_top, "the procedures that cost most"},
	{"tree", dp_cmd_tree, "the calling-context tree with costs"},
	{"find", dp_cmd_find, "the procedures, files and objects whose names match"},
	{"check", dp_cmd_check, "render every page of a profile and verify it"},
	{"export", dp_cmd_export, "write a profile for other tools (callgrind, pprof, ...)"},
	{"import", dp_cmd_import, "convert perf, uftrace, pprof or folded stacks to a profile"},
#ifdef DP_HAVE_SERVE
	{"serve", dp_cmd_serve, "browse profiles in a web browser"},
#endif
};

#define DP_N_COMMANDS (sizeof(dp_commands) / sizeof(dp_commands[0]))

static char dp_prefix[PATH_MAX];

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: deepprof [--help] [--version] COMMAND [ARGS...]\n\n"
		   "deepprof is a deep (calling-context) profiler for C and C++ programs.\n\n"
		   "commands:\n");
	for (i = 0; i < DP_N_COMMANDS; i++)
		fprintf(f, "  %-10s %s\n", dp_commands[i].name, dp_commands[i].summary);
	fprintf(f, "\n'deepprof COMMAND --help' or 'deepprof help COMMAND' describes a command;\n"
		   "'man deepprof' describes them all.\n");
}

/* Strip the last path component of @path in place; returns 0, or -1 if there is none. */
static int strip_component(char *path)
{
	char *slash = strrchr(path, '/');

	if (!slash)
		return -1;
	if (slash == path)
		slash[1] = '\0';
	else
		*slash = '\0';
	return 0;
}

/* Fill dp_prefix: PREFIX/bin/deepprof -> PREFIX. */
static void find_prefix(const char *argv0)
{
	ssize_t n = readlink("/proc/self/exe", dp_prefix, sizeof(dp_prefix) - 1);

	if (n > 0) {
		dp_prefix[n] = '\0';
	} else if (!argv0 || !realpath(argv0, dp_prefix)) {
		/* Last resort: assume the usual installation prefix. */
		snprintf(dp_prefix, sizeof(dp_prefix), "/usr/local/bin/deepprof");
	}
	if (strip_component(dp_prefix) || strip_component(dp_prefix))
		snprintf(dp_prefix, sizeof(dp_prefix), "/");
}

/*
 * dp_cli_prefix - the directory above the one holding the deepprof executable (see
 * commands.h). The string is static and lives until exit.
 */
const char *dp_cli_prefix(void)
{
	return dp_prefix;
}

static const struct dp_cli_command *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < DP_N_COMMANDS; i++)
		if (strcmp(dp_commands[i].name, name) == 0)
			return &dp_commands[i];
	return NULL;
}

/* One line on stderr: @name is no command; the nearest one, and every one. */
static int unknown_command(const char *name)
{
	const char *names[DP_N_COMMANDS], *near;

	for (size_t i = 0; i < DP_N_COMMANDS; i++)
		names[i] = dp_commands[i].name;
	near = dp_suggest(name, names, DP_N_COMMANDS);
	fprintf(stderr, "deepprof: unknown command '%s'; ", name);
	if (near)
		fprintf(stderr, "did you mean '%s'? ", near);
	fputs("commands:", stderr);
	for (size_t i = 0; i < DP_N_COMMANDS; i++)
		fprintf(stderr, "%s %s", i ? "," : "", names[i]);
	fputs(" (deepprof --help)\n", stderr);
	return 2;
}

/* `deepprof help [CMD]`: the usage, or the command's own --help. */
static int cmd_help(int argc, char **argv)
{
	static char help_opt[] = "--help";
	const struct dp_cli_command *cmd;
	char *help_argv[3];

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	cmd = find_command(argv[1]);
	if (!cmd)
		return unknown_command(argv[1]);
	help_argv[0] = argv[1];
	help_argv[1] = help_opt;
	help_argv[2] = NULL;
	return cmd->fn(2, help_argv);
}

int main(int argc, char **argv)
{
	const struct dp_cli_command *cmd;
	const char *name;

	find_prefix(argc > 0 ? argv[0] : NULL);
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	name = argv[1];
	if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0) {
		usage(stdout);
		return 0;
	}
	if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
		printf("deepprof %s\n", DP_VERSION);
		return 0;
	}
	if (strcmp(name, "help") == 0)
		return cmd_help(argc - 1, argv + 1);
	if (name[0] == '-') {
		fprintf(stderr, "deepprof: unknown option '%s'\n", name);
		usage(stderr);
		return 2;
	}
	cmd = find_command(name);
	if (!cmd)
		return unknown_command(name);
	return cmd->fn(argc - 1, argv + 1);
}
