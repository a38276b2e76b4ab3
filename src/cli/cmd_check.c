/*
 * cli/cmd_check.c - `deepprof check [--max N] FILE...`: render every page of each
 * profile in every format and thread view and verify the analysis invariants
 * (dp_session_check, like mdprof_test); print a line per file and every failure.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/err.h"
#include "cmd_common.h"
#include "commands.h"

static const char check_usage[] =
	"usage: deepprof check [--max N] [--contour FILE] FILE...\n"
	"\n"
	"Self-test of profiles: render every page (menu, root, action, modules, threads,\n"
	"flame graphs, top lists, and every clique, procedure, callers grouping, call site,\n"
	"module and raw node) in text, JSON and HTML, in both thread views, and verify the\n"
	"analysis invariants (totals are sums of own costs; procedure, clique and view\n"
	"totals agree). A region with mismatched leaves (deepprof_leave naming a region\n"
	"that was not the innermost open one) is a failure too.\n"
	"\n"
	"  --max N      check at most N pages of each kind per file (default: all)\n"
	"  -h, --help   show this help\n"
	"\n"
	"Exit status: 0 all pass; 1 a page or invariant failed; 2 bad usage or unreadable file.\n";

static int check_opt(const char *arg, const char *val, void *ctx)
{
	unsigned long *max = ctx;
	char *end;

	if (strcmp(arg, "--max") != 0)
		return -1;
	if (!val)
		return 2;
	*max = strtoul(val, &end, 10);
	return *end || !*val || *max > UINT32_MAX ? 2 : 1;
}

/* Checks one file; returns its exit status. */
static int check_file(const struct dp_cli_report_opts *o, const char *file, uint32_t max)
{
	struct dp_cli_report_opts one = *o;
	struct dp_check_result res;
	struct dp_session *s;
	struct timespec t0, t1;
	int rc;

	one.file = file;
	s = dp_cli_open(&one);
	if (!s)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	rc = dp_session_check(s, 0, max, &res);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (rc < 0) {
		fprintf(stderr, "deepprof check: %s: %s\n", file, dp_errmsg());
		rc = 2;
	} else {
		double secs =
			(double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;

		fputs(dp_buf_cstr(&res.report), stdout);
		printf("%s: %" PRIu64 " pages rendered in %.2f s, %" PRIu64 " failure%s\n", file,
		       res.pages, secs, res.failures, res.failures == 1 ? "" : "s");
		rc = res.failures ? 1 : 0;
	}
	dp_buf_release(&res.report);
	dp_session_free(s);
	return rc;
}

int dp_cmd_check(int argc, char **argv)
{
	struct dp_cli_report_opts o;
	unsigned long max = 0;
	int rc, worst = 0, i;

	o.extra = check_opt;
	o.extra_ctx = &max;
	rc = dp_cli_report_args(argc, argv, check_usage, "--max", &o);
	if (rc >= 0)
		return rc;
	rc = check_file(&o, o.file, (uint32_t)max);
	worst = rc;
	for (i = 0; i < o.n_rest; i++) {
		rc = check_file(&o, o.rest[i], (uint32_t)max);
		if (rc > worst)
			worst = rc;
	}
	if (fflush(stdout) != 0 && worst == 0)
		worst = 1;
	return worst;
}
