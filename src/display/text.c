/*
 * display/text.c - dp_render_text(): a display page as plain text for a terminal of a
 * given width, no line longer: title, notes, facts and links as aligned lists (wrapped),
 * the tables (text_table.c) and the flame page's tree (text_tree.c) with the page's
 * common source directory left out of every where, the pager and the pages to go next
 * as query strings, and once at the end what the tables left out.
 */
#include <string.h>

#include "../core/err.h"
#include "display_int.h"
#include "text_int.h"

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

void dp_text_eol(struct dp_buf *out)
{
	while (out->len > 0 && out->data[out->len - 1] == ' ')
		out->len--;
	if (out->data)
		out->data[out->len] = 0;
	dp_buf_addc(out, '\n');
}

/* the bytes of the longest start of @s (@len bytes) that fits in @w columns, at least
 * one character */
static size_t dp_text_fit(const char *s, size_t len, size_t w)
{
	size_t n = 0, cols = 0;

	while (n < len) {
		size_t c = 1;

		while (n + c < len && ((unsigned char)s[n + c] & 0xC0u) == 0x80u)
			c++;
		if (cols + 1 > w && n > 0)
			break;
		n += c;
		cols++;
	}
	return n;
}

void dp_text_wrap(struct dp_buf *out, const char *text, const char *first, const char *next,
		  size_t width)
{
	const char *pre = first;
	size_t col = 0;
	bool line_open = false;

	while (*text) {
		size_t word = strcspn(text, " \n"), ww = dp_text_width(text, word);
		size_t pw = dp_text_width(pre, strlen(pre));

		if (!line_open) {
			dp_buf_adds(out, pre);
			col = pw;
			line_open = true;
		} else if (word && col + 1 + ww > width) {
			dp_text_eol(out);
			pre = next;
			line_open = false;
			continue;
		} else if (word) {
			dp_buf_addc(out, ' ');
			col++;
		}
		while (ww > 0 && col + ww > width) { /* a word longer than a line: cut */
			size_t room = width > col ? width - col : 1,
			       n = dp_text_fit(text, word, room);

			dp_buf_add(out, text, n);
			dp_text_eol(out);
			text += n;
			word -= n;
			ww = dp_text_width(text, word);
			pre = next;
			dp_buf_adds(out, pre);
			col = dp_text_width(pre, strlen(pre));
		}
		dp_buf_add(out, text, word);
		col += ww;
		text += word;
		if (*text == '\n') {
			dp_text_eol(out);
			line_open = false;
			pre = next;
			text++;
		} else {
			while (*text == ' ')
				text++;
		}
	}
	if (line_open)
		dp_text_eol(out);
}

/* Facts as "label  value" lines with the values aligned (and wrapped under themselves). */
static void dp_text_facts(struct dp_buf *out, const struct dp_dfact *f, uint32_t n, size_t width)
{
	char lead[96];
	size_t lw = 0;

	for (uint32_t i = 0; i < n; i++) {
		size_t w = dp_text_width(f[i].label, strlen(f[i].label));

		lw = w > lw ? w : lw;
	}
	lw = lw + 4 < sizeof(lead) && lw + 4 <= width * 3 / 5 ? lw : 0;
	memset(lead, ' ', lw + 4);
	lead[lw + 4] = 0;
	for (uint32_t i = 0; i < n; i++) {
		struct dp_buf first;

		dp_buf_init(&first, 1 << 12);
		dp_buf_adds(&first, "  ");
		dp_text_cell(&first, f[i].label, lw, false);
		dp_buf_adds(&first, "  ");
		if (!lw) { /* labels too long to align: the value under its label */
			dp_text_wrap(out, f[i].label, "  ", "  ", width);
			dp_text_wrap(out, f[i].value[0] ? f[i].value : "-", "    ", "    ", width);
		} else {
			dp_text_wrap(out, f[i].value[0] ? f[i].value : "-", dp_buf_cstr(&first),
				     lead, width);
		}
		dp_buf_fail(out, dp_buf_error(&first));
		dp_buf_release(&first);
	}
}

