/*
 * front/session_load.c - loading one data file for a session: read and validate it,
 * symbolize it in memory if it never was, analyse the per-thread view, build and analyse
 * the merged view, read the contour file; with a progress line on a terminal when the
 * load takes more than a second (a watcher thread prints the current step).
 */
#define _POSIX_C_SOURCE 200809L /* strdup, clock_gettime, nanosleep */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../analysis/merge.h"
#include "../core/err.h"
#include "../format/reader.h"
#include "../symbol/symbol.h"
#include "deepprof/format.h"
#include "session_int.h"

/* The progress watcher: prints "deepprof: loading PATH: STEP (N.N s)" every 0.25 s once
 * the load has taken a second, and clears the line at the end. */
struct dp_progress {
	const char *path;
	_Atomic(const char *) step;
	atomic_bool done;
	pthread_t thread;
	bool running;
	bool printed;
};

static double dp_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *dp_progress_main(void *arg)
{
	struct dp_progress *pr = arg;
	struct timespec tick = {0, 50 * 1000 * 1000};
	double start = dp_now(), last = 0;

	while (!atomic_load(&pr->done)) {
		double t = dp_now() - start;

		nanosleep(&tick, NULL);
		if (t >= 1.0 && t - last >= 0.25) {
			fprintf(stderr, "\rdeepprof: loading %s: %-24s %5.1f s", pr->path,
				atomic_load(&pr->step), t);
			fflush(stderr);
			pr->printed = true;
			last = t;
		}
	}
	if (pr->printed)
		fprintf(stderr, "\rdeepprof: loaded %s in %.1f s%-30s\n", pr->path,
			dp_now() - start, "");
	return NULL;
}

static void dp_progress_start(struct dp_progress *pr, const char *path, bool on)
{
	memset(pr, 0, sizeof(*pr));
	pr->path = path;
	atomic_init(&pr->step, "reading");
	atomic_init(&pr->done, false);
	if (on && isatty(STDERR_FILENO))
		pr->running = pthread_create(&pr->thread, NULL, dp_progress_main, pr) == 0;
}

static void dp_progress_stop(struct dp_progress *pr)
{
	atomic_store(&pr->done, true);
	if (pr->running)
		pthread_join(pr->thread, NULL);
}

/* Appends "@path: @msg\n" to f->warnings. */
static int dp_warn(struct dp_sfile *f, const char *msg)
{
	if (dp_buf_addf(&f->warnings, "%s: %s\n", f->path, msg) < 0)
		return dp_error(DP_ENOMEM, "out of memory loading %s", f->path);
	return 0;
}

/* The contour file: @explicit (must be readable) or PATH minus ".data" plus ".contour"
 * (used only if it exists). Problems are kept as contour_error and a warning. */
static int dp_load_contour(struct dp_sfile *f, const char *explicit_path)
{
	char def[4096];
	const char *path = explicit_path;
	size_t n = strlen(f->path);
	int rc;

	if (!path) {
		if (n > 5 && strcmp(f->path + n - 5, ".data") == 0)
			n -= 5;
		if (snprintf(def, sizeof(def), "%.*s.contour", (int)n, f->path) >= (int)sizeof(def))
			return 0;
		if (access(def, F_OK) != 0)
			return 0;
		path = def;
	}
	/* module names and PS ids are the same in both views */
	rc = dp_contour_read(path, dp_sfile_view(f, DP_VIEW_MERGED)->a, &f->contour);
	if (rc == -DP_ENOMEM)
		return rc;
	if (rc < 0) {
		f->contour = NULL;
		f->contour_error = strdup(dp_errmsg());
		if (!f->contour_error)
			return dp_error(DP_ENOMEM, "out of memory loading %s", f->path);
		if (explicit_path) /* asked for by name: a bad file is an error */
			return dp_error(DP_EUSAGE, "%s", f->contour_error);
		return dp_warn(f, f->contour_error);
	}
	if (f->contour->warnings[0] && dp_buf_adds(&f->warnings, f->contour->warnings) < 0)
		return dp_error(DP_ENOMEM, "out of memory loading %s", f->path);
	return 0;
}

