/*
 * cgi/cgi_client.c - the client role of deepprof-cgi: with the lock held and a server's
 * pipes present, send the request through the to-pipe and read the reply from the
 * from-pipe (inline, or the name of a reply file), telling a dead server from a slow one.
 * The caller holds the lock for the whole exchange, so the from-pipe has one reader.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/err.h"
#include "cgi_int.h"

/* Whether the server behind the pipes has gone: a FIFO with no reader refuses a
 * non-blocking open for writing with ENXIO, and a live server always holds its read end. */
static bool server_gone(struct dp_cgi_dir *d)
{
	int fd = openat(d->fd, d->to, O_WRONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		return false;
	}
	return errno == ENXIO;
}

static int send_request(struct dp_cgi_dir *d, int to, const struct dp_buf *msg)
{
	int64_t deadline = dp_cgi_now_ms() + 5000;

	for (;;) {
		/* one write of at most PIPE_BUF bytes: atomic, never mixed with another */
		ssize_t n = write(to, msg->data, msg->len);
		struct pollfd p = {to, POLLOUT, 0};

		if (n == (ssize_t)msg->len)
			return 0;
		if (n >= 0 || (errno != EAGAIN && errno != EINTR))
			return dp_error(DP_EIO, "%s: write: %s", d->to,
					n >= 0 ? "short write" : strerror(errno));
		if (dp_cgi_now_ms() > deadline)
			return dp_error(DP_EIO, "%s: the server does not read its requests", d->to);
		poll(&p, 1, 100);
	}
}

/* Read the @len bytes of reply file @name into @resp, then remove it. */
static int read_reply_file(struct dp_cgi_dir *d, const char *name, size_t len, struct dp_buf *resp)
{
	struct stat st;
	int rc = 0, fd;

	if (strncmp(name, d->reply_prefix, strlen(d->reply_prefix)) != 0)
		return dp_error(DP_EIO, "reply names a foreign file %s", name);
	fd = openat(d->fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return dp_error(DP_EIO, "%s: %s", name, strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (size_t)st.st_size != len ||
	    dp_buf_grow(resp, len) < 0) {
		rc = dp_error(DP_EIO, "%s: not the promised %zu bytes", name, len);
		goto out;
	}
	while (resp->len < len) {
		ssize_t n = read(fd, resp->data + resp->len, len - resp->len);

		if (n <= 0) {
			rc = dp_error(DP_EIO, "%s: short read", name);
			goto out;
		}
		resp->len += (size_t)n;
	}
	resp->data[resp->len] = '\0';
out:
	close(fd);
	unlinkat(d->fd, name, 0);
	return rc;
}

/* Take one complete reply off @buf (@fill bytes). Return: 1 ours (in @resp), 0 none
 * complete yet or a late one dropped (*used says how much), or a negative dp_err. */
static int take_reply(struct dp_cgi_dir *d, uint64_t nonce, const uint8_t *buf, size_t fill,
		      size_t *used, struct dp_buf *resp)
{
	struct dp_cgi_reply_hdr h;
	int rc = dp_cgi_reply_hdr_decode(buf, fill, &h);

	*used = 0;
	if (rc <= 0)
		return rc;
	if (!h.in_file && fill < h.hdr_len + h.len)
		return 0;
	*used = h.hdr_len + (h.in_file ? 0 : h.len);
	if (h.nonce != nonce) {
		/* the reply to a client that gave up waiting: drop it and its file */
		if (h.in_file && strncmp(h.name, d->reply_prefix, strlen(d->reply_prefix)) == 0)
			unlinkat(d->fd, h.name, 0);
		return 0;
	}
	if (h.in_file)
		rc = read_reply_file(d, h.name, h.len, resp);
	else
		rc = dp_buf_add(resp, buf + h.hdr_len, h.len);
	return rc < 0 ? rc : 1;
}

static int read_reply(struct dp_cgi_dir *d, int from, uint64_t nonce, struct dp_buf *resp)
{
	static uint8_t buf[2 * PIPE_BUF];
	size_t fill = 0, used;
	int64_t deadline = dp_cgi_now_ms() + DP_CGI_REPLY_WAIT_MS;

	for (;;) {
		struct pollfd p = {from, POLLIN, 0};
		int rc = poll(&p, 1, 1000);
		ssize_t n;

		if (rc == 0 && server_gone(d))
			return DP_CGI_NO_SERVER;
		if (dp_cgi_now_ms() > deadline)
			return dp_error(DP_ENOENT, "no reply from the server within %d s",
					DP_CGI_REPLY_WAIT_MS / 1000);
		if (rc <= 0)
			continue;
		n = read(from, buf + fill, sizeof(buf) - fill);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0)
			return dp_error(DP_EIO, "%s: read: %s", d->from,
					n == 0 ? "end of file" : strerror(errno));
		fill += (size_t)n;
		for (;;) {
			rc = take_reply(d, nonce, buf, fill, &used, resp);
			if (rc != 0)
				return rc < 0 ? rc : 0;
			if (used == 0)
				break;
			memmove(buf, buf + used, fill - used);
			fill -= used;
		}
		if (fill == sizeof(buf))
			return dp_error(DP_EIO, "%s: a reply header that never ends", d->from);
	}
}

/* dp_cgi_client_ask: see cgi_int.h. */
int dp_cgi_client_ask(struct dp_cgi_dir *d, const struct dp_cgi_req *r, struct dp_buf *resp)
{
	struct dp_buf msg;
	int from, from_w = -1, to = -1, rc;

	dp_buf_init(&msg, 2 * PIPE_BUF);
	rc = dp_cgi_req_encode(r, &msg);
	if (rc < 0)
		goto out_msg;
	/* Open our end of the reply pipe before the server can answer; also hold a write
	 * end, so that between a dropped late reply and ours the pipe never reads as EOF. */
	from = openat(d->fd, d->from, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (from < 0) {
		rc = errno == ENOENT ? DP_CGI_NO_SERVER
				     : dp_error(DP_EIO, "%s: %s", d->from, strerror(errno));
		goto out_msg;
	}
	from_w = openat(d->fd, d->from, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	to = openat(d->fd, d->to, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	if (to < 0 || from_w < 0) {
		rc = errno == ENXIO || errno == ENOENT
			     ? DP_CGI_NO_SERVER
			     : dp_error(DP_EIO, "%s: %s", d->to, strerror(errno));
		goto out_fds;
	}
	rc = send_request(d, to, &msg);
	close(to);
	to = -1;
	if (rc == 0)
		rc = read_reply(d, from, r->nonce, resp);
out_fds:
	if (to >= 0)
		close(to);
	if (from_w >= 0)
		close(from_w);
	close(from);
out_msg:
	dp_buf_release(&msg);
	return rc;
}
