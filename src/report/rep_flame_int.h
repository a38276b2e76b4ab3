/*
 * report/rep_flame_int.h - what the flame pages' files share: rep_flame.c (the flame
 * page, reading a node's children, rows), rep_flame_walk.c (the capped best-first walk of
 * either tree), rep_flame_callers.c (the inverted tree of a procedure's callers) and
 * flame_climb.c (the climb that makes that tree).
 * Private to those files.
 */
#ifndef DP_REPORT_REP_FLAME_INT_H
#define DP_REPORT_REP_FLAME_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "flame_index.h"
#include "report_int.h"

/* A node of either tree, as the pruning and ordering see it. */
struct fl_node {
	uint32_t id; /* flame: entry CSD (0: the depth-0 clique); callers: tree node */
	uint32_t depth;
	uint64_t value;
	const char *name;
	struct dp_costs own;
	struct dp_inherit desc;
	uint32_t n_other; /* > 0: an "(other)" row standing for that many nodes */
};

/* A node of the inverted (callers) tree: n counts the procedure's PDs whose chain of
 * callers passes through it (summed once the tree is built, with the costs). */
struct fc_node {
	uint32_t ps, parent, n;
	uint32_t child, sibling; /* first child, next sibling; 0 = none */
};

/* The costs of a callers tree node: sums over the PDs that n counts. */
struct fc_costs {
	struct dp_costs own;
	struct dp_inherit desc;
};

/* A child of a wide clique as dp_fl_kids() gives it lazily: its value and id. */
struct fl_lazy {
	uint64_t value;
	uint32_t id;
};

/* PDs of the procedure climbing their ancestor chain (merged ones climb as one): the
 * index of the first of them (into the climbers' arrays), where they are and their tree
 * node. */
struct fc_climb {
	uint32_t k, cur, node;
	uint32_t ps; /* cur's procedure, once it has stepped */
};

/* A node of the callees tree (flame&proc=N): a procedure at its place under its parent,
 * standing for its sources merged: f->es[src .. src + n_src). */
struct fe_node {
	uint32_t ps, src, n_src;
	uint64_t value;
	struct dp_costs own;
	struct dp_inherit desc;
};

/* A source of a callees tree node: clique @id (its children: the clique's), or, at the
 * top only, with @pd set, that PD, a member other than its clique's entry (its children:
 * the cliques it enters). */
struct fe_src {
	uint32_t id, pd;
};

struct fl {
	struct dp_report *r;
	const struct dp_report_ctx *c;
	enum dp_metric m;
	bool callers;			  /* flame_callers */
	bool callees;			  /* flame&proc=N: the callees tree, f->e */
	const char *sec;		  /* the section's id: NULL = "tree", else its facts are
					     prefixed "SEC_" (the sandwich's two trees) */
	uint32_t top;			  /* flame: the depth-0 clique; callers: the procedure */
	const struct dp_report_index *ix; /* flame: the analysis's index, or NULL */
	double min;			  /* values below are dropped */
	uint64_t min_v;			  /* flame: the smallest value v with (double)v >= min */
	uint32_t cap;	   /* the walk's node cap while it searches (0: none), which dp_fl_kids()
			      may raise min and min_v by (a wide clique's cap-th widest child) */
	struct fc_node *t; /* callers tree, t[0] unused, t[1] = the root */
	uint32_t n_t, cap_t;
	struct fc_costs *tc; /* the costs of the nodes of t, once it is built, */
	struct fc_costs *tk; /* and the sums over each one's children */
	uint64_t *tv; /* the callers tree nodes' values (dp_fl_value), packed: read per climber */
	uint32_t cap_tv;
	uint64_t cut; /* callers: the (cap + 1)-th largest value of the tree's nodes (0 if fewer),
			 a lower bound of the walk's threshold: its search skips the nodes below */
	struct fl_node *kids; /* dp_fl_kids(): the children of a node at least min */
	struct fl_node other; /* and the sum of the others, n_other = how many */
	bool lazy;	      /* or, instead of kids and other, */
	struct fl_lazy *lz;   /* the children at least min with their values only */
	uint32_t n_lz, cap_lz;
	struct fl_node all; /* and the sums over all the children (n_other = how many) */
	uint32_t n_kids, cap_kids;
	struct fe_node *e; /* callees tree, e[0] unused, e[1] = the root */
	uint32_t n_e, cap_e;
	struct fe_src *es; /* its nodes' sources */
	uint32_t n_es, cap_es;
	uint32_t *ps_mark; /* [n_ps + 1]: per procedure, the child made for it by the expansion
			      under way (+ 1; valid when ps_gen matches) */
	uint32_t *ps_gen, gen;
	uint32_t *kid_of; /* an expansion's children CSDs' nodes, in order */
	uint32_t cap_kid_of;
	uint32_t *flat; /* an expansion's children CSDs, then their cliques */
	uint32_t cap_flat;
};

