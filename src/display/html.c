/*
 * display/html.c - dp_render_html(): a display page as one self-contained HTML5 page:
 * inline CSS, navigation bar, preference toggles (a <details> box, no script needed),
 * facts, link lists, cost tables with re-sorting headers and right-aligned numbers, the
 * pager, the page's JSON for its script (flame pages), and the script (html_asset.c:
 * table filter, keyboard navigation, interactive flame graphs; the page works without
 * it). Every string is escaped; the flame graph's SVG is in html_flame.c.
 */
#include <string.h>

#include "../core/err.h"
#include "../core/url.h"
#include "html_int.h"

static const char dp_html_css[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:0 1.5em 2em;color:#222}"
	"nav.top{padding:.5em 0;border-bottom:1px solid #ccc;margin-bottom:.5em}"
	"nav.top a,nav.top b{margin-right:1em}h1{font-size:1.3em;margin:.4em 0}"
	"h2{font-size:1.1em;margin:1.2em 0 .3em}a{color:#0645ad;text-decoration:none}"
	"a:hover{text-decoration:underline}"
	"table.cost{border-collapse:collapse;font-variant-numeric:tabular-nums}"
	"table.cost th,table.cost td{padding:1px 6px;border:1px solid #ddd;white-space:nowrap}"
	"table.cost th{background:#f3f3f3;font-weight:600}th.g{text-align:center}"
	"table.cost td{text-align:right}table.cost td.l{text-align:left}"
	"th.sorted{background:#dde8ff}table.cost td.w{color:#666;font-size:.9em;text-align:left}"
	"tr.subj td{font-weight:600;background:#fafae8}tr.inactive td{color:#999}"
	"tr.sel td{background:#ffeebb}span.rec{color:#a40;margin-left:.4em}"
	"span.multi{color:#666;font-style:italic}"
	"details.prefs,details.dl{margin:.3em 0;font-size:.9em}details.prefs div{margin:.15em 0}"
	"details.dl a{margin-left:.6em}"
	"details.prefs a,details.prefs b{margin-left:.6em}b.on{color:#070}"
	"p.note{background:#fff8d0;padding:.4em}p.error{background:#fde;padding:.6em;"
	"white-space:pre-wrap}p.hidden{color:#666;font-size:.9em}"
	"table.facts td{padding:1px 10px 1px 0}nav.pager a,nav.pager b{margin-right:.6em}"
	"svg.flame text{font:11px monospace;pointer-events:none}"
	"svg.flame rect{stroke:#fff;stroke-width:.5}svg.flame a:hover rect{stroke:#000}"
	"input.filter{margin:.3em 0;width:20em}form.search{float:right;margin:.4em 0}"
	"form.search input[type=search]{width:16em}";

/* What each byte becomes in HTML: 0 = itself, 1..5 = an entity of dp_html_ent, 6 = the
 * end of the string. */
static const uint8_t dp_html_class[256] = {
	[0] = 6, ['&'] = 1, ['<'] = 2, ['>'] = 3, ['"'] = 4, ['\''] = 5,
};
/* The entities, padded to 8 bytes: each is copied as one 8-byte block. */
static const char dp_html_ent[6][8] = {"", "&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
static const uint8_t dp_html_ent_len[6] = {0, 5, 4, 4, 6, 5};

/* Strings up to this long are escaped straight into room for the worst case. */
#define DP_HTML_FAST_MAX 4096

int dp_html_escapen(struct dp_buf *out, const char *s, size_t len)
{
	const char *run = s, *end = s + len;
	char *p;

	if (len <= DP_HTML_FAST_MAX && !out->err && out->max - out->len > 6 * len + 8 &&
	    (p = dp_buf_room(out, 6 * len + 8))) {
		for (; s < end; s++) {
			uint8_t k = dp_html_class[(uint8_t)*s];

			if (!k || k == 6) {
				*p++ = *s;
				continue;
			}
			memcpy(p, dp_html_ent[k], 8);
			p += dp_html_ent_len[k];
		}
		dp_buf_commit(out, p);
		return 0;
	}
	for (; s < end; s++) {
		uint8_t k = dp_html_class[(uint8_t)*s];

		if (!k || k == 6)
			continue;
		dp_buf_add(out, run, (size_t)(s - run));
		dp_buf_add(out, dp_html_ent[k], dp_html_ent_len[k]);
		run = s + 1;
	}
	return dp_buf_add(out, run, (size_t)(end - run));
}

int dp_html_escape(struct dp_buf *out, const char *s)
{
	if (!s)
		return dp_buf_error(out);
	for (;;) {
		size_t run = strcspn(s, "&<>\"'"); /* libc scans many bytes a step */
		uint8_t k;

		dp_buf_add(out, s, run);
		s += run;
		if (!*s)
			break;
		k = dp_html_class[(uint8_t)*s++];
		dp_buf_add(out, dp_html_ent[k], dp_html_ent_len[k]);
	}
	return dp_buf_error(out);
}

void dp_html_href(struct dp_buf *out, const struct dp_render_opts *o, const char *query)
{
	dp_buf_adds(out, "href=\"");
	dp_html_escape(out, o && o->link_prefix ? o->link_prefix : "?");
	dp_html_escape(out, query);
	dp_buf_addc(out, '"');
}

/* <a href=...>label</a>, or <b>label</b> for the current choice (no href). */
static void dp_html_link(struct dp_buf *out, const struct dp_render_opts *o,
			 const struct dp_dlink *l, const char *cls)
{
	if (!l->href) {
		dp_buf_addf(out, "<b%s%s%s>", cls ? " class=\"" : "", cls ? cls : "",
			    cls ? "\"" : "");
		dp_html_escape(out, l->label);
		dp_buf_adds(out, "</b>");
		return;
	}
	dp_buf_adds(out, "<a ");
	dp_html_href(out, o, l->href);
	dp_buf_addc(out, '>');
	dp_html_escape(out, l->label);
	dp_buf_adds(out, "</a>");
}

static void dp_html_nav(struct dp_buf *out, const struct dp_display *d,
			const struct dp_render_opts *o)
{
	if (!d->n_nav)
		return;
	dp_buf_adds(out, "<nav class=\"top\">");
	for (uint32_t i = 0; i < d->n_nav; i++) {
		if (i == d->n_nav_general)
			dp_buf_adds(out, " | ");
		dp_html_link(out, o, &d->nav[i], NULL);
	}
	dp_buf_adds(out, "</nav>\n");
}

/* Hidden inputs for the pairs of query string @qs ("a=b&c=d", values percent-encoded):
 * a form's GET then carries them. */
static void dp_html_hidden(struct dp_buf *out, const char *qs)
{
	char key[DP_QUERY_NAME_MAX], val[DP_QUERY_NAME_MAX];

	while (*qs) {
		size_t len = strcspn(qs, "&"), klen = strcspn(qs, "=");

		if (klen < len && klen < sizeof(key) &&
		    dp_url_decode(qs, klen, key, sizeof(key), 0, NULL) >= 0 &&
		    dp_url_decode(qs + klen + 1, len - klen - 1, val, sizeof(val), 0, NULL) >= 0) {
			dp_buf_adds(out, "<input type=\"hidden\" name=\"");
			dp_html_escape(out, key);
			dp_buf_adds(out, "\" value=\"");
			dp_html_escape(out, val);
			dp_buf_adds(out, "\">");
		}
		qs += len + (qs[len] == '&');
	}
}

/* The search box of every page: a GET form to the link prefix's path, carrying its
 * parameters (the file) and the page's preferences. */
static void dp_html_search(struct dp_buf *out, const struct dp_display *d,
			   const struct dp_render_opts *o)
{
	const char *prefix = o && o->link_prefix ? o->link_prefix : "?";
	size_t path = strcspn(prefix, "?");

	if (!d->search)
		return;
	dp_buf_adds(out, "<form class=\"search\" role=\"search\" method=\"get\" action=\"");
	dp_html_escapen(out, prefix, path);
	dp_buf_adds(out, "\">");
	if (prefix[path])
		dp_html_hidden(out, prefix + path + 1);
	dp_html_hidden(out, d->search);
	dp_buf_adds(out, "<input type=\"search\" name=\"q\" id=\"q\" aria-label=\"search\" "
			 "placeholder=\"search procedures, files\" value=\"");
	dp_html_escape(out, d->search_text ? d->search_text : "");
	dp_buf_adds(out, "\"><button type=\"submit\">Search</button></form>\n");
}

static void dp_html_toggles(struct dp_buf *out, const struct dp_display *d,
			    const struct dp_render_opts *o)
{
	if (!d->n_toggles)
		return;
	dp_buf_adds(out, "<details class=\"prefs\"><summary>Preferences</summary>\n");
	for (uint32_t i = 0; i < d->n_toggles; i++) {
		const struct dp_dtoggles *t = &d->toggles[i];

		dp_buf_adds(out, "<div>");
		dp_html_escape(out, t->label);
		dp_buf_addc(out, ':');
		for (uint32_t j = 0; j < t->n_links; j++) {
			struct dp_dlink l = t->links[j];

			if (t->on[j] && l.href) { /* a set member: on, the link turns it off */
				dp_buf_adds(out, "<a class=\"on\" ");
				dp_html_href(out, o, l.href);
				dp_buf_adds(out, "><b class=\"on\">");
				dp_html_escape(out, l.label);
				dp_buf_adds(out, "</b></a>");
				continue;
			}
			dp_html_link(out, o, &l, t->on[j] ? "on" : NULL);
		}
		dp_buf_adds(out, "</div>\n");
	}
	dp_buf_adds(out, "</details>\n");
}

/* The arrow of a sorted column: the way its values go down the table. */
static const char *dp_html_arrow(const struct dp_dcol *c)
{
	bool down = (c->kind == DP_DCOL_NUM) != c->rev; /* costs go down by default */

	if (!c->sorted)
		return "";
	return down ? " &#9660;" : " &#9650;";
}

/* A header cell <th ATTRS>: the column's label as its sort link, the arrow if sorted. */
static void dp_html_th(struct dp_buf *out, const struct dp_dcol *c, const char *attrs,
		       const struct dp_render_opts *o)
{
	dp_buf_adds(out, "<th");
	dp_buf_adds(out, attrs);
	if (c->sorted) {
		dp_buf_adds(out, " class=\"sorted\" aria-sort=\"");
		dp_buf_adds(out,
			    (c->kind == DP_DCOL_NUM) != c->rev ? "descending\"" : "ascending\"");
	}
	dp_buf_addc(out, '>');
	if (c->href) {
		dp_buf_adds(out, "<a ");
		dp_html_href(out, o, c->href);
		dp_buf_adds(out, c->sorted ? " title=\"sort the other way\">" : ">");
	}
	dp_html_escape(out, c->label);
	dp_buf_adds(out, dp_html_arrow(c));
	dp_buf_adds(out, c->href ? "</a></th>" : "</th>");
}

/* The header rows of a cost table: group headings, then the labels (sort links). */
static void dp_html_thead(struct dp_buf *out, const struct dp_dtable *t,
			  const struct dp_render_opts *o)
{
	dp_buf_adds(out, "<thead><tr>");
	dp_html_th(out, &t->cols[1], " rowspan=\"2\"", o);
	for (uint32_t i = 0; i < t->n_num;) {
		const char *g = t->cols[2 + i].group;
		uint32_t j = i + 1;

		while (j < t->n_num && g && t->cols[2 + j].group &&
		       strcmp(g, t->cols[2 + j].group) == 0)
			j++;
		dp_buf_addf(out, "<th class=\"g\" colspan=\"%u\">", j - i);
		dp_html_escape(out, g ? g : "");
		dp_buf_adds(out, "</th>");
		i = j;
	}
	dp_html_th(out, &t->cols[t->n_cols - 1], " rowspan=\"2\"", o);
	dp_buf_adds(out, "</tr>\n<tr>");
	for (uint32_t i = 0; i < t->n_num; i++)
		dp_html_th(out, &t->cols[2 + i], "", o);
	dp_buf_adds(out, "</tr></thead>\n");
}

static void dp_html_row(struct dp_buf *out, const struct dp_dtable *t, const struct dp_drow *r,
			const struct dp_render_opts *o)
{
	char num[24];
	uint32_t dep = r->depth > 40 ? 40 : r->depth;

	dp_fmt_u64(num, r->depth);
	dp_buf_adds(out, "<tr class=\"d");
	dp_buf_adds(out, num);
	if (r->flags & DP_DROW_SUBJECT)
		dp_buf_adds(out, " subj");
	if (r->flags & DP_ROW_INACTIVE)
		dp_buf_adds(out, " inactive");
	dp_buf_adds(out, "\"><td class=\"l\"");
	if (dep) { /* 0.4em + 1.2em per level, in tenths */
		dp_fmt_u64(num, 4 + 12 * dep);
		dp_buf_adds(out, " style=\"padding-left:");
		dp_buf_add(out, num, strlen(num) - 1);
		dp_buf_addc(out, '.');
		dp_buf_adds(out, num + strlen(num) - 1);
		dp_buf_adds(out, "em\"");
	}
	dp_buf_addc(out, '>');
	if (r->href) {
		dp_buf_adds(out, "<a ");
		dp_html_href(out, o, r->href);
		if (r->title) { /* the whole call path on hover */
			dp_buf_adds(out, " title=\"");
			dp_html_escape(out, r->title);
			dp_buf_addc(out, '"');
		}
		dp_buf_addc(out, '>');
	} else if (r->title) {
		dp_buf_adds(out, "<span title=\"");
		dp_html_escape(out, r->title);
		dp_buf_adds(out, "\">");
	}
	if (r->flags & DP_ROW_MULTI)
		dp_buf_adds(out, "<span class=\"multi\">");
	dp_html_escape(out, r->name);
	if (r->flags & DP_ROW_MULTI)
		dp_buf_adds(out, "</span>");
	if (r->href)
		dp_buf_adds(out, "</a>");
	else if (r->title)
		dp_buf_adds(out, "</span>");
	if (r->flags & DP_ROW_RECURSIVE)
		dp_buf_adds(out, "<span class=\"rec\" title=\"recursive call\">&#8635;</span>");
	if (r->flags & DP_ROW_CONTOUR)
		dp_buf_adds(out, "<span class=\"rec\" title=\"regrouped by contour exclusion\">"
				 "&#8679;</span>");
	if (r->flags & DP_ROW_TAIL)
		dp_buf_adds(out, "<span class=\"rec\" title=\"entered through a tail call\">"
				 "&#8627;</span>");
	if (r->flags & DP_ROW_REGION)
		dp_buf_adds(out, "<span class=\"rec\" title=\"a region the program marked\">"
				 "&#9633;</span>");
	dp_buf_adds(out, "</td>");
	for (uint32_t i = 0; i < t->n_num; i++) {
		const struct dp_dcell *c = &r->num[i];

		if (c->tip) {
			char tip[DP_UNIT_MAX];

			dp_cell_tip(c, tip);
			dp_buf_adds(out, "<td title=\"");
			dp_buf_adds(out, tip); /* digits and a word: nothing to escape */
			dp_buf_adds(out, "\">");
		} else {
			dp_buf_adds(out, "<td>");
		}
		if (c->text[0] == '<') /* "<0.1%": the one value with a character to escape */
			dp_html_escape(out, c->text);
		else
			dp_buf_add(out, c->text, c->len);
		dp_buf_adds(out, "</td>");
	}
	dp_buf_adds(out, "<td class=\"w\">");
	dp_html_escape(out, r->where);
	dp_buf_adds(out, "</td></tr>\n");
}

static void dp_html_table(struct dp_buf *out, const struct dp_dblock *b,
			  const struct dp_render_opts *o)
{
	const struct dp_dtable *t = &b->table;

	dp_buf_adds(out, "<table class=\"cost\"");
	if (b->id) {
		dp_buf_adds(out, " id=\"");
		dp_html_escape(out, b->id);
		dp_buf_addc(out, '"');
	}
	dp_buf_adds(out, ">\n");
	dp_html_thead(out, t, o);
	dp_buf_adds(out, "<tbody>\n");
	for (uint32_t i = 0; i < t->n_rows; i++)
		dp_html_row(out, t, &t->rows[i], o);
	dp_buf_adds(out, "</tbody></table>\n");
	if (t->n_rows == 0)
		dp_buf_adds(out, "<p class=\"hidden\">(no rows)</p>\n");
	if (t->n_hidden) {
		dp_buf_addf(out, "<p class=\"hidden\">%u inactive rows hidden. ", t->n_hidden);
		if (t->show_href) {
			dp_buf_adds(out, "<a ");
			dp_html_href(out, o, t->show_href);
			dp_buf_adds(out, ">Show them</a>");
		}
		dp_buf_adds(out, "</p>\n");
	}
}

static void dp_html_facts(struct dp_buf *out, const struct dp_dblock *b)
{
	dp_buf_adds(out, "<table class=\"facts\">\n");
	for (uint32_t i = 0; i < b->n_facts; i++) {
		dp_buf_adds(out, "<tr><td>");
		dp_html_escape(out, b->facts[i].label);
		dp_buf_adds(out, "</td><td>");
		dp_html_escape(out, b->facts[i].value);
		dp_buf_adds(out, "</td></tr>\n");
	}
	dp_buf_adds(out, "</table>\n");
}

static void dp_html_block(struct dp_buf *out, const struct dp_dblock *b,
			  const struct dp_render_opts *o)
{
	static const char *const para_cls[] = {"para", "note", "error"};

	if (b->title && b->kind != DP_DB_PAGER) {
		dp_buf_adds(out, "<h2>");
		dp_html_escape(out, b->title);
		dp_buf_adds(out, "</h2>\n");
	}
	switch (b->kind) {
	case DP_DB_PARA:
	case DP_DB_NOTE:
	case DP_DB_ERROR:
		dp_buf_addf(out, "<p class=\"%s\">", para_cls[b->kind]);
		dp_html_escape(out, b->text);
		dp_buf_adds(out, "</p>\n");
		break;
	case DP_DB_FACTS:
		dp_html_facts(out, b);
		break;
	case DP_DB_LINKS:
		dp_buf_adds(out, "<ul class=\"links\">\n");
		for (uint32_t i = 0; i < b->n_links; i++) {
			dp_buf_adds(out, "<li>");
			dp_html_link(out, o, &b->links[i], NULL);
			dp_buf_adds(out, "</li>\n");
		}
		dp_buf_adds(out, "</ul>\n");
		break;
	case DP_DB_PAGER:
		dp_buf_adds(out, "<nav class=\"pager\">");
		dp_html_escape(out, b->title);
		dp_buf_adds(out, ": ");
		for (uint32_t i = 0; i < b->n_links; i++)
			dp_html_link(out, o, &b->links[i], NULL);
		dp_buf_adds(out, "</nav>\n");
		break;
	case DP_DB_TABLE:
		dp_html_table(out, b, o);
		break;
	case DP_DB_FLAME:
		if (b->flame.cmp)
			dp_html_flame_diff(out, b, o);
		else
			dp_html_flame(out, b, o);
		break;
	}
}

void dp_html_page_start(struct dp_buf *out, const char *prefix, const char *title, const char *css)
{
	dp_buf_adds(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
			 "<meta name=\"viewport\" content=\"width=device-width\">\n<title>");
	if (prefix) {
		dp_html_escape(out, prefix);
		dp_buf_adds(out, " - ");
	}
	dp_html_escape(out, title);
	dp_buf_adds(out, " - deepprof</title>\n");
	if (css) {
		dp_buf_adds(out, "<style>");
		dp_buf_adds(out, css);
		dp_buf_adds(out, "</style>");
	}
	dp_buf_adds(out, "</head>\n<body>\n");
}

/* The "download as" menu: one link per format the front end serves (o->downloads). */
static void dp_html_downloads(struct dp_buf *out, const struct dp_display *d,
			      const struct dp_render_opts *o)
{
	if (!o || !o->downloads || !o->downloads[0] || !d->download)
		return;
	dp_buf_adds(out, "<details class=\"dl\"><summary>Download as</summary>\n<div>");
	for (const char *const *f = o->downloads; *f; f++) {
		dp_buf_adds(out, "<a download href=\"");
		dp_html_escape(out, o->link_prefix ? o->link_prefix : "?");
		dp_html_escape(out, d->download);
		dp_buf_adds(out, "download=");
		dp_html_escape(out, *f);
		dp_buf_adds(out, "\">");
		dp_html_escape(out, *f);
		dp_buf_adds(out, "</a>");
	}
	dp_buf_adds(out, "</div></details>\n");
}

int dp_render_html(const struct dp_display *d, const struct dp_render_opts *o, struct dp_buf *out)
{
	dp_html_page_start(out, o ? o->title : NULL, d->title, dp_html_css);
	dp_html_nav(out, d, o);
	dp_html_search(out, d, o);
	dp_buf_adds(out, "<h1>");
	dp_html_escape(out, d->title);
	dp_buf_adds(out, "</h1>\n");
	dp_html_toggles(out, d, o);
	dp_html_downloads(out, d, o);
	for (uint32_t i = 0; i < d->n_blocks; i++)
		dp_html_block(out, &d->blocks[i], o);
	dp_html_data(out, d, o);
	dp_html_script(out, o);
	dp_buf_adds(out, "</body></html>\n");
	return dp_buf_error(out);
}
