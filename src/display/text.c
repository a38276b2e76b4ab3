/*
 * display/text.c - dp_render_text(): a display page as plain text for a terminal of a
 * given width: title, notes, facts and links as aligned lists, tables with aligned,
 * right-justified numbers under group headings (one line per row when it fits, else the
 * name on one line and the numbers under it), the pager and the pages to go next as
 * query strings. The flame page's tree is in text_tree.c.
 */
#include <string.h>

#include "../core/err.h"
#include "display_int.h"
#include "text_int.h"

#define DP_TEXT_MIN_NAME  24 /* narrowest name column before rows take two lines */
#define DP_TEXT_MIN_WHERE 20 /* narrowest a where column is cut to */

const char *dp_text_marker(unsigned flags)
{
	if (flags & DP_ROW_RECURSIVE)
		return flags & DP_ROW_TAIL ? " (rec, tail)" : " (rec)";
	if (flags & DP_ROW_CONTOUR)
		return " (contour)";
	if ((flags & (DP_ROW_TAIL | DP_ROW_REGION)) == (DP_ROW_TAIL | DP_ROW_REGION))
		return " (tail, region)";
	if (flags & DP_ROW_TAIL)
		return " (tail)";
	if (flags & DP_ROW_REGION)
		return " (region)";
	return "";
}

int dp_text_pad(struct dp_buf *out, size_t n)
{
	static const char spaces[] = "                                ";

	while (n > 0) {
		size_t k = n < sizeof(spaces) - 1 ? n : sizeof(spaces) - 1;

		dp_buf_add(out, spaces, k);
		n -= k;
	}
	return dp_buf_error(out);
}

/* Append @s (width @w) then pad to @width; right-aligned if @right. */
static void dp_text_cell(struct dp_buf *out, const char *s, size_t width, bool right)
{
	size_t w = dp_text_width(s, strlen(s));

	if (right && w < width)
		dp_text_pad(out, width - w);
	dp_buf_adds(out, s);
	if (!right && w < width)
		dp_text_pad(out, width - w);
}

/* Text of @s with trailing spaces removed from the buffer's last line. */
static void dp_text_eol(struct dp_buf *out)
{
	while (out->len > 0 && out->data[out->len - 1] == ' ')
		out->len--;
	if (out->data)
		out->data[out->len] = 0;
	dp_buf_addc(out, '\n');
}

/* Facts as "label  value" lines with the values aligned. */
static void dp_text_facts(struct dp_buf *out, const struct dp_dfact *f, uint32_t n)
{
	size_t lw = 0;

	for (uint32_t i = 0; i < n; i++) {
		size_t w = dp_text_width(f[i].label, strlen(f[i].label));

		lw = w > lw ? w : lw;
	}
	for (uint32_t i = 0; i < n; i++) {
		dp_buf_adds(out, "  ");
		dp_text_cell(out, f[i].label, lw, false);
		dp_buf_adds(out, "  ");
		dp_buf_adds(out, f[i].value);
		dp_text_eol(out);
	}
}

/* The links of @l that lead somewhere, as "label  query" lines. */
static void dp_text_links(struct dp_buf *out, const struct dp_dlink *l, uint32_t n)
{
	size_t lw = 0;

	for (uint32_t i = 0; i < n; i++) {
		size_t w = dp_text_width(l[i].label, strlen(l[i].label));

		lw = l[i].href && w > lw ? w : lw;
	}
	for (uint32_t i = 0; i < n; i++) {
		if (!l[i].href)
			continue;
		dp_buf_adds(out, "  ");
		dp_text_cell(out, l[i].label, lw, false);
		dp_buf_adds(out, "  ");
		dp_buf_adds(out, l[i].href);
		dp_text_eol(out);
	}
}

#define DP_TEXT_MAX_COLS 64

/* Widths of a table's columns and which layout it gets. */
struct dp_tlayout {
	size_t id_w, name_w, where_w, nums_w, width;
	uint32_t n_show;		 /* numeric columns shown */
	uint32_t show[DP_TEXT_MAX_COLS]; /* their indexes in the row's num[] */
	size_t gap[DP_TEXT_MAX_COLS];	 /* spaces before each: 1 in a group, 2 across */
	size_t num_w[DP_TEXT_MAX_COLS];	 /* width of each */
	bool omitted;			 /* exits and unwinds left out */
	bool two_lines;
};

