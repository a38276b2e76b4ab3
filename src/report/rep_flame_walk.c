/*
 * report/rep_flame_walk.c - the walk both flame pages share: one best-first search that
 * takes the nodes of the tree widest first, at most the node cap of them, then emits the
 * nodes kept in preorder with their "(other)" rows. rep_flame.c reads a node's children
 * and makes its rows; the rules (pruning by min, the cap, the order) are in its header.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/vec.h"
#include "rep_flame_int.h"

/* A candidate of the search: a child not taken yet. */
struct fl_cand {
	uint64_t value;
	uint32_t id, parent; /* parent: the index of its parent's record */
	uint32_t cost;	     /* its costs: fl_walk.cost[cost], or FL_UNREAD */
};

/* The costs of a candidate, kept from the read of its parent's children (unless that
 * read was lazy: read when taken). */
#define FL_UNREAD UINT32_MAX

/* The most nodes the walk makes room for at once (more grow as needed): a context may set
 * a cap far beyond any page. */
#define FL_ROOM 65536u

struct fl_cost {
	struct dp_costs own;
	struct dp_inherit desc;
};

/* A node taken by the search, in the order taken (never before its parent). */
struct fl_rec {
	uint32_t id, depth;
	uint32_t parent;   /* the parent's record; 0 for the depth-0 node (record 0) */
	uint32_t n_kids;   /* its children, kept or not (expanded nodes only) */
	uint32_t first, n; /* its kept children: fl_walk.kid[first .. first + n) */
	bool expanded;
	bool kept;
	uint64_t value;
	struct dp_costs own; /* the node's own costs, and the sums over all its children */
	struct dp_inherit desc;
	struct dp_costs kid_own;
	struct dp_inherit kid_desc;
	uint64_t kid_value;
};

/* A kept child: its label, node id and record. */
struct fl_kid {
	const char *name;
	uint32_t id, rec;
};

struct fl_walk {
	struct fl_cand *heap;
	uint32_t n_heap, cap_heap;
	struct fl_cost *cost;
	uint32_t n_cost, cap_cost;
	struct fl_rec *rec;
	uint32_t n_rec, cap_rec;
	struct fl_kid *kid; /* kept children, grouped by parent, each group sorted */
	uint32_t *stack;
	struct fl_node *others; /* emit()'s "(other)" rows waiting for their turn */
};

/* heap_push / heap_pop - the max-heap of candidates by value */
static int heap_push(struct fl_walk *w, struct fl_cand x)
{
	struct fl_cand *h;
	uint32_t i;

	if (dp_vec_grow(&w->heap, &w->cap_heap, w->n_heap + 1, sizeof(*w->heap)) < 0)
		return -DP_ENOMEM;
	h = w->heap;
	for (i = w->n_heap++; i > 0 && h[(i - 1) / 2].value < x.value; i = (i - 1) / 2)
		h[i] = h[(i - 1) / 2];
	h[i] = x;
	return 0;
}

static struct fl_cand heap_pop(struct fl_walk *w)
{
	struct fl_cand *h = w->heap, top = h[0], last = h[--w->n_heap];
	uint32_t i = 0, c, n = w->n_heap;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && h[c + 1].value > h[c].value)
			c++;
		if (h[c].value <= last.value)
			break;
		h[i] = h[c];
		i = c;
	}
	if (n)
		h[i] = last;
	return top;
}

/* take - record candidate @x as taken at @depth (its costs read); its index, or
 * UINT32_MAX on out of memory */
static uint32_t take(struct fl *f, struct fl_walk *w, const struct fl_cand *x, uint32_t depth)
{
	struct fl_rec *e;

	if (dp_vec_grow(&w->rec, &w->cap_rec, w->n_rec + 1, sizeof(*w->rec)) < 0)
		return UINT32_MAX;
	e = &w->rec[w->n_rec];
	memset(e, 0, sizeof(*e));
	e->id = x->id;
	e->depth = depth;
	e->parent = x->parent;
	e->value = x->value;
	if (w->n_rec && x->cost == FL_UNREAD) {
		struct fl_node n;

		dp_fl_costs(f, x->id, &n);
		e->own = n.own;
		e->desc = n.desc;
	} else if (w->n_rec) { /* the depth-0 node's row comes from its clique or procedure */
		e->own = w->cost[x->cost].own;
		e->desc = w->cost[x->cost].desc;
	}
	return w->n_rec++;
}

