/*
 * display/text_tree.c - the flame page as text (`deepprof tree`): one line per node of
 * the calling-context tree, in preorder, with total %, self %, the total of the metric,
 * calls, then the name under ASCII guides ("|-- ", "`-- ") and its file:line.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "text_int.h"

#define DP_TREE_MIN_NAME 16

/* Column widths of the numbers. */
struct dp_tree_w {
	size_t tot, self, val, calls;
};

static size_t dp_max(size_t a, const char *s)
{
	size_t w = dp_text_width(s, strlen(s));

	return w > a ? w : a;
}

static void dp_tree_right(struct dp_buf *out, const char *s, size_t w)
{
	size_t sw = dp_text_width(s, strlen(s));

	dp_text_pad(out, sw < w ? w - sw : 0);
	dp_buf_adds(out, s);
}

/* The guides of node @n: @anc_last[k] says whether the ancestor at depth k was last. */
static size_t dp_tree_guides(struct dp_buf *out, const struct dp_dflame_node *n,
			     const bool *anc_last)
{
	size_t w = 0;

	for (uint32_t k = 1; k < n->depth; k++, w += 4)
		dp_buf_adds(out, anc_last[k] ? "    " : "|   ");
	if (n->depth) {
		dp_buf_adds(out, n->last ? "`-- " : "|-- ");
		w += 4;
	}
	return w;
}

/* The where of a node cut at the left to @w columns ("...flate.c:1057"). */
static void dp_tree_where(struct dp_buf *out, const char *s, size_t w)
{
	size_t len = strlen(s), sw = dp_text_width(s, len);

	if (sw > w) {
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

/* Name, marker and where of node @n in @avail columns: the name first (at least 16
 * columns of it), then the where cut at the left to what is left (at least 20 columns
 * of it, or all of a shorter one; a deep node may pass the width). */
static void dp_tree_label(struct dp_buf *out, struct dp_buf *tmp, const struct dp_dflame_node *n,
			  size_t avail)
{
	size_t nw = dp_text_width(n->name, strlen(n->name));
	const char *marker = dp_text_marker(n->flags);
	size_t mark = strlen(marker);
	size_t ww = dp_text_width(n->where, strlen(n->where));
	size_t wmin = ww < 20 ? ww : 20, used, nb;

	used = mark + (ww ? 2 + wmin : 0);
	nb = avail > used + DP_TREE_MIN_NAME ? avail - used : DP_TREE_MIN_NAME;
	dp_shorten_name(tmp, n->name, nb < nw ? nb : nw);
	dp_buf_adds(out, dp_buf_cstr(tmp));
	dp_buf_adds(out, marker);
	if (ww) {
		used = dp_text_width(dp_buf_cstr(tmp), tmp->len) + mark + 2;
		dp_buf_adds(out, "  ");
		dp_tree_where(out, n->where, avail > used + wmin ? avail - used : wmin);
	}
	dp_buf_addc(out, '\n');
}

void dp_text_tree(struct dp_buf *out, const struct dp_dblock *b, size_t width)
{
	const struct dp_dflame *f = &b->flame;
	struct dp_tree_w W = {5, 4, strlen(f->metric), 5};
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
	}
	lead = W.tot + 2 + W.self + 2 + W.val + 2 + W.calls + 2;
	dp_tree_right(out, "Total", W.tot);
	dp_buf_adds(out, "  ");
	dp_tree_right(out, "Self", W.self);
	dp_buf_adds(out, "  ");
	dp_tree_right(out, f->metric, W.val);
	dp_buf_adds(out, "  ");
	dp_tree_right(out, "Calls", W.calls);
	dp_buf_adds(out, f->inverted ? "  Procedure <- callers\n" : "  Call tree\n");
	dp_buf_init(&tmp, 1 << 16);
	for (uint32_t i = 0; i < f->n_nodes; i++) {
		const struct dp_dflame_node *n = &f->nodes[i];
		size_t g, avail;

		anc_last[n->depth] = n->last;
		dp_tree_right(out, n->total_pct, W.tot);
		dp_buf_adds(out, "  ");
		dp_tree_right(out, n->self_pct, W.self);
		dp_buf_adds(out, "  ");
		dp_tree_right(out, n->total, W.val);
		dp_buf_adds(out, "  ");
		dp_tree_right(out, n->calls, W.calls);
		dp_buf_adds(out, "  ");
		g = dp_tree_guides(out, n, anc_last);
		avail = width > lead + g + DP_TREE_MIN_NAME ? width - lead - g : DP_TREE_MIN_NAME;
		dp_tree_label(out, &tmp, n, avail);
	}
	dp_buf_release(&tmp);
	free(anc_last);
}