/* Symbolizes an unsymbolized profile in memory; failure is a warning (names stay
 * addresses), not an error. */
static int dp_load_symbols(struct dp_sfile *f)
{
	char msg[1200];

	if (f->view[DP_VIEW_THREADS].prof.features & DP_FEAT_SYMBOLIZED)
		return 0;
	if (dp_symbolize(&f->view[DP_VIEW_THREADS].prof, NULL) == 0)
		return 0;
	if (dp_errcode() == DP_ENOMEM)
		return -DP_ENOMEM;
	snprintf(msg, sizeof(msg), "not symbolized (%s); procedures are shown as addresses",
		 dp_errmsg());
	return dp_warn(f, msg);
}

/* What dp_view_build() makes. */
#define DP_VIEW_ANALYSIS 1u /* the analysis */
#define DP_VIEW_INDEX	 2u /* the report index (published by ix_done) */

/*
 * dp_view_build - make what view @v of @f lacks of @what (DP_VIEW_* bits): its analysis,
 * then its report index (without memory for the index the pages scan: no warning, since
 * this may run on the background thread and the warnings belong to the loading thread).
 * Return: 0 or a negative dp_err (message set on the calling thread).
 */
static int dp_view_build(const struct dp_sfile *f, struct dp_view *v, unsigned what)
{
	const struct dp_report_index_opts o = {f->ix_min_kids, f->ix_min_ctx, 0};
	int err = 0;

	if ((what & DP_VIEW_ANALYSIS) && !v->a) {
		struct dp_analysis *a = dp_analysis_new(&v->prof, &err);

		if (!a)
			return err;
		v->a = a;
		v->cmp_memo = dp_cmp_memo_new(); /* NULL: each comparison makes its own */
	}
	if ((what & DP_VIEW_INDEX) && !atomic_load_explicit(&v->ix_done, memory_order_acquire)) {
		if (dp_report_index_build(&v->prof, v->a, &o, &v->ix) < 0)
			v->ix = NULL;
		atomic_store_explicit(&v->ix_done, true, memory_order_release);
	}
	return 0;
}

/* The background thread of dp_sfile_background(): the merged view's report index, then
 * the per-thread view; its failure is kept for dp_sfile_threads_view() to report. */
static void *dp_threads_view_main(void *arg)
{
	struct dp_sfile *f = arg;
	int rc = dp_view_build(f, &f->view[f->has_merged ? DP_VIEW_MERGED : DP_VIEW_THREADS],
			       DP_VIEW_INDEX);

	if (rc == 0)
		rc = dp_view_build(f, &f->view[DP_VIEW_THREADS], DP_VIEW_ANALYSIS | DP_VIEW_INDEX);
	if (rc < 0) {
		f->bg_err = rc;
		free(f->bg_msg); /* a thread started again after a failure */
		f->bg_msg = strdup(dp_errmsg());
	}
	return NULL;
}

