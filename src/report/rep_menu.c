/*
 * report/rep_menu.c - the menu page (what was run, totals, counts and the starting
 * links mdprof's menu offers) and the threads page (one row per thread root).
 *
 * menu: subject = the program (kind PROGRAM, id 0, name = the program's path, own zero,
 * desc = the root total). Sections, the answers first: "top_self" and "top_total", the
 * PS rows of the 5 procedures with the largest self and total time (callseqs when the
 * root total has 10 samples or fewer), as the top page ranks them; "hot_path", the
 * action page's first 8 steps at 90% (its "path" rows). A sort= given orders the top 5
 * rows (the ranking chose them). Note, when the runtime took
 * samples in itself: their share, and that every cost leaves them out. Facts, in order
 * (keys): program, command_line (argv joined by spaces), run_seconds (f64: end - start,
 * 0 if unknown), cpu_seconds (f64: samples x period), runtime_share (f64: samples inside
 * the runtime / all samples, 0 without samples), pid, ppid, start_ns, end_ns,
 * duration_ns (end - start, 0 if unknown), exit_status (only when known),
 * sample_period_ns, hz, samples_inside,
 * samples_outside (samples taken inside / outside the runtime), total_callseqs, then only
 * when non-zero: lost_calls, lost_samples, lost_allocs, stop_reason (a string, when set);
 * then n_threads, n_ps, n_css, n_pd, n_csd, n_cliques, n_modules, n_objects,
 * root_samples, root_callseqs, root_allocs, root_bytes (the root total). Links, in order:
 * root; action (percent=90); modules; threads; flame; top 100 (limit=1-100) by time self
 * and total (only when the root total has > 10 samples); calls; callseqs self, total;
 * allocs self, total; bytes self, total; then thresholds: time >= 0.1% self, >= 1% total
 * and >= 1 second total (only when > 10 samples); callseqs >= 0.1% self, >= 1% total;
 * bytes >= 0.1% self, >= 1% total.
 *
 * threads: subject = the program row as on the menu. Section "threads": one row per
 * thread root PD (the callees of the program root PD), kind THREAD, depth 0, own = the
 * PD's own, desc = its desc, clique = its clique, ps = the thread root procedure. A root
 * of one thread: id = thread = the 1-based thread index, n = 1. A root of several threads
 * (merged view): id = the lowest index, thread = 0, n = how many, flags SUM. Name: the
 * entry function and the thread numbers (dp_rep_thread_name: "worker (threads 2-5)"),
 * "(threads)" for a root no thread has. INACTIVE when
 * no cost. q.thread=N keeps only the row holding thread N. Order: by (lowest) thread
 * index, or as prefs.sort says when it is name or cost. Facts, for every thread T of the
 * profile (1..n_threads): thread_T_tid, thread_T_start_ns, thread_T_end_ns (0 = still
 * running), thread_T_samples_inside (samples the runtime took in itself in that thread)
 * and thread_T_flags (a string of "main", "ended", "stopped" joined by ","; "" if none).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "report_int.h"

/* program_row - the whole program: the root total as inherited cost */
static void program_row(struct dp_report *r, const struct dp_report_ctx *c, struct dp_rep_row *row)
{
	const char *prog = dp_profile_str(c->p, c->p->program);

	memset(row, 0, sizeof(*row));
	row->kind = DP_ENT_PROGRAM;
	row->name = prog[0] ? prog : "<program>";
	row->desc = r->root_total;
}

/* command_line - argv joined by spaces, in the arena (NULL on out of memory) */
static const char *command_line(struct dp_report *r, const struct dp_profile *p)
{
	struct dp_buf b;
	const char *s;

	dp_buf_init(&b, (size_t)1 << 24);
	for (uint32_t i = 0; i < p->argc; i++) {
		if (i)
			dp_buf_addc(&b, ' ');
		dp_buf_adds(&b, dp_profile_str(p, p->argv[i]));
	}
	s = dp_buf_error(&b) ? NULL : dp_rep_strdup(r, dp_buf_cstr(&b));
	dp_buf_release(&b);
	return s;
}