/* dp_fl_value - the value of a node of costs @o + @d for metric @m (metric=calls weighs by
 * the callseqs of the subtree: calls are not inherited). */
uint64_t dp_fl_value(enum dp_metric m, const struct dp_costs *o, const struct dp_inherit *d);

/* dp_fl_min_value - the smallest value v with (double)v >= @min (a node of value v is
 * kept by a minimum of @min exactly when v >= it). */
uint64_t dp_fl_min_value(double min);

/* dp_fl_setup - zero @f for report @r in context @c, checking min_pct and metric.
 * Return: 0 or -DP_EUSAGE (message set). */
int dp_fl_setup(struct fl *f, struct dp_report *r, const struct dp_report_ctx *c);

/* dp_fl_kids - the children of node @id (flame: its entry CSD, 0 = the depth-0 clique;
 * callers: its tree node): those of value at least f->min into f->kids (own, desc and
 * value set), the sums of the others into f->other; or, for the wide cliques of the
 * flame index and for the callers tree (f->lazy), f->lz with ids and values only and the
 * sums over all children in f->all (dp_fl_costs() reads a child's costs). Return: 0 or
 * -DP_ENOMEM. */
int dp_fl_kids(struct fl *f, uint32_t id);

/* dp_fl_name - the label of node @id (not the depth-0 node). */
const char *dp_fl_name(struct fl *f, uint32_t id);

/* dp_fl_cap - the most nodes a page keeps: the context's flame_max_nodes, or
 * DP_FLAME_MAX_NODES (no page shows more than UINT32_MAX / 8). */
uint32_t dp_fl_cap(const struct fl *f);

/* dp_fl_costs - the own and desc costs of node @id (not the depth-0 node) into @x. */
void dp_fl_costs(const struct fl *f, uint32_t id, struct fl_node *x);

/* dp_fl_prefetch - prefetch what naming node @id and making its row read: @stage 0 its
 * CSD, 1 (a few nodes later, the CSD loaded) what the CSD points to. */
void dp_fl_prefetch(const struct fl *f, uint32_t id, int stage);

/* dp_fl_row - the row of node @x (x->n_other > 0: an "(other)" row, costs from @x; the
 * depth-0 node has id 0 for flame, 1 for callers). */
void dp_fl_row(struct fl *f, const struct fl_node *x, struct dp_rep_row *row);

/*
 * dp_fl_walk_capped - emit the tree from node @root_id (0 for flame, 1 for callers) in
 * preorder into section "tree" with the facts, keeping at most the context's
 * flame_max_nodes nodes (0: DP_FLAME_MAX_NODES): past that, the minimum is raised to the
 * smallest value that keeps at most that many and facts capped (the limit) and min_used
 * (the minimum applied, in % of @rv, the depth-0 node's value) say so.
 * Return: 0 or a negative dp_err (message set).
 */
int dp_fl_walk_capped(struct fl *f, uint32_t root_id, uint64_t rv);

/*
 * dp_fc_callers_tree - the callers tree of procedure f->top into @f (flame_climb.c): every
 * PD of the procedure climbs its ancestor chain at most @limit levels (0: all), from the
 * report index's prefix when it has one and @limit lets every level of it be made; the
 * nodes' costs are summed at the end, and f->cut is the tree's (cap + 1)-th largest value.
 * Return: 0 or -DP_ENOMEM.
 */
int dp_fc_callers_tree(struct fl *f, uint32_t limit);

/*
 * dp_fe_callees_root - make the root of the callees tree of procedure f->top in f->e: its
 * sources are the contexts of the procedure that no other context of it contains (an
 * entry PD stands for its whole clique), so that every cost under the procedure is
 * counted once whatever the recursion; its costs their sum (rep_flame_callees.c).
 * Return: 0 or -DP_ENOMEM.
 */
int dp_fe_callees_root(struct fl *f);

/* dp_fe_kids - dp_fl_kids() for the callees tree: the children of node @id, made (merged
 * by procedure) from the children of its sources. Return: 0 or -DP_ENOMEM. */
int dp_fe_kids(struct fl *f, uint32_t id);

/* dp_fl_path - the "path" section of a flame page from clique @root: the cliques from
 * @top down to @root's parent (rep_flame_ctx.c). Return: 0, -DP_ENOENT (@root is not
 * under @top) or -DP_ENOMEM. */
int dp_fl_path(struct dp_report *r, const struct dp_report_ctx *c, uint32_t top, uint32_t root);

/* dp_fl_members - the "members" section: the procedures of the recursive cliques of the
 * report's last section (a flame tree). Return: 0 or -DP_ENOMEM. */
int dp_fl_members(struct dp_report *r, const struct dp_report_ctx *c);

/* dp_fl_free - free what @f holds (not @f). */
void dp_fl_free(struct fl *f);

#endif /* DP_REPORT_REP_FLAME_INT_H */
