/*
 * tests/unit/test_display_rep.h - hand-built reports for the display tests: a report
 * with a parsed query, sections and rows filled directly (no profile needed), and the
 * canned reports of every page kind the tests share.
 */
#ifndef DP_TEST_DISPLAY_REP_H
#define DP_TEST_DISPLAY_REP_H

#include "../../src/display/display.h"

/* tr_new - an empty report answering @qs (parsed with dp_query_parse; aborts if bad);
 * root totals 1000 samples, 50000 callseqs, 100 allocs, 1 MiB; 1 ms sample period. */
struct dp_report *tr_new(const char *qs);
/* tr_free - free a report made by tr_new and the tr_* builders. */
void tr_free(struct dp_report *r);
/* tr_section - append a section with room for @cap rows. */
struct dp_rep_section *tr_section(struct dp_report *r, const char *id, const char *title,
				  uint32_t cap);
/* tr_row - append a row (zeroed, then kind, id, depth, flags, name, file, line). */
struct dp_rep_row *tr_row(struct dp_rep_section *s, enum dp_ent kind, uint32_t id, uint32_t depth,
			  unsigned flags, const char *name, const char *file, uint32_t line);
/* tr_subject - make @r's subject row (has_subject; zeroed, then kind, id, name, file,
 * line). */
struct dp_rep_row *tr_subject(struct dp_report *r, enum dp_ent kind, uint32_t id, const char *name,
			      const char *file, uint32_t line);
/* tr_ids - set @row's procedure, clique, call site and module ids. */
void tr_ids(struct dp_rep_row *row, uint32_t ps, uint32_t clique, uint32_t css, uint32_t module);
/* tr_costs - set @row's calls (= exits), own samples/callseqs/bytes and desc ones. */
void tr_costs(struct dp_rep_row *row, uint64_t calls, uint64_t samples, uint64_t dsamples,
	      uint64_t callseqs, uint64_t dcallseqs, uint64_t bytes);

/* The canned reports. */
struct dp_report *tr_clique(const char *qs);  /* "Clique 3: fib", ancestors + procs */
struct dp_report *tr_flame(const char *qs);   /* main -> {a -> c, b, other} */
struct dp_report *tr_callers(const char *qs); /* callers page 2 of 5 */
struct dp_report *tr_menu(void);	      /* facts and starting links */

/* tr_render - @r built and rendered as text (@html false, width 100) or HTML (link
 * prefix "/?file=0&"); a malloc'd string the caller frees; aborts on failure. */
char *tr_render(const struct dp_report *r, bool html, unsigned width);
/* tr_render_error - dp_display_error(@status, @message, no query) rendered like
 * tr_render() with default options (links "?page=..."). */
char *tr_render_error(int status, const char *message, bool html);
/* tr_contains - whether @s contains @frag; prints both if not. */
int tr_contains(const char *s, const char *frag);

#endif /* DP_TEST_DISPLAY_REP_H */
