/*
 * cgi/cgi_env.c - what deepprof-cgi takes from its environment: the configuration
 * (DEEPPROF_CGI_*) and the request (QUERY_STRING, SCRIPT_NAME), including the security
 * check that the data file named by file= lies under DEEPPROF_CGI_ROOT. Decides 400, 403,
 * 404 and 414 before anything is opened or any server is contacted.
 */
#define _XOPEN_SOURCE 700 /* realpath, O_CLOEXEC, O_NOFOLLOW */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/err.h"
#include "../core/url.h"
#include "../display/render_opts.h"
#include "../front/request.h"
#include "cgi_int.h"

/* Record the message of a refused request (dp_errmsg()) and return its HTTP @status. */
static int __attribute__((format(printf, 3, 4)))
refuse(int status, enum dp_err code, const char *fmt, ...)
{
	char msg[DP_CGI_QS_MAX + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dp_error(code, "%s", msg);
	return status;
}

/*
 * Normalise absolute path @in lexically into @out (@cap bytes): one slash between
 * components, none at the end. "." and ".." components are refused, not resolved: a
 * path that needs them is not one a profile link ever makes.
 * Return: 0, -1 for a relative path, "." / "..", or no room.
 */
static int normalise(const char *in, char *out, size_t cap)
{
	size_t o = 0;

	if (in[0] != '/')
		return -1;
	while (*in) {
		while (*in == '/')
			in++;
		if (!*in)
			break;
		size_t n = strcspn(in, "/");

		if ((n == 1 && in[0] == '.') || (n == 2 && in[0] == '.' && in[1] == '.'))
			return -1;
		if (o + 1 + n + 1 > cap)
			return -1;
		out[o++] = '/';
		memcpy(out + o, in, n);
		o += n;
		in += n;
	}
	if (o == 0)
		out[o++] = '/';
	out[o] = '\0';
	return 0;
}

/* Whether @path is @dir or lies below it (both normalised, absolute). */
static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static unsigned parse_uint(const char *s, unsigned max, bool *ok)
{
	unsigned long v = 0;

	*ok = *s != '\0';
	for (; *s && *ok; s++) {
		if (*s < '0' || *s > '9' || v > max) {
			*ok = false;
			break;
		}
		v = v * 10 + (unsigned long)(*s - '0');
	}
	if (v > max || v == 0)
		*ok = false;
	return (unsigned)v;
}

static int conf_root(struct dp_cgi_conf *c)
{
	const char *root = getenv("DEEPPROF_CGI_ROOT");
	char real[PATH_MAX];

	if (!root || !*root)
		return 0;
	if (normalise(root, c->root, sizeof(c->root)) < 0)
		return dp_error(DP_EUSAGE,
				"DEEPPROF_CGI_ROOT=%s: not an absolute path without "
				"'.' or '..' components",
				root);
	if (!realpath(c->root, real) || strlen(real) >= sizeof(c->root_real))
		return dp_error(DP_EUSAGE, "DEEPPROF_CGI_ROOT=%s: %s", root, strerror(errno));
	memcpy(c->root_real, real, strlen(real) + 1);
	return 0;
}

static int conf_dir(struct dp_cgi_conf *c)
{
	const char *dir = getenv("DEEPPROF_CGI_DIR");
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	int n;

	if (dir && *dir)
		n = snprintf(c->dir, sizeof(c->dir), "%s", dir);
	else if (xdg && xdg[0] == '/')
		n = snprintf(c->dir, sizeof(c->dir), "%s/deepprof-cgi", xdg);
	else
		n = snprintf(c->dir, sizeof(c->dir), "/tmp/deepprof-cgi-%lu",
			     (unsigned long)geteuid());
	if (n < 0 || (size_t)n >= sizeof(c->dir) || c->dir[0] != '/')
		return dp_error(DP_EUSAGE,
				"DEEPPROF_CGI_DIR=%s: not an absolute path (or too long)",
				dir ? dir : "");
	return 0;
}

/* dp_cgi_conf_load: see cgi_int.h. */
int dp_cgi_conf_load(struct dp_cgi_conf *c, bool no_detach)
{
	const char *t = getenv("DEEPPROF_CGI_TIMEOUT");
	const char *nd = getenv("DEEPPROF_CGI_NO_DETACH");
	const char *log = getenv("DEEPPROF_CGI_LOG");
	int rc;

	memset(c, 0, sizeof(*c));
	c->log_fd = -1;
	c->timeout_ms = DP_CGI_TIMEOUT_DEFAULT * 1000u;
	c->no_detach = no_detach || (nd && *nd && strcmp(nd, "0") != 0);
	if (c->no_detach)
		c->log_fd = STDERR_FILENO;
	if (log && *log) {
		int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);

		if (fd < 0)
			return dp_error(DP_EUSAGE, "DEEPPROF_CGI_LOG=%s: %s", log, strerror(errno));
		c->log_fd = fd;
	}
	if (t && *t) {
		bool ok;

		char num[16];
		size_t n = strlen(t);
		bool ms = n > 2 && strcmp(t + n - 2, "ms") == 0; /* milliseconds, for tests */

		snprintf(num, sizeof(num), "%.*s", (int)(ms ? n - 2 : n), t);
		c->timeout_ms =
			parse_uint(num, ms ? DP_CGI_TIMEOUT_MAX * 1000u : DP_CGI_TIMEOUT_MAX, &ok) *
			(ms ? 1u : 1000u);
		if (!ok || n >= sizeof(num))
			return dp_error(DP_EUSAGE,
					"DEEPPROF_CGI_TIMEOUT=%s: not a number of seconds "
					"in 1..%u (or of milliseconds, with ms)",
					t, DP_CGI_TIMEOUT_MAX);
	}
	rc = conf_root(c);
	if (rc < 0)
		return rc;
	return conf_dir(c);
}