static int menu_run_facts(struct dp_report *r, const struct dp_profile *p)
{
	const char *cmd = command_line(r, p);
	int rc = 0;

	if (!cmd)
		return -DP_ENOMEM;
	if (p->origin) /* imported by `deepprof import`: where from, and what it measured */
		rc |= dp_rep_fact_str(r, "origin", "imported from", dp_profile_str(p, p->origin)) |
		      dp_rep_fact_str(r, "origin_input", "imported input",
				      dp_profile_str(p, p->origin_input)) |
		      dp_rep_fact_str(r, "origin_note", "import note",
				      dp_profile_str(p, p->origin_note));
	rc |= dp_rep_fact_str(r, "program", "program", dp_profile_str(p, p->program));
	rc |= dp_rep_fact_str(r, "command_line", "command line", cmd);
	rc |= dp_rep_fact_f64(r, "run_seconds", "run time",
			      p->end_ns > p->start_ns ? (double)(p->end_ns - p->start_ns) * 1e-9
						      : 0.0);
	rc |= dp_rep_fact_f64(r, "cpu_seconds", "CPU time sampled",
			      (double)(p->samples_inside + p->samples_outside) *
				      (double)p->sample_period_ns * 1e-9);
	rc |= dp_rep_fact_f64(r, "runtime_share", "samples in deepprof's runtime",
			      p->samples_inside + p->samples_outside
				      ? (double)p->samples_inside /
						(double)(p->samples_inside + p->samples_outside)
				      : 0.0);
	rc |= dp_rep_fact_u64(r, "pid", "process id", p->pid);
	rc |= dp_rep_fact_u64(r, "ppid", "parent process id", p->ppid);
	rc |= dp_rep_fact_u64(r, "start_ns", "start time (ns since the epoch)", p->start_ns);
	rc |= dp_rep_fact_u64(r, "end_ns", "end time (ns since the epoch)", p->end_ns);
	rc |= dp_rep_fact_u64(r, "duration_ns", "duration (ns)",
			      p->end_ns >= p->start_ns ? p->end_ns - p->start_ns : 0);
	if (p->exit_status)
		rc |= dp_rep_fact_u64(r, "exit_status", "exit status", p->exit_status - 1);
	rc |= dp_rep_fact_u64(r, "sample_period_ns", "sample period (ns)", p->sample_period_ns);
	rc |= dp_rep_fact_u64(r, "hz", "samples per second", p->hz);
	rc |= dp_rep_fact_u64(r, "samples_inside", "samples inside the runtime", p->samples_inside);
	rc |= dp_rep_fact_u64(r, "samples_outside", "samples outside the runtime",
			      p->samples_outside);
	rc |= dp_rep_fact_u64(r, "total_callseqs", "call sequence counts", p->total_callseqs);
	if (p->lost_calls)
		rc |= dp_rep_fact_u64(r, "lost_calls", "calls lost", p->lost_calls);
	if (p->lost_samples)
		rc |= dp_rep_fact_u64(r, "lost_samples", "samples lost", p->lost_samples);
	if (p->lost_allocs)
		rc |= dp_rep_fact_u64(r, "lost_allocs", "allocations lost", p->lost_allocs);
	if (p->stop_reason)
		rc |= dp_rep_fact_str(r, "stop_reason", "collection stopped because",
				      dp_profile_str(p, p->stop_reason));
	return rc < 0 ? -DP_ENOMEM : 0;
}

