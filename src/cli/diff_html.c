/*
 * cli/diff_html.c - `deepprof diff --format=html` (diff_html.h): the procedures and the
 * contexts of a comparison as two tables on one self-contained page, in the display's
 * page frame (dp_html_page_start()) and with its escaping.
 */
#include "diff_html.h"

#include <inttypes.h>
#include <math.h>

#include "../display/display.h"

static const char diff_css[] =
	"body{font:14px sans-serif;margin:1em 2em;color:#222}"
	"table{border-collapse:collapse;margin:.5em 0 1.5em}"
	"th,td{padding:2px 8px;border-bottom:1px solid #ddd;text-align:right}"
	"th{background:#f4f4f4}td.name,th.name{text-align:left}"
	"td.side{color:#a00;text-align:left}p.files{color:#555}";

/* Value @v in the page's unit ("12.3%", "0.250 s", "1200"), with its sign if @sign. */
static void put_value(struct dp_buf *b, const struct dp_diff_page *pg, double v, int sign)
{
	if (pg->unit == 1)
		dp_buf_addf(b, sign ? "%+.1f%%" : "%.1f%%", v * 100.0);
	else if (pg->unit == 2)
		dp_buf_addf(b, sign ? "%+.3f s" : "%.3f s", v / 1e9);
	else
		dp_buf_addf(b, sign ? "%+.0f" : "%.0f", v);
}

/* The background of a change cell: red for @change > 0, blue below, by |change| / @max. */
static void put_tint(struct dp_buf *b, double change, double max)
{
	double i = max > 0 ? fabs(change) / max : 0.0;
	unsigned lo = (unsigned)lround(255.0 - 150.0 * (i > 1 ? 1 : i));

	if (change > 0)
		dp_buf_addf(b, " style=\"background:#ff%02x%02x\"", lo, lo);
	else if (change < 0)
		dp_buf_addf(b, " style=\"background:#%02x%02xff\"", lo, lo);
}

/* One table of the @n rows kept of @n_all, titled @what. */
static void html_rows(struct dp_buf *b, const struct dp_diff *d, const struct dp_diff_page *pg,
		      const struct dp_diff_row *rows, uint32_t n, uint32_t n_all, const char *what)
{
	struct dp_buf path;
	double max = 0;

	for (uint32_t i = 0; i < n; i++)
		max = fabs(rows[i].change) > max ? fabs(rows[i].change) : max;
	dp_buf_init(&path, (size_t)1 << 20);
	dp_buf_addf(b,
		    "<h2>By %s</h2>\n<table class=\"diff\" id=\"%ss\"><thead><tr><th>base</th>"
		    "<th>new</th><th>change</th><th>relative</th><th class=\"name\">%s</th>"
		    "<th class=\"name\">only in</th></tr></thead>\n<tbody>\n",
		    what, what, what);
	for (uint32_t i = 0; i < n; i++) {
		const struct dp_diff_row *r = &rows[i];

		dp_buf_adds(b, "<tr><td>");
		put_value(b, pg, r->base, 0);
		dp_buf_adds(b, "</td><td>");
		put_value(b, pg, r->new_, 0);
		dp_buf_adds(b, "</td><td");
		put_tint(b, r->change, max);
		dp_buf_addc(b, '>');
		put_value(b, pg, r->change, 1);
		dp_buf_adds(b, "</td><td>");
		if (isnan(r->rel))
			dp_buf_adds(b, "-");
		else
			dp_buf_addf(b, "%+.1f%%", r->rel * 100.0);
		dp_buf_adds(b, "</td><td class=\"name\">");
		dp_html_escape(b, r->ctx ? dp_diff_ctx_path(d, r->ctx, &path) : r->name);
		if (!r->ctx && r->file[0]) {
			dp_buf_adds(b, " (");
			dp_html_escape(b, r->file);
			dp_buf_addf(b, ":%" PRIu32 ")", r->line);
		}
		dp_buf_adds(b, "</td><td class=\"side\">");
		dp_buf_adds(b, r->side == DP_DIFF_ONLY_BASE  ? "base"
			       : r->side == DP_DIFF_ONLY_NEW ? "new"
							     : "");
		dp_buf_adds(b, "</td></tr>\n");
	}
	dp_buf_adds(b, "</tbody></table>\n");
	if (n < n_all)
		dp_buf_addf(b, "<p>(%" PRIu32 " more; <code>--limit 0</code> shows all)</p>\n",
			    n_all - n);
	dp_buf_release(&path);
}

void dp_diff_html(struct dp_buf *b, const struct dp_diff *d, const struct dp_diff_page *pg)
{
	static const char *const units[] = {"", " (share of each run's samples)", " (CPU seconds)"};
	const char *unit = units[pg->unit >= 0 && pg->unit <= 2 ? pg->unit : 0];

	dp_html_page_start(b, NULL, "Differences", diff_css);
	dp_buf_addf(b, "<h1>Differences in %s%s, by change in self cost</h1>\n", pg->metric, unit);
	dp_buf_adds(b, "<p class=\"files\">base <b>");
	dp_html_escape(b, pg->base);
	dp_buf_addf(b, "</b> (%" PRIu64 " in all), new <b>", d->base_total);
	dp_html_escape(b, pg->new_);
	dp_buf_addf(b, "</b> (%" PRIu64 " in all)</p>\n", d->new_total);
	html_rows(b, d, pg, d->rows, d->n_rows, d->n_rows_all, "procedure");
	html_rows(b, d, pg, d->ctx_rows, d->n_ctx_rows, d->n_ctx_rows_all, "context");
	dp_buf_adds(b, "</body></html>\n");
}
