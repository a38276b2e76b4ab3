/*
 * display/html_int.h - what the HTML renderer's files share (html.c: the page and its
 * tables, html_flame.c: the flame graph as inline SVG). Private to src/display.
 */
#ifndef DP_DISPLAY_HTML_INT_H
#define DP_DISPLAY_HTML_INT_H

#include "display_int.h"

/* dp_html_escapen - dp_html_escape() of the @len bytes at @s (NULs copied as they are).
 * Return: 0 or the buffer's sticky error. */
int dp_html_escapen(struct dp_buf *out, const char *s, size_t len);

/* dp_html_href - append ` href="PREFIX QUERY"` (no leading space), both escaped. */
void dp_html_href(struct dp_buf *out, const struct dp_render_opts *o, const char *query);

/* dp_html_flame - append flame block @b as an inline SVG (clickable rects, <title>
 * tooltips, labels clipped to their rect). */
void dp_html_flame(struct dp_buf *out, const struct dp_dblock *b, const struct dp_render_opts *o);

/* dp_html_script - append the element that runs the pages' script: loaded from
 * o->asset_prefix (the front end serves it), or written inline when that is NULL. */
void dp_html_script(struct dp_buf *out, const struct dp_render_opts *o);

/* dp_html_data - append the page's JSON (d->data, if any) as a data block for the script
 * (<script type="application/json" id="dp-data">, every '<' written \u003c so that no
 * string in it can end the element), with the link prefix of @o in data-prefix. */
void dp_html_data(struct dp_buf *out, const struct dp_display *d, const struct dp_render_opts *o);

/* dp_html_flame_diff - append flame block @b, compared with a base (b->flame.cmp), as a
 * differential flame graph: the layout of dp_html_flame(), each rect coloured by the
 * change of its self value, red where it grew and blue where it shrank (html_flame_diff.c). */
void dp_html_flame_diff(struct dp_buf *out, const struct dp_dblock *b,
			const struct dp_render_opts *o);

#endif /* DP_DISPLAY_HTML_INT_H */
