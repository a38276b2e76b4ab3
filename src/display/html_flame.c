/*
 * display/html_flame.c - a flame block as an inline SVG drawn by the server: one rect
 * per node, width proportional to its total of the metric, one row per depth (the root
 * at the bottom; for a callers graph at the top), each rect a link with a <title>
 * tooltip (name, file:line, values) and its label clipped to the rect.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/err.h"
#include "html_int.h"

#define DP_SVG_W    1200.0 /* user units across */
#define DP_SVG_ROW  17	   /* height of a row */
#define DP_SVG_CHAR 6.8	   /* width of a label character (11px monospace) */

/* Append @v as printf's "%.2f" would (same digits, ties to even on the exact binary
 * value), without printf's cost: a flame graph prints three numbers per node. */
static void dp_svg_num(struct dp_buf *out, double v)
{
	char tmp[24], s[26];
	double t, d;
	uint64_t r;
	size_t n = 0, k = 0;

	if (!(v >= 0.0 && v < 1e15)) {
		dp_buf_addf(out, "%.2f", v);
		return;
	}
	t = floor(v * 100.0);
	d = fma(v, 100.0, -(t + 0.5)); /* the sign of v * 100 - (t + 0.5), exactly */
	r = (uint64_t)t;
	if (d > 0 || (d == 0 && (r & 1)))
		r++;
	do {
		tmp[n++] = (char)('0' + r % 10);
		r /= 10;
	} while (r || n < 3);
	while (n > 2)
		s[k++] = tmp[--n];
	s[k++] = '.';
	s[k++] = tmp[1];
	s[k++] = tmp[0];
	dp_buf_add(out, s, k);
}

/* Append @v in decimal. */
static void dp_svg_u32(struct dp_buf *out, uint32_t v)
{
	char tmp[12], s[12];
	size_t n = 0, k = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		s[k++] = tmp[--n];
	dp_buf_add(out, s, k);
}

/* A warm colour for @name, stable across pages: "#rrggbb" into @s (8 bytes). */
static void dp_flame_colour(const char *name, char s[8])
{
	static const char hex[] = "0123456789abcdef";
	uint32_t h = 2166136261u;
	unsigned rgb[3];

	for (const char *p = name; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	rgb[0] = 205 + (h & 0xFFu) % 50;
	rgb[1] = ((h >> 8) & 0xFFu) * 200 / 255;
	rgb[2] = ((h >> 16) & 0xFFu) * 60 / 255;
	s[0] = '#';
	for (int i = 0; i < 3; i++) {
		s[1 + 2 * i] = hex[rgb[i] >> 4];
		s[2 + 2 * i] = hex[rgb[i] & 15];
	}
	s[7] = '\0';
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

	dp_flame_colour(n->name, colour);
	if (n->href) {
		dp_buf_adds(out, "<a ");
		dp_html_href(out, o, n->href);
		dp_buf_addc(out, '>');
	}
	dp_buf_adds(out, "<g>");
	dp_flame_title(out, f, n);
	dp_buf_adds(out, "<rect x=\"");
	dp_svg_num(out, x);
	dp_buf_adds(out, "\" y=\"");
	dp_svg_u32(out, row * DP_SVG_ROW);
	dp_buf_adds(out, "\" width=\"");
	dp_svg_num(out, w);
	dp_buf_adds(out, "\" height=\"");
	dp_svg_u32(out, DP_SVG_ROW - 1);
	dp_buf_adds(out, "\" fill=\"");
	dp_buf_adds(out, colour);
	dp_buf_adds(out, "\"/>");
	chars = w > 8 ? (size_t)((w - 6) / DP_SVG_CHAR) : 0;
	if (chars >= 3) {
		dp_buf_adds(out, "<text x=\"");
		dp_svg_num(out, x + 3);
		dp_buf_adds(out, "\" y=\"");
		dp_svg_u32(out, row * DP_SVG_ROW + 12);
		dp_buf_adds(out, "\">");
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