/*
 * The CGI program's own parameters in the query string @rest (file= already taken out):
 * page=quit and page=timeout with timeout=SECONDS control the server and are no pages of
 * the query language, so they are recognised here; timeout= is taken out of what goes to
 * the session. Everything else is copied into r->query verbatim.
 * Return: 0 or a status (400).
 */
static int control_params(struct dp_cgi_req *r, const char *rest)
{
	bool has_timeout = false;
	size_t qlen = 0;

	while (*rest) {
		size_t n = strcspn(rest, "&");
		const char *eq = memchr(rest, '=', n);
		size_t klen = eq ? (size_t)(eq - rest) : n;
		const char *v = eq ? eq + 1 : rest + n;
		char key[16], val[24];

		if (dp_url_decode(rest, klen, key, sizeof(key), 0, NULL) < 0)
			key[0] = '\0'; /* not one of ours: the query parser judges it */
		if (dp_url_decode(v, (size_t)(rest + n - v), val, sizeof(val), 0, NULL) < 0)
			val[0] = '\0';
		if (strcmp(key, "page") == 0 && strcmp(val, "quit") == 0)
			r->ctl = DP_CGI_CTL_QUIT;
		else if (strcmp(key, "page") == 0 && strcmp(val, "timeout") == 0)
			r->ctl = DP_CGI_CTL_TIMEOUT;
		if (strcmp(key, "timeout") == 0) {
			bool ok;

			r->timeout = parse_uint(val, DP_CGI_TIMEOUT_MAX, &ok);
			if (!ok)
				return refuse(400, DP_EUSAGE,
					      "timeout=%.*s: not a number of seconds in 1..%u",
					      (int)(rest + n - v), v, DP_CGI_TIMEOUT_MAX);
			has_timeout = true;
		} else if (n) {
			if (qlen)
				r->query[qlen++] = '&';
			memcpy(r->query + qlen, rest, n);
			qlen += n;
			r->query[qlen] = '\0';
		}
		rest += n + (rest[n] ? 1 : 0);
	}
	if (r->ctl == DP_CGI_CTL_TIMEOUT && !has_timeout)
		return refuse(400, DP_EUSAGE, "page=timeout needs timeout=SECONDS");
	if (has_timeout && r->ctl != DP_CGI_CTL_TIMEOUT)
		return refuse(400, DP_EUSAGE, "timeout= applies only to page=timeout");
	return 0;
}

/*
 * Whether the deepest existing ancestor of @norm (normalised, under the root by name)
 * really lies under @root_real. When a missing file's path crosses a symbolic link out of
 * the root, it must be refused like an existing one: a 404 there would tell which files
 * exist outside.
 */
