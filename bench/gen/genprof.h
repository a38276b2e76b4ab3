/*
 * bench/gen/genprof.h - the large synthetic profile generator behind deepprof-genprof:
 * a static program (procedures in layers, modules, objects, call sites), then per thread
 * a calling-context tree grown depth-first with a node budget, recursion folded as the
 * runtime folds it, then consistent counters. Private to bench/gen.
 */
#ifndef DP_BENCH_GENPROF_H
#define DP_BENCH_GENPROF_H

#include <stdint.h>

#include "format/profile.h"

#define DP_GEN_LEVELS	 190 /* layers of the static call graph */
#define DP_GEN_MAX_DEPTH 200 /* deepest context (frames below a thread root) */

struct dp_gen_opts {
	uint64_t n_contexts; /* wanted PDs, about */
	uint32_t n_threads;
	uint64_t seed;
	uint64_t run; /* varies the counters only: runs of one program (deepprof merge) */
};

/* A function of the synthetic program (PS id = index + 3: 1 root, 2 thread). */
struct dp_gen_fn {
	uint32_t level;
	uint32_t first_site, n_sites; /* CSS ids first_site .. + n_sites - 1 */
	uint32_t n_pairs;	      /* (site, callee) pairs over its sites */
	uint32_t work_ns;	      /* own CPU time per call */
	uint32_t alloc_size;	      /* bytes per allocation, 0 = does not allocate */
};

/* A call site: its possible callees (PS ids) are callee[first .. first + n - 1]. */
struct dp_gen_site {
	uint32_t first, n;
};

/* One frame of the depth-first growth. */
struct dp_gen_frame {
	uint32_t pd, ps, csd; /* the PD, its PS, the CSD that created it */
	uint32_t saved_top;   /* ps_top[ps] before this frame */
	uint32_t next;	      /* next pair to visit */
	uint32_t bud;	      /* offset of its pairs' budgets in the budget stack */
	uint32_t pd_base;     /* PDs made before this frame */
	uint64_t act;	      /* activations (calls of the creating CSD) */
	uint64_t budget;      /* PDs this subtree may make, itself included */
	uint64_t spare;	      /* budget its finished children left unused */
};

struct dp_gen {
	struct dp_gen_opts o;
	uint64_t rng;  /* the structure: sites, callees, budgets */
	uint64_t crng; /* the counters (so threads can share a structure) */
	uint64_t worker_rng[2];
	struct dp_profile *p;
	uint32_t n_fn;
	struct dp_gen_fn *fn;	  /* [0..n_fn) */
	struct dp_gen_site *site; /* [1..n_css] */
	uint32_t *callee;	  /* the callee lists of the sites */
	uint32_t n_callee, cap_callee, cap_css;
	uint32_t lvl_first[DP_GEN_LEVELS + 1]; /* functions of level l: PS ids
						  lvl_first[l] .. lvl_first[l + 1] - 1 */
	/* the growing graph (malloc'd; handed to the profile at the end) */
	struct dp_pd *pd;
	struct dp_csd *csd;
	uint32_t cap_pd, cap_csd;
	/* growth state */
	uint32_t *ps_top; /* [PS] innermost PD of that PS on the stack, 0 = none */
	struct dp_gen_frame stack[DP_GEN_MAX_DEPTH + 2];
	uint32_t depth;
	uint64_t *budget; /* budget stack: one entry per pair of each frame */
	uint32_t n_budget, cap_budget;
	uint32_t thread;
	uint32_t *creator; /* [PD] the CSD that created it (0 for the root) */
	uint32_t cap_creator;
	uint64_t max_depth_seen, depth_sum; /* statistics */
};

/* dp_gen_next - the next value of the xorshift64* generator in @g. */
uint64_t dp_gen_next(struct dp_gen *g);

/* dp_gen_below - a uniform value in [0, @n) (@n > 0). */
uint32_t dp_gen_below(struct dp_gen *g, uint32_t n);

/* dp_gen_unit - a uniform double in [0, 1). */
double dp_gen_unit(struct dp_gen *g);

/*
 * dp_gen_static - the static program of @g (g->o, g->rng and g->p set, p initialised):
 * the artificial PSs and CSSs, the functions with their layers, names, modules, objects,
 * addresses and call sites. Return: 0 or -DP_ENOMEM.
 */
int dp_gen_static(struct dp_gen *g);

/*
 * dp_gen_threads - the program root, the threads and their calling-context trees, about
 * g->o.n_contexts PDs in all; recursion folded the runtime's way (a call to a function
 * active on the stack goes to that activation's PD). Return: 0 or -DP_ENOMEM.
 */
int dp_gen_threads(struct dp_gen *g);

/*
 * dp_gen_finish - derive callseqs (the calls each PD makes, spread over the CSDs
 * entering it) and INFO's totals, drop the functions never called (the runtime writes
 * only those), and move the PD and CSD arrays into g->p. Return: 0 or -DP_ENOMEM.
 */
int dp_gen_finish(struct dp_gen *g);

/* dp_gen_release - free what @g owns (not g->p). */
void dp_gen_release(struct dp_gen *g);

#endif /* DP_BENCH_GENPROF_H */
