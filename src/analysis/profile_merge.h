/*
 * analysis/profile_merge.h - merging profiles of many runs into one (`deepprof merge`,
 * and `deepprof run` for the processes of one run): counters summed context by context,
 * different programs each under a node of its own, the result numbered canonically so
 * that merging is associative and commutative to the byte. docs/MERGE.md has the rules.
 * Depends on format/ and on the merged thread view's closure (merge.c).
 */
#ifndef DP_ANALYSIS_PROFILE_MERGE_H
#define DP_ANALYSIS_PROFILE_MERGE_H

#include <stdint.h>

#include "../core/buf.h"
#include "../format/profile.h"

/* Match functions and call sites by name and source position instead of by address in
 * an object of the same build-id, and programs by file name instead of build-id: for
 * profiles of different builds of one program. */
#define DP_MERGE_FORCE (1u << 0)

/*
 * dp_profile_merge - merge the @n profiles @in[0..n) (borrowed; @names[i] names in[i] in
 * messages) into @out (uninitialised; release with dp_profile_release()):
 * - profiles of the same program (the build-id of the main object) are summed context by
 *   context: functions and call sites matched by object build-id and offset, threads by
 *   their entry functions and their ordinal among the threads with those, then calling
 *   contexts top-down (recursion stays folded); every counter and INFO total is the sum;
 * - several programs: the root calls one DP_PS_PROGRAM node per program (named by its
 *   path), which calls that program's threads;
 * - the result is canonical: ids are given in an order that depends only on the contents,
 *   so merging in any order and grouping gives the same profile (and the same file).
 * With DP_MERGE_FORCE, a line per input naming the functions that matched nothing in
 * the others is appended to @notes (may be NULL). @n == 1 gives the canonical form.
 * Return: 0; -DP_EFORMAT (message naming the input: coverage counts, which merge does
 * not handle, or an inconsistent profile built in memory); -DP_ENOMEM.
 */
int dp_profile_merge(const struct dp_profile *const *in, const char *const *names, uint32_t n,
		     unsigned flags, struct dp_buf *notes, struct dp_profile *out);

/*
 * dp_merge_files - read the @n data files @paths one at a time, fold them into one merged
 * profile (dp_profile_merge() of the result so far and the next file: memory stays that
 * of the largest two) and write it to @out_path atomically (dp_write_file()). @notes as
 * above. @n must be >= 1. The files are only read: @out_path may be one of them.
 * Return: 0, or the first error (-DP_EFORMAT / -DP_EIO / -DP_ENOENT naming the file,
 * -DP_ENOMEM); @out_path is left untouched on error.
 */
int dp_merge_files(const char *const *paths, uint32_t n, unsigned flags, struct dp_buf *notes,
		   const char *out_path);

/*
 * dp_merge_dir - dp_merge_files() on the files of directory @dir whose names end in
 * ".data" (not hidden), in name order: the per-process files of one run, for example.
 * Return: as dp_merge_files(); -DP_EIO if @dir cannot be read, -DP_ENOENT if it holds no
 * data file (both naming @dir).
 */
int dp_merge_dir(const char *dir, unsigned flags, struct dp_buf *notes, const char *out_path);

#endif /* DP_ANALYSIS_PROFILE_MERGE_H */
