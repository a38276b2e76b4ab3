/*
 * cgi/cgi_main.c - deepprof-cgi, the CGI program: every page view is one run. It sends
 * the query to the running server of the data file named by file=, or, when there is
 * none, loads the file, answers, and forks into that server (docs/CGI.md for users,
 * docs/internals/cgi.md for the protocol). The only file of the program that writes the
 * response or exits; configuration and server problems go to stderr (the web server's
 * error log), the client sees a short page.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/err.h"
#include "../front/session.h"
#include "cgi_int.h"

#ifndef DP_VERSION
#define DP_VERSION "unknown"
#endif

static void usage(FILE *f)
{
	fprintf(f,
		"usage: deepprof-cgi [--no-detach] [--help] [--version]\n\n"
		"The deepprof CGI program: run by a web server, it answers the query in\n"
		"QUERY_STRING (file=PATH&page=...) about a deepprof data file, keeping a\n"
		"server process per data file between requests.\n\n"
		"  --no-detach   serve in the foreground, logging to stderr (debugging)\n\n"
		"environment: DEEPPROF_CGI_ROOT (required: the directory data files may be\n"
		"in), DEEPPROF_CGI_DIR (pipes and lock files), DEEPPROF_CGI_TIMEOUT (idle\n"
		"seconds, default %u), DEEPPROF_CGI_NO_DETACH, DEEPPROF_CGI_LOG (a log file).\n"
		"See docs/CGI.md.\n",
		DP_CGI_TIMEOUT_DEFAULT);
}

/* Write a response to stdout and end the run. */
static int respond(const struct dp_buf *b)
{
	return dp_cgi_write_all(STDOUT_FILENO, b->data, b->len) < 0 ? 1 : 0;
}

static int respond_error(int status, int fmt, const char *msg)
{
	struct dp_buf b;
	int rc;

	dp_buf_init(&b, 1u << 20);
	dp_cgi_error_response(&b, status, fmt, msg);
	rc = respond(&b);
	dp_buf_release(&b);
	return rc;
}

/* A server-side problem: the details to the web server's log, a short page to the client. */
static int internal_error(int status, int fmt, const char *what)
{
	fprintf(stderr, "deepprof-cgi: %s: %s\n", what, dp_errmsg());
	return respond_error(status, fmt,
			     status == 500 ? "deepprof-cgi is misconfigured or "
					     "failed; see the web server's error log"
					   : what);
}

/* The pages' script (asset=NAME): its response and the exit status, or -1 when the
 * query asks for a page. */
static int asset(const char *qs)
{
	struct dp_buf b;
	int rc;

	if (!qs || strlen(qs) > DP_CGI_QS_MAX)
		return -1;
	dp_buf_init(&b, 1u << 20);
	rc = dp_cgi_asset(qs, &b);
	if (rc == 0)
		rc = respond(&b);
	else if (rc < 0)
		rc = respond_error(404, -1, "no such file: asset= names a file the pages load");
	else
		rc = -1;
	dp_buf_release(&b);
	return rc;
}

static uint64_t make_nonce(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)getpid() << 40) ^ ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)ts.tv_nsec;
}

/* No server: load the file, answer, become its server. Called with the lock. */
static int first_request(const struct dp_cgi_conf *c, struct dp_cgi_dir *d,
			 const struct dp_cgi_req *r)
{
	struct dp_session *s = dp_session_new(DP_SESSION_QUIET);
	struct dp_buf resp;
	char msg[DP_CGI_QS_MAX + 128];
	int rc;

	dp_buf_init(&resp, DP_CGI_RESP_MAX);
	if (!s || dp_session_open(s, r->path, NULL) < 0) {
		dp_cgi_unlock(d);
		dp_cgi_want_remove(d, r->pid);
		fprintf(stderr, "deepprof-cgi: %s\n", s ? dp_errmsg() : "out of memory");
		dp_session_free(s);
		/* the same page as for a missing file: nothing to learn by probing */
		snprintf(msg, sizeof(msg),
			 "%s: no such profile (missing, unreadable or not a "
			 "deepprof data file)",
			 r->given);
		return respond_error(404, r->fmt, msg);
	}
	rc = dp_cgi_answer(s, 0, r, &resp);
	dp_cgi_want_remove(d, r->pid); /* committed to being the server */
	if (rc < 0) {
		dp_cgi_unlock(d);
		rc = internal_error(500, r->fmt, "answer");
	} else {
		rc = dp_cgi_serve(c, d, s, r, &resp) < 0 ? 1 : 0;
	}
	dp_buf_release(&resp);
	dp_session_free(s);
	return rc;
}

static int run(const struct dp_cgi_conf *c, struct dp_cgi_req *r)
{
	struct dp_cgi_dir d;
	struct dp_buf resp;
	int rc;

	if (dp_cgi_dir_open(&d, c, r->path) < 0)
		return internal_error(500, r->fmt, "DEEPPROF_CGI_DIR");
	r->nonce = make_nonce();
	if (dp_cgi_want_create(&d, r->pid) < 0) {
		rc = internal_error(500, r->fmt, "want file");
		goto out_dir;
	}
	rc = dp_cgi_lock(&d, DP_CGI_LOCK_WAIT_MS);
	if (rc != 0) {
		dp_cgi_want_remove(&d, r->pid);
		rc = internal_error(rc > 0 ? 503 : 500, r->fmt, "the server of this file is busy");
		goto out_dir;
	}
	if (dp_cgi_pipes_exist(&d)) {
		dp_buf_init(&resp, DP_CGI_RESP_MAX);
		rc = dp_cgi_client_ask(&d, r, &resp);
		if (rc != DP_CGI_NO_SERVER) {
			dp_cgi_unlock(&d);
			dp_cgi_want_remove(&d, r->pid);
			rc = rc < 0 ? internal_error(504, r->fmt, "no answer from the server")
				    : respond(&resp);
			dp_buf_release(&resp);
			goto out_dir;
		}
		dp_buf_release(&resp);
		dp_cgi_log(c->log_fd, "the server of %s has died: replacing it", r->path);
		dp_cgi_pipes_remove(&d);
	}
	if (r->ctl == DP_CGI_CTL_QUIT) {
		dp_cgi_unlock(&d);
		dp_cgi_want_remove(&d, r->pid);
		rc = respond_error(200, r->fmt, "no server was running for this file");
		goto out_dir;
	}
	rc = first_request(c, &d, r);
out_dir:
	dp_cgi_dir_close(&d);
	return rc;
}

/* main - deepprof-cgi's entry point; exit status 0 whenever a response was written. */
int main(int argc, char **argv)
{
	static struct dp_cgi_conf conf;
	static struct dp_cgi_req req;
	const char *method = getenv("REQUEST_METHOD");
	bool no_detach = false;
	int st;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--no-detach") == 0 ||
		    strcmp(argv[i], "--no-detach-process") == 0) {
			no_detach = true;
		} else if (strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(argv[i], "--version") == 0) {
			printf("deepprof-cgi %s\n", DP_VERSION);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (dp_cgi_conf_load(&conf, no_detach) < 0)
		return internal_error(500, -1, "configuration");
	if (method && strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0)
		return respond_error(405, -1, "only GET and HEAD are supported");
	st = asset(getenv("QUERY_STRING"));
	if (st >= 0)
		return st;
	st = dp_cgi_req_parse(&conf, &req);
	if (st)
		return respond_error(st, req.fmt, dp_errmsg());
	return run(&conf, &req);
}
