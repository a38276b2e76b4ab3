/*
 * cli/diff_html.h - `deepprof diff --format=html`: the comparison of two profiles
 * (analysis/diff.h) as one self-contained HTML page (diff_html.c).
 */
#ifndef DP_CLI_DIFF_HTML_H
#define DP_CLI_DIFF_HTML_H

#include "../analysis/diff.h"
#include "../core/buf.h"

/* What the page says about the comparison. */
struct dp_diff_page {
	const char *base, *new_; /* the two files */
	const char *metric;	 /* "time", "calls", ... */
	int unit;		 /* 0 a count, 1 a share of each run (time), 2 ns (time) */
};

/*
 * dp_diff_html - append to @b the page of diff @d: a heading naming both files and the
 * metric, then the procedures and the contexts, each a table of base, new, change and
 * relative change (the change cell tinted red where the cost grew, blue where it shrank,
 * the deeper the larger the change), the name, file:line and which side has it; every
 * string escaped. The buffer's sticky error tells of failure.
 */
void dp_diff_html(struct dp_buf *b, const struct dp_diff *d, const struct dp_diff_page *pg);

#endif /* DP_CLI_DIFF_HTML_H */
