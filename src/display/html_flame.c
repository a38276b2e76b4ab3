/*
 * display/html_flame.c - a flame block as an inline SVG drawn by the server: one rect
 * per node, width proportional to its total of the metric, one row per depth (the root
 * at the bottom; for a callers graph at the top), each rect a link with a <title>
 * tooltip (name, file:line, values) and its label clipped to the rect.
 */
#include <stdio.h>
#include <string.h>

#include "../core/err.h"
#include "html_int.h"

#define DP_SVG_W    1200.0 /* user units across */
#define DP_SVG_ROW  17	   /* height of a row */
#define DP_SVG_CHAR 6.8	   /* width of a label character (11px monospace) */

/* A warm colour for @name, stable across pages. */
static void dp_flame_colour(const char *name, char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (const char *p = name; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	snprintf(s, n, "#%02x%02x%02x", 205 + (h & 0xFFu) % 50, ((h >> 8) & 0xFFu) * 200 / 255,
		 ((h >> 16) & 0xFFu) * 60 / 255);
}

/* Append @s cut to @chars characters ("name.." when cut), escaped. */
static void dp_flame_label(struct dp_buf *out, const char *s, size_t chars)
{
	size_t len = strlen(s), i = 0, c = 0;

	if (dp_text_width(s, len) <= chars) {
		dp_html_escape(out, s);
		return;
	}
	while (i < len) {
		if (((unsigned char)s[i] & 0xC0u) != 0x80u) {
			if (c == chars - 2)
				break;
			c++;
		}
		i++;
	}
	for (size_t k = 0; k < i; k++) {
		char ch[2] = {s[k], 0};

		dp_html_escape(out, ch);
	}
	dp_buf_adds(out, "..");
}

static void dp_flame_title(struct dp_buf *out, const struct dp_dflame *f,
			   const struct dp_dflame_node *n)
{
	dp_buf_adds(out, "<title>");
	dp_html_escape(out, n->name);
	if (n->where[0]) {
		dp_buf_adds(out, "\n");
		dp_html_escape(out, n->where);
	}
	dp_buf_addf(out, "\n%s: ", f->metric);
	dp_html_escape(out, n->total);
	dp_buf_adds(out, " (");
	dp_html_escape(out, n->total_pct);
	dp_buf_adds(out, "), self ");
	dp_html_escape(out, n->self);
	dp_buf_adds(out, " (");
	dp_html_escape(out, n->self_pct);
	dp_buf_adds(out, "), calls ");
	dp_html_escape(out, n->calls);
	dp_buf_adds(out, "</title>");
}

static void dp_flame_rect(struct dp_buf *out, const struct dp_dflame *f,
			  const struct dp_dflame_node *n, const struct dp_render_opts *o)
{
	double x = n->x * DP_SVG_W, w = n->w * DP_SVG_W;
	uint32_t row = f->inverted ? n->depth : f->max_depth - n->depth;
	char colour[8];
	size_t chars;

	dp_flame_colour(n->name, colour, sizeof(colour));
	if (n->href) {
		dp_buf_adds(out, "<a ");
		dp_html_href(out, o, n->href);
		dp_buf_addc(out, '>');
	}
	dp_buf_adds(out, "<g>");
	dp_flame_title(out, f, n);
	dp_buf_addf(out, "<rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%d\" fill=\"%s\"/>", x,
		    row * DP_SVG_ROW, w, DP_SVG_ROW - 1, colour);
	chars = w > 8 ? (size_t)((w - 6) / DP_SVG_CHAR) : 0;
	if (chars >= 3) {
		dp_buf_addf(out, "<text x=\"%.2f\" y=\"%u\">", x + 3, row * DP_SVG_ROW + 12);
		dp_flame_label(out, n->name, chars);
		dp_buf_adds(out, "</text>");
	}
	dp_buf_adds(out, n->href ? "</g></a>\n" : "</g>\n");
}

void dp_html_flame(struct dp_buf *out, const struct dp_dblock *b, const struct dp_render_opts *o)
{
	const struct dp_dflame *f = &b->flame;
	unsigned h = (f->max_depth + 1) * DP_SVG_ROW;

	if (!f->n_nodes) {
		dp_buf_adds(out, "<p class=\"hidden\">(empty graph)</p>\n");
		return;
	}
	dp_buf_addf(out, "<p>Width: %s%s. Click a frame to open its %s.</p>\n", f->metric,
		    f->inverted ? "; the procedure at the top, its callers below" : "",
		    f->inverted ? "procedure" : "clique");
	dp_buf_addf(out,
		    "<svg class=\"flame\" xmlns=\"http://www.w3.org/2000/svg\" "
		    "viewBox=\"0 0 %.0f %u\" width=\"100%%\">\n",
		    DP_SVG_W, h);
	for (uint32_t i = 0; i < f->n_nodes; i++)
		if (f->nodes[i].w * DP_SVG_W >= 0.1)
			dp_flame_rect(out, f, &f->nodes[i], o);
	dp_buf_adds(out, "</svg>\n");
}
