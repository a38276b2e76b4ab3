/*
 * cli/cmd_serve.c - `deepprof serve [--port N] [--bind ADDR] [--open] [--contour F]
 * [--base BASE [--absolute]] FILE...`: load the data files into a session (and BASE as
 * the profile every page is compared with), print the URL and serve them with the
 * built-in web server (src/web) until Ctrl-C or SIGTERM. This file parses the command
 * line and prints.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../front/session.h"
#include "../web/serve.h"
#include "commands.h"

static const char serve_usage[] =
	"usage: deepprof serve [--port N] [--bind ADDR] [--open] [--contour F]\n"
	"                      [--base BASE [--absolute]] FILE...\n"
	"\n"
	"Browse deepprof data files in a web browser: load each FILE once, print the URL\n"
	"and answer requests until Ctrl-C (or SIGTERM). With several files the start page\n"
	"lists them; every page names its file with file=N.\n"
	"\n"
	"  --base BASE    compare every page with the same page of profile BASE: base, new,\n"
	"                 change and relative change of one metric in every table (the\n"
	"                 sort's when by a cost, else total time), a differential flame graph\n"
	"  --absolute     with --base: compare time in seconds, not as a share of each run\n"
	"  --port N       the TCP port (default 0: any free port, printed)\n"
	"  --bind ADDR    the address to listen on (default 127.0.0.1: this machine only;\n"
	"                 anyone who can reach ADDR can read the profiles)\n"
	"  --open         open the URL in the desktop's browser (xdg-open)\n"
	"  --contour F    the contour (exclusion) file for every FILE (default: each FILE's\n"
	"                 FILE-without-.data.contour when it exists)\n"
	"  -h, --help     show this help\n"
	"\n"
	"Exit status: 0 stopped by Ctrl-C or SIGTERM, 2 bad usage or unreadable FILE,\n"
	"1 the server could not start.\n";

struct serve_args {
	struct dp_web_opts web;
	const char *contour;
	const char *base; /* --base, or NULL */
	bool absolute;
	char **files;
	int n_files;
};

static int serve_usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "deepprof serve: %s%s\n", what, arg);
	fputs(serve_usage, stderr);
	return 2;
}

/* The value of option @name at argv[*i] ("--name V" or "--name=V"), or NULL if not it. */
static const char *opt_value(int argc, char **argv, int *i, const char *name, int *missing)
{
	size_t n = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, n) != 0)
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n] != '\0')
		return NULL;
	if (*i + 1 >= argc) {
		*missing = 1;
		return NULL;
	}
	return argv[++*i];
}

/* Parses one option at argv[*i] into @a. Returns -1 to go on, else an exit status. */
static int serve_opt(int argc, char **argv, int *i, struct serve_args *a)
{
	const char *v, *arg = argv[*i];
	int missing = 0;
	char *end;

	if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
		fputs(serve_usage, stdout);
		return 0;
	}
	if (strcmp(arg, "--open") == 0) {
		a->web.open_browser = true;
	} else if (strcmp(arg, "--absolute") == 0) {
		a->absolute = true;
	} else if ((v = opt_value(argc, argv, i, "--base", &missing))) {
		if (!*v)
			return serve_usage_error("empty --base file name", "");
		a->base = v;
	} else if ((v = opt_value(argc, argv, i, "--port", &missing))) {
		unsigned long p = strtoul(v, &end, 10);

		if (!*v || *end || p > 65535 || v[0] == '-')
			return serve_usage_error("bad port (0 to 65535): ", v);
		a->web.port = (uint16_t)p;
	} else if ((v = opt_value(argc, argv, i, "--bind", &missing))) {
		if (!*v)
			return serve_usage_error("empty --bind address", "");
		a->web.bind = v;
	} else if ((v = opt_value(argc, argv, i, "--contour", &missing))) {
		a->contour = v;
	} else if (missing) {
		return serve_usage_error("missing value for ", arg);
	} else {
		return serve_usage_error("unknown option: ", arg);
	}
	return -1;
}

static int serve_args(int argc, char **argv, struct serve_args *a)
{
	int i, rc;

	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		}
		rc = serve_opt(argc, argv, &i, a);
		if (rc >= 0)
			return rc;
	}
	if (i >= argc)
		return serve_usage_error("missing FILE", "");
	if (a->absolute && !a->base)
		return serve_usage_error("--absolute needs --base", "");
	a->files = argv + i;
	a->n_files = argc - i;
	return -1;
}

static void serve_ready(struct dp_web *w, void *arg)
{
	const struct serve_args *a = arg;
	int i;

	printf("deepprof: serving ");
	for (i = 0; i < a->n_files; i++)
		printf("%s%s", i ? ", " : "", a->files[i]);
	if (a->base)
		printf(" compared with %s", a->base);
	printf(" at %s\n", dp_web_url(w));
	fflush(stdout);
	fprintf(stderr, "deepprof: press Ctrl-C to stop\n");
}

static void serve_warning(const char *msg, void *arg)
{
	(void)arg;
	fprintf(stderr, "deepprof: warning: %s\n", msg);
}

/* Prints each line of warnings @w about @file on stderr. */
static void serve_print_warnings(const char *file, const char *w)
{
	while (w && *w) {
		const char *nl = strchr(w, '\n');
		int len = nl ? (int)(nl - w) : (int)strlen(w);

		if (len)
			fprintf(stderr, "deepprof: %s: warning: %.*s\n", file, len, w);
		w += len + (nl ? 1 : 0);
	}
}

/* Opens every file of @a into @s, printing warnings. Returns 0, or exit status 2. */
static int serve_load(struct dp_session *s, const struct serve_args *a)
{
	int i;

	if (a->base &&
	    dp_session_set_base(s, a->base, a->contour, a->absolute ? DP_BASE_ABSOLUTE : 0) < 0) {
		fprintf(stderr, "deepprof: %s\n", dp_errmsg());
		return 2;
	}
	for (i = 0; i < a->n_files; i++) {
		if (dp_session_open(s, a->files[i], a->contour) < 0) {
			fprintf(stderr, "deepprof: %s\n", dp_errmsg());
			return 2;
		}
		serve_print_warnings(a->files[i], dp_session_warnings(s, (uint32_t)i));
	}
	return 0;
}

int dp_cmd_serve(int argc, char **argv)
{
	struct serve_args a;
	struct dp_session *s;
	int rc;

	memset(&a, 0, sizeof(a));
	rc = serve_args(argc, argv, &a);
	if (rc >= 0)
		return rc;
	s = dp_session_new(DP_SESSION_BACKGROUND); /* the threads view ready before asked */
	if (!s) {
		fprintf(stderr, "deepprof: out of memory\n");
		return 1;
	}
	rc = serve_load(s, &a);
	if (rc == 0) {
		a.web.on_ready = serve_ready;
		a.web.on_warning = serve_warning;
		a.web.arg = &a;
		rc = dp_web_serve(s, &a.web);
		if (rc < 0) {
			fprintf(stderr, "deepprof: %s\n", dp_errmsg());
			rc = 1;
		} else {
			printf("deepprof: %s: server stopped\n",
			       rc == SIGINT ? "interrupted" : "terminated");
			fflush(stdout);
			rc = 0;
		}
	}
	dp_session_free(s);
	return rc;
}
