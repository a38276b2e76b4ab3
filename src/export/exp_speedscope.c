/*
 * export/exp_speedscope.c - speedscope's JSON file format (its file-format-spec):
 * "$schema", shared frames (one per procedure, with file and line), and "sampled"
 * profiles whose samples are the calling contexts (stacks root first) weighted by
 * their own cost: one profile per metric with a non-zero total in the merged view
 * (only --metric's if given), one per thread (the chosen metric) in the per-thread view.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/json.h"
#include "deepprof/format.h"
#include "export_int.h"

struct ss_ctx {
	const struct dp_exp_tree *t;
	uint32_t *frame_of; /* [frame key] 1 + frame index, 0 = not yet */
	uint32_t n_frames;
	struct dp_buf path; /* the current stack as text, "0,4,7" */
	size_t *len_at;	    /* [depth] the text's length up to that depth's frame */
};

static const char *const ss_units[DP_METRIC_COUNT] = {"nanoseconds", "none", "none", "none",
						      "bytes"};

/* Number the frames in order of first appearance. */
static void ss_number(struct ss_ctx *s)
{
	for (uint32_t i = 0; i < s->t->n; i++) {
		uint32_t k = dp_exp_frame(s->t, i);

		if (!s->frame_of[k])
			s->frame_of[k] = ++s->n_frames;
	}
}

static void ss_frames(struct ss_ctx *s, struct dp_buf *b)
{
	const struct dp_exp_tree *t = s->t;
	uint32_t next = 1;
	char name[256];

	dp_buf_adds(b, "\"shared\":{\"frames\":[");
	for (uint32_t i = 0; i < t->n; i++) {
		uint32_t k = dp_exp_frame(t, i);

		if (s->frame_of[k] != next)
			continue; /* numbered by first appearance: frame next is its first node */
		uint32_t ps = t->p->pd[t->pd[i]].ps;
		const char *file = dp_profile_str(t->p, t->p->ps[ps].file);

		dp_buf_adds(b, next > 1 ? ",\n{\"name\":" : "\n{\"name\":");
		const char *nm = dp_exp_name(t, t->pd[i], name, sizeof(name));

		dp_json_escape(b, nm, strlen(nm));
		if (*file && k <= t->p->n_ps) {
			dp_buf_adds(b, ",\"file\":");
			dp_json_escape(b, file, strlen(file));
			dp_buf_addf(b, ",\"line\":%" PRIu32, t->p->ps[ps].line);
		}
		dp_buf_addc(b, '}');
		next++;
	}
	dp_buf_adds(b, "]},\n");
}

/* One sampled profile named @name: the nodes [lo, hi) with their stacks from depth
 * @base, weighted by metric @m; none if their total is 0. *@first: no profile written
 * yet (cleared when this one is). */
static int ss_profile(struct ss_ctx *s, const char *name, enum dp_metric m, uint32_t lo,
		      uint32_t hi, uint32_t base, bool *first, struct dp_exp_out *out)
{
	const struct dp_exp_tree *t = s->t;
	struct dp_buf *b = &out->buf;
	uint64_t total = 0;
	bool any = false;
	int rc = 0;

	for (uint32_t i = lo; i < hi; i++) {
		struct dp_costs own = dp_exp_own(t, i);

		if (t->depth[i] >= base)
			total += dp_exp_value(t->p, &own, m);
	}
	if (!total)
		return 0;
	dp_buf_adds(b, *first ? "\n{\"type\":\"sampled\",\"name\":"
			      : ",\n{\"type\":\"sampled\",\"name\":");
	dp_json_escape(b, name, strlen(name));
	dp_buf_addf(b, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%" PRIu64 ",\n\"samples\":[",
		    ss_units[m], total);
	for (uint32_t i = lo; i < hi && rc == 0; i++) {
		struct dp_costs own = dp_exp_own(t, i);
		uint32_t d = t->depth[i];

		if (d < base)
			continue;
		/* preorder: the text up to depth d - 1 is the parent's stack */
		s->path.len = d > base ? s->len_at[d - 1] : 0;
		if (d > base)
			dp_buf_addc(&s->path, ',');
		dp_buf_addu(&s->path, s->frame_of[dp_exp_frame(t, i)] - 1);
		s->len_at[d] = s->path.len;
		if (dp_exp_value(t->p, &own, m) == 0)
			continue;
		dp_buf_adds(b, any ? ",[" : "[");
		dp_buf_add(b, s->path.data, s->path.len);
		dp_buf_addc(b, ']');
		rc = dp_buf_error(&s->path);
		any = true;
		if (rc == 0)
			rc = dp_exp_flush(out, false);
	}
	dp_buf_adds(b, "],\n\"weights\":[");
	any = false;
	for (uint32_t i = lo; i < hi && rc == 0; i++) {
		struct dp_costs own = dp_exp_own(t, i);
		uint64_t v = dp_exp_value(t->p, &own, m);

		if (t->depth[i] < base || v == 0)
			continue;
		if (any)
			dp_buf_addc(b, ',');
		dp_buf_addu(b, v);
		any = true;
		rc = dp_exp_flush(out, false);
	}
	dp_buf_adds(b, "]}");
	*first = false;
	return rc;
}

