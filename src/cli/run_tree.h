/*
 * cli/run_tree.h - the processes of one `deepprof run`: every process built with
 * deepprof writes its profile into a private temporary directory (DEEPPROF_OUTPUT =
 * DIR/%e.%p.data); after the run the files are symbolized and merged into the output
 * file (analysis/profile_merge.h), or moved next to it one per process, and the
 * directory is removed.
 */
#ifndef DP_CLI_RUN_TREE_H
#define DP_CLI_RUN_TREE_H

#include <limits.h>
#include <sys/types.h>

struct dp_run_tree {
	char dir[PATH_MAX];	/* the private directory ("" when none) */
	char pattern[PATH_MAX]; /* DEEPPROF_OUTPUT for the run: DIR/%e.%p.data, '%' escaped */
};

/* dp_run_tree_open - make the private directory (mkdtemp under $TMPDIR, else /tmp) and
 * the pattern. Returns 0, or -1 after a message on stderr. */
int dp_run_tree_open(struct dp_run_tree *t);

/*
 * dp_run_tree_gather - after the run: symbolize the files the processes wrote, then
 * - merged (@per_process 0): write them into @output merged (one file: moved there);
 * - @per_process: the file of process @top (the one deepprof run started) goes to
 *   @output, the others to @output's stem + ".PID.data" (".PID" appended when @output
 *   does not end in ".data");
 * when @output's directory is gone or not writable, to $TMPDIR (else /tmp) and
 * @output's last component instead. Messages on stderr say where the profiles went.
 * Into @written (PATH_MAX bytes) the file to summarize ("" if none). Returns the number
 * of process profiles found (0: none written), -1 after a message on error.
 */
int dp_run_tree_gather(struct dp_run_tree *t, const char *output, pid_t top, int per_process,
		       char *written);

/* dp_run_tree_close - remove the private directory and whatever is in it. */
void dp_run_tree_close(struct dp_run_tree *t);

#endif /* DP_CLI_RUN_TREE_H */
