/*
 * cgi/cgi_int.h - the private interface between the files of deepprof-cgi: the request
 * taken from the CGI environment (cgi_env.c), the protocol directory with its lock, want
 * files and pipes (cgi_dir.c), the messages and CGI responses (cgi_msg.c), and the client
 * and server roles (cgi_client.c, cgi_server.c). The protocol is docs/internals/cgi.md.
 * Only cgi_main.c prints to stdout or exits.
 */
#ifndef DP_CGI_INT_H
#define DP_CGI_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../core/buf.h"

struct dp_session;

#define DP_CGI_QS_MAX	       2048	    /* longest QUERY_STRING accepted (414 beyond) */
#define DP_CGI_SCRIPT_MAX      512	    /* longest SCRIPT_NAME accepted */
#define DP_CGI_PATH_MAX	       1024	    /* longest canonical data file path accepted */
#define DP_CGI_DIR_MAX	       1024	    /* longest DEEPPROF_CGI_DIR / DEEPPROF_CGI_ROOT */
#define DP_CGI_NAME_MAX	       256	    /* a file name inside the protocol directory */
#define DP_CGI_MANGLE_MAX      180	    /* longest mangled data file name (then hashed) */
#define DP_CGI_RESP_MAX	       (512u << 20) /* ceiling on one CGI response */
#define DP_CGI_TIMEOUT_DEFAULT 1800u	    /* idle timeout of a server, seconds */
#define DP_CGI_TIMEOUT_MAX     2000000u	    /* largest timeout accepted (fits poll's int ms) */
#define DP_CGI_LOCK_WAIT_MS    600000	    /* longest a client waits for the lock */
#define DP_CGI_REPLY_WAIT_MS   300000	    /* longest a client waits for a server's reply */
#define DP_CGI_STALE_MS	       10000 /* an empty lock or break file older than this is stale */

/* What the server is asked to do besides answering a query. */
enum dp_cgi_ctl {
	DP_CGI_CTL_QUERY = 0, /* answer the query */
	DP_CGI_CTL_QUIT,      /* page=quit: stop the server */
	DP_CGI_CTL_TIMEOUT,   /* page=timeout&timeout=N: set the idle timeout */
};

/* The configuration, from the environment and the command line. */
struct dp_cgi_conf {
	char root[DP_CGI_DIR_MAX];	/* DEEPPROF_CGI_ROOT, lexically normalised; "" = unset */
	char root_real[DP_CGI_DIR_MAX]; /* its realpath() */
	char dir[DP_CGI_DIR_MAX];	/* where pipes, lock and want files live */
	unsigned timeout_ms;		/* idle timeout of a server, milliseconds */
	bool no_detach;			/* --no-detach / DEEPPROF_CGI_NO_DETACH: no fork */
	int log_fd;			/* diagnostics (stderr, DEEPPROF_CGI_LOG), -1 = none */
};

/* One request: what a client sends to a server (and what the first process answers). */
struct dp_cgi_req {
	char path[DP_CGI_PATH_MAX];	/* the data file: canonical, under the root */
	char given[DP_CGI_QS_MAX + 1];	/* file= as given (decoded), for messages */
	char script[DP_CGI_SCRIPT_MAX]; /* SCRIPT_NAME, for the links */
	char query[DP_CGI_QS_MAX + 1];	/* QUERY_STRING without its file= parameter */
	enum dp_cgi_ctl ctl;
	unsigned timeout; /* for DP_CGI_CTL_TIMEOUT */
	int fmt;	  /* enum dp_format of format=, for error pages; -1 = not given */
	uint64_t nonce;	  /* tells this request's reply from a late one */
	pid_t pid;	  /* the client's process id (names its reply file) */
};

/* The protocol directory and the names of one data file's files in it. */
struct dp_cgi_dir {
	int fd;				      /* the directory, O_DIRECTORY */
	char mangled[DP_CGI_MANGLE_MAX + 24]; /* the data file's path, mangled */
	char lock[DP_CGI_NAME_MAX];	      /* lock-M: the mutex (O_CREAT|O_EXCL) */
	char brk[DP_CGI_NAME_MAX];	      /* lock-M.break: guards breaking a stale lock */
	char to[DP_CGI_NAME_MAX];	      /* to-M: requests, clients -> server */
	char from[DP_CGI_NAME_MAX];	      /* from-M: replies, server -> client */
	char want_prefix[DP_CGI_NAME_MAX];    /* want-M. (then a pid) */
	char reply_prefix[DP_CGI_NAME_MAX];   /* reply-M. (then a pid) */
	int log_fd;			      /* copied from the configuration */
};