void dp_sfile_background(struct dp_sfile *f)
{
	sigset_t all, old;

	if (f->bg_running || (f->view[DP_VIEW_THREADS].a &&
			      atomic_load_explicit(&dp_sfile_view(f, DP_VIEW_MERGED)->ix_done,
						   memory_order_acquire)))
		return;
	/* with every signal blocked: the process's handlers and sigwait() stay the loading
	 * thread's business (a SIGINT taken by this thread would kill a server that waits
	 * for it with sigwait) */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	f->bg_running = pthread_create(&f->bg, NULL, dp_threads_view_main, f) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int dp_sfile_load(struct dp_sfile *f, const char *contour, bool progress, bool background)
{
	struct dp_progress pr;
	int rc;

	dp_buf_init(&f->warnings, SIZE_MAX - 1);
	dp_progress_start(&pr, f->path, progress);
	rc = dp_read_file(f->path, &f->view[DP_VIEW_THREADS].prof);
	if (rc < 0)
		goto out;
	f->view[DP_VIEW_THREADS].loaded = true;
	atomic_store(&pr.step, "symbolizing");
	rc = dp_load_symbols(f);
	if (rc < 0)
		goto out;
	for (uint32_t i = 1; i <= f->view[DP_VIEW_THREADS].prof.n_ps && !f->has_libs; i++)
		f->has_libs = f->view[DP_VIEW_THREADS].prof.ps[i].kind == DP_PS_LIBRARY;
	if (f->view[DP_VIEW_THREADS].prof.n_threads > 1) {
		const struct dp_profile *p = &f->view[DP_VIEW_THREADS].prof;
		struct dp_profile *m = &f->view[DP_VIEW_MERGED].prof;

		atomic_store(&pr.step, "merging threads");
		rc = dp_profile_merge_threads(p, m);
		if (rc < 0)
			goto out;
		if (m->n_pd == p->n_pd && m->n_csd == p->n_csd)
			dp_profile_release(m); /* nothing merged: same nodes and ids */
		else
			f->has_merged = f->view[DP_VIEW_MERGED].loaded = true;
	}
	atomic_store(&pr.step, "analysing");
	rc = dp_view_build(f, &f->view[f->has_merged ? DP_VIEW_MERGED : DP_VIEW_THREADS],
			   DP_VIEW_ANALYSIS);
	if (rc < 0)
		goto out;
	f->has_time = dp_sfile_view(f, DP_VIEW_MERGED)->a->root_total.samples > 10;
	atomic_store(&pr.step, "reading contour");
	rc = dp_load_contour(f, contour);
	if (rc == 0 && background)
		dp_sfile_background(f);
out:
	dp_progress_stop(&pr);
	return rc;
}

void dp_sfile_wait(struct dp_sfile *f)
{
	if (f->bg_running) {
		pthread_join(f->bg, NULL);
		f->bg_running = false;
	}
}

int dp_sfile_threads_view(struct dp_sfile *f)
{
	int rc;

	dp_sfile_wait(f);
	if (f->view[DP_VIEW_THREADS].a)
		return 0;
	if (f->bg_err) { /* the background thread's failure, told once: then tried again */
		rc = dp_error((enum dp_err) - f->bg_err, "%s",
			      f->bg_msg ? f->bg_msg : "out of memory analysing threads");
		f->bg_err = 0;
		return rc;
	}
	return dp_view_build(f, &f->view[DP_VIEW_THREADS], DP_VIEW_ANALYSIS | DP_VIEW_INDEX);
}

int dp_sfile_prepare(struct dp_sfile *f, const struct dp_prefs *p)
{
	enum dp_view_kind k = f->has_merged ? p->view : DP_VIEW_THREADS;
	struct dp_view *v = &f->folded[k];
	int rc = p->view == DP_VIEW_THREADS ? dp_sfile_threads_view(f) : 0;

	if (rc < 0 || p->libs != DP_LIBS_FOLD || !f->has_libs || v->a)
		return rc;
	if (!v->loaded) {
		rc = dp_profile_fold_libs(&f->view[k].prof, &v->prof);
		if (rc < 0)
			return rc;
		v->loaded = true;
	}
	return dp_view_build(f, v, DP_VIEW_ANALYSIS);
}

void dp_sfile_release(struct dp_sfile *f)
{
	dp_sfile_wait(f);
	free(f->bg_msg);
	for (int i = 0; i < 4; i++) {
		struct dp_view *v = i < 2 ? &f->view[i] : &f->folded[i - 2];

		dp_report_index_free(v->ix);
		dp_cmp_memo_free(v->cmp_memo);
		dp_analysis_free(v->a);
		if (v->loaded)
			dp_profile_release(&v->prof);
	}
	dp_contour_free(f->contour);
	free(f->contour_error);
	dp_buf_release(&f->warnings);
	free(f->path);
}
