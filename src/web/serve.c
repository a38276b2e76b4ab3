/*
 * web/serve.c - the built-in server's plumbing: the listening socket, the libmicrohttpd
 * daemon and its callbacks (raw URI kept per request, replies with the security headers
 * and a Server-Timing header giving the time spent answering), xdg-open, and
 * dp_web_serve()'s wait for SIGINT/SIGTERM. What to answer is route.c's job.
 */
#define _GNU_SOURCE /* accept4 flags, SOCK_CLOEXEC */

#include "serve.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../core/err.h"
#include "../display/display.h"
#include "mhd.h"
#include "web_int.h"

#if MHD_VERSION < 0x00097002
typedef int dp_mhd_result; /* before 0.9.71 handlers returned int */
#else
typedef enum MHD_Result dp_mhd_result;
#endif

struct dp_web {
	struct dp_web_router rt;
	struct MHD_Daemon *mhd;
	uint16_t port;
	pid_t browser; /* xdg-open's pid, 0 if never started */
	char url[96];
};

/* What the URI callback keeps of a request for the access handler. */
struct dp_web_req {
	size_t uri_len;
	int seen;   /* the access handler has been called once */
	char uri[]; /* the raw request target, or "" when longer than DP_WEB_URI_MAX */
};

/* What the URI callback returns when it cannot allocate: the connection is dropped. */
static struct dp_web_req dp_web_req_oom;

static void *web_uri_cb(void *cls, const char *uri, struct MHD_Connection *con)
{
	size_t len = strlen(uri);
	size_t keep = len > DP_WEB_URI_MAX ? 0 : len;
	struct dp_web_req *req = malloc(sizeof(*req) + keep + 1);

	(void)cls;
	(void)con;
	if (!req)
		return &dp_web_req_oom;
	req->uri_len = len;
	req->seen = 0;
	memcpy(req->uri, uri, keep);
	req->uri[keep] = '\0';
	return req;
}

static void web_done_cb(void *cls, struct MHD_Connection *con, void **con_cls,
			enum MHD_RequestTerminationCode why)
{
	(void)cls;
	(void)con;
	(void)why;
	if (*con_cls != &dp_web_req_oom)
		free(*con_cls);
	*con_cls = NULL;
}

/* Milliseconds on clock @clk. */
static double web_ms(clockid_t clk)
{
	struct timespec t;

	if (clock_gettime(clk, &t) != 0)
		return 0.0;
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* Hands @r to MHD: the body moves into the response (freed by MHD). @timing: the value
 * of the Server-Timing header. */
static dp_mhd_result web_queue(struct MHD_Connection *con, struct dp_web_reply *r,
			       const char *timing)
{
	const struct dp_mhd *lib = dp_mhd_get(); /* loaded: the daemon runs */
	struct MHD_Response *resp;
	dp_mhd_result ret;
	size_t i;

	if (r->body.len)
		resp = lib->create_response_from_buffer(r->body.len, r->body.data,
							MHD_RESPMEM_MUST_FREE);
	else
		resp = lib->create_response_from_buffer(0, (void *)(uintptr_t) "",
							MHD_RESPMEM_PERSISTENT);
	if (!resp)
		return MHD_NO;
	if (r->body.len)
		dp_buf_init(&r->body, r->body.max); /* now MHD's */
	lib->add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r->content_type);
	for (i = 0; dp_http_headers[i][0]; i++)
		lib->add_response_header(resp, dp_http_headers[i][0], dp_http_headers[i][1]);
	if (r->allow)
		lib->add_response_header(resp, MHD_HTTP_HEADER_ALLOW, r->allow);
	if (r->disposition[0])
		lib->add_response_header(resp, "Content-Disposition", r->disposition);
	if (r->cache)
		lib->add_response_header(resp, "Cache-Control", "max-age=31536000, immutable");
	lib->add_response_header(resp, "Server-Timing", timing);
	ret = lib->queue_response(con, (unsigned)r->status, resp);
	lib->destroy_response(resp);
	return ret;
}

static dp_mhd_result web_access_cb(void *cls, struct MHD_Connection *con, const char *url,
				   const char *method, const char *version, const char *upload_data,
				   size_t *upload_data_size, void **con_cls)
{
	struct dp_web *w = cls;
	struct dp_web_req *req = *con_cls;
	struct dp_web_reply r;
	dp_mhd_result ret;
	double wall, cpu;
	char timing[80];

	(void)url;
	(void)version;
	(void)upload_data;
	if (!req || req == &dp_web_req_oom)
		return MHD_NO;
	if (*upload_data_size) {
		*upload_data_size = 0; /* a body we never asked for: drop it */
		return MHD_YES;
	}
	if (!req->seen) {
		/* Answering on the first call would make MHD close the connection (it
		 * cannot know yet that there is no body); answer on the next. */
		req->seen = 1;
		return MHD_YES;
	}
	/* wall time (queueing on the router's lock included) and this thread's CPU time */
	wall = web_ms(CLOCK_MONOTONIC);
	cpu = web_ms(CLOCK_THREAD_CPUTIME_ID);
	if (dp_web_route(&w->rt, method, req->uri, req->uri_len, &r) < 0) {
		dp_web_reply_release(&r);
		return MHD_NO; /* out of memory even for an error page: drop the connection */
	}
	snprintf(timing, sizeof(timing), "app;dur=%.3f, cpu;dur=%.3f",
		 web_ms(CLOCK_MONOTONIC) - wall, web_ms(CLOCK_THREAD_CPUTIME_ID) - cpu);
	ret = web_queue(con, &r, timing);
	dp_web_reply_release(&r);
	return ret;
}

