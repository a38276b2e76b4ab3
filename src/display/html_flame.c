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

/* Whether dp_svg_put() can write @v. */
static bool dp_svg_ok(double v)
{
	return v >= 0.0 && v < 1e15;
}

/* Write @v (dp_svg_ok()) at @p as printf's "%.2f" would (same digits, ties to even on
 * the exact binary value), without printf's cost; at most 20 bytes. Return: the end. */
static char *dp_svg_put(char *p, double v)
{
	double t = floor(v * 100.0);
	double d = fma(v, 100.0, -(t + 0.5)); /* the sign of v * 100 - (t + 0.5), exactly */
	uint64_t r = (uint64_t)t;

	if (d > 0 || (d == 0 && (r & 1)))
		r++;
	p += dp_buf_fmt_u64(p, r / 100);
	*p++ = '.';
	*p++ = (char)('0' + r % 100 / 10);
	*p++ = (char)('0' + r % 10);
	return p;
}

/* Append @v as "%.2f" (printf for what dp_svg_put() cannot write). */
static void dp_svg_num(struct dp_buf *out, double v)
{
	char *p;

	if (!dp_svg_ok(v)) {
		dp_buf_addf(out, "%.2f", v);
		return;
	}
	p = dp_buf_room(out, 24);
	if (p)
		dp_buf_commit(out, dp_svg_put(p, v));
}

/* Copy string literal @lit to @p and advance it. */
#define DP_PUT(p, lit)                           \
	do {                                     \
		memcpy(p, lit, sizeof(lit) - 1); \
		p += sizeof(lit) - 1;            \
	} while (0)

/* Append the rect of a node at @x, @row (in rows from the top), @w wide, filled with
 * @colour: written at once when the numbers allow. */
