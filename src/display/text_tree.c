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

void dp_text_tree(struct dp_buf *out, const struct dp_dblock *b, size_t width)
{
	const struct dp_dflame *f = &b->flame;
	struct dp_tree_w W = { 5, 4, strlen(f->metric), 5 };
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
		size_t g, where = n->where[0] ? 2 + dp_text_width(n->where, strlen(n->where)) : 0;
		size_t avail;

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
		avail = width > lead + g + where + DP_TREE_MIN_NAME ? width - lead - g - where
								    : DP_TREE_MIN_NAME;
		dp_shorten_name(&tmp, n->name, avail);
		dp_buf_adds(out, dp_buf_cstr(&tmp));
		if (n->flags & DP_ROW_RECURSIVE)
			dp_buf_adds(out, " (rec)");
		if (n->where[0]) {
			dp_buf_adds(out, "  ");
			dp_buf_adds(out, n->where);
		}
		dp_buf_addc(out, '\n');
	}
	dp_buf_release(&tmp);
	free(anc_last);
}
