/*
 * import/imp_int.h - private to src/import: the profile builder every importer feeds
 * (imp_build.c) and the input helpers (imp_input.c). The builder is the context-stack
 * walk of docs/IMPORTS.md: a foreign trace's calls and returns (or a sampled stack,
 * walked root first as a run of calls) move a per-thread stack of CSDs; a call to a
 * function already active on the stack folds onto the PD of its outermost activation, as
 * the runtime does.
 */
#ifndef DP_IMPORT_IMP_INT_H
#define DP_IMPORT_IMP_INT_H

#include <stddef.h>
#include <stdint.h>

#include "../core/hash.h"
#include "../format/profile.h"

/* ------------------------------------------------------------------- builder --- */

/* One activation on a context stack. @key is the importer's own identity of the
 * activation (uftrace: the function address its exit record carries). */
struct imp_frame {
	uint32_t csd, pd, ps;
	uint64_t key;
};

/* Per PD: the key and CSD of the last call made from it (an importer's cache). */
struct imp_pdc {
	uint64_t key;
	uint32_t csd;
};

/* A thread's context stack; f[0] is the thread root (the CSD from the program root). */
struct imp_stack {
	struct imp_frame *f;
	uint32_t n, cap;
	uint32_t thread;
};

/* The growing profile. Node arrays are 1-based as in struct dp_profile and are moved
 * into @p by imp_finish(); strings are interned into @p->strs from the start. */
struct imp {
	struct dp_profile *p;
	struct dp_ps *ps;
	struct dp_css *css;
	struct dp_pd *pd;
	struct dp_csd *csd;
	struct dp_thread *th;
	uint32_t *th_csd; /* [1..n_th]: the thread's root CSD */
	uint32_t n_ps, n_css, n_pd, n_csd, n_th;
	uint32_t cap_ps, cap_css, cap_pd, cap_csd, cap_th, cap_th_csd, cap_pdc;
	struct imp_pdc *pdc; /* [1..n_pd] */
	/* PS by (name, key, 1), CSS by (caller PS, site, callee PS if no site), CSD by
	   (caller PD, CSS, callee PS), thread by tid */
	struct dp_map3 ps_map, css_map, csd_map;
	struct dp_map64 th_map;
};

#define IMP_PS_THREAD 2u /* the PS of every thread root */

/* imp_begin - an empty profile in @p (initialised here): program root PS/PD, the thread
 * root PS and the program root's thread call site. Return: 0 or -DP_ENOMEM. */
int imp_begin(struct imp *b, struct dp_profile *p);

/* imp_thread - the thread with kernel id @tid, added (name @name, may be NULL) when new.
 * Return: its 1-based index, or -DP_ENOMEM. */
int64_t imp_thread(struct imp *b, uint64_t tid, const char *name);

/* imp_proc - the PS of a function named @name (@len bytes) and identified by @key too
 * (0 when the name alone identifies it; uftrace: its address), added when new with
 * entry address @addr (0 unknown). Return: the PS id, or -DP_ENOMEM. */
int64_t imp_proc(struct imp *b, const char *name, size_t len, uint64_t key, uint64_t addr);

/* imp_stack_start - make @s the empty stack of thread @thread (an index from
 * imp_thread()). Return: 0 or -DP_ENOMEM. */
int imp_stack_start(struct imp *b, struct imp_stack *s, uint32_t thread);

/*
 * imp_enter - call PS @ps from the top of @s through the call site at return address
 * @site (0: one site per caller and callee) and push the activation (key @key).
 * The CSD of (caller PD, site, callee PS) is found or made; a new one's callee PD is the
 * PD of @ps's activation on the stack if any (recursion folds onto the outermost
 * activation), else a new PD. Counts nothing: the caller adds calls, samples and so on.
 * Return: the CSD id (> 0), or -DP_ENOMEM / -DP_EFORMAT (a limit of the format passed).
 */
int64_t imp_enter(struct imp *b, struct imp_stack *s, uint32_t ps, uint64_t site, uint64_t key);

/*
 * imp_reenter - push the activation of CSD @csd (key @key) on @s: a call that
 * imp_enter() returned @csd for, made again from the same caller PD. Importers keep the
 * last (key, CSD) called from each PD in b->pdc and call this when the next call from
 * that PD has the same key, saving the lookups (the CSD of a caller PD and a key never
 * changes).
 * Return: 0 or -DP_ENOMEM.
 */
int imp_reenter(struct imp *b, struct imp_stack *s, uint32_t csd, uint64_t key);

/* imp_stack_release - free the stack's memory. */
void imp_stack_release(struct imp_stack *s);

/*
 * imp_finish - move the nodes into the profile, set the INFO totals (samples_outside,
 * total_callseqs), the symbolized flag and the ORIG fields: @tool, @input, @metrics
 * (DP_CSD_* bits measured), @note; INFO's program becomes @input if the importer set
 * none. The builder is released either way.
 * Return: 0 or -DP_ENOMEM.
 */
int imp_finish(struct imp *b, const char *tool, const char *input, uint32_t metrics,
	       const char *note);

/* imp_abort - release the builder and the profile after a failure. */
void imp_abort(struct imp *b);

/* imp_str - intern @len bytes into the profile's strings. Return: id or -DP_ENOMEM. */
int64_t imp_str(struct imp *b, const char *s, size_t len);

/* ------------------------------------------------------------------- input --- */

struct dp_import_opts;

/* imp_read_all - the whole file at @path in a malloc'd buffer (*@data, NUL-terminated,
 * *@len bytes without the NUL). Return: 0, -DP_ENOENT / -DP_EIO / -DP_ENOMEM. */
int imp_read_all(const char *path, char **data, size_t *len);

/* imp_map_file - the file at @path mapped read-only (*@data, *@len bytes; NULL for an
 * empty file): big binary inputs are walked in place. Release with imp_unmap_file().
 * Return: 0, -DP_ENOENT, -DP_EIO. */
int imp_map_file(const char *path, const uint8_t **data, size_t *len);
void imp_unmap_file(const uint8_t *data, size_t len);

/* imp_contents - @o's input: a copy of @o->data when set, else the file @o->input, as
 * imp_read_all() gives it. */
int imp_contents(const struct dp_import_opts *o, char **data, size_t *len);

/* imp_run_capture - run @argv (argv[0] found on PATH) and capture its standard output
 * into a malloc'd buffer as imp_read_all() does; stderr goes to ours. A non-zero exit
 * is an error naming @what. Return: 0, -DP_EIO, -DP_ENOMEM. */
int imp_run_capture(const char *const argv[], const char *what, char **data, size_t *len);

/* The importers (one file each): fill @b from @o->input and imp_finish() it; on failure
 * imp_abort() it and return the error (message "INPUT: position: problem"). */
int dp_imp_folded(struct imp *b, const struct dp_import_opts *o);
int dp_imp_uftrace(struct imp *b, const struct dp_import_opts *o);
int dp_imp_perf(struct imp *b, const struct dp_import_opts *o);
int dp_imp_pprof(struct imp *b, const struct dp_import_opts *o);

#endif /* DP_IMPORT_IMP_INT_H */
