/*
 * cli/cmd_common.h - what the commands that read profiles share (report, top, tree,
 * check, serve): the common options (--format, --contour, --width, --base, --absolute),
 * usage errors, and opening the file into a session with its warnings printed; and where
 * the runtime's libraries are, for cc and run.
 */
#ifndef DP_CLI_CMD_COMMON_H
#define DP_CLI_CMD_COMMON_H

#include "../front/session.h"

#define DP_CLI_MAX_REST 64

/* The data file a command reads when it is given none (what deepprof run writes). */
#define DP_CLI_DEFAULT_FILE "Deep.data"

struct dp_cli_report_opts {
	enum dp_format format;
	unsigned width;
	const char *contour;
	const char *base;		   /* --base FILE: compare with this profile (NULL: none) */
	bool absolute;			   /* --absolute: compare time in seconds */
	const char *file;		   /* the first operand */
	const char *rest[DP_CLI_MAX_REST]; /* the operands after it */
	int n_rest;
	/* a command's own options: called with each "--name" and its value (NULL when
	 * the option has no "=value" and no next argument); returns 0 (used, no value), 1
	 * (used with the value), -1 (not an option of this command), 2 (bad value).
	 * Set extra = NULL for none. */
	int (*extra)(const char *arg, const char *val, void *ctx);
	void *extra_ctx;
};

/*
 * dp_cli_report_args - parse argv (argv[0] = the command) into @o: the common options,
 * @o->extra's, a FILE operand (DP_CLI_DEFAULT_FILE when there is none) and further
 * operands into rest; the width is --width's, else the terminal's (stdout), else 100.
 * @usage is the command's help text (printed for --help and after errors).
 * Return: -1 to go on, or an exit status (0 after --help, 2 after a usage error).
 */
int dp_cli_report_args(int argc, char **argv, const char *usage, const char *extra_names,
		       struct dp_cli_report_opts *o);

/* dp_cli_usage_error - print "deepprof CMD: WHAT ARG" and @usage on stderr; returns 2. */
int dp_cli_usage_error(const char *cmd, const char *usage, const char *what, const char *arg);

/* dp_cli_open - a session holding o->file (and o->contour; compared with o->base), its
 * warnings printed on stderr; NULL after printing the error. */
struct dp_session *dp_cli_open(const struct dp_cli_report_opts *o);

/* dp_cli_has_samples - whether file 0 of @s has enough samples to rank by time. */
int dp_cli_has_samples(const struct dp_session *s);

/* The library directories under the prefix, in the order they are searched: the
 * installed one (DP_LIBDIR, maybe lib/x86_64-linux-gnu), then lib (the build tree). */
#define DP_CLI_N_LIBDIRS 2

/* dp_cli_lib_file - PREFIX/(library directory @i)/@rel, malloc'd (exits if out of
 * memory). */
char *dp_cli_lib_file(const char *prefix, int i, const char *rel);

/*
 * dp_cli_runtime_file - the runtime library @name (libdeepprof.a, libdeepprof.so,
 * libdeepprof_static.a, libdeepprof_so.a) in the first library directory of
 * dp_cli_prefix() that has it, malloc'd; NULL, with a message, when none does.
 */
char *dp_cli_runtime_file(const char *name);

#endif /* DP_CLI_CMD_COMMON_H */