/* cgi_env.c */

/*
 * dp_cgi_conf_load - fill @c from the environment (DEEPPROF_CGI_ROOT, _DIR, _TIMEOUT,
 * _NO_DETACH, _LOG); @no_detach is the command line's --no-detach.
 * Return: 0, or -DP_EUSAGE with a message naming the bad variable.
 */
int dp_cgi_conf_load(struct dp_cgi_conf *c, bool no_detach);

/*
 * dp_cgi_req_parse - fill @r from the CGI environment (QUERY_STRING, SCRIPT_NAME) under
 * configuration @c: splits the query string with the request core (front/request.h:
 * file= off, format= first), recognises the CGI program's own server-control pages
 * (page=quit, page=timeout&timeout=SECONDS, which are not pages of the query language)
 * and resolves file= under the root.
 * Return: the HTTP status to answer with when the request cannot go further (400 no or
 * bad file= or control parameters, 403 outside the root, 404 not a readable file, 414 too
 * long), with the reason in dp_errmsg(); 0 when @r is ready.
 */
int dp_cgi_req_parse(const struct dp_cgi_conf *c, struct dp_cgi_req *r);

/* cgi_dir.c */

/*
 * dp_cgi_dir_open - create (mode 0700) or open the protocol directory @c->dir, refuse it
 * unless it is a real directory owned by us that no one else may access, and make the
 * names of @path's files in it.
 * Return: 0, or -DP_EIO / -DP_EUSAGE with a message.
 */
int dp_cgi_dir_open(struct dp_cgi_dir *d, const struct dp_cgi_conf *c, const char *path);

/* dp_cgi_dir_close - close the directory of @d. */
void dp_cgi_dir_close(struct dp_cgi_dir *d);

/*
 * dp_cgi_mangle - the name @path's files are known by in the protocol directory: '/'
 * becomes ":." and ':' becomes "::" (injective); a result over DP_CGI_MANGLE_MAX bytes
 * keeps its tail and gets a 64-bit hash of the whole path. @out has @len bytes.
 */
void dp_cgi_mangle(const char *path, char *out, size_t len);

/*
 * dp_cgi_lock - take the lock of @d, waiting up to @wait_ms (0: one attempt) and breaking
 * a lock whose holder has died.
 * Return: 0 taken, 1 still busy after @wait_ms, or a negative dp_err.
 */
int dp_cgi_lock(struct dp_cgi_dir *d, int wait_ms);

/* dp_cgi_unlock - release the lock of @d (taken by this process or its parent). */
void dp_cgi_unlock(struct dp_cgi_dir *d);

/* dp_cgi_want_create - create @d's want file for process @pid. Return: 0 or -DP_EIO. */
int dp_cgi_want_create(struct dp_cgi_dir *d, pid_t pid);

/* dp_cgi_want_remove - remove @d's want file of process @pid, if any. */
void dp_cgi_want_remove(struct dp_cgi_dir *d, pid_t pid);

/*
 * dp_cgi_want_any - whether a live process wants @d's server: a want file of a process
 * still running. Want files of dead processes are removed on the way. Call with the lock.
 */
bool dp_cgi_want_any(struct dp_cgi_dir *d);

/* dp_cgi_sweep_replies - remove reply files of @d left by dead clients. Call with the lock. */
void dp_cgi_sweep_replies(struct dp_cgi_dir *d);

/* dp_cgi_pipes_exist - whether both pipes of @d exist (one alone is removed). With the lock. */
bool dp_cgi_pipes_exist(struct dp_cgi_dir *d);

/* dp_cgi_pipes_create - create both pipes of @d (0600). With the lock. Return: 0 or -DP_EIO. */
int dp_cgi_pipes_create(struct dp_cgi_dir *d);

/* dp_cgi_pipes_remove - remove both pipes of @d. With the lock (or for a quitting server,
 * while the client that asked holds it). */
void dp_cgi_pipes_remove(struct dp_cgi_dir *d);

/* dp_cgi_pid_alive - whether process @pid exists. */
bool dp_cgi_pid_alive(pid_t pid);

/* dp_cgi_now_ms - a monotonic clock in milliseconds. */
int64_t dp_cgi_now_ms(void);

