/*
 * analysis/diff.h - comparing two profiles procedure by procedure (`deepprof diff`):
 * each procedure's self cost of one metric in a base and a new profile, the change and
 * the relative change, sorted so that the procedure that changed most comes first.
 * Depends on format/.
 */
#ifndef DP_ANALYSIS_DIFF_H
#define DP_ANALYSIS_DIFF_H

#include <stdint.h>

#include "../core/arena.h"
#include "../core/buf.h"
#include "../core/strtab.h"
#include "../format/profile.h"

enum dp_diff_metric {
	DP_DIFF_TIME,	  /* CPU-time samples */
	DP_DIFF_CALLS,	  /* calls into the procedure */
	DP_DIFF_CALLSEQS, /* calls made by its activations */
	DP_DIFF_ALLOCS,	  /* heap allocations made by its activations */
	DP_DIFF_BYTES	  /* bytes of those allocations */
};

enum dp_diff_side {
	DP_DIFF_BOTH,	   /* the procedure is in both profiles */
	DP_DIFF_ONLY_BASE, /* only in the base profile (removed, or not run) */
	DP_DIFF_ONLY_NEW   /* only in the new profile */
};

/* One procedure or context: names borrowed from the profile it was found in (the new one
 * first) or from the diff. */
struct dp_diff_row {
	const char *name, *file; /* the procedure (a context's last one) */
	uint32_t line;		 /* 0 for contexts */
	uint32_t ctx;		 /* contexts: the id for dp_diff_ctx_path(); 0 for procedures */
	enum dp_diff_side side;
	uint64_t base_raw, new_raw; /* the counter: samples, calls, callseqs, allocs, bytes */
	double base, new_;	    /* the values compared: a share of the run's total (time,
				       unless absolute), ns (time, absolute) or the count */
	double change;		    /* new_ - base */
	double rel;		    /* change / base; NaN when base is 0 */
};

struct dp_diff_ctx;

struct dp_diff {
	struct dp_arena arena; /* owns rows */
	struct dp_diff_row *rows, *ctx_rows;
	uint32_t n_rows, n_ctx_rows;	     /* kept (at most the limit) */
	uint32_t n_rows_all, n_ctx_rows_all; /* with a cost in either profile */
	struct dp_strtab *keys;		     /* procedure keys "name\0file" */
	struct dp_diff_ctx *ctx;	     /* the contexts' chains */
	uint64_t base_total, new_total;	     /* the counter summed over each profile */
	double base_period_ns, new_period_ns;
};

/*
 * dp_diff_procs - compare @base and @new (borrowed; they must outlive @d) per procedure
 * (d->rows) and per calling context (d->ctx_rows): procedures match by name and source
 * file (unnamed ones by address), contexts by the chain of procedures from the root
 * that first reaches them (thread roots skipped: a context sums over threads). Each
 * side's self cost is the sum of @metric over the CSDs calling the procedure's (the
 * context's) PDs. Time is a share of each run's total samples unless @absolute (then
 * ns: samples times the sampling period). Rows are sorted by decreasing |change|, then
 * name; rows with no cost in either profile are left out, and only the first @limit of
 * each kind are kept (0 = all: d->n_rows and d->n_ctx_rows say how many there were
 * otherwise in d->n_rows_all, d->n_ctx_rows_all).
 * Return: 0 with @d filled (release with dp_diff_release()), or -DP_ENOMEM.
 */
int dp_diff_procs(const struct dp_profile *base, const struct dp_profile *new_,
		  enum dp_diff_metric metric, int absolute, uint32_t limit, struct dp_diff *d);

/* dp_diff_ctx_path - context @ctx as "main > parse > lex" in @b (reset first);
 * returns dp_buf_cstr(@b). */
const char *dp_diff_ctx_path(const struct dp_diff *d, uint32_t ctx, struct dp_buf *b);

/* dp_diff_release - free what @d owns. */
void dp_diff_release(struct dp_diff *d);

/* dp_diff_metric_parse - the metric named @s ("time", "calls", "callseqs", "allocs",
 * "bytes") into *@m; returns 0, or -1 for an unknown name. */
int dp_diff_metric_parse(const char *s, enum dp_diff_metric *m);

#endif /* DP_ANALYSIS_DIFF_H */