/* expand - read the children of record @i: their sums into it, those at least f->min
 * into the heap */
static int expand(struct fl *f, struct fl_walk *w, uint32_t i)
{
	struct fl_rec *e = &w->rec[i];
	int rc = dp_fl_kids(f, e->id);

	if (rc < 0)
		return rc;
	e->expanded = true;
	if (f->lazy) {
		e->n_kids = f->all.n_other;
		e->kid_own = f->all.own;
		e->kid_desc = f->all.desc;
		e->kid_value = f->all.value;
		for (uint32_t k = 0; k < f->n_lz && rc == 0; k++)
			rc = heap_push(w,
				       (struct fl_cand){f->lz[k].value, f->lz[k].id, i, FL_UNREAD});
		return rc;
	}
	e->n_kids = f->n_kids + f->other.n_other;
	e->kid_own = f->other.own;
	e->kid_desc = f->other.desc;
	e->kid_value = f->other.value;
	for (uint32_t k = 0; k < f->n_kids; k++) {
		dp_costs_add(&e->kid_own, &f->kids[k].own);
		dp_inherit_add(&e->kid_desc, &f->kids[k].desc);
		e->kid_value += f->kids[k].value;
	}
	if (dp_vec_grow(&w->cost, &w->cap_cost, w->n_cost + f->n_kids, sizeof(*w->cost)) < 0)
		return -DP_ENOMEM;
	for (uint32_t k = 0; k < f->n_kids && rc == 0; k++) {
		const struct fl_node *x = &f->kids[k];

		w->cost[w->n_cost] = (struct fl_cost){x->own, x->desc};
		rc = heap_push(w, (struct fl_cand){x->value, x->id, i, w->n_cost++});
	}
	return rc;
}

/*
 * search - take the nodes of the tree from the depth-0 node best-first, widest first,
 * expanding each taken node (f->min prunes as on the page), until @cap are taken. A
 * node's value never exceeds its parent's (inherited costs include the children's), so
 * the nodes taken are the widest of the tree, in non-increasing order of value. *@t: the
 * smallest value that keeps at most @cap nodes, the value of the last one taken (one more
 * when the next one ties with it); 0 when the tree has no more than @cap nodes. With
 * f->cap set, reading a wide clique's children raises the minimum to its cap-th widest
 * child, a lower bound of *@t (with the depth-0 node, cap + 1 nodes are at least that
 * wide, so leaving out the narrower ones neither hides the node after the last taken,
 * which the tie rule looks at, nor makes a tree of more than @cap nodes look as if it
 * fitted); the minimum is restored at the end.
 */
static int search(struct fl *f, struct fl_walk *w, uint32_t root_id, uint32_t cap, uint64_t *t)
{
	uint32_t limit = f->r->q.depth, room = cap < FL_ROOM ? cap : FL_ROOM;
	uint64_t last = UINT64_MAX, min_v = f->min_v;
	double min = f->min;
	int rc = heap_push(w, (struct fl_cand){UINT64_MAX, root_id, 0, 0});

	*t = 0;
	f->cap = cap;
	/* room for the usual case at once: growing copies (a cost is 88 bytes) */
	if (rc == 0)
		rc = dp_vec_grow(&w->rec, &w->cap_rec, room + 1, sizeof(*w->rec));
	if (rc == 0)
		rc = dp_vec_grow(&w->cost, &w->cap_cost, 4 * room, sizeof(*w->cost));
	if (rc == 0)
		rc = dp_vec_grow(&w->heap, &w->cap_heap, 4 * room, sizeof(*w->heap));
	if (rc == 0)
		rc = dp_vec_grow(&f->kids, &f->cap_kids, room + 1, sizeof(*f->kids));
	while (w->n_heap && rc == 0) {
		struct fl_cand x = heap_pop(w);
		uint32_t depth = w->n_rec ? w->rec[x.parent].depth + 1 : 0, i;

		if (w->n_rec == cap) {
			*t = x.value == last && last < UINT64_MAX ? last + 1 : last;
			break;
		}
		last = x.value;
		i = take(f, w, &x, depth);
		if (i == UINT32_MAX) {
			rc = -DP_ENOMEM;
			break;
		}
		if (limit && depth + 1 >= limit)
			continue;
		rc = expand(f, w, i);
	}
	f->cap = 0;
	f->min_v = min_v;
	f->min = min;
	return rc;
}

