/*
 * core/suggest.c - edit distances for "did you mean" (suggest.h): the classic dynamic
 * program (with transpositions of neighbours, the optimal string alignment distance) over
 * three rows, stopped as soon as every entry of a row exceeds the bound.
 */
#define _POSIX_C_SOURCE 200809L /* strnlen */
#include "suggest.h"

#include <string.h>

#define DP_SUGGEST_LEN 255 /* longest prefix compared */

static unsigned char fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

size_t dp_edit_distance(const char *a, const char *b, size_t max)
{
	size_t la = strnlen(a, DP_SUGGEST_LEN), lb = strnlen(b, DP_SUGGEST_LEN);
	size_t rows[3][DP_SUGGEST_LEN + 1];
	size_t *pp = rows[0], *prev = rows[1], *row = rows[2], *t;

	if ((la > lb ? la - lb : lb - la) > max)
		return max + 1;
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		unsigned char ca = fold((unsigned char)a[i - 1]);
		size_t least = row[0] = i;

		for (size_t j = 1; j <= lb; j++) {
			unsigned char cb = fold((unsigned char)b[j - 1]);
			size_t sub = prev[j - 1] + (ca != cb), del = prev[j] + 1,
			       ins = row[j - 1] + 1;
			size_t v = sub < del ? sub : del;

			v = v < ins ? v : ins;
			/* two neighbours swapped ("tpo" for "top") count as one edit */
			if (i > 1 && j > 1 && ca == fold((unsigned char)b[j - 2]) &&
			    fold((unsigned char)a[i - 2]) == cb && pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			row[j] = v;
			least = v < least ? v : least;
		}
		if (least > max)
			return max + 1;
		t = pp;
		pp = prev;
		prev = row;
		row = t;
	}
	return prev[lb] > max ? max + 1 : prev[lb];
}

size_t dp_suggest_max(const char *word)
{
	size_t m = strlen(word) / 3;

	return m < 1 ? 1 : m > 3 ? 3 : m;
}

const char *dp_suggest(const char *word, const char *const *cands, size_t n)
{
	size_t best = dp_suggest_max(word), d;
	const char *found = NULL;

	for (size_t i = 0; i < n; i++) {
		if (!cands[i] || strcmp(cands[i], word) == 0)
			continue;
		d = dp_edit_distance(word, cands[i], best);
		if (d <= best && (!found || d < best)) {
			found = cands[i];
			best = d;
		}
	}
	return found;
}