static int menu_count_facts(struct dp_report *r, const struct dp_report_ctx *c)
{
	const struct dp_profile *p = c->p;
	int rc = 0;

	rc |= dp_rep_fact_u64(r, "n_threads", "threads", p->n_threads);
	rc |= dp_rep_fact_u64(r, "n_ps", "procedures (ProcStatic)", p->n_ps);
	rc |= dp_rep_fact_u64(r, "n_css", "call sites (CallSiteStatic)", p->n_css);
	rc |= dp_rep_fact_u64(r, "n_pd", "procedure contexts (ProcDynamic)", p->n_pd);
	rc |= dp_rep_fact_u64(r, "n_csd", "call site contexts (CallSiteDynamic)", p->n_csd);
	rc |= dp_rep_fact_u64(r, "n_cliques", "cliques", c->a->n_cliques);
	rc |= dp_rep_fact_u64(r, "n_modules", "modules", c->a->n_modules);
	rc |= dp_rep_fact_u64(r, "n_objects", "objects", p->n_objects);
	rc |= dp_rep_fact_u64(r, "root_samples", "samples (root total)", r->root_total.samples);
	rc |= dp_rep_fact_u64(r, "root_callseqs", "callseqs (root total)", r->root_total.callseqs);
	rc |= dp_rep_fact_u64(r, "root_allocs", "allocations (root total)", r->root_total.allocs);
	rc |= dp_rep_fact_u64(r, "root_bytes", "bytes allocated (root total)",
			      r->root_total.alloc_bytes);
	return rc < 0 ? -DP_ENOMEM : 0;
}

/* link_page - a link to @page with default parameters (prefs kept) */
static int link_page(struct dp_report *r, const char *label, enum dp_page page)
{
	struct dp_query q = r->q;

	dp_query_reset_params(&q, page);
	return dp_rep_link(r, label, &q);
}

/* link_top - a link to the top page: ranks 1-100 (@pct < 0), or >= @pct % / >= @val */
static int link_top(struct dp_report *r, const char *label, enum dp_metric m, enum dp_scope s,
		    enum dp_limit_kind kind, double value)
{
	struct dp_query q = r->q;

	dp_query_reset_params(&q, DP_PAGE_TOP);
	q.metric = m;
	q.scope = s;
	q.per = DP_PER_OVERALL;
	q.limit_kind = kind;
	q.limit_lo = 1;
	q.limit_hi = 100;
	q.limit_value = kind == DP_LIMIT_RANKS ? 0.0 : value;
	return dp_rep_link(r, label, &q);
}

static int menu_top_links(struct dp_report *r, bool time)
{
	const enum dp_limit_kind k = DP_LIMIT_RANKS;
	const enum dp_scope s = DP_SCOPE_SELF, t = DP_SCOPE_TOTAL;
	int rc = 0;

	if (time) {
		rc |= link_top(r, "Top 100 by time, self", DP_METRIC_TIME, s, k, 0);
		rc |= link_top(r, "Top 100 by time, total", DP_METRIC_TIME, t, k, 0);
	}
	rc |= link_top(r, "Top 100 by calls", DP_METRIC_CALLS, s, k, 0);
	rc |= link_top(r, "Top 100 by callseqs, self", DP_METRIC_CALLSEQS, s, k, 0);
	rc |= link_top(r, "Top 100 by callseqs, total", DP_METRIC_CALLSEQS, t, k, 0);
	rc |= link_top(r, "Top 100 by allocations, self", DP_METRIC_ALLOCS, s, k, 0);
	rc |= link_top(r, "Top 100 by allocations, total", DP_METRIC_ALLOCS, t, k, 0);
	rc |= link_top(r, "Top 100 by bytes, self", DP_METRIC_BYTES, s, k, 0);
	rc |= link_top(r, "Top 100 by bytes, total", DP_METRIC_BYTES, t, k, 0);
	return rc < 0 ? -DP_ENOMEM : 0;
}

static int menu_threshold_links(struct dp_report *r, bool time)
{
	const enum dp_limit_kind pct = DP_LIMIT_PCT;
	const enum dp_scope s = DP_SCOPE_SELF, t = DP_SCOPE_TOTAL;
	int rc = 0;

	if (time) {
		rc |= link_top(r, "At least 0.1% of the time, self", DP_METRIC_TIME, s, pct, 0.1);
		rc |= link_top(r, "At least 1% of the time, total", DP_METRIC_TIME, t, pct, 1.0);
		rc |= link_top(r, "At least 1 second, total", DP_METRIC_TIME, t, DP_LIMIT_VAL, 1.0);
	}
	rc |= link_top(r, "At least 0.1% of the callseqs, self", DP_METRIC_CALLSEQS, s, pct, 0.1);
	rc |= link_top(r, "At least 1% of the callseqs, total", DP_METRIC_CALLSEQS, t, pct, 1.0);
	rc |= link_top(r, "At least 0.1% of the bytes, self", DP_METRIC_BYTES, s, pct, 0.1);
	rc |= link_top(r, "At least 1% of the bytes, total", DP_METRIC_BYTES, t, pct, 1.0);
	return rc < 0 ? -DP_ENOMEM : 0;
}