/* The links of @l that lead somewhere, as "label  query" lines; a line too long for the
 * width has the query on the next line. */
static void dp_text_links(struct dp_buf *out, const struct dp_dlink *l, uint32_t n, size_t width)
{
	size_t lw = 0;

	for (uint32_t i = 0; i < n; i++) {
		size_t w = dp_text_width(l[i].label, strlen(l[i].label));

		lw = l[i].href && w > lw ? w : lw;
	}
	for (uint32_t i = 0; i < n; i++) {
		size_t qw;

		if (!l[i].href)
			continue;
		qw = dp_text_width(l[i].href, strlen(l[i].href));
		if (2 + lw + 2 + qw <= width) {
			dp_buf_adds(out, "  ");
			dp_text_cell(out, l[i].label, lw, false);
			dp_buf_adds(out, "  ");
			dp_buf_adds(out, l[i].href);
			dp_text_eol(out);
			continue;
		}
		dp_text_wrap(out, l[i].label, "  ", "  ", width);
		dp_text_wrap(out, l[i].href, "    ", "    ", width);
	}
}

/* A block's heading "@title:" (nothing when @title is NULL). */
static void dp_text_heading(struct dp_buf *out, const char *title, size_t width)
{
	struct dp_buf t;

	if (!title)
		return;
	dp_buf_init(&t, 1 << 16);
	dp_buf_addf(&t, "%s:", title);
	dp_text_wrap(out, dp_buf_cstr(&t), "", "", width);
	dp_buf_fail(out, dp_buf_error(&t));
	dp_buf_release(&t);
}

/* One block. */
static void dp_text_block(struct dp_buf *out, const struct dp_dblock *b, struct dp_tpage *pg)
{
	switch (b->kind) {
	case DP_DB_PARA:
		dp_text_wrap(out, b->text, "", "", pg->width);
		break;
	case DP_DB_NOTE:
		dp_text_wrap(out, b->text, "Note: ", "      ", pg->width);
		break;
	case DP_DB_ERROR:
		dp_text_wrap(out, b->text, "Error: ", "       ", pg->width);
		break;
	case DP_DB_FACTS:
		dp_text_heading(out, b->title, pg->width);
		dp_text_facts(out, b->facts, b->n_facts, pg->width);
		break;
	case DP_DB_LINKS:
	case DP_DB_PAGER:
		dp_text_heading(out, b->title, pg->width);
		dp_text_links(out, b->links, b->n_links, pg->width);
		break;
	case DP_DB_TABLE:
		dp_text_table(out, b, pg);
		break;
	case DP_DB_FLAME:
		dp_text_tree(out, b, pg);
		break;
	}
}

/* The length of the common start of @a and @b, up to and including its last '/'. */
static size_t dp_text_common_dir(const char *a, size_t la, const char *b)
{
	size_t n = 0, dir = 0;

	while (n < la && b[n] && a[n] == b[n]) {
		if (a[n] == '/')
			dir = n + 1;
		n++;
	}
	return dir;
}

/* The directory every where of @d's tables and trees starts with (*@len: 0 = none):
 * the longest common start ending in '/'; only absolute or relative paths of several
 * components count. */
static const char *dp_text_strip(const struct dp_display *d, size_t *len)
{
	const char *first = NULL;
	size_t n = 0;

	for (uint32_t i = 0; i < d->n_blocks; i++) {
		const struct dp_dblock *b = &d->blocks[i];
		uint32_t rows = b->kind == DP_DB_TABLE	 ? b->table.n_rows
				: b->kind == DP_DB_FLAME ? b->flame.n_nodes
							 : 0;

		for (uint32_t r = 0; r < rows; r++) {
			const char *w = b->kind == DP_DB_TABLE ? b->table.rows[r].where
							       : b->flame.nodes[r].where;

			if (!w[0])
				continue;
			if (!first) {
				first = w;
				n = strrchr(w, '/') ? (size_t)(strrchr(w, '/') - w) + 1 : 0;
			} else {
				n = dp_text_common_dir(first, n, w);
			}
			if (n == 0)
				return NULL;
		}
	}
	/* "./" or "/" alone says nothing */
	if (first && n <= 2 && (first[0] == '/' || (first[0] == '.' && n == 2)))
		n = 0;
	*len = n;
	return n ? first : NULL;
}

