/*
 * display/display.h - the display step: turns a report (src/report) into a format-neutral
 * page (struct dp_display: title, navigation, preference toggles, blocks of paragraphs,
 * facts, link lists, tables with typed columns, a pager, a flame graph) and renders that
 * page as text for terminals or as one self-contained HTML page. Depends on report/,
 * query/ and core/; see docs/internals/display.md.
 */
#ifndef DP_DISPLAY_DISPLAY_H
#define DP_DISPLAY_DISPLAY_H

#include "../core/buf.h"
#include "../query/query.h"
#include "../report/report.h"
#include "render_opts.h"

struct dp_display; /* a page; its layout is in display_int.h (private to src/display) */

/*
 * dp_display_build - the page showing report @r (borrowed; it may be freed once this
 * returns: every string the page needs is copied). Columns follow r->q.prefs.fields,
 * inactive rows are dropped unless r->q.prefs.inactive shows them, and every link keeps
 * every preference of r->q.
 * Return: 0 and *@out (free it with dp_display_free()), or -DP_ENOMEM (message set).
 */
int dp_display_build(const struct dp_report *r, struct dp_display **out);

/*
 * dp_display_error - a readable error page for HTTP-like @status (400 bad query, 404
 * unknown id or name, 500 otherwise) saying what was wrong (@message, which lists the
 * valid choices) and offering links to the starting pages, keeping @q's preferences
 * (@q may be NULL: default preferences). Nothing is borrowed past the call.
 * Return: 0 and *@out (free with dp_display_free()), or -DP_ENOMEM.
 */
int dp_display_error(int status, const char *message, const struct dp_query *q,
		     struct dp_display **out);

/*
 * dp_display_attach_data - make page @d of report @r (the one it was built from, still
 * alive) carry the report as JSON (dp_report_json(), compact) for the HTML page's script:
 * the flame pages' interactive graphs draw from it. Other pages carry nothing. Call it
 * only for HTML: the text renderer ignores it.
 * Return: 0 or the buffer's sticky error (-DP_ENOMEM).
 */
int dp_display_attach_data(struct dp_display *d, const struct dp_report *r);

/*
 * dp_html_asset - the file @name that HTML pages load from their front end besides
 * themselves: "deepprof.js", the pages' script (compiled in), with its length into *@len
 * and its Content-Type into *@ctype; NULL for any other name. (html_asset.c)
 */
const char *dp_html_asset(const char *name, size_t *len, const char **ctype);

/* dp_html_asset_version - a short hex digest of the script, which pages add to its URL
 * (v=) so that a browser's cached copy of an older one is never used. (html_asset.c) */
const char *dp_html_asset_version(void);

/* dp_display_free - free @d (NULL is fine). */
void dp_display_free(struct dp_display *d);

/*
 * dp_render_text - append @d as plain text (no colours) laid out for o->width columns
 * (0 = 100): aligned columns, human units, long names shortened in the middle; a flame
 * page is an indented tree with ASCII guides. @o may be NULL (defaults).
 * Return: 0 or the buffer's sticky error.
 */
int dp_render_text(const struct dp_display *d, const struct dp_render_opts *o, struct dp_buf *out);

/*
 * dp_render_html - append @d as one self-contained HTML5 page (inline CSS, a few lines
 * of optional script; works without it). Links are o->link_prefix (HTML-escaped; NULL
 * = "?") followed by the query string; every string from the profile is escaped; a
 * flame page is an inline SVG. @o may be NULL (defaults).
 * Return: 0 or the buffer's sticky error.
 */
int dp_render_html(const struct dp_display *d, const struct dp_render_opts *o, struct dp_buf *out);

/*
 * dp_html_escape - append @s to @out with & < > " ' escaped (for text and attribute
 * values alike); NULL appends nothing. Return: 0 or the buffer's sticky error.
 */
int dp_html_escape(struct dp_buf *out, const char *s);

/*
 * dp_html_page_start - append the start of an HTML5 page up to and including <body>:
 * UTF-8, the viewport, the title "@prefix - @title - deepprof" (@prefix may be NULL;
 * both escaped) and the style sheet @css (NULL = none). Every HTML page deepprof makes
 * starts so (dp_render_html(), the web server's and the CGI program's own pages). The
 * buffer's sticky error tells of failure.
 */
void dp_html_page_start(struct dp_buf *out, const char *prefix, const char *title, const char *css);

/*
 * dp_http_headers - the HTTP headers every response of a front end carries (the web
 * server and the CGI program alike), as {name, value} pairs ending with {NULL, NULL}: a
 * Content-Security-Policy allowing just what dp_render_html() pages use (inline style,
 * the script the front end serves, fetches of pages from the same origin, data: images,
 * forms to the same origin), no sniffing, framing or referrer. (http.c)
 */
extern const char *const dp_http_headers[][2];

/* dp_http_reason - the reason phrase of HTTP @status ("Not Found"; "Error" for an
 * unknown 4xx, "Internal Server Error" for an unknown 5xx). (http.c) */
const char *dp_http_reason(int status);

#endif /* DP_DISPLAY_DISPLAY_H */