/* kid_cmp - kept children by label, ties by id */
static int kid_cmp(const void *x, const void *y)
{
	const struct fl_kid *a = x, *b = y;
	int d = strcmp(a->name, b->name);

	return d ? d : (a->id > b->id) - (a->id < b->id);
}

/*
 * keep - mark the records kept (value at least @t, parent kept; all when @t is 0), name
 * them and list each one's kept children in w->kid, sorted by name. Records come after
 * their parents, so one pass in order decides. Return: the number kept, or -DP_ENOMEM.
 */
static int64_t keep(struct fl *f, struct fl_walk *w, uint64_t t)
{
	uint32_t n_kept = 1;

	w->kid = malloc(((size_t)w->n_rec + 1) * sizeof(*w->kid));
	if (!w->kid)
		return dp_error(DP_ENOMEM, "out of memory building a flame graph");
	w->rec[0].kept = true;
	for (uint32_t i = 1; i < w->n_rec; i++) { /* count each one's kept children */
		struct fl_rec *e = &w->rec[i];

		e->kept = w->rec[e->parent].kept && e->value >= t;
		n_kept += e->kept;
		w->rec[e->parent].n += e->kept;
	}
	for (uint32_t i = 0, next = 0; i < w->n_rec; i++) { /* their ranges */
		w->rec[i].first = next;
		next += w->rec[i].n;
		w->rec[i].n = 0;
	}
	for (uint32_t i = 1; i < w->n_rec; i++) { /* filled in order, then sorted */
		struct fl_rec *p = &w->rec[w->rec[i].parent];

		if (i + DP_REP_AHEAD < w->n_rec)
			dp_fl_prefetch(f, w->rec[i + DP_REP_AHEAD].id, 0);
		if (i + DP_REP_AHEAD / 2 < w->n_rec)
			dp_fl_prefetch(f, w->rec[i + DP_REP_AHEAD / 2].id, 1);

		if (w->rec[i].kept)
			w->kid[p->first + p->n++] =
				(struct fl_kid){dp_fl_name(f, w->rec[i].id), w->rec[i].id, i};
	}
	for (uint32_t i = 0; i < w->n_rec; i++)
		if (w->rec[i].n > 1)
			qsort(w->kid + w->rec[i].first, w->rec[i].n, sizeof(*w->kid), kid_cmp);
	return n_kept;
}

/* other_of - the "(other)" node of record @e: its children not kept */
static void other_of(const struct fl_walk *w, const struct fl_rec *e, struct fl_node *o)
{
	memset(o, 0, sizeof(*o));
	o->depth = e->depth + 1;
	o->name = "(other)";
	o->n_other = e->n_kids - e->n;
	o->value = e->kid_value;
	o->own = e->kid_own;
	o->desc = e->kid_desc;
	for (uint32_t k = 0; k < e->n; k++) {
		const struct fl_rec *c = &w->rec[w->kid[e->first + k].rec];

		o->value -= c->value;
		dp_costs_sub(&o->own, &c->own);
		dp_inherit_sub(&o->desc, &c->desc);
	}
}

/* fact_u64 / fact_f64 - fact @key of @f's tree, keyed "SEC_KEY" and labelled "SEC:
 * LABEL" for a named section */
static int fact_u64(struct fl *f, const char *key, const char *label, uint64_t v)
{
	if (f->sec && (!(key = dp_rep_printf(f->r, "%s_%s", f->sec, key)) ||
		       !(label = dp_rep_printf(f->r, "%s: %s", f->sec, label))))
		return -DP_ENOMEM;
	return dp_rep_fact_u64(f->r, key, label, v);
}

static int fact_f64(struct fl *f, const char *key, const char *label, double v)
{
	if (f->sec && (!(key = dp_rep_printf(f->r, "%s_%s", f->sec, key)) ||
		       !(label = dp_rep_printf(f->r, "%s: %s", f->sec, label))))
		return -DP_ENOMEM;
	return dp_rep_fact_f64(f->r, key, label, v);
}

/* clique_self - a node of a clique of several procedures, its children read (@e): its
 * self is all its members' own, what its total leaves to its children (the entry's
 * own alone, 0 for an interpreter's entry, would hide where the recursion's time is);
 * calls stay the entry's. */
