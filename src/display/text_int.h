/*
 * display/text_int.h - what the text renderer's files share (text.c: pages and tables,
 * text_tree.c: the flame page as an indented tree). Private to src/display.
 */
#ifndef DP_DISPLAY_TEXT_INT_H
#define DP_DISPLAY_TEXT_INT_H

#include "display_int.h"

/* dp_text_pad - append @n spaces. Return: 0 or the buffer's sticky error. */
int dp_text_pad(struct dp_buf *out, size_t n);

/* dp_text_marker - what follows the name of a row with @flags (DP_ROW_*): " (rec)" for a
 * recursive call, " (contour)" for a row regrouped by contour exclusion, else "". */
const char *dp_text_marker(unsigned flags);

/* dp_text_tree - append flame block @b as an indented tree with ASCII guides, one node a
 * line (total %, self %, calls, name, file:line), names fitted to @width. */
void dp_text_tree(struct dp_buf *out, const struct dp_dblock *b, size_t width);

#endif /* DP_DISPLAY_TEXT_INT_H */
