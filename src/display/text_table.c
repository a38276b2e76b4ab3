/*
 * display/text_table.c - a cost table as text, fitted to the page's width: Id, the name
 * (indented, shortened), the numbers right-aligned under group headings, the where (the
 * page's common source directory stripped). To fit, in order: column groups that are
 * zero in every row are left out; the where is cut to its file name; names are
 * shortened; with the default fields, the last column groups are left out (the page says
 * which); otherwise each row takes two or more lines: the name and where, then the
 * numbers in bands of whole groups. No line is longer than the width (but in a table
 * narrower than any of its cells, which a width of 40 or more never makes).
 */
#include <stdio.h>
#include <string.h>

#include "../core/err.h"
#include "text_int.h"

#define DP_TEXT_MIN_NAME  24 /* narrowest name column before columns go or rows wrap */
#define DP_TEXT_MAX_COLS  64
#define DP_TEXT_MAX_BANDS 16

/* Widths of a table's columns and which layout it gets. */
struct dp_tlayout {
	size_t id_w, name_w, where_w, nums_w, width, natural, where_min, where_full;
	uint32_t n_show;		      /* numeric columns shown */
	uint32_t show[DP_TEXT_MAX_COLS];      /* their indexes in the row's num[] */
	size_t gap[DP_TEXT_MAX_COLS];	      /* spaces before each: 1 in a group, 2 across */
	size_t num_w[DP_TEXT_MAX_COLS];	      /* width of each */
	bool omitted;			      /* exits and unwinds left out */
	bool two_lines;			      /* the name line, then the numbers in bands */
	uint32_t n_bands;		      /* two_lines: bands of numbers, each a line */
	uint32_t band[DP_TEXT_MAX_BANDS + 1]; /* band b: show[band[b]..band[b + 1]) */
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

/* Whether numeric column @i holds a count of its own (not a share or a per-call value,
 * which are zero when the count is). */
static bool dp_text_counted(const struct dp_dtable *t, uint32_t i)
{
	const char *l = t->cols[2 + i].label;
	size_t n = strlen(l);

	return strcmp(l, "%") != 0 && (n < 5 || strcmp(l + n - 5, "/call") != 0);
}

/* Whether the group of numeric columns [@a, @b) is zero in every row. */
static bool dp_text_zero_group(const struct dp_dtable *t, uint32_t a, uint32_t b)
{
	for (uint32_t r = 0; r < t->n_rows; r++)
		for (uint32_t i = a; i < b; i++)
			if (dp_text_counted(t, i) && t->rows[r].num[i].raw != 0)
				return false;
	return true;
}

/* Add @name to the page's list @list (", "-separated, once). */
static void dp_text_note_group(struct dp_buf *list, const char *name)
{
	const char *s = dp_buf_cstr(list);
	size_t n = strlen(name);

	for (const char *p = s; (p = strstr(p, name)) != NULL; p += n)
		if ((p == s || p[-1] == ' ') && (p[n] == ',' || p[n] == 0))
			return;
	if (list->len)
		dp_buf_adds(list, ", ");
	dp_buf_adds(list, name);
}

/* The end of the group of numeric columns starting at @i. */
static uint32_t dp_text_group_end(const struct dp_dtable *t, uint32_t i)
{
	const char *g = t->cols[2 + i].group;
	uint32_t j = i + 1;

	while (j < t->n_num && g && t->cols[2 + j].group && !strcmp(g, t->cols[2 + j].group))
		j++;
	return j;
}

/* The rank of the group starting at numeric column @i among the live groups of @t, in
 * the order they are kept when the width forces some out: the first group of costs,
 * the compare columns, the ports, then the others as they come. */
static uint32_t dp_text_group_rank(const struct dp_dtable *t, uint32_t i)
{
	uint32_t first[3] = {UINT32_MAX, UINT32_MAX, UINT32_MAX}; /* cost, compare, ports */
	uint32_t rank = 0, n_first = 0;

	for (uint32_t k = 0, end; k < t->n_num; k = end) {
		end = dp_text_group_end(t, k);
		if (t->n_rows && dp_text_zero_group(t, k, end))
			continue;
		if (t->cols[2 + k].cmp)
			first[1] = k;
		else if (t->cols[2 + k].port)
			first[2] = k;
		else if (first[0] == UINT32_MAX)
			first[0] = k;
	}
	for (int f = 0; f < 3; f++) {
		if (first[f] == UINT32_MAX)
			continue;
		if (i == first[f])
			return n_first;
		n_first++;
	}
	for (uint32_t k = 0, end; k < i; k = end) {
		end = dp_text_group_end(t, k);
		if (!(t->n_rows && dp_text_zero_group(t, k, end)) && k != first[0] &&
		    k != first[1] && k != first[2])
			rank++;
	}
	return rank + n_first;
}

/* Which numeric columns are shown (the @max_groups groups of lowest rank), with their
 * gaps; @note: the groups left out are noted on the page. */
static void dp_text_choose(const struct dp_dtable *t, struct dp_tpage *pg, uint32_t max_groups,
			   struct dp_tlayout *L, bool note)
{
	uint32_t calls = UINT32_MAX, exits = UINT32_MAX, unw = UINT32_MAX;

