/*
 * display/text_tree.c - the flame page as text (`deepprof tree`): one line per node of
 * the calling-context tree, in preorder, with total %, self %, the total of the metric,
 * calls (compared with a base: the change of its self value), then the name under ASCII
 * guides ("|-- ", "`-- ") and its file:line, fitted to the width (deep guides shortened,
 * the where cut before the name).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "text_int.h"

#define DP_TREE_MIN_NAME 16

/* Column widths of the numbers. */
struct dp_tree_w {
	size_t tot, self, val, calls, chg; /* chg: the change of self (compared), else 0 */
};

static size_t dp_max(size_t a, const char *s)
{
	size_t w = dp_text_width(s, strlen(s));

	return w > a ? w : a;
}

/* @s right-aligned in @w columns, then two spaces if @gap. */
static void dp_tree_right(struct dp_buf *out, const char *s, size_t w, bool gap)
{
	size_t len = strlen(s), sw = dp_text_width(s, len), pad = sw < w ? w - sw : 0;
	char *p = dp_buf_room(out, pad + len + 2);

	if (!p)
		return;
	memset(p, ' ', pad);
	memcpy(p + pad, s, len);
	p += pad + len;
	if (gap) {
		*p++ = ' ';
		*p++ = ' ';
	}
	dp_buf_commit(out, p);
}

/* The guides of node @n in at most @room columns: @anc_last[k] says whether the ancestor
 * at depth k was last; a node too deep for them all gets "[DEPTH] " and the last ones. */
static size_t dp_tree_guides(struct dp_buf *out, const struct dp_dflame_node *n,
			     const bool *anc_last, size_t room)
{
	uint32_t from = 1, levels = n->depth;
	size_t w = 4 * (size_t)levels;
	char num[16];
	char *p;

	if (w > room && levels > 1) {
		size_t nl = (size_t)snprintf(num, sizeof(num), "[%u] ", n->depth);
		uint32_t fit = room > nl + 4 ? (uint32_t)((room - nl) / 4) : 1;

		from = n->depth - fit + 1; /* guides of levels from..depth */
		dp_buf_add(out, num, nl);
		w = nl + 4 * (size_t)fit;
	}
	p = dp_buf_room(out, 4 * (size_t)levels);
	if (!p)
		return w;
	for (uint32_t k = from; k < n->depth; k++, p += 4)
		memcpy(p, anc_last[k] ? "    " : "|   ", 4);
	if (n->depth) {
		memcpy(p, n->last ? "`-- " : "|-- ", 4);
		p += 4;
	}
	dp_buf_commit(out, p);
	return w;
}

/* The where of a node cut at the left to @w columns ("...flate.c:1057"; nothing when
 * @w is under 4). */
static void dp_tree_where(struct dp_buf *out, const char *s, size_t w)
{
	size_t len = strlen(s), sw = dp_text_width(s, len);

	if (sw > w) {
		if (w < 4)
			return;
		while (*s && sw > w - 3) {
			if (((unsigned char)*s & 0xC0u) != 0x80u)
				sw--;
			s++;
		}
		while (((unsigned char)*s & 0xC0u) == 0x80u)
			s++;
		dp_buf_adds(out, "...");
	}
	dp_buf_adds(out, s);
}

/* Name, marker and where of node @n in @avail columns: the where first cut to its file
 * name, then the name shortened (to 16 columns at least), the where keeping 12 columns
 * as long as the name can give them, then cut further or left out. */