/* Whether every row has exits == calls and no unwinds (the columns say nothing). */
static bool dp_text_ports_plain(const struct dp_dtable *t, uint32_t calls, uint32_t exits,
				uint32_t unw)
{
	for (uint32_t r = 0; r < t->n_rows; r++) {
		const struct dp_dcell *c = t->rows[r].num;

		if (c[calls].raw != c[exits].raw || c[unw].raw != 0)
			return false;
	}
	return true;
}

/* Which numeric columns are shown, with their gaps. */
static void dp_text_choose(const struct dp_dtable *t, struct dp_tlayout *L)
{
	uint32_t calls = UINT32_MAX, exits = UINT32_MAX, unw = UINT32_MAX;

	for (uint32_t i = 0; i < t->n_num; i++) {
		int port = t->cols[2 + i].port;

		calls = port == 1 ? i : calls;
		exits = port == 2 ? i : exits;
		unw = port == 3 ? i : unw;
	}
	L->omitted = calls != UINT32_MAX && exits != UINT32_MAX && unw != UINT32_MAX &&
		     dp_text_ports_plain(t, calls, exits, unw);
	for (uint32_t i = 0; i < t->n_num && L->n_show < DP_TEXT_MAX_COLS; i++) {
		const char *g = t->cols[2 + i].group, *pg;
		uint32_t k = L->n_show;

		if (L->omitted && (i == exits || i == unw))
			continue;
		pg = k ? t->cols[2 + L->show[k - 1]].group : NULL;
		L->gap[k] = (k && g && pg && strcmp(g, pg) == 0) ? 1 : 2;
		L->show[k] = i;
		L->n_show++;
	}
}

/* Name width of row @r as shown: indent, name, marker. */
static size_t dp_text_namew(const struct dp_drow *r)
{
	size_t w = 2 * (size_t)r->depth + dp_text_width(r->name, strlen(r->name));

	return w + strlen(dp_text_marker(r->flags));
}

/* The widths of the id, where and numeric columns (from the cells). */
static size_t dp_text_widths(const struct dp_dtable *t, struct dp_tlayout *L)
{
	size_t natural = 4;

	for (uint32_t k = 0; k < L->n_show; k++) {
		const char *l = t->cols[2 + L->show[k]].label;

		L->num_w[k] = dp_text_width(l, strlen(l));
	}
	for (uint32_t r = 0; r < t->n_rows; r++) {
		const struct dp_drow *row = &t->rows[r];
		size_t w = strlen(row->ref);

		L->id_w = w > L->id_w ? w : L->id_w;
		w = dp_text_namew(row);
		natural = w > natural ? w : natural;
		w = dp_text_width(row->where, strlen(row->where));
		L->where_w = w > L->where_w ? w : L->where_w;
		for (uint32_t k = 0; k < L->n_show; k++) {
			w = row->num[L->show[k]].len; /* ASCII */
			L->num_w[k] = w > L->num_w[k] ? w : L->num_w[k];
		}
	}
	return natural;
}

static void dp_text_layout(const struct dp_dtable *t, size_t width, struct dp_tlayout *L)
{
	size_t natural, rest;

	memset(L, 0, sizeof(*L));
	L->width = width;
	dp_text_choose(t, L);
	natural = dp_text_widths(t, L);
	if (L->id_w)
		L->id_w = L->id_w < 2 ? 2 : L->id_w;
	if (L->where_w)
		L->where_w = L->where_w < 5 ? 5 : L->where_w;
	for (uint32_t k = 0; k < L->n_show; k++)
		L->nums_w += L->gap[k] + L->num_w[k];
	rest = (L->id_w ? L->id_w + 2 : 0) + L->nums_w + (L->where_w ? L->where_w + 2 : 0);
	if (rest + natural > width && L->where_w > DP_TEXT_MIN_WHERE) {
		/* a narrower where ("...e/file.c:12") to keep rows on one line */
		size_t cut = L->where_w - DP_TEXT_MIN_WHERE, over = rest + natural - width;

		cut = over < cut ? over : cut;
		L->where_w -= cut;
		rest -= cut;
	}
	if (rest + natural <= width) {
		L->name_w = natural;
	} else if (rest + DP_TEXT_MIN_NAME <= width) {
		L->name_w = width - rest;
	} else {
		L->two_lines = true;
		L->name_w = natural;
	}
}