static void clique_self(const struct fl_rec *e, struct dp_rep_row *row)
{
	struct dp_inherit kids = dp_costs_inherit(&e->kid_own);

	dp_inherit_add(&kids, &e->kid_desc);
	row->own.samples = row->own.samples + row->desc.samples - kids.samples;
	row->own.callseqs = row->own.callseqs + row->desc.callseqs - kids.callseqs;
	row->own.allocs = row->own.allocs + row->desc.allocs - kids.allocs;
	row->own.alloc_bytes = row->own.alloc_bytes + row->desc.alloc_bytes - kids.alloc_bytes;
	row->desc = kids;
}

/*
 * emit - the kept records in preorder into section "tree", each expanded one's kept
 * children (sorted by name) followed by its "(other)" row when the children not kept add
 * up to at least f->min; facts kept and dropped.
 */
static int emit(struct fl *f, struct fl_walk *w, uint32_t n_kept)
{
	struct dp_rep_rows l;
	uint32_t n_stack = 0, n_others = 0, dropped = 0, n_rows = n_kept;
	int rc;

	/* an entry is a record (2i) or an "(other)" row (1), whose node waits in w->others:
	 * they are made and used in the same order, last in first out */
	w->stack = malloc(((size_t)w->n_rec * 2 + 1) * sizeof(*w->stack));
	w->others = malloc(((size_t)w->n_rec + 1) * sizeof(*w->others));
	if (!w->stack || !w->others)
		return dp_error(DP_ENOMEM, "out of memory building a flame graph");
	dp_rep_rows_init(&l, f->r);
	for (uint32_t i = 0; i < w->n_rec; i++) /* room for every row and "(other)" row */
		n_rows += w->rec[i].kept && w->rec[i].expanded && w->rec[i].n_kids > w->rec[i].n;
	rc = dp_rep_rows_room(&l, n_rows);
	w->stack[n_stack++] = 0;
	while (n_stack && rc == 0) {
		uint32_t s = w->stack[--n_stack];
		const struct fl_rec *e = &w->rec[s / 2]; /* (s odd: unused) */
		struct dp_rep_row *row = dp_rep_rows_add(&l);
		struct fl_node x, *o;

		if (!row)
			return -DP_ENOMEM;
		if (s & 1) {
			dp_fl_row(f, &w->others[--n_others], row);
			continue;
		}
		x = (struct fl_node){
			.id = e->id, .depth = e->depth, .own = e->own, .desc = e->desc};
		dp_fl_row(f, &x, row);
		if (!e->expanded)
			continue;
		if (!f->callers && !f->callees && row->clique &&
		    dp_csr_count(&f->c->a->clique_pds, row->clique) > 1)
			clique_self(e, row);
		o = &w->others[n_others];
		other_of(w, e, o);
		dropped += o->n_other;
		if (o->n_other && (double)o->value >= f->min) {
			n_others++;
			w->stack[n_stack++] = 1;
		}
		for (uint32_t k = e->n; k > 0; k--)
			w->stack[n_stack++] = 2 * w->kid[e->first + k - 1].rec;
	}
	if (rc == 0)
		rc = dp_rep_section(f->r, f->sec ? f->sec : "tree", NULL, &l);
	if (rc == 0)
		rc = fact_u64(f, "kept", "nodes kept", n_kept);
	if (rc == 0)
		rc = fact_u64(f, "dropped", "nodes dropped", dropped);
	if (rc == 0 && !f->sec)
		rc = dp_rep_fact_str(f->r, "metric", "metric", dp_metric_name(f->m));
	return rc;
}

int dp_fl_walk_capped(struct fl *f, uint32_t root_id, uint64_t rv)
{
	uint32_t cap = dp_fl_cap(f);
	struct fl_walk w = {0};
	bool capped;
	uint64_t t;
	int64_t n_kept;
	int rc = search(f, &w, root_id, cap, &t);

	capped = rc == 0 && t > f->min_v;
	if (capped)
		f->min = (double)t;
	n_kept = rc < 0 ? rc : keep(f, &w, capped ? t : 0);
	rc = n_kept < 0 ? (int)n_kept : emit(f, &w, (uint32_t)n_kept);
	if (rc == 0 && capped)
		rc = fact_u64(f, "capped", "nodes at most", cap);
	if (rc == 0 && capped)
		rc = fact_f64(f, "min_used", "minimum used (%)",
			      rv ? 100.0 * (double)t / (double)rv : 0.0);
	free(w.heap);
	free(w.cost);
	free(w.rec);
	free(w.kid);
	free(w.stack);
	free(w.others);
	return rc;
}