/* The per-thread view: one profile per thread root (a preorder range). */
static int ss_threads(struct ss_ctx *s, enum dp_metric m, struct dp_exp_out *out)
{
	const struct dp_exp_tree *t = s->t;
	bool first = true;
	char name[256];
	int rc = 0;

	for (uint32_t r = 0; r < t->n && rc == 0;) {
		uint32_t end = r + 1;

		while (end < t->n && t->depth[end] > t->depth[r])
			end++;
		bool thread = t->p->ps[t->p->pd[t->pd[r]].ps].kind == DP_PS_THREAD;
		rc = ss_profile(s, dp_exp_name(t, t->pd[r], name, sizeof(name)), m, r, end,
				thread ? t->depth[r] + 1 : t->depth[r], &first, out);
		r = end;
	}
	return rc;
}

int dp_exp_speedscope(const struct dp_exp_tree *t, const struct dp_export_opts *o,
		      struct dp_exp_out *out)
{
	struct ss_ctx s = {.t = t};
	struct dp_buf *b = &out->buf;
	const char *prog = dp_profile_str(t->p, t->p->program);
	bool first = true;
	int rc = 0;

	s.frame_of = calloc((size_t)t->p->n_ps + t->p->n_threads + 1, sizeof(uint32_t));
	s.len_at = malloc(((size_t)t->max_depth + 1) * sizeof(size_t));
	dp_buf_init(&s.path, (size_t)1 << 30);
	if (!s.frame_of || !s.len_at) {
		rc = dp_error(DP_ENOMEM, "out of memory exporting speedscope");
		goto out_free;
	}
	ss_number(&s);
	dp_buf_adds(b, "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\n"
		       "\"exporter\":");
	dp_json_escape(b, o->version, strlen(o->version));
	dp_buf_adds(b, ",\"name\":");
	dp_json_escape(b, prog, strlen(prog));
	dp_buf_adds(b, ",\"activeProfileIndex\":0,\n");
	ss_frames(&s, b);
	dp_buf_adds(b, "\"profiles\":[");
	if (t->threads) {
		rc = ss_threads(&s, o->has_metric ? o->metric : dp_exp_default_metric(t), out);
	} else {
		for (int m = 0; m < DP_METRIC_COUNT && rc == 0; m++) {
			bool chosen = o->has_metric
					      ? (int)o->metric == m
					      : dp_exp_value(t->p, &t->total, (enum dp_metric)m);

			if (!chosen)
				continue;
			rc = ss_profile(&s, dp_metric_name((enum dp_metric)m), (enum dp_metric)m, 0,
					t->n, 0, &first, out);
		}
	}
	dp_buf_adds(b, "]}\n");
out_free:
	free(s.frame_of);
	free(s.len_at);
	dp_buf_release(&s.path);
	return rc;
}
