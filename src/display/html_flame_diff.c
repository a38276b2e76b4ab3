/*
 * display/html_flame_diff.c - the differential flame graph: a flame block compared with
 * a base profile (b->flame.cmp) as an inline SVG, after Brendan Gregg's differential
 * flame graphs. The layout is the flame graph's (width from the new profile, one row per
 * depth, the root at the bottom; for a callers graph at the top); each rect's colour says
 * how its self value changed from the base: red where it grew, blue where it shrank, the
 * deeper the more (the largest change of the graph the deepest), grey where it did not.
 * Each rect is a link as in the flame graph, with a tooltip of its new and base values and
 * its changes, and carries its heat (-1 .. 1) in data-heat for scripts and tests.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/err.h"
#include "html_int.h"

#define DP_DIFF_W    1200.0 /* user units across, as the flame graph */
#define DP_DIFF_ROW  17	    /* height of a row */
#define DP_DIFF_CHAR 6.8    /* width of a label character (11px monospace) */

/* The fill of a rect whose change is @heat (-1 .. 1): "#rrggbb" into @s (8 bytes). */
static void dp_diff_colour(double heat, char s[8])
{
	static const char hex[] = "0123456789abcdef";
	double i = fabs(heat) > 1.0 ? 1.0 : fabs(heat);
	unsigned hi = (unsigned)lround(238.0 + 17.0 * i), lo = (unsigned)lround(238.0 - 200.0 * i);
	unsigned rgb[3] = {lo, lo, lo};

	if (heat > 0)
		rgb[0] = hi;
	else if (heat < 0)
		rgb[2] = hi;
	s[0] = '#';
	for (int k = 0; k < 3; k++) {
		s[1 + 2 * k] = hex[(rgb[k] >> 4) & 15u];
		s[2 + 2 * k] = hex[rgb[k] & 15u];
	}
	s[7] = '\0';
}

/* The label of a rect @w units wide: @name cut to what fits ("name.."), escaped. */
static void dp_diff_label(struct dp_buf *out, const char *name, double w)
{
	size_t chars = w > 8 ? (size_t)((w - 6) / DP_DIFF_CHAR) : 0, len = strlen(name), i = 0;

	if (dp_text_width(name, len) <= chars) {
		dp_html_escape(out, name);
		return;
	}
	for (size_t c = 0; i < len; i++)
		if (((unsigned char)name[i] & 0xC0u) != 0x80u && c++ == chars - 2)
			break;
	dp_html_escapen(out, name, i);
	dp_buf_adds(out, "..");
}

/* One node @n (its comparison @c); @o gives the link prefix. */
static void dp_diff_rect(struct dp_buf *out, const struct dp_dflame *f,
			 const struct dp_dflame_node *n, const struct dp_dflame_cmp *c,
			 const struct dp_render_opts *o)
{
	double x = n->x * DP_DIFF_W, w = n->w * DP_DIFF_W;
	uint32_t row = f->inverted ? n->depth : f->max_depth - n->depth;
	char colour[8];

	dp_diff_colour(c->heat, colour);
	if (n->href) {
		dp_buf_adds(out, "<a ");
		dp_html_href(out, o, n->href);
		dp_buf_addc(out, '>');
	}
	dp_buf_addf(out, "<g data-heat=\"%.4f\"><title>", c->heat);
	dp_html_escape(out, n->name);
	if (n->where[0]) {
		dp_buf_addc(out, '\n');
		dp_html_escape(out, n->where);
	}
	dp_buf_addf(out, "\n%s: total ", f->metric);
	dp_html_escape(out, n->total);
	dp_buf_adds(out, " (");
	dp_html_escape(out, n->total_pct);
	dp_buf_adds(out, "), self ");
	dp_html_escape(out, n->self);
	dp_buf_adds(out, " (");
	dp_html_escape(out, n->self_pct);
	dp_buf_adds(out, ")\n");
	dp_html_escape(out, c->tip);
	dp_buf_addf(out,
		    "</title><rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%u\" fill=\"%s\" "
		    "stroke=\"#fff\"/>",
		    x, row * DP_DIFF_ROW, w, DP_DIFF_ROW - 1, colour);
	if (w > 8 && (w - 6) / DP_DIFF_CHAR >= 3) {
		dp_buf_addf(out, "<text x=\"%.2f\" y=\"%u\">", x + 3, row * DP_DIFF_ROW + 12);
		dp_diff_label(out, n->name, w);
		dp_buf_adds(out, "</text>");
	}
	dp_buf_adds(out, n->href ? "</g></a>\n" : "</g>\n");
}

void dp_html_flame_diff(struct dp_buf *out, const struct dp_dblock *b,
			const struct dp_render_opts *o)
{
	const struct dp_dflame *f = &b->flame;
	char grew[8], shrank[8];

	if (!f->n_nodes) {
		dp_buf_adds(out, "<p class=\"hidden\">(empty graph)</p>\n");
		return;
	}
	dp_diff_colour(1.0, grew);
	dp_diff_colour(-1.0, shrank);
	dp_buf_adds(out, "<p class=\"legend\">Differential flame graph against ");
	dp_html_escape(out, f->cmp_base);
	dp_buf_addf(out,
		    ": width from the new profile's %s%s; colour from the change of each "
		    "frame's self %s: <span style=\"background:%s\">red grew</span>, "
		    "<span style=\"background:%s;color:#fff\">blue shrank</span>, grey did not",
		    f->metric, f->inverted ? " (the procedure at the top, its callers below)" : "",
		    f->metric, grew, shrank);
	if (f->cmp_max[0]) {
		dp_buf_adds(out, " (the deepest colour: ");
		dp_html_escape(out, f->cmp_max);
		dp_buf_adds(out, ")");
	}
	dp_buf_adds(out, ".</p>\n");
	dp_buf_addf(out,
		    "<svg class=\"flame-diff\" xmlns=\"http://www.w3.org/2000/svg\" "
		    "viewBox=\"0 0 %.0f %u\" width=\"100%%\" font-family=\"monospace\" "
		    "font-size=\"11\" stroke-width=\".5\">\n",
		    DP_DIFF_W, (f->max_depth + 1) * DP_DIFF_ROW);
	for (uint32_t i = 0; i < f->n_nodes && !out->err; i++)
		if (f->nodes[i].w * DP_DIFF_W >= 0.1)
			dp_diff_rect(out, f, &f->nodes[i], &f->cmp[i], o);
	dp_buf_adds(out, "</svg>\n");
}
