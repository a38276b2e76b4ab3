/*
 * front/request.h - the request core every front end shares (the command line, the
 * built-in web server, the CGI program): it splits a request's query string into the
 * data file it names (file=), the format it asks for (format=, read before anything else
 * so that every error is written in it) and the rest, which goes to dp_session_answer();
 * and it writes every error body, in the one shape per format that docs/REPORTS.md
 * documents ("Errors"). The front ends add only what is theirs: the web server's list of
 * files, the CGI program's server-control pages (page=quit, page=timeout).
 *
 * Pure functions over caller memory and dp_buf; depends on core, query and display.
 */
#ifndef DP_FRONT_REQUEST_H
#define DP_FRONT_REQUEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../core/buf.h"
#include "../display/render_opts.h"

struct dp_query;

#define DP_REQUEST_FILE_MAX 2048 /* longest decoded file= value (a CGI data file path) */
#define DP_REQUEST_MSG_MAX  160	 /* longest message of a refused split */
#define DP_REQUEST_DL_MAX   15	 /* longest download= value kept (a format name) */

/* A query string split by dp_request_split(). */
struct dp_request {
	enum dp_format fmt;		      /* format= when valid, else the caller's default */
	bool fmt_given;			      /* format= named a valid format */
	bool has_file;			      /* file= was given */
	char file[DP_REQUEST_FILE_MAX + 1];   /* decoded file= value; "" when not given */
	bool has_download;		      /* download= was given: an export, not a page */
	char download[DP_REQUEST_DL_MAX + 1]; /* its decoded value; "" when it does not
						 decode or is too long (no format's name) */
	bool has_asset;			      /* asset= was given: a file the pages load
						 (dp_html_asset()), not a page */
	char asset[DP_REQUEST_DL_MAX + 1];    /* its decoded value, "" as for download= */
	struct dp_buf rest;		      /* every other parameter, still encoded, '&'-joined */
	uint32_t n_query;		      /* how many of them are not format= (a query) */
	int status;			      /* 0, or 400 / 414: the split's refusal, with msg */
	char msg[DP_REQUEST_MSG_MAX];	      /* why it was refused */
};

/*
 * dp_request_format - the format query string @qs (encoded, no leading '?'; NULL = none)
 * asks for with format=text|json|html, or @def when it names none or no valid one (the
 * query parser then says what is wrong, in @def). The first valid format= wins; a second
 * that differs is the query parser's to refuse.
 */
enum dp_format dp_request_format(const char *qs, enum dp_format def);

/*
 * dp_request_split - split query string @qs (encoded, no leading '?'; NULL = none) into
 * @r (initialised here; dp_request_release() it): r->fmt as dp_request_format() says,
 * file= decoded into r->file (given twice, it must have the same value), download= (the
 * last one) into r->download, asset= (the last one) into r->asset, and every other
 * parameter verbatim into r->rest, which may hold @rest_max bytes. Parameters whose name
 * does not decode go into r->rest for the query parser to judge.
 * Return: 0 when @r is usable; else r->status (400: file= malformed or given twice with
 * different values, or too long; 414: the rest is longer than @rest_max) with r->msg.
 */
int dp_request_split(const char *qs, enum dp_format def, size_t rest_max, struct dp_request *r);

/* dp_request_release - free what @r holds (not @r). */
void dp_request_release(struct dp_request *r);

/* dp_format_content_type - the Content-Type of a body in @fmt (a static string). */
const char *dp_format_content_type(enum dp_format fmt);

/*
 * dp_error_body - append to @body the body of an error answer with HTTP status @status
 * and message @msg in @fmt, and set *@ctype (if not NULL) to its Content-Type:
 *   json: {"status": STATUS, "error": "MSG"} and a newline, the shape for every front end;
 *   text, html: the display's error page (dp_display_error()), whose links keep the
 *   preferences of @q (NULL: the defaults) and follow @opts (NULL: the defaults).
 * Return: 0, or a negative dp_err (out of memory, or the buffer's cap).
 */
int dp_error_body(struct dp_buf *body, int status, const char *msg, const struct dp_query *q,
		  enum dp_format fmt, const struct dp_render_opts *opts, const char **ctype);

#endif /* DP_FRONT_REQUEST_H */
