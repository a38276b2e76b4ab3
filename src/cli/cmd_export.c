/*
 * cli/cmd_export.c - `deepprof export --format=FMT FILE [QUERY] -o OUT`: read a data file,
 * take its merged (or, with view=threads, per-thread) view, with library leaves or
 * (libs=fold) without, analyse it and write it in
 * another tool's format (src/export renders; this file parses the command line, loads
 * the profile, writes OUT through a temporary file and chooses the exit status).
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../analysis/merge.h"
#include "../core/err.h"
#include "../export/export.h"
#include "../format/reader.h"
#include "commands.h"

static const char export_usage[] =
	"usage: deepprof export --format=FMT [OPTIONS] FILE [QUERY] -o OUT\n"
	"\n"
	"Write a profile, or one subtree of its calling-context tree, in another tool's\n"
	"format (mappings: docs/EXPORTS.md).\n"
	"\n"
	"  --format=callgrind   Callgrind format (callgrind_annotate, KCachegrind)\n"
	"  --format=pprof       gzip-compressed profile.proto (go tool pprof, Pyroscope, Parca)\n"
	"  --format=folded      folded stacks (flamegraph.pl, inferno, speedscope)\n"
	"  --format=speedscope  speedscope's JSON file format\n"
	"  --format=dot         the call graph for Graphviz\n"
	"  --format=json        the whole profile, as deepprof dump --format=json\n"
	"  -o OUT, --output=OUT the file to write ('-' for standard output)\n"
	"  --context=N          callgrind: name functions by their N nearest callers (0-8)\n"
	"  --metric=M           folded, speedscope, dot: time, calls, callseqs, allocs, bytes\n"
	"  --min=PCT            dot: leave out nodes and arcs under PCT%% of the total (0.5)\n"
	"  -h, --help           show this help\n"
	"\n"
	"QUERY restricts the export: page=clique&id=N (a clique and all below it),\n"
	"page=proc&id=N or page=proc&name=F (every context of a procedure and all below);\n"
	"view=threads exports the per-thread view (threads apart where the format has them);\n"
	"libs=fold charges time in libraries to their callers (no library leaves).\n"
	"\n"
	"Exit status: 0 success, 2 bad usage, query or file, 1 output error.\n";

struct export_args {
	struct dp_export_opts o;
	const char *file, *query, *out;
	bool have_format;
};

static int export_usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "deepprof export: %s%s\n", what, arg);
	fputs(export_usage, stderr);
	return 2;
}

/* A whole decimal number from @s within [0, @max]; -1 if not one. */
static long export_number(const char *s, long max)
{
	char *end = NULL;
	long v = strtol(s, &end, 10);

	return *s && !*end && v >= 0 && v <= max ? v : -1;
}

/* Parses option @a with value @v (NULL if none). Returns -1 to go on, else an exit status. */
static int export_opt(struct export_args *x, const char *a, const char *v)
{
	static const char *const metrics[] = {"time", "calls", "callseqs", "allocs", "bytes"};

	if (!v)
		return export_usage_error("missing value of ", a);
	if (strcmp(a, "--format") == 0) {
		if (dp_export_format_parse(v, &x->o.format) < 0)
			return export_usage_error(dp_errmsg(), "");
		x->have_format = true;
	} else if (strcmp(a, "--output") == 0 || strcmp(a, "-o") == 0) {
		x->out = v;
	} else if (strcmp(a, "--context") == 0) {
		long n = export_number(v, DP_EXPORT_MAX_CONTEXT);

		if (n < 0)
			return export_usage_error("--context takes a number from 0 to 8, not ", v);
		x->o.context = (unsigned)n;
	} else if (strcmp(a, "--metric") == 0) {
		size_t m;

		for (m = 0; m < 5 && strcmp(v, metrics[m]) != 0; m++)
			;
		if (m == 5)
			return export_usage_error(
				"--metric takes time, calls, callseqs, allocs or bytes, not ", v);
		x->o.metric = (enum dp_metric)m;
		x->o.has_metric = true;
	} else if (strcmp(a, "--min") == 0) {
		char *end = NULL;
		double d = strtod(v, &end);

		if (!*v || *end || !(d >= 0 && d <= 100))
			return export_usage_error("--min takes a percentage from 0 to 100, not ",
						  v);
		x->o.min_pct = d;
	} else {
		return export_usage_error("unknown option: ", a);
	}
	return -1;
}

static int export_args(int argc, char **argv, struct export_args *x)
{
	const char *ops[2] = {NULL, NULL};
	int n_ops = 0, rc;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		char name[64];

		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			fputs(export_usage, stdout);
			return 0;
		}
		if (a[0] != '-' || strcmp(a, "-") == 0) {
			if (n_ops == 2)
				return export_usage_error("unexpected argument: ", a);
			ops[n_ops++] = a;
			continue;
		}
		const char *eq = strchr(a, '=');
		if (a[1] != '-' && strcmp(a, "-o") != 0)
			return export_usage_error("unknown option: ", a);
		if (eq && (size_t)(eq - a) < sizeof(name)) {
			memcpy(name, a, (size_t)(eq - a));
			name[eq - a] = '\0';
			rc = export_opt(x, name, eq + 1);
		} else {
			rc = export_opt(x, a, i + 1 < argc ? argv[++i] : NULL);
		}
		if (rc >= 0)
			return rc;
	}
	if (!x->have_format)
		return export_usage_error("missing --format=FMT", "");
	if (!ops[0])
		return export_usage_error("missing FILE", "");
	if (!x->out)
		return export_usage_error("missing -o OUT ('-' for standard output)", "");
	x->file = ops[0];
	x->query = ops[1] ? ops[1] : "";
	return -1;
}

