/*
 * front/session.c - the session: the files a front end opened, and dp_session_answer(),
 * the whole pipeline for one query: format= first (request.h) -> parse -> choose the
 * thread view -> report -> JSON, or display -> text | HTML; bad queries become 400/404
 * answers in the format asked for.
 */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/vec.h"
#include "../display/display.h"
#include "../query/query.h"
#include "../report/report.h"
#include "request.h"
#include "session_int.h"

/* A page is at most this big in any format; past it the answer is a 500. */
#define DP_ANSWER_MAX ((size_t)256 << 20)

struct dp_session *dp_session_new(unsigned flags)
{
	struct dp_session *s = calloc(1, sizeof(*s));

	if (s)
		s->flags = flags;
	return s;
}

void dp_session_free(struct dp_session *s)
{
	uint32_t i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		dp_sfile_release(s->files[i]);
		free(s->files[i]);
	}
	if (s->base) {
		dp_sfile_release(s->base);
		free(s->base);
	}
	free(s->files);
	free(s);
}

/* A new file of @s loaded from @path and @contour into *@out. Return: 0 or a dp_err. */
static int dp_session_load(struct dp_session *s, const char *path, const char *contour,
			   struct dp_sfile **out)
{
	struct dp_sfile *f = calloc(1, sizeof(*f));
	int rc;

	if (!f || !(f->path = strdup(path))) {
		free(f);
		return dp_error(DP_ENOMEM, "out of memory opening %s", path);
	}
	f->ix_min_kids = s->ix_min_kids;
	f->ix_min_ctx = s->ix_min_ctx;
	rc = dp_sfile_load(f, contour, !(s->flags & DP_SESSION_QUIET),
			   (s->flags & DP_SESSION_BACKGROUND) != 0);
	if (rc < 0) {
		dp_sfile_release(f);
		free(f);
		return rc;
	}
	*out = f;
	return 0;
}

int dp_session_set_base(struct dp_session *s, const char *path, const char *contour, unsigned flags)
{
	struct dp_sfile *f;
	int rc;

	if (s->base)
		return dp_error(DP_EUSAGE, "the session has a base profile already");
	rc = dp_session_load(s, path, contour, &f);
	if (rc < 0)
		return rc;
	s->base = f;
	s->base_flags = flags;
	return 0;
}

int dp_session_open(struct dp_session *s, const char *path, const char *contour)
{
	struct dp_sfile *f;
	int rc;

	if (DP_VEC_GROW(s->files, s->cap, s->n + 1) < 0)
		return dp_error(DP_ENOMEM, "out of memory opening %s", path);
	rc = dp_session_load(s, path, contour, &f);
	if (rc < 0)
		return rc;
	s->files[s->n] = f;
	return (int)s->n++;
}

uint32_t dp_session_n_files(const struct dp_session *s)
{
	return s->n;
}

const char *dp_session_path(const struct dp_session *s, uint32_t i)
{
	return i < s->n ? s->files[i]->path : "";
}

bool dp_session_has_samples(const struct dp_session *s, uint32_t i)
{
	return i < s->n && s->files[i]->has_time;
}

uint32_t dp_session_widest_ps(const struct dp_session *s, uint32_t i)
{
	return i < s->n ? dp_analysis_widest_ps(dp_sfile_view(s->files[i], DP_VIEW_MERGED)->a) : 0;
}

const char *dp_session_warnings(const struct dp_session *s, uint32_t i)
{
	return i < s->n ? dp_buf_cstr(&s->files[i]->warnings) : "";
}

/* The answer for an error @status with message @msg, in @fmt; @q (may be NULL) gives
 * the preferences the page's links keep. Returns 0 or -DP_ENOMEM. */
static int dp_answer_error(struct dp_answer *out, int status, const char *msg,
			   const struct dp_query *q, enum dp_format fmt,
			   const struct dp_render_opts *opts)
{
	dp_buf_reset(&out->body);
	out->status = status;
	snprintf(out->error, sizeof(out->error), "%s", msg && msg[0] ? msg : "error");
	return dp_error_body(&out->body, status, msg, q, fmt, opts, &out->content_type);
}

/* Renders report @r into @out in @fmt. */
static int dp_answer_report(struct dp_answer *out, const struct dp_report *r, enum dp_format fmt,
			    const struct dp_render_opts *opts)
{
	struct dp_display *d = NULL;
	int rc;

	out->status = 200;
	out->content_type = dp_format_content_type(fmt);
	if (fmt == DP_FMT_JSON) {
		rc = dp_report_json(r, true, &out->body);
		return rc < 0 ? rc : dp_buf_addc(&out->body, '\n');
	}
	rc = dp_display_build(r, &d);
	if (rc == 0 && fmt == DP_FMT_HTML)
		rc = dp_display_attach_data(d, r); /* for the page's script */
	if (rc == 0)
		rc = fmt == DP_FMT_HTML ? dp_render_html(d, opts, &out->body)
					: dp_render_text(d, opts, &out->body);
	dp_display_free(d);
	return rc;
}