/* dp_cgi_log - a diagnostic line on @fd ("deepprof-cgi[PID]: ..."); nothing if @fd < 0. */
void dp_cgi_log(int fd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* cgi_msg.c */

/*
 * dp_cgi_response - append to @out a whole CGI response: Status, Content-Type,
 * Content-Length, the security headers (dp_http_headers, as the web server sends them),
 * Cache-Control: no-cache, a blank line, then @len bytes of @body.
 * Return: 0 or the buffer's sticky error.
 */
int dp_cgi_response(struct dp_buf *out, int status, const char *ctype, const void *body,
		    size_t len);

/*
 * dp_cgi_error_response - append to @out a CGI response for status @status whose body says
 * @msg, in format @fmt (enum dp_format, -1 = HTML): for an error, the request core's error
 * body (dp_error_body(): {"status": N, "error": MSG} in JSON); for 200, the confirmation
 * of a server-control page ({"status": 200, "message": MSG} in JSON, a line of text, or a
 * short HTML page).
 */
int dp_cgi_error_response(struct dp_buf *out, int status, int fmt, const char *msg);

/*
 * dp_cgi_asset - when query string @qs asks for a file the pages load (asset=NAME,
 * dp_html_asset()), append its CGI response to @out: no data file and no server are
 * involved. Return: 0 (appended), 1 (@qs asks for a page), -1 (an unknown asset: the
 * caller answers 404).
 */
int dp_cgi_asset(const char *qs, struct dp_buf *out);

/*
 * dp_cgi_answer - append to @out the CGI response to request @r about the file @file of
 * session @s (a control request gets a short confirmation page). Links point back through
 * SCRIPT_NAME with the file: SCRIPT_NAME?file=PATH&QUERY.
 * Return: 0 or a negative dp_err (out of memory).
 */
int dp_cgi_answer(struct dp_session *s, uint32_t file, const struct dp_cgi_req *r,
		  struct dp_buf *out);

/*
 * dp_cgi_req_encode - append request @r to @out as one message on the to-pipe.
 * Return: 0, or -DP_ENOMEM if it would not fit in PIPE_BUF (its writes are atomic).
 */
int dp_cgi_req_encode(const struct dp_cgi_req *r, struct dp_buf *out);

/*
 * dp_cgi_req_decode - decode one request from the @len bytes at @data into @r.
 * Return: the bytes it used; 0 when the message is not complete yet; a negative dp_err
 * when the bytes are not a request.
 */
long dp_cgi_req_decode(const uint8_t *data, size_t len, struct dp_cgi_req *r);

/*
 * Replies on the from-pipe: "DPR1 NONCE I LEN\n" + LEN bytes inline, when that fits in
 * PIPE_BUF, else "DPR1 NONCE F LEN NAMELEN\n" + the name of a reply file holding LEN bytes.
 */
struct dp_cgi_reply_hdr {
	uint64_t nonce;
	bool in_file;
	size_t len;		    /* bytes of the response */
	char name[DP_CGI_NAME_MAX]; /* in_file: the reply file's name in the directory */
	size_t hdr_len;		    /* bytes of the header (and name) in the message */
};

/*
 * dp_cgi_reply_hdr_decode - decode the header of a reply message from the @len bytes at
 * @data into @h.
 * Return: 1 decoded, 0 incomplete, or a negative dp_err when malformed.
 */
int dp_cgi_reply_hdr_decode(const uint8_t *data, size_t len, struct dp_cgi_reply_hdr *h);

/* cgi_client.c */

#define DP_CGI_NO_SERVER 1 /* dp_cgi_client_ask(): the pipes exist but no server reads them */

/*
 * dp_cgi_client_ask - with the lock held and the pipes present, send @r to the server of
 * @d and read its reply (the whole CGI response) into @resp.
 * Return: 0, DP_CGI_NO_SERVER when the server has died (the caller, holding the lock, may
 * become the server), or a negative dp_err (-DP_EIO; -DP_ENOENT for no reply in time).
 */
int dp_cgi_client_ask(struct dp_cgi_dir *d, const struct dp_cgi_req *r, struct dp_buf *resp);

/* cgi_server.c */

/*
 * dp_cgi_serve - the first process of a data file, holding the lock of @d, having loaded
 * @s and made @first (the response to request @r): creates the pipes, forks (unless
 * c->no_detach), and while the parent writes @first to stdout and returns, the child
 * detaches, releases the lock and serves requests until the idle timeout or page=quit.
 * Return: in the parent (or after serving, with --no-detach), 0 or a negative dp_err;
 * a detached server never returns (it _exit()s).
 */
int dp_cgi_serve(const struct dp_cgi_conf *c, struct dp_cgi_dir *d, struct dp_session *s,
		 const struct dp_cgi_req *r, const struct dp_buf *first);

/* dp_cgi_write_all - write @len bytes of @data to @fd (blocking). Return: 0 or -DP_EIO. */
int dp_cgi_write_all(int fd, const void *data, size_t len);

#endif /* DP_CGI_INT_H */