	L->n_show = 0;
	for (uint32_t i = 0; i < t->n_num; i++) {
		int port = t->cols[2 + i].port;

		calls = port == 1 ? i : calls;
		exits = port == 2 ? i : exits;
		unw = port == 3 ? i : unw;
	}
	L->omitted = calls != UINT32_MAX && exits != UINT32_MAX && unw != UINT32_MAX &&
		     dp_text_ports_plain(t, calls, exits, unw);
	for (uint32_t i = 0, end; i < t->n_num; i = end) {
		const char *g = t->cols[2 + i].group ? t->cols[2 + i].group : "";

		end = dp_text_group_end(t, i);
		if (t->n_rows && dp_text_zero_group(t, i, end)) {
			if (note)
				dp_text_note_group(&pg->zero, g);
			continue;
		}
		if (dp_text_group_rank(t, i) >= max_groups) {
			if (note)
				dp_text_note_group(&pg->narrow, g);
			continue;
		}
		for (uint32_t k = i; k < end && L->n_show < DP_TEXT_MAX_COLS; k++) {
			uint32_t s = L->n_show;

			if (L->omitted && (k == exits || k == unw))
				continue;
			L->gap[s] = s && k > i ? 1 : 2;
			L->show[s] = k;
			L->n_show++;
		}
	}
}

/* The groups of @t that are not zero in every row. */
static uint32_t dp_text_live_groups(const struct dp_dtable *t)
{
	uint32_t n = 0;

	for (uint32_t i = 0, end; i < t->n_num; i = end) {
		end = dp_text_group_end(t, i);
		n += !(t->n_rows && dp_text_zero_group(t, i, end));
	}
	return n;
}

/* The part of where @s the page shows: without the common source directory. */
static const char *dp_text_where_of(const struct dp_tpage *pg, const char *s)
{
	if (pg->strip_len && !strncmp(s, pg->strip, pg->strip_len))
		return s + pg->strip_len;
	return s;
}

/* The width of the file name and line of where @s ("deflate.c:1278"). */
static size_t dp_text_where_base(const char *s)
{
	const char *slash = strrchr(s, '/');

	return dp_text_width(slash ? slash + 1 : s, strlen(slash ? slash + 1 : s));
}

/* Name width of row @r as shown: indent, name, marker. */
static size_t dp_text_namew(const struct dp_drow *r)
{
	size_t w = 2 * (size_t)r->depth + dp_text_width(r->name, strlen(r->name));

	return w + strlen(dp_text_marker(r->flags));
}

/* The widths of the id, name, where and numeric columns (from the cells). */
static void dp_text_widths(const struct dp_dtable *t, const struct dp_tpage *pg,
			   struct dp_tlayout *L)
{
	L->natural = 4;
	L->id_w = L->where_full = L->where_min = 0;
	for (uint32_t k = 0; k < L->n_show; k++) {
		const char *l = t->cols[2 + L->show[k]].label;

		L->num_w[k] = dp_text_width(l, strlen(l));
	}
	for (uint32_t r = 0; r < t->n_rows; r++) {
		const struct dp_drow *row = &t->rows[r];
		const char *where = dp_text_where_of(pg, row->where);
		size_t w = strlen(row->ref);

		L->id_w = w > L->id_w ? w : L->id_w;
		w = dp_text_namew(row);
		L->natural = w > L->natural ? w : L->natural;
		w = dp_text_width(where, strlen(where));
		L->where_full = w > L->where_full ? w : L->where_full;
		w = dp_text_where_base(where);
		L->where_min = w > L->where_min ? w : L->where_min;
		for (uint32_t k = 0; k < L->n_show; k++) {
			w = row->num[L->show[k]].len; /* ASCII */
			L->num_w[k] = w > L->num_w[k] ? w : L->num_w[k];
		}
	}
	if (L->id_w)
		L->id_w = L->id_w < 2 ? 2 : L->id_w;
	if (L->where_full) {
		L->where_full = L->where_full < 5 ? 5 : L->where_full;
		L->where_min = L->where_min < 5 ? 5 : L->where_min;
	}
	/* a group as wide as its heading: its first column wider */
	for (uint32_t k = 0, j; k < L->n_show; k = j) {
		const char *g = t->cols[2 + L->show[k]].group;
		size_t span = L->num_w[k], gl = g ? strlen(g) : 0;

		for (j = k + 1; j < L->n_show && L->gap[j] == 1; j++)
			span += 1 + L->num_w[j];
		if (gl > span)
			L->num_w[k] += gl - span;
	}
	L->nums_w = 0;
	for (uint32_t k = 0; k < L->n_show; k++)
		L->nums_w += L->gap[k] + L->num_w[k];
}

/* Whether the table fits on one line a row: then name_w and where_w are set. */
static bool dp_text_one_line(struct dp_tlayout *L)
{
	size_t W = L->width, fixed = (L->id_w ? L->id_w + 2 : 0) + L->nums_w;
	size_t where = L->where_full ? L->where_full + 2 : 0, need;

	if (fixed + where + L->natural <= W) {
		L->name_w = L->natural;
		L->where_w = L->where_full;
		return true;
	}
	/* paths before names: the where down to its file name, then the names */
	if (L->where_full) {
		size_t room = W > fixed + 2 + L->natural ? W - fixed - 2 - L->natural : 0;

		L->where_w = room > L->where_min ? room : L->where_min;
		L->where_w = L->where_w < L->where_full ? L->where_w : L->where_full;
		where = L->where_w + 2;
	}
	need = L->natural < DP_TEXT_MIN_NAME ? L->natural : DP_TEXT_MIN_NAME;
	if (fixed + where + need > W)
		return false;
	L->name_w = W - fixed - where < L->natural ? W - fixed - where : L->natural;
	return true;
}

/* Bands of whole groups of the numbers, each fitting in the width after the Id column
 * (a group wider than that alone is cut between its columns). */
static void dp_text_bands(struct dp_tlayout *L)
{
	size_t room = L->width > L->id_w + 8 ? L->width - L->id_w : 8, used = 0;

	L->n_bands = 0;
	L->band[0] = 0;
	for (uint32_t k = 0, end; k < L->n_show; k = end) {
		size_t gw = 2 + L->num_w[k];

		for (end = k + 1; end < L->n_show && L->gap[end] == 1; end++)
			gw += 1 + L->num_w[end];
		if (used && used + gw > room && L->n_bands + 1 < DP_TEXT_MAX_BANDS) {
			L->band[++L->n_bands] = k; /* the group starts a band of its own */
			used = 0;
		}
		for (uint32_t j = k; j < end; j++) {
			size_t w = (used ? L->gap[j] : 2) + L->num_w[j];

			if (used && used + w > room && L->n_bands + 1 < DP_TEXT_MAX_BANDS) {
				L->band[++L->n_bands] = j; /* alone too wide: cut inside it */
				used = 0;
				w = 2 + L->num_w[j];
			}
			used += w;
		}
	}
	L->band[++L->n_bands] = L->n_show;
}

/* Lay table @t out for the page: columns, widths, one line or bands. */
static void dp_text_layout(const struct dp_dtable *t, struct dp_tpage *pg, struct dp_tlayout *L)
{
	uint32_t keep = dp_text_live_groups(t);

	memset(L, 0, sizeof(*L));
	L->width = pg->width;
	for (;;) {
		dp_text_choose(t, pg, keep, L, false);
		dp_text_widths(t, pg, L);
		if (dp_text_one_line(L))
			break;
		if (!pg->fields_default || keep <= 1) {
			L->two_lines = true;
			L->name_w = L->natural;
			L->where_w = L->where_full;
			dp_text_bands(L);
			break;
		}
		keep--; /* the default fields: the last group goes rather than rows wrap */
	}
	dp_text_choose(t, pg, keep, L, true); /* the same columns, noted on the page */
}

/* The where @s cut at the left to @w columns ("...e/file.c:12"). */
static void dp_text_where(struct dp_buf *out, const char *s, size_t w)
{
	size_t len = strlen(s), sw = dp_text_width(s, len);

	const char *slash = strrchr(s, '/');

	if (sw <= w) {
		dp_buf_adds(out, s);
		return;
	}
	if (slash && dp_text_width(slash + 1, strlen(slash + 1)) <= w &&
	    dp_text_width(slash + 1, strlen(slash + 1)) + 3 > w) {
		dp_buf_adds(out, slash + 1); /* the file name whole, rather than "..." and less */
		return;
	}
	if (w < 4) {
		dp_buf_adds(out, "...");
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

/* Append @s (padded to @width, right-aligned if @right). */
static void dp_text_cell(struct dp_buf *out, const char *s, size_t width, bool right)
{
	size_t w = dp_text_width(s, strlen(s));

	if (right && w < width)
		dp_text_pad(out, width - w);
	dp_buf_adds(out, s);
	if (!right && w < width)
		dp_text_pad(out, width - w);
}

/*
 * dp_text_path - call path @path ("a > b > ... > d > e") fitted in @w columns into @out:
 * whole names dropped from the middle out ("a > ... > e", then "... > e"), the first and
 * the last kept longest; the last name shortened as names are when even it is too wide.
 */
static void dp_text_path(struct dp_buf *out, const char *path, size_t w)
{
	const char *first_end = strstr(path, " > "), *last = strrchr(path, '>');
	size_t pw = dp_text_width(path, strlen(path));

	dp_buf_reset(out);
	if (pw <= w || !first_end || !last) {
		dp_buf_fail(out, dp_shorten_name(out, path, w));
		return;
	}
	last += 2; /* the last name */
	/* "a > ... > LAST": the first name, then ever fewer of the last ones */
	for (const char *tail = first_end + 3; tail <= last;) {
		const char *next = strstr(tail, " > ");
		size_t want = (size_t)(first_end - path) + 9 + dp_text_width(tail, strlen(tail));

		if (strncmp(tail, "... > ", 6) != 0 && want <= w) {
			dp_buf_add(out, path, (size_t)(first_end - path));
			dp_buf_adds(out, " > ... > ");
			dp_buf_adds(out, tail);
			return;
		}
		if (!next)
			break;
		tail = next + 3;
	}
	if (dp_text_width(last, strlen(last)) + 6 <= w) {
		dp_buf_adds(out, "... > ");
		dp_buf_adds(out, last);
		return;
	}
	dp_buf_fail(out, dp_shorten_name(out, last, w));
}

/* The name cell: indentation, the name shortened to fit @w, marker; pads to @w if @pad.
 * Return: the columns it took. */
static size_t dp_text_name(struct dp_buf *out, struct dp_buf *tmp, const struct dp_drow *r,
			   size_t w, bool pad)
{
	const char *marker = dp_text_marker(r->flags);
	size_t ind = 2 * (size_t)r->depth, mark = strlen(marker), avail, used;

	if (ind > w / 2)
		ind = w / 2;
	avail = w > ind + mark + 4 ? w - ind - mark : 4;
	dp_text_pad(out, ind);
	if (r->title) { /* a call path: whole names go first */
		dp_text_path(tmp, r->name, avail);
		dp_buf_fail(out, dp_buf_error(tmp));
	} else
		dp_buf_fail(out, dp_shorten_name(tmp, r->name, avail));
	dp_buf_adds(out, dp_buf_cstr(tmp));
	dp_buf_adds(out, marker);
	used = ind + dp_text_width(dp_buf_cstr(tmp), tmp->len) + mark;
	if (pad && used < w) {
		dp_text_pad(out, w - used);
		used = w;
	}
	return used;
}

/* The numbers [@a, @b) of the shown columns of @row (or the labels if @row is NULL). */
static void dp_text_nums(struct dp_buf *out, const struct dp_dtable *t, const struct dp_tlayout *L,
			 const struct dp_drow *row, uint32_t a, uint32_t b)
{
	for (uint32_t k = a; k < b; k++) {
		uint32_t i = L->show[k];
		const char *s = row ? row->num[i].text : t->cols[2 + i].label;
		size_t w = row ? row->num[i].len : dp_text_width(s, strlen(s));
		size_t gap = k == a && a > 0 ? 2 : L->gap[k];

		dp_text_pad(out, gap + (w < L->num_w[k] ? L->num_w[k] - w : 0));
		dp_buf_add(out, s, row ? w : strlen(s));
	}
}

/* The line of group headings over the numbers [@a, @b) ("ports----- time------"). */
static void dp_text_groups(struct dp_buf *out, const struct dp_dtable *t,
			   const struct dp_tlayout *L, size_t lead, uint32_t a, uint32_t b)
{
	dp_text_pad(out, lead);
	for (uint32_t k = a; k < b;) {
		const char *g = t->cols[2 + L->show[k]].group;
		size_t span = L->num_w[k], gl;
		uint32_t j = k + 1;

		g = g ? g : "";
		gl = strlen(g);
		dp_text_pad(out, k == a && a > 0 ? 2 : L->gap[k]);
		while (j < b && L->gap[j] == 1)
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
		dp_text_groups(out, t, L, lead, 0, L->n_show);
	if (L->id_w) {
		dp_text_cell(out, "Id", L->id_w, false);
		dp_buf_adds(out, "  ");
	}
	dp_text_cell(out, "Name", L->two_lines ? 4 : L->name_w, false);
	if (!L->two_lines) {
		dp_text_nums(out, t, L, NULL, 0, L->n_show);
		if (L->where_w)
			dp_buf_adds(out, "  Where");
		dp_text_eol(out);
		return;
	}
	if (L->where_w)
		dp_buf_adds(out, "  Where");
	dp_text_eol(out);
	for (uint32_t b = 0; b < L->n_bands; b++) {
		dp_text_groups(out, t, L, L->id_w, L->band[b], L->band[b + 1]);
		dp_text_pad(out, L->id_w);
		dp_text_nums(out, t, L, NULL, L->band[b], L->band[b + 1]);
		dp_text_eol(out);
	}
}

static void dp_text_row(struct dp_buf *out, struct dp_buf *tmp, const struct dp_tlayout *L,
			const struct dp_dtable *t, const struct dp_drow *r,
			const struct dp_tpage *pg)
{
	const char *where = dp_text_where_of(pg, r->where);
	size_t id = L->id_w ? L->id_w + 2 : 0;

	if (L->id_w) {
		dp_text_cell(out, r->ref, L->id_w, false);
		dp_buf_adds(out, "  ");
	}
	if (L->two_lines) {
		size_t ww = dp_text_width(where, strlen(where)), room = L->width - id, nw, used;

		/* the where gets at least its file name or a third of the line */
		if (ww + 2 + DP_TEXT_MIN_NAME > room) {
			size_t least = dp_text_where_base(where);

			least = least < room / 3 ? room / 3 : least;
			ww = ww < least ? ww : least;
		}
		nw = where[0] && room > ww + 2 + 8 ? room - ww - 2 : room;
		used = dp_text_name(out, tmp, r, nw, false);
		if (where[0] && used + 2 < room) {
			dp_buf_adds(out, "  ");
			dp_text_where(out, where, room - used - 2);
		}
		dp_text_eol(out);
		for (uint32_t b = 0; b < L->n_bands; b++) {
			dp_text_pad(out, L->id_w);
			dp_text_nums(out, t, L, r, L->band[b], L->band[b + 1]);
			dp_text_eol(out);
		}
		return;
	}
	dp_text_name(out, tmp, r, L->name_w, true);
	dp_text_nums(out, t, L, r, 0, L->n_show);
	if (L->where_w && where[0]) {
		dp_buf_adds(out, "  ");
		dp_text_where(out, where, L->where_w);
	}
	dp_text_eol(out);
}

void dp_text_table(struct dp_buf *out, const struct dp_dblock *b, struct dp_tpage *pg)
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
		dp_text_layout(t, pg, &L);
		dp_text_header(out, t, &L);
		for (uint32_t i = 0; i < t->n_rows; i++)
			dp_text_row(out, &tmp, &L, t, &t->rows[i], pg);
		dp_buf_fail(out, dp_buf_error(&tmp));
		dp_buf_release(&tmp);
		pg->omitted = pg->omitted || L.omitted;
	}
	if (t->n_hidden) {
		struct dp_buf s;

		dp_buf_init(&s, 1 << 16);
		dp_buf_addf(&s, "(%u inactive rows hidden; to show them: %s)", t->n_hidden,
			    t->show_href ? t->show_href : "inactive=sss");
		dp_text_wrap(out, dp_buf_cstr(&s), "  ", "    ", pg->width);
		dp_buf_fail(out, dp_buf_error(&s));
		dp_buf_release(&s);
	}
}
