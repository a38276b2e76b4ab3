/*
 * front/session_int.h - the session's files: each profile with its two thread views
 * (the per-thread view as written, the merged view), their analyses and the contour.
 * Private to src/front.
 */
#ifndef DP_FRONT_SESSION_INT_H
#define DP_FRONT_SESSION_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "../analysis/analysis.h"
#include "../analysis/contour.h"
#include "../core/buf.h"
#include "../format/profile.h"
#include "../query/query.h"
#include "../report/report.h"
#include "session.h"

/* One thread view of a file: its profile, the profile's analysis and its report index. */
struct dp_view {
	struct dp_profile prof;	      /* the view's profile */
	bool loaded;		      /* prof holds a profile to release */
	struct dp_analysis *a;	      /* its analysis, or NULL until made */
	struct dp_report_index *ix;   /* its report index, or NULL (none: the pages scan) */
	struct dp_cmp_memo *cmp_memo; /* what comparisons keep of its contexts (with its
					 analysis; used by one answer at a time) */
	atomic_bool ix_done; /* ix is final (built, or failed for want of memory): read ix only
				after seeing it set (the background thread may build it) */
};

struct dp_sfile {
	char *path;
	/* the views by enum dp_view_kind: [DP_VIEW_THREADS] the file as written,
	   [DP_VIEW_MERGED] its threads merged, when that merges anything (has_merged);
	   else the per-thread view serves both (dp_sfile_view()) */
	struct dp_view view[2];
	bool has_merged;
	/* libs=fold: view[k] without its library leaves (dp_profile_fold_libs()), made on
	   the first query that asks (dp_sfile_prepare()), when the file has leaves
	   (has_libs); else view[k] answers */
	struct dp_view folded[2];
	bool has_libs;
	uint32_t ix_min_kids, ix_min_ctx; /* the indexes' thresholds (struct dp_session) */
	pthread_t bg;	 /* builds the merged view's index, then the per-thread view */
	bool bg_running; /* bg started and not joined yet */
	int bg_err;	 /* its failure: a negative dp_err, with bg_msg */
	char *bg_msg;
	struct dp_contour *contour; /* NULL: none or unusable */
	char *contour_error;	    /* why the contour is unusable, or NULL */
	struct dp_buf warnings;	    /* "" or lines */
	bool has_time;		    /* more than 10 samples: the time columns by default */
};

struct dp_session {
	unsigned flags;
	/* the report indexes' smallest wide clique and procedure (struct
	 * dp_report_index_opts; 0: its defaults), for the files opened next: tests lower them */
	uint32_t ix_min_kids, ix_min_ctx;
	uint32_t n, cap;
	struct dp_sfile **files;
	struct dp_sfile *base; /* the profile every answer is compared with, or NULL */
	unsigned base_flags;   /* DP_BASE_* */
};

/* dp_sfile_view - the view of @f that answers queries in thread view @which. */
static inline const struct dp_view *dp_sfile_view(const struct dp_sfile *f, enum dp_view_kind which)
{
	return &f->view[f->has_merged ? which : DP_VIEW_THREADS];
}

/* dp_sfile_pick - the view of @f that answers queries with preferences @p (thread view
 * and library leaves); dp_sfile_prepare() must have made it. */
static inline const struct dp_view *dp_sfile_pick(const struct dp_sfile *f,
						  const struct dp_prefs *p)
{
	if (p->libs == DP_LIBS_FOLD && f->has_libs)
		return &f->folded[f->has_merged ? p->view : DP_VIEW_THREADS];
	return dp_sfile_view(f, p->view);
}

/*
 * dp_sfile_load - fill @f (zeroed, f->path set) from its data file and @contour (NULL:
 * the default beside the data file). Shows progress as dp_session_open() says when
 * @progress. @background: start building the merged view's flame index, then analysing
 * the per-thread view, on a background thread (dp_sfile_background()); without it, no
 * flame index is built for the merged view (the pages answer without one). Return: 0 or
 * a negative dp_err (message set); on failure @f holds only what dp_sfile_release() frees.
 */
int dp_sfile_load(struct dp_sfile *f, const char *contour, bool progress, bool background);

/*
 * dp_sfile_threads_view - make sure the per-thread view's analysis exists: loads
 * analyse only the default (merged) view when the views differ, and the per-thread one
 * waits for its first query (or for the background thread that builds it). Not
 * thread-safe: callers serialise queries. Return: 0 or a negative dp_err (message set).
 */
int dp_sfile_threads_view(struct dp_sfile *f);

/*
 * dp_sfile_prepare - make the view that answers queries with preferences @p: the
 * per-thread view's analysis (dp_sfile_threads_view()), the folded view of library
 * leaves and its analysis (libs=fold, when the file has leaves; no report index: its
 * pages scan). Not thread-safe, as dp_sfile_threads_view(). Return: 0 or a negative
 * dp_err (message set).
 */
int dp_sfile_prepare(struct dp_sfile *f, const struct dp_prefs *p);

/* dp_sfile_background - start building, on a background thread (all signals blocked),
 * what @f lacks of the merged view's flame index (published by f->fx_ready; queries
 * before that answer without it) and the per-thread view (dp_sfile_threads_view() waits
 * for it), unless that is under way; without a thread the per-thread view is built on its
 * first query as usual. */
void dp_sfile_background(struct dp_sfile *f);

/* dp_sfile_wait - wait for @f's background thread, if any (a failure of its per-thread
 * view is told by the next dp_sfile_threads_view()). */
void dp_sfile_wait(struct dp_sfile *f);

/* dp_sfile_release - free everything @f holds (not @f). */
void dp_sfile_release(struct dp_sfile *f);

#endif /* DP_FRONT_SESSION_INT_H */