static int menu_links(struct dp_report *r)
{
	bool time = r->root_total.samples > 10;
	struct dp_query q = r->q;
	int rc = 0;

	rc |= link_page(r, "The call graph from the root", DP_PAGE_ROOT);
	dp_query_reset_params(&q, DP_PAGE_ACTION);
	q.percent = 90.0;
	rc |= dp_rep_link(r, "Where most of the cost is (action)", &q);
	rc |= link_page(r, "Modules (source files)", DP_PAGE_MODULES);
	rc |= link_page(r, "Threads", DP_PAGE_THREADS);
	rc |= link_page(r, "Flame graph", DP_PAGE_FLAME);
	if (rc < 0)
		return -DP_ENOMEM;
	rc = menu_top_links(r, time);
	return rc < 0 ? rc : menu_threshold_links(r, time);
}

/* the note saying how many samples the runtime took in itself, left out of everything */
static int menu_runtime_note(struct dp_report *r, const struct dp_profile *p)
{
	uint64_t in = p->samples_inside, all = in + p->samples_outside;

	if (!in || !all)
		return 0;
	r->note =
		dp_rep_printf(r,
			      "%.1f%% of the CPU samples (%" PRIu64 " of %" PRIu64 ") fell inside "
			      "deepprof's own runtime (its hooks and bookkeeping); every cost and "
			      "percentage below leaves them out.",
			      100.0 * (double)in / (double)all, in, all);
	return r->note ? 0 : -DP_ENOMEM;
}

/* the answers first: the top 5 by self and by total cost, and the hot path */
static int menu_sections(struct dp_report *r, const struct dp_report_ctx *c)
{
	bool time = r->root_total.samples > 10;
	enum dp_metric m = time ? DP_METRIC_TIME : DP_METRIC_CALLSEQS;
	struct dp_rep_rows self, total, path;
	uint32_t end = 0;
	int rc;

	dp_rep_rows_init(&self, r);
	dp_rep_rows_init(&total, r);
	dp_rep_rows_init(&path, r);
	rc = dp_rep_top_rows(r, c, m, DP_SCOPE_SELF, 5, &self);
	/* a sort= given orders the 5 (a header clicked), as on the top page */
	if (rc == 0 && !r->q.sort_default)
		rc = dp_rep_sort(r, self.rows, self.n, &r->q.prefs);
	if (rc == 0)
		rc = dp_rep_section(r, "top_self",
				    time ? "Top 5 by self time" : "Top 5 by self callseqs", &self);
	if (rc == 0)
		rc = dp_rep_top_rows(r, c, m, DP_SCOPE_TOTAL, 5, &total);
	if (rc == 0 && !r->q.sort_default)
		rc = dp_rep_sort(r, total.rows, total.n, &r->q.prefs);
	if (rc == 0)
		rc = dp_rep_section(r, "top_total",
				    time ? "Top 5 by total time" : "Top 5 by total callseqs",
				    &total);
	if (rc == 0 && c->a->root_clique)
		rc = dp_rep_hot_path(r, c, m, 90.0, 8, &path, &end);
	if (rc == 0)
		rc = dp_rep_section(r, "hot_path", "Hot path (calls holding 90% of the total)",
				    &path);
	return rc;
}

int dp_rep_menu(struct dp_report *r, const struct dp_report_ctx *c)
{
	int rc;

	program_row(r, c, &r->subject);
	r->has_subject = true;
	r->title = dp_rep_printf(r, "Deep profile of %s", r->subject.name);
	if (!r->title)
		return -DP_ENOMEM;
	rc = menu_run_facts(r, c->p);
	if (rc == 0)
		rc = menu_count_facts(r, c);
	if (rc == 0)
		rc = menu_runtime_note(r, c->p);
	if (rc == 0)
		rc = menu_sections(r, c);
	return rc < 0 ? rc : menu_links(r);
}

/* ------------------------------------------------------------------ threads --- */