static void dp_tree_label(struct dp_buf *out, struct dp_buf *tmp, const struct dp_dflame_node *n,
			  const char *where, size_t avail)
{
	size_t nw = dp_text_width(n->name, strlen(n->name));
	const char *marker = dp_text_marker(n->flags), *slash = strrchr(where, '/');
	size_t mark = strlen(marker), ww = dp_text_width(where, strlen(where));
	size_t wmin = slash ? dp_text_width(slash + 1, strlen(slash + 1)) : ww, nb, used;

	if (nw + mark + (ww ? 2 + ww : 0) <= avail) { /* all of it */
		dp_buf_adds(out, n->name);
		dp_buf_add(out, marker, mark);
		if (ww) {
			dp_buf_adds(out, "  ");
			dp_buf_adds(out, where);
		}
		dp_text_eol(out);
		return;
	}
	used = mark + (ww ? 2 + (wmin < 12 ? wmin : 12) : 0);
	if (ww && nw + mark + 2 + wmin <= avail) /* the file name fits beside the name */
		used = mark + 2 + wmin;
	nb = avail > used + DP_TREE_MIN_NAME ? avail - used : DP_TREE_MIN_NAME;
	nb = nb + mark <= avail ? nb : (avail > mark + 4 ? avail - mark : 4);
	if (nb >= nw) {
		dp_buf_adds(out, n->name);
	} else {
		dp_shorten_name(tmp, n->name, nb);
		dp_buf_add(out, tmp->data, tmp->len);
		nw = dp_text_width(dp_buf_cstr(tmp), tmp->len);
	}
	dp_buf_add(out, marker, mark);
	used = nw + mark + 2;
	if (ww && avail >= used + (wmin < 8 ? wmin : 8)) { /* else the where is left out */
		dp_buf_adds(out, "  ");
		dp_tree_where(out, where, avail - used);
	}
	dp_text_eol(out);
}

void dp_text_tree(struct dp_buf *out, const struct dp_dblock *b, const struct dp_tpage *pg)
{
	const struct dp_dflame *f = &b->flame;
	struct dp_tree_w W = {5, 4, strlen(f->metric), 5, f->cmp ? 6 : 0};
	size_t width = pg->width;
	struct dp_buf tmp;
	bool *anc_last;
	size_t lead;

	if (b->title)
		dp_buf_addf(out, "%s:\n", b->title);
	if (!f->n_nodes) {
		dp_buf_adds(out, "  (empty)\n");
		return;
	}
	anc_last = calloc((size_t)f->max_depth + 2, sizeof(*anc_last));
	if (!anc_last) {
		out->err = dp_error(DP_ENOMEM, "out of memory rendering a tree");
		return;
	}
	for (uint32_t i = 0; i < f->n_nodes; i++) {
		W.tot = dp_max(W.tot, f->nodes[i].total_pct);
		W.self = dp_max(W.self, f->nodes[i].self_pct);
		W.val = dp_max(W.val, f->nodes[i].total);
		W.calls = dp_max(W.calls, f->nodes[i].calls);
		if (f->cmp)
			W.chg = dp_max(W.chg, f->cmp[i].self_change);
	}
	lead = W.tot + 2 + W.self + 2 + W.val + 2 + W.calls + 2 + (W.chg ? W.chg + 2 : 0);
	dp_tree_right(out, "Total", W.tot, true);
	dp_tree_right(out, "Self", W.self, true);
	dp_tree_right(out, f->metric, W.val, true);
	dp_tree_right(out, "Calls", W.calls, W.chg != 0);
	if (W.chg) /* compared with a base: the change of each node's self value */
		dp_tree_right(out, "Change", W.chg, false);
	dp_buf_adds(out, f->inverted ? "  Procedure <- callers\n" : "  Call tree\n");
	dp_buf_hint(out, (size_t)f->n_nodes * (lead + 64)); /* about what a line takes */
	dp_buf_init(&tmp, 1 << 16);
	for (uint32_t i = 0; i < f->n_nodes; i++) {
		const struct dp_dflame_node *n = &f->nodes[i];
		const char *where = n->where;
		size_t g, avail, room;

		if (pg->strip_len && !strncmp(where, pg->strip, pg->strip_len))
			where += pg->strip_len;
		anc_last[n->depth] = n->last;
		dp_tree_right(out, n->total_pct, W.tot, true);
		dp_tree_right(out, n->self_pct, W.self, true);
		dp_tree_right(out, n->total, W.val, true);
		dp_tree_right(out, n->calls, W.calls, true);
		if (W.chg)
			dp_tree_right(out, f->cmp[i].self_change, W.chg, true);
		/* the guides leave the name its 16 columns */
		room = width > lead + DP_TREE_MIN_NAME + 8 ? width - lead - DP_TREE_MIN_NAME : 8;
		g = dp_tree_guides(out, n, anc_last, room);
		avail = width > lead + g + 4 ? width - lead - g : 4;
		dp_tree_label(out, &tmp, n, where, avail);
	}
	dp_buf_release(&tmp);
	free(anc_last);
}
