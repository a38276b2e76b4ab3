/*
 * export/export_int.h - what the writers of src/export share: the exported tree (one
 * node per calling context, in depth-first preorder, built by export.c), the chunked
 * output (optionally gzip-compressed), names and metric values. Private to src/export.
 */
#ifndef DP_EXPORT_EXPORT_INT_H
#define DP_EXPORT_EXPORT_INT_H

#include <stdint.h>

#include "../core/buf.h"
#include "export.h"

#define DP_EXP_NONE  UINT32_MAX
#define DP_EXP_CHUNK ((size_t)1 << 20)

/*
 * The exported calling-context tree: the PD graph below the roots walked depth first
 * (CSDs in increasing id), each PD a node the first time it is reached; the arcs that
 * reach an already visited PD (recursive calls back to an ancestor, folded by the
 * runtime onto its outermost activation) are kept apart in extra_csd. The program root,
 * and in the merged view the thread roots, are walked but are not nodes: their callees
 * become roots (depth 0).
 */
struct dp_exp_tree {
	const struct dp_analysis *a;
	const struct dp_profile *p;
	uint32_t n;	     /* nodes 0..n-1, in preorder */
	uint32_t *pd;	     /* [n] the node's PD */
	uint32_t *parent;    /* [n] parent node, DP_EXP_NONE for a root */
	uint32_t *depth;     /* [n] 0 for a root */
	uint32_t *in_csd;    /* [n] the CSD by which the walk reached it */
	uint32_t *pd_node;   /* [0..n_pd] each PD's node, DP_EXP_NONE if none */
	uint32_t n_extra;    /* CSDs between two nodes that are not tree arcs */
	uint32_t *extra_csd; /* [n_extra], with their caller's node in extra_from */
	uint32_t *extra_from;
	uint32_t cap_extra_csd, cap_extra_from;
	uint32_t max_depth;
	struct dp_costs total; /* the nodes' own costs summed */
	bool threads;	       /* per-thread view: thread roots are nodes */
};

/* The output: bytes gathered in buf, handed to write() (through deflate for pprof). */
struct dp_exp_out {
	struct dp_buf buf;
	dp_export_write_fn write;
	void *arg;
	void *z; /* z_stream when gzip-compressing, else NULL */
	unsigned char *zbuf;
};

/* dp_exp_flush - hand the buffered bytes on when there are DP_EXP_CHUNK of them (or
 * any, with @force). Return: 0, the buffer's sticky error or the write's. */
int dp_exp_flush(struct dp_exp_out *o, bool force);

/* dp_exp_own - the own costs of node @i. */
static inline struct dp_costs dp_exp_own(const struct dp_exp_tree *t, uint32_t i)
{
	return dp_analysis_pd_own(t->a, t->pd[i]);
}

/* dp_exp_value - the value of metric @m in costs @c: time in nanoseconds (samples times
 * the sampling period), the others as counted. */
uint64_t dp_exp_value(const struct dp_profile *p, const struct dp_costs *c, enum dp_metric m);

/* dp_exp_default_metric - time when the profile has samples, else calls. */
enum dp_metric dp_exp_default_metric(const struct dp_exp_tree *t);

/* dp_exp_name - the frame name of PD @pd: its procedure's name, a thread root as
 * "thread TID (NAME)", written into @buf when made. Owned by the profile or @buf. */
const char *dp_exp_name(const struct dp_exp_tree *t, uint32_t pd, char *buf, size_t len);

/* dp_exp_frame - the frame of node @i: its procedure id, or n_ps + thread for a thread
 * root of the per-thread view (all thread roots share one procedure, "<thread>"). */
uint32_t dp_exp_frame(const struct dp_exp_tree *t, uint32_t i);

/* dp_exp_frame_ps - the procedure of frame @f, 0 for a thread root (no file, no line). */
static inline uint32_t dp_exp_frame_ps(const struct dp_exp_tree *t, uint32_t f)
{
	return f <= t->p->n_ps ? f : 0;
}

/* dp_exp_thread - the 1-based thread index of node @i's thread (0 in the merged view). */
uint32_t dp_exp_thread(const struct dp_exp_tree *t, uint32_t i);

/* The writers, one file each. */
int dp_exp_folded(const struct dp_exp_tree *t, const struct dp_export_opts *o,
		  struct dp_exp_out *out);
int dp_exp_callgrind(const struct dp_exp_tree *t, const struct dp_export_opts *o,
		     struct dp_exp_out *out);
int dp_exp_pprof(const struct dp_exp_tree *t, const struct dp_export_opts *o,
		 struct dp_exp_out *out);
int dp_exp_speedscope(const struct dp_exp_tree *t, const struct dp_export_opts *o,
		      struct dp_exp_out *out);
int dp_exp_dot(const struct dp_exp_tree *t, const struct dp_export_opts *o, struct dp_exp_out *out);

#endif /* DP_EXPORT_EXPORT_INT_H */