/* A thread and the root PD it is under in this view, for grouping threads by root. */
struct thread_root {
	uint32_t pd, thread;
};

static int cmp_thread_root(const void *x, const void *y)
{
	const struct thread_root *a = x, *b = y;

	if (a->pd != b->pd)
		return a->pd < b->pd ? -1 : 1;
	return (a->thread > b->thread) - (a->thread < b->thread);
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return (a > b) - (a < b);
}

/*
 * name_threads - fill @row's id, thread, n and name from the threads whose root is @pd:
 * tr[0..n_tr) sorted by PD. A PD that names its thread (per-thread view) is that thread.
 */
static int name_threads(struct dp_report *r, const struct dp_report_ctx *c,
			const struct thread_root *tr, uint32_t n_tr, uint32_t pd,
			struct dp_rep_row *row)
{
	const struct dp_profile *p = c->p;
	struct thread_root key = {pd, 0};
	const struct thread_root *lo = tr, *hi = tr + n_tr;

	row->kind = DP_ENT_THREAD;
	row->thread = p->pd[pd].thread <= p->n_threads ? p->pd[pd].thread : 0;
	while (lo < hi) { /* first entry with pd >= key.pd */
		const struct thread_root *mid = lo + (hi - lo) / 2;

		if (cmp_thread_root(mid, &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	row->n = 0;
	for (const struct thread_root *t = lo; t < tr + n_tr && t->pd == pd; t++)
		if (row->n++ == 0)
			row->id = t->thread;
	if (row->thread && row->n <= 1) {
		row->id = row->thread;
		row->n = 1;
	} else {
		row->thread = 0;
		row->flags |= DP_ROW_SUM;
	}
	/* named by what they run and their numbers: the OS names are mostly the program's */
	row->name = row->n ? dp_rep_thread_name(r, c, pd) : "(threads)";
	return 0;
}

static const char *thread_flags(uint32_t f)
{
	static const char *const names[8] = {
		"",	   "ended",	    "main",	    "ended,main",
		"stopped", "ended,stopped", "main,stopped", "ended,main,stopped",
	};

	return names[f & 7u];
}

/* thread_fact - fact "thread_T_@field" labelled "thread T @what": @s if non-NULL, else @v */
static int thread_fact(struct dp_report *r, uint32_t t, const char *field, const char *what,
		       uint64_t v, const char *s)
{
	const char *key = dp_rep_printf(r, "thread_%u_%s", t, field);
	const char *label = dp_rep_printf(r, "thread %u %s", t, what);

	if (!key || !label)
		return -DP_ENOMEM;
	return s ? dp_rep_fact_str(r, key, label, s) : dp_rep_fact_u64(r, key, label, v);
}

static int thread_facts(struct dp_report *r, const struct dp_profile *p)
{
	for (uint32_t t = 1; t <= p->n_threads; t++) {
		const struct dp_thread *th = &p->threads[t];
		int rc = 0;

		rc |= thread_fact(r, t, "tid", "tid", th->tid, NULL);
		rc |= thread_fact(r, t, "start_ns", "start (ns)", th->start_ns, NULL);
		rc |= thread_fact(r, t, "end_ns", "end (ns)", th->end_ns, NULL);
		rc |= thread_fact(r, t, "samples_inside", "samples inside the runtime",
				  th->samples_inside, NULL);
		rc |= thread_fact(r, t, "flags", "flags", 0, thread_flags(th->flags));
		if (rc < 0)
			return dp_error(DP_ENOMEM, "out of memory listing threads");
	}
	return 0;
}

/* thread_roots - the threads sorted by their root PD in this view (NULL: no memory) */
static struct thread_root *thread_roots(struct dp_report *r, const struct dp_profile *p)
{
	struct thread_root *tr = dp_arena_array(&r->arena, (size_t)p->n_threads + 1, sizeof(*tr));

	if (!tr)
		return NULL;
	for (uint32_t t = 1; t <= p->n_threads; t++)
		tr[t - 1] = (struct thread_root){p->threads[t].root_pd, t};
	qsort(tr, p->n_threads, sizeof(*tr), cmp_thread_root);
	return tr;
}

/* root_callees - the distinct callee PDs of the root PD, sorted; *@n set */
static uint32_t *root_callees(struct dp_report *r, const struct dp_report_ctx *c, uint32_t *n)
{
	const struct dp_analysis *a = c->a;
	uint32_t root = c->p->root_pd, k = 0;
	uint32_t cnt = root ? dp_csr_count(&a->pd_csds, root) : 0;
	uint32_t *ids = dp_arena_array(&r->arena, (size_t)cnt + 1, sizeof(*ids));

	if (!ids)
		return NULL;
	for (uint32_t i = 0; i < cnt; i++)
		ids[i] = a->pd_succ[a->pd_csds.start[root] + i];
	qsort(ids, cnt, sizeof(*ids), cmp_u32);
	for (uint32_t i = 0; i < cnt; i++)
		if (k == 0 || ids[k - 1] != ids[i])
			ids[k++] = ids[i];
	*n = k;
	return ids;
}

/* row_has_thread - whether @row (of root PD @pd) stands for thread @t */
static bool row_has_thread(const struct dp_profile *p, uint32_t pd, const struct dp_rep_row *row,
			   uint32_t t)
{
	return row->thread ? row->thread == t : p->threads[t].root_pd == pd;
}

static int threads_rows(struct dp_report *r, const struct dp_report_ctx *c, struct dp_rep_rows *l)
{
	uint32_t n_roots = 0, n_tr = c->p->n_threads;
	uint32_t *roots = root_callees(r, c, &n_roots);
	struct thread_root *tr = thread_roots(r, c->p);

	if (!roots || !tr)
		return dp_error(DP_ENOMEM, "out of memory listing threads");
	for (uint32_t i = 0; i < n_roots; i++) {
		struct dp_rep_row tmp, *row;

		memset(&tmp, 0, sizeof(tmp));
		dp_rep_row_pd(r, c, roots[i], &tmp);
		tmp.flags &= DP_ROW_INACTIVE;
		if (name_threads(r, c, tr, n_tr, roots[i], &tmp) < 0)
			return -DP_ENOMEM;
		if (r->q.thread && !row_has_thread(c->p, roots[i], &tmp, r->q.thread))
			continue;
		row = dp_rep_rows_add(l);
		if (!row)
			return -DP_ENOMEM;
		*row = tmp;
	}
	return 0;
}

/* cmp_row_id - thread rows by (lowest) thread index, then name */
static int cmp_row_id(const void *x, const void *y)
{
	const struct dp_rep_row *a = x, *b = y;

	if (a->id != b->id)
		return a->id < b->id ? -1 : 1;
	return strcmp(a->name, b->name);
}

int dp_rep_threads(struct dp_report *r, const struct dp_report_ctx *c)
{
	struct dp_rep_rows l;
	int rc;

	if (r->q.thread) {
		rc = dp_rep_check_id(r, "thread", r->q.thread, c->p->n_threads);
		if (rc < 0)
			return rc;
	}
	program_row(r, c, &r->subject);
	r->has_subject = true;
	r->title = dp_rep_printf(r, "Threads of %s", r->subject.name);
	if (!r->title)
		return -DP_ENOMEM;
	dp_rep_rows_init(&l, r);
	rc = threads_rows(r, c, &l);
	if (rc < 0)
		return rc;
	if (l.n > 1)
		qsort(l.rows, l.n, sizeof(*l.rows), cmp_row_id);
	if (r->q.prefs.sort == DP_SORT_SOURCE && r->q.prefs.sort_rev) {
		for (uint32_t i = 0; i < l.n / 2; i++) { /* source order: by thread number */
			struct dp_rep_row t = l.rows[i];

			l.rows[i] = l.rows[l.n - 1 - i];
			l.rows[l.n - 1 - i] = t;
		}
	} else if (r->q.prefs.sort != DP_SORT_SOURCE &&
		   (rc = dp_rep_sort(r, l.rows, l.n, &r->q.prefs)) < 0) {
		return rc;
	}
	rc = dp_rep_section(r, "threads", NULL, &l);
	return rc < 0 ? rc : thread_facts(r, c->p);
}