/* What the page's tables left out, and where its sources are, said once. */
static void dp_text_footnotes(struct dp_buf *out, const struct dp_display *d, struct dp_tpage *pg)
{
	struct dp_buf s;

	dp_buf_init(&s, 1 << 16);
	if (d->legend) {
		dp_buf_addc(out, '\n');
		dp_text_wrap(out, d->legend, "", "     ", pg->width);
	}
	if (pg->strip_len) {
		dp_buf_addf(&s, "Source files are under %.*s.", (int)pg->strip_len, pg->strip);
		dp_text_wrap(out, dp_buf_cstr(&s), "", "  ", pg->width);
		dp_buf_fail(out, dp_buf_error(&s));
		dp_buf_reset(&s);
	}
	if (pg->omitted)
		dp_text_wrap(out,
			     "Exits and Unwinds left out: every row has exits = calls, no unwinds.",
			     "", "", pg->width);
	if (pg->zero.len && strcmp(dp_buf_cstr(&pg->zero), dp_buf_cstr(&pg->narrow)) != 0) {
		dp_buf_addf(&s, "Left out, zero in every row: %s.", dp_buf_cstr(&pg->zero));
		dp_text_wrap(out, dp_buf_cstr(&s), "", "  ", pg->width);
		dp_buf_fail(out, dp_buf_error(&s));
		dp_buf_reset(&s);
	}
	if (pg->narrow.len) {
		dp_buf_addf(&s, "Left out for the width: %s (--width or fields= shows them).",
			    dp_buf_cstr(&pg->narrow));
		dp_text_wrap(out, dp_buf_cstr(&s), "", "  ", pg->width);
	}
	dp_buf_fail(out, dp_buf_error(&s));
	dp_buf_fail(out, dp_buf_error(&pg->zero));
	dp_buf_fail(out, dp_buf_error(&pg->narrow));
	dp_buf_release(&s);
}

int dp_render_text(const struct dp_display *d, const struct dp_render_opts *o, struct dp_buf *out)
{
	struct dp_tpage pg = {.width = o && o->width ? o->width : 100,
			      .fields_default = d->fields_default};
	const char *title = d->text_title ? d->text_title : d->title;
	struct dp_buf t;
	size_t tl;

	if (pg.width < 40)
		pg.width = 40;
	pg.strip = dp_text_strip(d, &pg.strip_len);
	dp_buf_init(&pg.zero, 1 << 12);
	dp_buf_init(&pg.narrow, 1 << 12);
	dp_buf_init(&t, 1 << 16);
	if (o && o->title)
		dp_buf_addf(&t, "%s: ", o->title);
	dp_buf_adds(&t, title);
	dp_text_wrap(out, dp_buf_cstr(&t), "", "", pg.width);
	tl = dp_text_width(dp_buf_cstr(&t), t.len);
	for (size_t i = 0; i < tl && i < pg.width; i++)
		dp_buf_addc(out, '=');
	dp_buf_addc(out, '\n');
	dp_buf_fail(out, dp_buf_error(&t));
	dp_buf_release(&t);
	for (uint32_t i = 0; i < d->n_blocks; i++) {
		dp_buf_addc(out, '\n');
		dp_text_block(out, &d->blocks[i], &pg);
	}
	if (d->n_nav > d->n_nav_general) {
		dp_buf_adds(out, "\nSee also:\n");
		dp_text_links(out, d->nav + d->n_nav_general, d->n_nav - d->n_nav_general,
			      pg.width);
	}
	dp_text_footnotes(out, d, &pg);
	dp_buf_release(&pg.zero);
	dp_buf_release(&pg.narrow);
	return dp_buf_error(out);
}