/* A bound, listening, non-blocking socket for @o; fills w->port and w->url. */
static int web_listen(struct dp_web *w, const struct dp_web_opts *o)
{
	struct addrinfo hints = {0}, *ai = NULL;
	struct sockaddr_storage sa;
	socklen_t salen = sizeof(sa);
	const char *host = o->bind ? o->bind : "127.0.0.1";
	char port[8], num[64];
	int fd, rc, one = 1;

	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	snprintf(port, sizeof(port), "%u", (unsigned)o->port);
	rc = getaddrinfo(host, port, &hints, &ai);
	if (rc != 0)
		return dp_error(DP_EUSAGE, "cannot bind to %s: %s", host, gai_strerror(rc));
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 64) < 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &salen) < 0 ||
	    getnameinfo((struct sockaddr *)&sa, salen, num, sizeof(num), port, sizeof(port),
			NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
		rc = dp_error(DP_EIO, "cannot listen on %s port %u: %s", host, (unsigned)o->port,
			      strerror(errno));
		if (fd >= 0)
			close(fd);
		freeaddrinfo(ai);
		return rc;
	}
	freeaddrinfo(ai);
	w->port = (uint16_t)strtoul(port, NULL, 10);
	snprintf(w->url, sizeof(w->url),
		 sa.ss_family == AF_INET6 ? "http://[%s]:%u/" : "http://%s:%u/", num,
		 (unsigned)w->port);
	return fd;
}

int dp_web_start(struct dp_session *s, const struct dp_web_opts *o, struct dp_web **out)
{
	const struct dp_mhd *lib = dp_mhd_get();
	struct dp_web *w;
	int fd, rc;

	*out = NULL;
	if (!lib)
		return -DP_EIO;
	w = calloc(1, sizeof(*w));
	if (!w)
		return dp_error(DP_ENOMEM, "out of memory starting the web server");
	rc = dp_web_router_init(&w->rt, s);
	if (rc < 0) {
		free(w);
		return rc;
	}
	fd = web_listen(w, o);
	if (fd < 0) {
		dp_web_router_release(&w->rt);
		free(w);
		return fd;
	}
	w->mhd = lib->start_daemon(
		MHD_USE_AUTO_INTERNAL_THREAD, 0, NULL, NULL, web_access_cb, w,
		MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd, MHD_OPTION_URI_LOG_CALLBACK, web_uri_cb,
		(void *)NULL, MHD_OPTION_NOTIFY_COMPLETED, web_done_cb, (void *)NULL,
		MHD_OPTION_CONNECTION_LIMIT, o->max_conns ? o->max_conns : 64u,
		MHD_OPTION_CONNECTION_TIMEOUT, o->timeout_s ? o->timeout_s : 30u,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32768, MHD_OPTION_THREAD_POOL_SIZE,
		o->threads ? o->threads : 2u, MHD_OPTION_END);
	if (!w->mhd) {
		close(fd);
		dp_web_router_release(&w->rt);
		free(w);
		return dp_error(DP_EIO, "cannot start the web server (libmicrohttpd)");
	}
	*out = w;
	return 0;
}

uint16_t dp_web_port(const struct dp_web *w)
{
	return w->port;
}

const char *dp_web_url(const struct dp_web *w)
{
	return w->url;
}

int dp_web_open_browser(struct dp_web *w)
{
	posix_spawn_file_actions_t fa;
	char *argv[] = {(char *)(uintptr_t) "xdg-open", w->url, NULL};
	pid_t pid;
	int rc;

	if (posix_spawn_file_actions_init(&fa) != 0)
		return dp_error(DP_ENOMEM, "out of memory starting xdg-open");
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	rc = posix_spawnp(&pid, "xdg-open", &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc == ENOENT)
		return dp_error(DP_ENOENT, "cannot open a browser: xdg-open is not installed");
	if (rc != 0)
		return dp_error(DP_EIO, "cannot run xdg-open: %s", strerror(rc));
	w->browser = pid; /* reaped by dp_web_stop() if done by then, else by init at exit */
	return 0;
}

void dp_web_stop(struct dp_web *w)
{
	if (!w)
		return;
	dp_mhd_get()->stop_daemon(w->mhd); /* closes the listening socket too */
	dp_web_router_release(&w->rt);
	if (w->browser > 0)
		waitpid(w->browser, NULL, WNOHANG);
	free(w);
}

int dp_web_serve(struct dp_session *s, const struct dp_web_opts *o)
{
	sigset_t stop, old;
	struct dp_web *w;
	int rc, sig = 0;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	if (pthread_sigmask(SIG_BLOCK, &stop, &old) != 0)
		return dp_error(DP_EIO, "cannot block SIGINT and SIGTERM");
	rc = dp_web_start(s, o, &w); /* its threads inherit the blocked signals */
	if (rc == 0) {
		if (o->on_ready)
			o->on_ready(w, o->arg);
		if (o->open_browser && dp_web_open_browser(w) < 0 && o->on_warning)
			o->on_warning(dp_errmsg(), o->arg);
		while (sigwait(&stop, &sig) != 0)
			;
		dp_web_stop(w);
		rc = sig;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}