/* The "where" text fitted in @w columns (cut at the left: "...e/file.c:12"). */
static void dp_text_where(struct dp_buf *out, const char *s, size_t w)
{
	size_t len = strlen(s), sw = dp_text_width(s, len);

	if (sw <= w) {
		dp_buf_adds(out, s);
		return;
	}
	while (sw > w - 3 && len > 0) {
		if (((unsigned char)*s & 0xC0u) != 0x80u)
			sw--;
		s++;
		len--;
	}
	while (len > 0 && ((unsigned char)*s & 0xC0u) == 0x80u) {
		s++;
		len--;
	}
	dp_buf_adds(out, "...");
	dp_buf_adds(out, s);
}

/* The name cell: indentation, the name shortened to fit @w, marker; pads to @w if @pad. */
static void dp_text_name(struct dp_buf *out, struct dp_buf *tmp, const struct dp_drow *r, size_t w,
			 bool pad)
{
	const char *marker = dp_text_marker(r->flags);
	size_t ind = 2 * (size_t)r->depth, mark = strlen(marker), avail;

	if (ind > w / 2)
		ind = w / 2;
	avail = w > ind + mark + 4 ? w - ind - mark : 4;
	dp_text_pad(out, ind);
	dp_buf_fail(out, dp_shorten_name(tmp, r->name, avail));
	dp_buf_adds(out, dp_buf_cstr(tmp));
	dp_buf_adds(out, marker);
	if (pad) {
		size_t used = ind + dp_text_width(dp_buf_cstr(tmp), tmp->len) + mark;

		dp_text_pad(out, used < w ? w - used : 0);
	}
}

/* The numbers of @row (or the labels if @row is NULL). */
static void dp_text_nums(struct dp_buf *out, const struct dp_dtable *t, const struct dp_tlayout *L,
			 const struct dp_drow *row)
{
	for (uint32_t k = 0; k < L->n_show; k++) {
		uint32_t i = L->show[k];
		const char *s = row ? row->num[i].text : t->cols[2 + i].label;
		size_t w = row ? row->num[i].len : dp_text_width(s, strlen(s));

		dp_text_pad(out, L->gap[k] + (w < L->num_w[k] ? L->num_w[k] - w : 0));
		dp_buf_add(out, s, row ? w : strlen(s));
	}
}

/* The line of group headings over the numeric columns ("ports----- time------"). */
static void dp_text_groups(struct dp_buf *out, const struct dp_dtable *t,
			   const struct dp_tlayout *L, size_t lead)
{
	dp_text_pad(out, lead);
	for (uint32_t k = 0; k < L->n_show;) {
		const char *g = t->cols[2 + L->show[k]].group;
		size_t span = L->num_w[k], gl;
		uint32_t j = k + 1;

		g = g ? g : "";
		gl = strlen(g);
		dp_text_pad(out, L->gap[k]);
		while (j < L->n_show && L->gap[j] == 1)
			span += 1 + L->num_w[j++];
		dp_buf_add(out, g, gl < span ? gl : span);
		for (size_t c = gl; c < span; c++)
			dp_buf_addc(out, c == gl ? ' ' : '-');
		k = j;
	}
	dp_text_eol(out);
}

static void dp_text_header(struct dp_buf *out, const struct dp_dtable *t,
			   const struct dp_tlayout *L)
{
	size_t lead = (L->id_w ? L->id_w + 2 : 0) + L->name_w;

	if (L->n_show && !L->two_lines)
		dp_text_groups(out, t, L, lead);
	if (L->id_w) {
		dp_text_cell(out, "Id", L->id_w, false);
		dp_buf_adds(out, "  ");
	}
	dp_text_cell(out, "Name", L->two_lines ? 4 : L->name_w, false);
	if (L->two_lines) {
		dp_buf_adds(out, "  Where");
		dp_text_eol(out);
		if (!L->n_show)
			return;
		dp_text_groups(out, t, L, L->id_w);
		dp_text_pad(out, L->id_w);
		dp_text_nums(out, t, L, NULL);
	} else {
		dp_text_nums(out, t, L, NULL);
		if (L->where_w)
			dp_buf_adds(out, "  Where");
	}
	dp_text_eol(out);
}

