/*
 * web/web_int.h - inside the built-in server: the router (route.c) that turns one request
 * (method, raw URI) into one reply (status, headers, body) without any HTTP library, so
 * that unit tests drive it directly; serve.c only moves bytes between it and
 * libmicrohttpd. Private to src/web/ and its tests.
 */
#ifndef DP_WEB_WEB_INT_H
#define DP_WEB_WEB_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "../core/buf.h"

struct dp_session;

#define DP_WEB_URI_MAX	8192	     /* longer request targets get 414 */
#define DP_WEB_BODY_MAX (256u << 20) /* ceiling of one reply body */

/* What the router knows: the session and the lock that serialises answers. */
struct dp_web_router {
	struct dp_session *s; /* borrowed */
	pthread_mutex_t lock; /* held around dp_session_answer() */
};

/* One reply; the body is owned by the reply (dp_web_reply_release()). */
struct dp_web_reply {
	int status;
	const char *content_type; /* static string */
	const char *allow;	  /* the Allow header of a 405, else NULL */
	char disposition[192];	  /* a download's Content-Disposition header, or "" */
	bool cache;		  /* the pages' script: cached for good (its URL has a
				     version) */
	struct dp_buf body;
};

/*
 * dp_web_router_init - a router answering about @s's files (borrowed).
 * Return: 0, or -DP_EIO if the lock could not be made.
 */
int dp_web_router_init(struct dp_web_router *rt, struct dp_session *s);

/* dp_web_router_release - free what dp_web_router_init() made. */
void dp_web_router_release(struct dp_web_router *rt);

/*
 * dp_web_route - answer one request: @method ("GET", ...), @uri the raw request target
 * ("/?file=0&page=menu", not decoded; NULL when the server could not keep it), @uri_len
 * its length (which may be more than what @uri holds when it was too long to keep).
 * Fills @r (initialised here; release it even on failure).
 * Return: 0 (any status), or a negative dp_err when not even an error page could be made.
 * Thread-safe: answers are serialised on rt->lock.
 */
int dp_web_route(struct dp_web_router *rt, const char *method, const char *uri, size_t uri_len,
		 struct dp_web_reply *r);

/* dp_web_reply_release - free @r's body. */
void dp_web_reply_release(struct dp_web_reply *r);

#endif /* DP_WEB_WEB_INT_H */