static bool exists_inside(const char *norm, const char *root_real)
{
	char prefix[DP_CGI_QS_MAX + DP_CGI_DIR_MAX + 2], real[PATH_MAX];
	char *slash;

	snprintf(prefix, sizeof(prefix), "%s", norm);
	while ((slash = strrchr(prefix, '/')) != NULL && slash != prefix) {
		*slash = '\0';
		if (realpath(prefix, real))
			return under(real, root_real);
	}
	return false;
}

/* Resolve r->given under the root into r->path. Return: 0 or a status (403, 404). */
static int resolve(const struct dp_cgi_conf *c, struct dp_cgi_req *r)
{
	char joined[DP_CGI_QS_MAX + DP_CGI_DIR_MAX + 2], norm[sizeof(joined)], real[PATH_MAX];
	struct stat st;

	if (!c->root[0])
		return refuse(403, DP_EUSAGE,
			      "DEEPPROF_CGI_ROOT is not set: no data file may be "
			      "opened");
	if (r->given[0] == '/')
		snprintf(joined, sizeof(joined), "%s", r->given);
	else
		snprintf(joined, sizeof(joined), "%s/%s", c->root, r->given);
	/* Refused by name first, before any look at the file system, so that a request
	 * cannot tell files outside the root that exist from those that do not. */
	if (normalise(joined, norm, sizeof(norm)) < 0 ||
	    !(under(norm, c->root) || under(norm, c->root_real)))
		return refuse(403, DP_EUSAGE, "%s: outside the profile directory", r->given);
	if (!realpath(norm, real)) {
		if (!exists_inside(norm, c->root_real))
			return refuse(403, DP_EUSAGE, "%s: outside the profile directory",
				      r->given);
		goto not_found;
	}
	if (!under(real, c->root_real)) /* a symbolic link out of the root */
		return refuse(403, DP_EUSAGE, "%s: outside the profile directory", r->given);
	if (stat(real, &st) < 0 || !S_ISREG(st.st_mode) || access(real, R_OK) < 0 ||
	    strlen(real) >= sizeof(r->path))
		goto not_found;
	memcpy(r->path, real, strlen(real) + 1);
	return 0;
not_found:
	return refuse(404, DP_ENOENT,
		      "%s: no such profile (missing, unreadable or not a deepprof "
		      "data file)",
		      r->given);
}

/* dp_cgi_req_parse: see cgi_int.h. */
int dp_cgi_req_parse(const struct dp_cgi_conf *c, struct dp_cgi_req *r)
{
	const char *qs = getenv("QUERY_STRING");
	const char *script = getenv("SCRIPT_NAME");
	struct dp_request req;
	int st;

	memset(r, 0, sizeof(*r));
	r->fmt = -1;
	r->pid = getpid();
	if (!qs)
		qs = "";
	if (!script)
		script = "";
	if (strlen(qs) > DP_CGI_QS_MAX) {
		r->fmt = (int)dp_request_format(qs, DP_FMT_HTML); /* the error page's */
		return refuse(414, DP_EUSAGE, "the query string is longer than %u bytes",
			      DP_CGI_QS_MAX);
	}
	st = dp_request_split(qs, DP_FMT_HTML, DP_CGI_QS_MAX, &req);
	if (req.fmt_given)
		r->fmt = (int)req.fmt;
	if (st == 0 && strlen(script) >= sizeof(r->script))
		st = refuse(414, DP_EUSAGE, "SCRIPT_NAME is longer than %zu bytes",
			    sizeof(r->script) - 1);
	else if (st)
		dp_error(DP_EUSAGE, "%s", req.msg);
	else if (req.has_download) /* the pipe protocol carries pages only */
		st = refuse(400, DP_EUSAGE,
			    "download= is not served here: `deepprof serve` serves downloads, "
			    "`deepprof export` writes the same files");
	if (st == 0) {
		memcpy(r->script, script, strlen(script) + 1);
		memcpy(r->given, req.file, strlen(req.file) + 1);
		st = control_params(r, dp_buf_cstr(&req.rest));
	}
	dp_request_release(&req);
	if (st)
		return st;
	if (!r->given[0])
		return refuse(400, DP_EUSAGE,
			      "no file= parameter: the query must name a data file, "
			      "e.g. ?file=prog.data&page=menu");
	return resolve(c, r);
}
