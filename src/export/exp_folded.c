/*
 * export/exp_folded.c - folded stacks ("root;caller;callee VALUE" per line, root first),
 * the input of flamegraph.pl, inferno and speedscope: one line per calling context with
 * a non-zero value of the chosen metric, so every context keeps its own cost.
 */
#include <stdlib.h>

#include "../core/err.h"
#include "export_int.h"

/* Append frame name @s with the bytes folded stacks cannot hold (';', line ends)
 * replaced by '_'. */
static void folded_frame(struct dp_buf *b, const char *s)
{
	for (; *s; s++)
		dp_buf_addc(b, (uint8_t)(*s == ';' || *s == '\n' || *s == '\r' ? '_' : *s));
}

int dp_exp_folded(const struct dp_exp_tree *t, const struct dp_export_opts *o,
		  struct dp_exp_out *out)
{
	enum dp_metric m = o->has_metric ? o->metric : dp_exp_default_metric(t);
	size_t *len_at = malloc(((size_t)t->max_depth + 1) * sizeof(size_t));
	struct dp_buf path;
	char name[256];
	int rc = 0;

	if (!len_at)
		return dp_error(DP_ENOMEM, "out of memory exporting folded stacks");
	dp_buf_init(&path, (size_t)1 << 30);
	for (uint32_t i = 0; i < t->n && rc == 0; i++) {
		uint32_t d = t->depth[i];
		struct dp_costs own = dp_exp_own(t, i);
		uint64_t v = dp_exp_value(t->p, &own, m);

		/* preorder: the path of the parent is the prefix kept for depth d - 1 */
		path.len = d ? len_at[d - 1] : 0;
		if (d)
			dp_buf_addc(&path, ';');
		folded_frame(&path, dp_exp_name(t, t->pd[i], name, sizeof(name)));
		len_at[d] = path.len;
		rc = dp_buf_error(&path);
		if (v == 0 || rc < 0)
			continue;
		dp_buf_add(&out->buf, path.data, path.len);
		dp_buf_addc(&out->buf, ' ');
		dp_buf_addu(&out->buf, v);
		dp_buf_addc(&out->buf, '\n');
		rc = dp_exp_flush(out, false);
	}
	dp_buf_release(&path);
	free(len_at);
	return rc;
}