static void dp_text_row(struct dp_buf *out, struct dp_buf *tmp, const struct dp_tlayout *L,
			const struct dp_dtable *t, const struct dp_drow *r)
{
	if (L->id_w) {
		dp_text_cell(out, r->ref, L->id_w, false);
		dp_buf_adds(out, "  ");
	}
	if (L->two_lines) {
		size_t used =
			(L->id_w ? L->id_w + 2 : 0) + 2 + dp_text_width(r->where, strlen(r->where));
		size_t nw = L->width > used + DP_TEXT_MIN_NAME ? L->width - used : DP_TEXT_MIN_NAME;

		dp_text_name(out, tmp, r, nw, false);
		if (r->where[0]) {
			dp_buf_adds(out, "  ");
			dp_buf_adds(out, r->where);
		}
		dp_text_eol(out);
		if (!L->n_show)
			return;
		dp_text_pad(out, L->id_w);
		dp_text_nums(out, t, L, r);
		dp_text_eol(out);
		return;
	}
	dp_text_name(out, tmp, r, L->name_w, true);
	dp_text_nums(out, t, L, r);
	if (L->where_w && r->where[0]) {
		dp_buf_adds(out, "  ");
		dp_text_where(out, r->where, L->where_w);
	}
	dp_text_eol(out);
}

static void dp_text_table(struct dp_buf *out, const struct dp_dblock *b, size_t width,
			  bool *omitted)
{
	const struct dp_dtable *t = &b->table;
	struct dp_tlayout L;
	struct dp_buf tmp;

	if (b->title) {
		dp_buf_adds(out, b->title);
		dp_buf_adds(out, ":\n");
	}
	if (t->n_rows == 0) {
		dp_buf_adds(out, "  (none)\n");
	} else {
		dp_buf_init(&tmp, 1 << 16);
		dp_text_layout(t, width, &L);
		dp_text_header(out, t, &L);
		for (uint32_t i = 0; i < t->n_rows; i++)
			dp_text_row(out, &tmp, &L, t, &t->rows[i]);
		dp_buf_release(&tmp);
		*omitted = *omitted || L.omitted;
	}
	if (t->n_hidden)
		dp_buf_addf(out, "  (%u inactive rows hidden; to show them: %s)\n", t->n_hidden,
			    t->show_href ? t->show_href : "inactive=sss");
}

/* One block. */
static void dp_text_block(struct dp_buf *out, const struct dp_dblock *b, size_t width,
			  bool *omitted)
{
	switch (b->kind) {
	case DP_DB_PARA:
		dp_buf_addf(out, "%s\n", b->text);
		break;
	case DP_DB_NOTE:
		dp_buf_addf(out, "Note: %s\n", b->text);
		break;
	case DP_DB_ERROR:
		dp_buf_addf(out, "Error: %s\n", b->text);
		break;
	case DP_DB_FACTS:
		dp_text_facts(out, b->facts, b->n_facts);
		break;
	case DP_DB_LINKS:
	case DP_DB_PAGER:
		if (b->title)
			dp_buf_addf(out, "%s:\n", b->title);
		dp_text_links(out, b->links, b->n_links);
		break;
	case DP_DB_TABLE:
		dp_text_table(out, b, width, omitted);
		break;
	case DP_DB_FLAME:
		dp_text_tree(out, b, width);
		break;
	}
}

int dp_render_text(const struct dp_display *d, const struct dp_render_opts *o, struct dp_buf *out)
{
	size_t width = o && o->width ? o->width : 100, tl;
	bool omitted = false;

	if (width < 40)
		width = 40;
	if (o && o->title)
		dp_buf_addf(out, "%s: ", o->title);
	dp_buf_adds(out, d->title);
	dp_buf_addc(out, '\n');
	tl = dp_text_width(d->title, strlen(d->title)) +
	     (o && o->title ? dp_text_width(o->title, strlen(o->title)) + 2 : 0);
	for (size_t i = 0; i < tl && i < width; i++)
		dp_buf_addc(out, '=');
	dp_buf_addc(out, '\n');
	for (uint32_t i = 0; i < d->n_blocks; i++) {
		dp_buf_addc(out, '\n');
		dp_text_block(out, &d->blocks[i], width, &omitted);
	}
	if (d->n_nav > d->n_nav_general) {
		dp_buf_adds(out, "\nSee also:\n");
		dp_text_links(out, d->nav + d->n_nav_general, d->n_nav - d->n_nav_general);
	}
	if (d->legend)
		dp_buf_addf(out, "\n%s\n", d->legend);
	if (omitted)
		dp_buf_adds(out, "Exits and Unwinds are left out of tables where every row has "
				 "exits = calls and no unwinds.\n");
	return dp_buf_error(out);
}
