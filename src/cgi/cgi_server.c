/*
 * cgi/cgi_server.c - the server role of deepprof-cgi: the first process of a data file
 * creates the pipes and forks; the child detaches and answers requests from the to-pipe
 * on the from-pipe (small replies inline, larger ones through reply files) until it has
 * been idle for the timeout, when it stops under the lock unless a client wants it, or
 * until page=quit. Idle time is measured with poll() timeouts, so no signal handler runs
 * protocol code; SIGTERM/SIGINT only set a flag.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/err.h"
#include "../front/session.h"
#include "cgi_int.h"

static volatile sig_atomic_t dp_cgi_stop;

static void on_stop(int sig)
{
	dp_cgi_stop = sig;
}

struct srv {
	const struct dp_cgi_conf *c;
	struct dp_cgi_dir *d;
	struct dp_session *s;
	const char *path;
	unsigned timeout_ms; /* the idle timeout */
	int to_fd;	     /* the to-pipe's read end, held for the server's whole life */
	int to_w;	     /* and a write end, so that it never reads as end of file */
	size_t fill;
	uint8_t buf[2 * PIPE_BUF];
};

/* dp_cgi_write_all: see cgi_int.h. */
int dp_cgi_write_all(int fd, const void *data, size_t len)
{
	const uint8_t *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
			struct pollfd pf = {fd, POLLOUT, 0};

			poll(&pf, 1, 1000);
			continue;
		}
		if (n <= 0)
			return dp_error(DP_EIO, "write: %s",
					n < 0 ? strerror(errno) : "no progress");
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Write @resp into a reply file for client @pid; put its name in @name. */
static int reply_file(struct srv *v, pid_t pid, const struct dp_buf *resp, char *name, size_t cap)
{
	int fd, rc;

	snprintf(name, cap, "%s%ld", v->d->reply_prefix, (long)pid);
	fd = openat(v->d->fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST) { /* left by an earlier client with this pid */
		unlinkat(v->d->fd, name, 0);
		fd = openat(v->d->fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
	}
	if (fd < 0)
		return dp_error(DP_EIO, "%s: %s", name, strerror(errno));
	rc = dp_cgi_write_all(fd, resp->data, resp->len);
	if (close(fd) < 0 && rc == 0)
		rc = dp_error(DP_EIO, "%s: close: %s", name, strerror(errno));
	if (rc < 0)
		unlinkat(v->d->fd, name, 0);
	return rc;
}

/* Send the reply @resp to request @r on the from-pipe, open as @fd. */
static void send_reply(struct srv *v, int fd, const struct dp_cgi_req *r, struct dp_buf *resp)
{
	char name[DP_CGI_NAME_MAX + 24];
	struct dp_buf msg;

	dp_buf_init(&msg, 2 * PIPE_BUF);
	dp_buf_addf(&msg, "DPR1 %016llx I %zu\n", (unsigned long long)r->nonce, resp->len);
	if (msg.len + resp->len <= PIPE_BUF) {
		dp_buf_add(&msg, resp->data, resp->len);
	} else {
		dp_buf_reset(&msg);
		if (reply_file(v, r->pid, resp, name, sizeof(name)) == 0) {
			dp_buf_addf(&msg, "DPR1 %016llx F %zu %zu\n%s",
				    (unsigned long long)r->nonce, resp->len, strlen(name), name);
		} else {
			dp_cgi_log(v->d->log_fd, "%s", dp_errmsg());
			dp_buf_reset(resp);
			dp_cgi_error_response(resp, 500, r->fmt, "cannot write the reply");
			dp_buf_addf(&msg, "DPR1 %016llx I %zu\n", (unsigned long long)r->nonce,
				    resp->len);
			dp_buf_add(&msg, resp->data, resp->len);
		}
	}
	/* at most PIPE_BUF bytes into a pipe only this exchange uses: one atomic write */
	if (dp_buf_error(&msg) == 0 && dp_cgi_write_all(fd, msg.data, msg.len) < 0)
		dp_cgi_log(v->d->log_fd, "reply to %ld: %s", (long)r->pid, dp_errmsg());
	dp_buf_release(&msg);
}

/* Answer one request. Return: true when the server must stop (page=quit). */
static bool handle(struct srv *v, const struct dp_cgi_req *r)
{
	struct dp_buf resp;
	bool quit = false;
	int fd, rc;

	dp_buf_init(&resp, DP_CGI_RESP_MAX);
	if (strcmp(r->path, v->path) != 0) {
		rc = dp_cgi_error_response(&resp, 503, r->fmt, "deepprof-cgi: pipe name collision");
	} else {
		if (r->ctl == DP_CGI_CTL_TIMEOUT)
			v->timeout_ms = r->timeout * 1000u;
		quit = r->ctl == DP_CGI_CTL_QUIT;
		rc = dp_cgi_answer(v->s, 0, r, &resp);
	}
	if (rc < 0) {
		dp_cgi_log(v->d->log_fd, "%s", dp_errmsg());
		dp_buf_reset(&resp);
		dp_cgi_error_response(&resp, 500, r->fmt, "out of memory");
	}
	fd = openat(v->d->fd, v->d->from, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	/* A quitting server removes its pipes before it answers: the client that asked
	 * holds the lock until it has the answer, so no one sees pipes without a server. */
	if (quit)
		dp_cgi_pipes_remove(v->d);
	if (fd >= 0) {
		send_reply(v, fd, r, &resp);
		close(fd);
	} else {
		dp_cgi_log(v->d->log_fd, "client %ld gone: %s", (long)r->pid, strerror(errno));
	}
	dp_cgi_log(v->d->log_fd, "answered %ld: %s (%zu bytes)", (long)r->pid, r->query, resp.len);
	dp_buf_release(&resp);
	return quit;
}

/*
 * The idle timeout has passed. Stop only under the lock, and only if no one can be on
 * the way: the lock free, no request pending, no live want file. Otherwise carry on
 * (the caller sets a new timeout). Return: whether the server has stopped.
 */
static bool try_stop(struct srv *v)
{
	struct pollfd p = {v->to_fd, POLLIN, 0};

	if (dp_cgi_lock(v->d, 0) != 0) {
		dp_cgi_log(v->d->log_fd, "idle timeout: a client holds the lock, carrying on");
		return false;
	}
	if (poll(&p, 1, 0) > 0 || dp_cgi_want_any(v->d)) {
		dp_cgi_unlock(v->d);
		dp_cgi_log(v->d->log_fd, "idle timeout: a client wants us, carrying on");
		return false;
	}
	dp_cgi_pipes_remove(v->d);
	dp_cgi_sweep_replies(v->d);
	dp_cgi_log(v->d->log_fd, "idle for %u ms: stopping", v->timeout_ms);
	dp_cgi_unlock(v->d); /* last: a client that gets it next finds no pipes */
	return true;
}

static void stop_now(struct srv *v)
{
	int got = dp_cgi_lock(v->d, 5000);

	dp_cgi_pipes_remove(v->d);
	dp_cgi_sweep_replies(v->d);
	dp_cgi_log(v->d->log_fd, "signal %d: stopping", (int)dp_cgi_stop);
	if (got == 0)
		dp_cgi_unlock(v->d);
}

/* Take the complete requests off the buffer. Return: true to stop. */
static bool drain(struct srv *v)
{
	static struct dp_cgi_req req; /* 4 KiB: off the stack */
	long used;

	while ((used = dp_cgi_req_decode(v->buf, v->fill, &req)) > 0) {
		memmove(v->buf, v->buf + used, v->fill - (size_t)used);
		v->fill -= (size_t)used;
		if (handle(v, &req))
			return true;
	}
	if (used < 0 || v->fill == sizeof(v->buf)) {
		dp_cgi_log(v->d->log_fd, "dropping %zu bytes: %s", v->fill, dp_errmsg());
		v->fill = 0;
	}
	return false;
}

static void serve_loop(struct srv *v)
{
	int64_t deadline = dp_cgi_now_ms() + v->timeout_ms;

	for (;;) {
		int64_t now = dp_cgi_now_ms();
		struct pollfd p = {v->to_fd, POLLIN, 0};
		ssize_t n;
		int rc;

		if (dp_cgi_stop) {
			stop_now(v);
			return;
		}
		if (now >= deadline) {
			if (try_stop(v))
				return;
			deadline = now + v->timeout_ms;
			continue;
		}
		rc = poll(&p, 1, (int)(deadline - now < INT_MAX ? deadline - now : INT_MAX));
		if (rc <= 0)
			continue;
		n = read(v->to_fd, v->buf + v->fill, sizeof(v->buf) - v->fill);
		if (n <= 0)
			continue;
		v->fill += (size_t)n;
		if (drain(v))
			return;
		deadline = dp_cgi_now_ms() + v->timeout_ms;
	}
}

static void signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_stop;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
}

/* The child: leave the web server's session and its response pipe, which the web server
 * waits to see closed before it sends the page. */
static void detach(void)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	setsid();
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		close(null);
	}
	umask(077);
	if (chdir("/") < 0)
		return;
}

