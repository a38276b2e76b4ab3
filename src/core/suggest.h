/*
 * core/suggest.h - "did you mean": the edit distance between two words and the nearest
 * of a list of candidates, for messages about unknown names (pages, commands,
 * procedures). Depends on nothing.
 */
#ifndef DP_CORE_SUGGEST_H
#define DP_CORE_SUGGEST_H

#include <stddef.h>

/*
 * dp_edit_distance - the edit distance between @a and @b (insertions, deletions and
 * substitutions of bytes, and swaps of two neighbours, each counting one; ASCII letters
 * compared without case: the optimal string alignment distance), or @max + 1 when it
 * is larger than @max (the computation stops early). Words longer than 255 bytes
 * compare by their first 255.
 */
size_t dp_edit_distance(const char *a, const char *b, size_t max);

/* dp_suggest_max - the largest distance worth suggesting for @word: a third of its
 * length, at least 1, at most 3 (closer than that a name is a typo; farther, another
 * name). */
size_t dp_suggest_max(const char *word);

/*
 * dp_suggest - the candidate of @cands[0..@n) nearest to @word (the first of the
 * nearest), if within dp_suggest_max(@word) and not equal to @word; else NULL. NULL
 * entries are skipped. The result is one of @cands.
 */
const char *dp_suggest(const char *word, const char *const *cands, size_t n);

#endif /* DP_CORE_SUGGEST_H */
