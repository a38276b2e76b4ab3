/*
 * web/serve.h - the built-in web server of `deepprof serve`: GNU libmicrohttpd answering
 * HTTP GET requests about the profiles of a front/session.h session, one answer at a time.
 * Never prints: what the user must see comes back through callbacks and dp_errmsg().
 * Depends on front/ (and, below it, everything the session uses) and libmicrohttpd.
 */
#ifndef DP_WEB_SERVE_H
#define DP_WEB_SERVE_H

#include <stdbool.h>
#include <stdint.h>

struct dp_session;
struct dp_web; /* opaque: a running server */

/* The server's options; zero-initialised means 127.0.0.1, a free port, the defaults. */
struct dp_web_opts {
	const char *bind;   /* numeric IPv4 or IPv6 address or host name; NULL = 127.0.0.1 */
	uint16_t port;	    /* 0 = any free port (see dp_web_port()) */
	bool open_browser;  /* dp_web_serve(): run xdg-open on the URL once listening */
	unsigned max_conns; /* concurrent connections; 0 = 64 */
	unsigned threads;   /* HTTP threads (answers are serialised anyway); 0 = 2 */
	unsigned timeout_s; /* idle connection timeout in seconds; 0 = 30 */
	/* dp_web_serve(): called once the server listens (print the URL here) */
	void (*on_ready)(struct dp_web *w, void *arg);
	/* dp_web_serve(): called with a message when something not fatal failed (--open) */
	void (*on_warning)(const char *msg, void *arg);
	void *arg; /* passed to the callbacks */
};

/*
 * dp_web_start - listen on @o's address and port and answer requests about @s's files in
 * background threads until dp_web_stop(). @s is borrowed: it must outlive the server, and
 * no other thread may use it meanwhile (the server serialises its own use).
 * Return: 0 and *@out, or a negative dp_err with a message (e.g. the address is in use).
 */
int dp_web_start(struct dp_session *s, const struct dp_web_opts *o, struct dp_web **out);

/* dp_web_port - the port @w listens on (the one picked when 0 was asked). */
uint16_t dp_web_port(const struct dp_web *w);

/* dp_web_url - "http://ADDR:PORT/" of @w (IPv6 addresses in brackets); owned by @w. */
const char *dp_web_url(const struct dp_web *w);

/*
 * dp_web_open_browser - start xdg-open on @w's URL in the background (its output
 * discarded); never waits for it.
 * Return: 0, or -DP_ENOENT / -DP_EIO with a message when it could not be started.
 */
int dp_web_open_browser(struct dp_web *w);

/* dp_web_stop - stop accepting, finish the requests under way and free @w (NULL is fine). */
void dp_web_stop(struct dp_web *w);

/*
 * dp_web_serve - dp_web_start(), o->on_ready(), the browser if o->open_browser, then
 * block until SIGINT or SIGTERM arrives, and stop. Both signals are blocked in the
 * calling thread (and so in the server's threads) while it runs and restored after.
 * Call it from a process with no other threads that could take those signals.
 * Return: the signal number that stopped the server, or a negative dp_err.
 */
int dp_web_serve(struct dp_session *s, const struct dp_web_opts *o);

#endif /* DP_WEB_SERVE_H */