/* dp_cgi_serve: see cgi_int.h. */
int dp_cgi_serve(const struct dp_cgi_conf *c, struct dp_cgi_dir *d, struct dp_session *s,
		 const struct dp_cgi_req *r, const struct dp_buf *first)
{
	static struct srv v;
	pid_t pid;
	int rc;

	v.c = c;
	v.d = d;
	v.s = s;
	v.path = r->path;
	v.timeout_ms = r->ctl == DP_CGI_CTL_TIMEOUT ? r->timeout * 1000u : c->timeout_ms;
	v.to_fd = v.to_w = -1;
	rc = dp_cgi_pipes_create(d);
	if (rc == 0) {
		v.to_fd = openat(d->fd, d->to, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		v.to_w = v.to_fd < 0 ? -1 : openat(d->fd, d->to, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (v.to_w < 0)
			rc = dp_error(DP_EIO, "%s: %s", d->to, strerror(errno));
	}
	pid = rc == 0 && !c->no_detach ? fork() : 0;
	if (rc < 0 || pid < 0) {
		if (rc == 0)
			rc = dp_error(DP_EIO, "fork: %s", strerror(errno));
		dp_cgi_pipes_remove(d);
	}
	if (rc < 0 || pid > 0) { /* no server after all, or the parent of the new one */
		if (v.to_fd >= 0)
			close(v.to_fd);
		if (v.to_w >= 0)
			close(v.to_w);
		dp_cgi_unlock(d);
		dp_cgi_write_all(STDOUT_FILENO, first->data, first->len);
		return rc;
	}
	/* the server: the child, or this process with --no-detach */
	if (c->no_detach) {
		dp_cgi_write_all(STDOUT_FILENO, first->data, first->len);
		dp_cgi_unlock(d);
		dp_cgi_log(d->log_fd, "serving %s in the foreground (timeout %u ms)", r->path,
			   v.timeout_ms);
	} else {
		detach();
		dp_cgi_log(d->log_fd, "serving %s (timeout %u ms)", r->path, v.timeout_ms);
	}
	signals();
	dp_session_background(s); /* after the fork: threads do not survive it */
	serve_loop(&v);
	close(v.to_fd);
	close(v.to_w);
	if (!c->no_detach)
		_exit(0);
	return 0;
}