/* The procedure named @name: its id, or 0 with the message set. */
static uint32_t export_find_proc(const struct dp_profile *p, const char *name)
{
	uint32_t found = 0, n = 0;

	for (uint32_t s = 1; s <= p->n_ps; s++) {
		if (strcmp(dp_profile_str(p, p->ps[s].name), name) == 0) {
			found = found ? found : s;
			n++;
		}
	}
	if (n == 0)
		dp_error(DP_EUSAGE, "no procedure named '%s'", name);
	else if (n > 1)
		dp_error(DP_EUSAGE, "%" PRIu32 " procedures are named '%s'; choose one with id=", n,
			 name);
	return n == 1 ? found : 0;
}

/* Parse the QUERY into the export's root and view; -DP_EUSAGE on a query the export does
 * not take. The procedure name is resolved later (in the chosen view). */
static int export_query(struct export_args *x, struct dp_query *q)
{
	int rc = dp_query_parse(x->query, true, q);

	if (rc < 0)
		return rc;
	x->o.per_thread = q->prefs.view == DP_VIEW_THREADS;
	switch (q->page) {
	case DP_PAGE_MENU:
	case DP_PAGE_ROOT:
		x->o.root = DP_EXPORT_ALL;
		break;
	case DP_PAGE_CLIQUE:
		x->o.root = DP_EXPORT_CLIQUE;
		break;
	case DP_PAGE_PROC:
		x->o.root = DP_EXPORT_PROC;
		break;
	default:
		return dp_error(DP_EUSAGE,
				"export takes page=clique&id=N or page=proc&id=N|name=F (and "
				"view=threads, libs=fold), not page=%s",
				dp_query_page_name(q->page));
	}
	if (x->o.root != DP_EXPORT_ALL && !q->id && !q->name[0])
		return dp_error(DP_EUSAGE, "page=%s needs id=N%s", dp_query_page_name(q->page),
				q->page == DP_PAGE_PROC ? " or name=F" : "");
	x->o.id = q->id;
	return 0;
}

static int export_write(void *arg, const void *data, size_t len)
{
	if (fwrite(data, 1, len, arg) != len)
		return dp_error(DP_EIO, "write failed");
	return 0;
}

/* Export @a to x->out, through OUT.tmp renamed at the end (nothing left on error). */
static int export_to_file(const struct dp_analysis *a, const struct export_args *x)
{
	char tmp[4096];
	FILE *f;
	int rc;

	if (strcmp(x->out, "-") == 0) {
		rc = dp_export(a, &x->o, export_write, stdout);
		if (rc == 0 && fflush(stdout) != 0)
			rc = dp_error(DP_EIO, "write to standard output failed");
		return rc;
	}
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", x->out) >= sizeof(tmp))
		return dp_error(DP_EUSAGE, "output name too long");
	f = fopen(tmp, "wb");
	if (!f)
		return dp_error(DP_EIO, "cannot create %s", tmp);
	rc = dp_export(a, &x->o, export_write, f);
	if (fclose(f) != 0 && rc == 0)
		rc = dp_error(DP_EIO, "cannot write %s", tmp);
	if (rc == 0 && rename(tmp, x->out) != 0)
		rc = dp_error(DP_EIO, "cannot rename %s to %s", tmp, x->out);
	if (rc < 0)
		unlink(tmp);
	return rc;
}

/* Load x->file in the view the query chose (threads, library leaves), analyse it and
 * export it. */
static int export_run(struct export_args *x, const struct dp_query *q)
{
	struct dp_profile raw, merged, folded, *p = &raw;
	struct dp_analysis *a = NULL;
	int rc = dp_read_file(x->file, &raw);

	if (rc < 0)
		return rc;
	if (!x->o.per_thread) {
		rc = dp_profile_merge_threads(&raw, &merged);
		dp_profile_release(&raw);
		if (rc < 0)
			return rc;
		p = &merged;
	}
	if (q->prefs.libs == DP_LIBS_FOLD) {
		rc = dp_profile_fold_libs(p, &folded);
		dp_profile_release(p);
		if (rc < 0)
			return rc;
		p = &folded;
	}
	a = dp_analysis_new(p, &rc);
	if (a && x->o.root == DP_EXPORT_PROC && !x->o.id) {
		x->o.id = export_find_proc(p, q->name);
		rc = x->o.id ? 0 : -DP_EUSAGE;
	}
	if (a && rc == 0)
		rc = export_to_file(a, x);
	dp_analysis_free(a);
	dp_profile_release(p);
	return rc;
}

int dp_cmd_export(int argc, char **argv)
{
	struct export_args x = {0};
	struct dp_query q;
	int rc;

	dp_export_opts_init(&x.o);
	x.o.version = "deepprof " DP_VERSION;
	rc = export_args(argc, argv, &x);
	if (rc >= 0)
		return rc;
	if (export_query(&x, &q) < 0) {
		fprintf(stderr, "deepprof export: %s\n", dp_errmsg());
		return 2;
	}
	rc = export_run(&x, &q);
	if (rc < 0) {
		fprintf(stderr, "deepprof export: %s\n", dp_errmsg());
		return rc == -DP_EIO ? 1 : 2;
	}
	return 0;
}
