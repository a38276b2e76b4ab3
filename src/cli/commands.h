/*
 * cli/commands.h - the subcommands of the deepprof executable, one file each
 * (cmd_<name>.c). Each takes the arguments after the command name (argv[0] is the
 * command name) and returns the process exit status: 0 success, 1 failure of the
 * profiled program or the compiler, 2 bad usage or bad input.
 * Only src/cli/ may print to the terminal or exit.
 */
#ifndef DP_CLI_COMMANDS_H
#define DP_CLI_COMMANDS_H

int dp_cmd_cc(int argc, char **argv); /* deepprof cc / c++ (argv[0] says which) */
int dp_cmd_run(int argc, char **argv);
int dp_cmd_dump(int argc, char **argv);
int dp_cmd_symbolize(int argc, char **argv);
int dp_cmd_merge(int argc, char **argv);  /* cmd_merge.c */
int dp_cmd_diff(int argc, char **argv);	  /* cmd_diff.c */
int dp_cmd_report(int argc, char **argv); /* cmd_report.c: report, top, tree */
int dp_cmd_top(int argc, char **argv);
int dp_cmd_tree(int argc, char **argv);
int dp_cmd_find(int argc, char **argv);
int dp_cmd_check(int argc, char **argv);
int dp_cmd_serve(int argc, char **argv); /* cmd_serve.c */
int dp_cmd_export(int argc, char **argv);
int dp_cmd_import(int argc, char **argv);

/* dp_cli_prefix - the installation (or build tree) root: the directory above the one
 * holding the deepprof executable. Owned by the CLI; never NULL after main() starts. */
const char *dp_cli_prefix(void);

#endif /* DP_CLI_COMMANDS_H */