static void dp_svg_rect(struct dp_buf *out, double x, uint32_t row, double w, const char *colour)
{
	char *p;

	if (dp_svg_ok(x) && dp_svg_ok(w) && (p = dp_buf_room(out, 160))) {
		DP_PUT(p, "<rect x=\"");
		p = dp_svg_put(p, x);
		DP_PUT(p, "\" y=\"");
		p += dp_buf_fmt_u64(p, row * DP_SVG_ROW);
		DP_PUT(p, "\" width=\"");
		p = dp_svg_put(p, w);
		DP_PUT(p, "\" height=\"");
		p += dp_buf_fmt_u64(p, DP_SVG_ROW - 1);
		DP_PUT(p, "\" fill=\"");
		memcpy(p, colour, 7);
		p += 7;
		DP_PUT(p, "\"/>");
		dp_buf_commit(out, p);
		return;
	}
	dp_buf_adds(out, "<rect x=\"");
	dp_svg_num(out, x);
	dp_buf_adds(out, "\" y=\"");
	dp_buf_addu(out, row * DP_SVG_ROW);
	dp_buf_adds(out, "\" width=\"");
	dp_svg_num(out, w);
	dp_buf_adds(out, "\" height=\"");
	dp_buf_addu(out, DP_SVG_ROW - 1);
	dp_buf_adds(out, "\" fill=\"");
	dp_buf_adds(out, colour);
	dp_buf_adds(out, "\"/>");
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

/* Append @s cut to @chars characters ("name.." when cut), escaped; @esc_off and @esc_len
 * locate @s already escaped in @out (the tooltip's copy), reused when it fits. */
static void dp_flame_label(struct dp_buf *out, const char *s, size_t chars, size_t esc_off,
			   size_t esc_len)
{
	size_t len = strlen(s), i = 0, c = 0;
	char *p;

	if (dp_text_width(s, len) <= chars) {
		p = dp_buf_room(out, esc_len);
		if (p) {
			memcpy(p, out->data + esc_off, esc_len);
			dp_buf_commit(out, p + esc_len);
		}
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
	dp_html_escapen(out, s, i);
	dp_buf_add(out, "..", 2);
}

/* Append a value the display formatted: "<0.1%" is the one with a character to escape. */
static void dp_flame_val(struct dp_buf *out, const char *v)
{
	if (v[0] == '<')
		dp_html_escape(out, v);
	else
		dp_buf_adds(out, v);
}

/* The tooltip of @n; *@name_off and *@name_len locate its escaped name in @out. */
static void dp_flame_title(struct dp_buf *out, const struct dp_dflame *f,
			   const struct dp_dflame_node *n, size_t *name_off, size_t *name_len)
{
	dp_buf_add(out, "<title>", 7);
	*name_off = out->len;
	dp_html_escape(out, n->name);
	*name_len = out->len - *name_off;
	if (n->where[0]) {
		dp_buf_addc(out, '\n');
		dp_html_escape(out, n->where);
	}
	dp_buf_addc(out, '\n');
	dp_buf_adds(out, f->metric);
	dp_buf_add(out, ": ", 2);
	dp_flame_val(out, n->total);
	dp_buf_add(out, " (", 2);
	dp_flame_val(out, n->total_pct);
	dp_buf_add(out, "), self ", 8);
	dp_flame_val(out, n->self);
	dp_buf_add(out, " (", 2);
	dp_flame_val(out, n->self_pct);
	dp_buf_add(out, "), calls ", 9);
	dp_flame_val(out, n->calls);
	dp_buf_add(out, "</title>", 8);
}

/* One node: @pre is the link prefix, already escaped (the same for every node). */
static void dp_flame_rect(struct dp_buf *out, const struct dp_dflame *f,
			  const struct dp_dflame_node *n, const struct dp_buf *pre)
{
	double x = n->x * DP_SVG_W, w = n->w * DP_SVG_W;
	uint32_t row = f->down ? n->depth : f->max_depth - n->depth;
	char colour[8];
	size_t chars, name_off, name_len;

	dp_flame_colour(n->name, colour);
	if (n->href) {
		dp_buf_add(out, "<a href=\"", 9);
		dp_buf_add(out, pre->data, pre->len);
		dp_html_escape(out, n->href);
		dp_buf_add(out, "\">", 2);
	}
	dp_buf_add(out, "<g>", 3);
	dp_flame_title(out, f, n, &name_off, &name_len);
	dp_svg_rect(out, x, row, w, colour);
	chars = w > 8 ? (size_t)((w - 6) / DP_SVG_CHAR) : 0;
	if (chars >= 3) {
		dp_buf_adds(out, "<text x=\"");
		dp_svg_num(out, x + 3);
		dp_buf_adds(out, "\" y=\"");
		dp_buf_addu(out, row * DP_SVG_ROW + 12);
		dp_buf_adds(out, "\">");
		dp_flame_label(out, n->name, chars, name_off, name_len);
		dp_buf_adds(out, "</text>");
	}
	dp_buf_adds(out, n->href ? "</g></a>\n" : "</g>\n");
}

/* What the note over a graph says of its layout and links. */
static void dp_flame_intro(struct dp_buf *out, const struct dp_dflame *f)
{
	const char *layout = "";

	if (f->inverted)
		layout = f->down ? "; the procedure at the top, its callers below"
				 : "; the procedure at the bottom, its callers above";
	else if (f->kind == DP_DFLAME_CALLEES)
		layout = f->down ? "; the procedure at the top, its callees below"
				 : "; the procedure at the bottom, its callees above";
	dp_buf_addf(out, "<p class=\"fgnote\">Width: %s%s. Click a frame to open its %s.</p>\n",
		    f->metric, layout, f->kind == DP_DFLAME_TREE ? "clique" : "procedure");
}

void dp_html_flame(struct dp_buf *out, const struct dp_dblock *b, const struct dp_render_opts *o)
{
	static const char *const kinds[] = {"tree", "callers", "callees"};
	const struct dp_dflame *f = &b->flame;
	unsigned h = (f->max_depth + 1) * DP_SVG_ROW;
	struct dp_buf pre;

	dp_buf_adds(out, "<div class=\"fg\" data-sec=\"");
	dp_html_escape(out, f->sec ? f->sec : "tree");
	dp_buf_addf(out, "\" data-kind=\"%s\" data-down=\"%d\">\n", kinds[f->kind], f->down);
	if (!f->n_nodes) {
		dp_buf_adds(out, "<p class=\"hidden\">(empty graph)</p>\n</div>\n");
		return;
	}
	dp_flame_intro(out, f);
	dp_buf_addf(out,
		    "<svg class=\"flame\" xmlns=\"http://www.w3.org/2000/svg\" "
		    "viewBox=\"0 0 %.0f %u\" width=\"100%%\">\n",
		    DP_SVG_W, h);
	dp_buf_hint(out, (size_t)f->n_nodes * 280); /* about what a node takes */
	dp_buf_init(&pre, out->max);
	dp_html_escape(&pre, o && o->link_prefix ? o->link_prefix : "?");
	if (dp_buf_error(&pre))
		out->err = dp_buf_error(&pre);
	for (uint32_t i = 0; i < f->n_nodes && !out->err; i++)
		if (f->nodes[i].w * DP_SVG_W >= 0.1)
			dp_flame_rect(out, f, &f->nodes[i], &pre);
	dp_buf_release(&pre);
	dp_buf_adds(out, "</svg>\n</div>\n");
}

void dp_html_data(struct dp_buf *out, const struct dp_display *d, const struct dp_render_opts *o)
{
	const char *s = (const char *)d->data.data, *end = s + d->data.len;

	if (!d->data.len)
		return;
	dp_buf_adds(out, "<script type=\"application/json\" id=\"dp-data\" data-prefix=\"");
	dp_html_escape(out, o && o->link_prefix ? o->link_prefix : "?");
	dp_buf_adds(out, "\">");
	dp_buf_hint(out, d->data.len + 4096);
	while (s < end) { /* '<' only occurs in strings, where \u003c means the same */
		const char *lt = memchr(s, '<', (size_t)(end - s));
		size_t n = (size_t)((lt ? lt : end) - s);

		dp_buf_add(out, s, n);
		s += n;
		if (lt) {
			dp_buf_add(out, "\\u003c", 6);
			s++;
		}
	}
	dp_buf_adds(out, "</script>\n");
}
