/*
 * display/text_int.h - what the text renderer's files share (text.c: pages and tables,
 * text_tree.c: the flame page as an indented tree). Private to src/display.
 */
#ifndef DP_DISPLAY_TEXT_INT_H
#define DP_DISPLAY_TEXT_INT_H

#include <stdbool.h>

#include "display_int.h"

/* dp_text_pad - append @n spaces. Return: 0 or the buffer's sticky error. */
int dp_text_pad(struct dp_buf *out, size_t n);

/* dp_text_marker - what follows the name of a row with @flags (DP_ROW_*): " (rec)" for a
 * recursive call, " (contour)" for a row regrouped by contour exclusion, else "". */
const char *dp_text_marker(unsigned flags);

/* What the blocks of a text page share: the width, the common source directory left out
 * of every where, and what the tables left out (said once at the end of the page). */
struct dp_tpage {
	size_t width;
	const char *strip; /* the directory (ending in '/') every where starts with, or NULL */
	size_t strip_len;
	bool fields_default;  /* the default fields: groups may go to fit the width */
	bool omitted;	      /* exits and unwinds were left out of a table */
	struct dp_buf zero;   /* column groups left out, zero in every row ("bytes, allocs") */
	struct dp_buf narrow; /* column groups left out for the width */
};

/* dp_text_eol - end the buffer's line, its trailing spaces removed. */
void dp_text_eol(struct dp_buf *out);

/*
 * dp_text_wrap - append @text (line breaks kept) wrapped to @width columns at spaces:
 * the first line after @first, the others after @next (prefixes of spaces or a label);
 * a word longer than a line is cut. Every line ends with '\n'.
 */
void dp_text_wrap(struct dp_buf *out, const char *text, const char *first, const char *next,
		  size_t width);

/* dp_text_table - append table block @b laid out for page @pg (text_table.c). */
void dp_text_table(struct dp_buf *out, const struct dp_dblock *b, struct dp_tpage *pg);

/* dp_text_tree - append flame block @b as an indented tree with ASCII guides, one node a
 * line (total %, self %, calls, name, file:line), fitted to the page's width: deep nodes'
 * guides are shortened ("[37] |-- "), wheres cut to their file name before names are
 * shortened, the page's common source directory left out. */
void dp_text_tree(struct dp_buf *out, const struct dp_dblock *b, const struct dp_tpage *pg);

#endif /* DP_DISPLAY_TEXT_INT_H */