void dp_session_background(struct dp_session *s)
{
	for (uint32_t i = 0; s && i < s->n; i++)
		dp_sfile_background(s->files[i]);
	if (s && s->base)
		dp_sfile_background(s->base);
}

void dp_session_wait(struct dp_session *s)
{
	for (uint32_t i = 0; s && i < s->n; i++)
		dp_sfile_wait(s->files[i]);
	if (s && s->base)
		dp_sfile_wait(s->base);
}

/* The report context of @f for the view preferences @p choose. */
static void dp_session_ctx(const struct dp_sfile *f, const struct dp_prefs *p,
			   struct dp_report_ctx *c)
{
	const struct dp_view *v = dp_sfile_pick(f, p);
	/* the merged view's index may be under way on the background thread */
	bool ready = atomic_load_explicit(&v->ix_done, memory_order_acquire);

	*c = (struct dp_report_ctx){.p = &v->prof,
				    .a = v->a,
				    .contour = f->contour,
				    .contour_error = f->contour_error,
				    .flame_ix = ready ? v->ix : NULL,
				    .cmp_memo = v->cmp_memo,
				    .has_libs = f->has_libs};
}

/* Report @r (about @ctx, in the view the preferences @p choose) beside the same page of
 * s->base, in the same view. Return: 0, or a negative dp_err (the base's view failed, or
 * out of memory). */
static int dp_session_compare(struct dp_session *s, const struct dp_prefs *p,
			      const struct dp_report_ctx *ctx, struct dp_report *r)
{
	struct dp_compare_opts o = {.base_name = s->base->path,
				    .absolute = (s->base_flags & DP_BASE_ABSOLUTE) != 0};
	struct dp_report_ctx bctx;
	int rc = dp_sfile_prepare(s->base, p);

	if (rc < 0)
		return rc;
	dp_session_ctx(s->base, p, &bctx);
	return dp_report_compare(r, ctx, &bctx, &o);
}

/* Status of a failed report build. */
static int dp_report_status(int rc)
{
	return rc == -DP_ENOENT ? 404 : rc == -DP_EUSAGE ? 400 : 500;
}

int dp_session_answer(struct dp_session *s, uint32_t i, const char *query, enum dp_format fmt,
		      const struct dp_render_opts *opts, struct dp_answer *out)
{
	static const struct dp_render_opts defaults;
	struct dp_report_ctx ctx;
	struct dp_report *r = NULL;
	struct dp_query *q;
	int rc;

	memset(out, 0, sizeof(*out));
	dp_buf_init(&out->body, DP_ANSWER_MAX);
	if (!opts)
		opts = &defaults;
	fmt = dp_request_format(query, fmt); /* first: every answer, errors too, is in it */
	if (i >= s->n)
		return dp_answer_error(out, 404, "no such file", NULL, fmt, opts);
	q = malloc(sizeof(*q));
	if (!q)
		return dp_error(DP_ENOMEM, "out of memory answering a query");
	rc = dp_query_parse(query ? query : "", s->files[i]->has_time, q);
	if (rc < 0) {
		rc = rc == -DP_ENOMEM ? rc
				      : dp_answer_error(out, 400, dp_errmsg(), NULL, fmt, opts);
		goto out;
	}
	rc = dp_sfile_prepare(s->files[i], &q->prefs);
	if (rc < 0) {
		rc = rc == -DP_ENOMEM ? rc : dp_answer_error(out, 500, dp_errmsg(), q, fmt, opts);
		goto out;
	}
	dp_session_ctx(s->files[i], &q->prefs, &ctx);
	rc = dp_report_build(&ctx, q, &r);
	if (rc == 0 && s->base)
		rc = dp_session_compare(s, &q->prefs, &ctx, r);
	if (rc == -DP_ENOMEM)
		goto out;
	if (rc < 0)
		rc = dp_answer_error(out, r ? 500 : dp_report_status(rc), dp_errmsg(), q, fmt,
				     opts);
	else
		rc = dp_answer_report(out, r, fmt, opts);
	if (rc < 0 && rc != -DP_ENOMEM)
		rc = dp_answer_error(out, 500, dp_errmsg(), NULL, fmt, opts);
out:
	dp_report_free(r);
	free(q);
	return rc;
}
