/*
 * analysis/pmerge_canon.c - the canonical numbering of a merged profile (dp_pm_canon()):
 * every id is given in an order that depends only on the profile's contents, so merges
 * of the same inputs in any order and grouping are the same file, byte for byte.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "pmerge_int.h"

static int nomem(void)
{
	return dp_error(DP_ENOMEM, "out of memory merging profiles");
}

struct key_ref {
	const char *s;
	uint32_t len, id;
};

static int cmp_key(const void *a, const void *b)
{
	const struct key_ref *x = a, *y = b;
	int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);

	if (c)
		return c;
	return (x->len > y->len) - (x->len < y->len);
}

/* Sort @n references @r (ids @r[j].id) and number them: @rank[id] = position + 1. */
static void sort_refs(struct key_ref *r, uint32_t n, uint32_t *order, uint32_t *rank)
{
	qsort(r, n, sizeof(*r), cmp_key);
	for (uint32_t j = 0; j < n; j++) {
		if (order)
			order[j] = r[j].id;
		rank[r[j].id] = j + 1;
	}
}

void dp_pm_sort_keys(const struct dp_strtab *t, uint32_t *order, uint32_t *rank)
{
	struct key_ref *r = malloc(((size_t)t->n + 1) * sizeof(*r));

	rank[0] = 0;
	if (!r) { /* no memory: an order that is at least consistent; the caller's next
		     allocation fails the same way */
		for (uint32_t id = 1; id < t->n; id++)
			if ((rank[id] = id) && order)
				order[id - 1] = id;
		return;
	}
	for (uint32_t id = 1; id < t->n; id++)
		r[id - 1] = (struct key_ref){t->str[id], t->len[id], id};
	sort_refs(r, t->n - 1, order, rank);
	free(r);
}

/* ------------------------------------------------------------------ strings --- */

struct canon {
	const struct dp_profile *m;
	struct dp_profile *out;
	uint32_t *str, *obj, *ps, *css, *thr; /* old id -> new id */
	uint32_t *obj_order;
	uint32_t *newpd, *pd_order, *csd_order;
};

static void mark(uint32_t *used, uint32_t id)
{
	used[id] = id;
}

/* c->str: the strings in use, numbered in order of their bytes; interned into out. */
static int canon_strings(struct canon *c)
{
	const struct dp_profile *m = c->m;
	uint32_t n = m->strs.n, k = 0, *used = calloc(n + 1, sizeof(*used));
	struct key_ref *r = malloc(((size_t)n + 1) * sizeof(*r));
	int rc = used && r ? dp_strtab_init(&c->out->strs) : nomem();

	for (uint32_t o = 1; rc == 0 && o <= m->n_objects; o++)
		mark(used, m->objects[o].path);
	for (uint32_t s = 1; rc == 0 && s <= m->n_ps; s++) {
		mark(used, m->ps[s].name);
		mark(used, m->ps[s].linkage_name);
		mark(used, m->ps[s].file);
	}
	for (uint32_t s = 1; rc == 0 && s <= m->n_css; s++)
		mark(used, m->css[s].file);
	for (uint32_t t = 1; rc == 0 && t <= m->n_threads; t++)
		mark(used, m->threads[t].name);
	for (uint32_t a = 0; rc == 0 && a < m->argc; a++)
		mark(used, m->argv[a]);
	if (rc == 0) {
		mark(used, m->program);
		mark(used, m->stop_reason);
	}
	for (uint32_t id = 1; rc == 0 && id < n; id++)
		if (used[id])
			r[k++] = (struct key_ref){m->strs.str[id], m->strs.len[id], id};
	if (rc == 0)
		sort_refs(r, k, NULL, c->str);
	for (uint32_t j = 0; rc == 0 && j < k; j++) {
		int64_t id = dp_strtab_intern(&c->out->strs, r[j].s, r[j].len);

		rc = id < 0 ? (int)id : 0;
	}
	free(used);
	free(r);
	return rc;
}

/* ------------------------------------------------------------ static tables --- */

static int canon_static(struct canon *c)
{
	const struct dp_profile *m = c->m;
	struct dp_profile *o = c->out;
	struct dp_arena *a = &o->arena;

	o->objects = dp_arena_array(a, (size_t)m->n_objects + 1, sizeof(*o->objects));
	o->segs = dp_arena_array(a, (size_t)m->n_segs + 1, sizeof(*o->segs));
	o->ps = dp_arena_array(a, (size_t)m->n_ps + 1, sizeof(*o->ps));
	o->css = dp_arena_array(a, (size_t)m->n_css + 1, sizeof(*o->css));
	o->threads = dp_arena_array(a, (size_t)m->n_threads + 1, sizeof(*o->threads));
	if (!o->objects || !o->segs || !o->ps || !o->css || !o->threads)
		return nomem();
	o->n_objects = m->n_objects;
	for (uint32_t j = 0; j < m->n_objects; j++) {
		const struct dp_object *s = &m->objects[c->obj_order[j]];
		struct dp_object *d = &o->objects[j + 1];

		*d = *s;
		d->path = c->str[s->path];
		d->first_seg = o->n_segs;
		if (s->n_segs) /* segs may be NULL when there are none */
			memcpy(o->segs + o->n_segs, m->segs + s->first_seg,
			       s->n_segs * sizeof(*o->segs));
		o->n_segs += s->n_segs;
	}
	o->n_ps = m->n_ps;
	for (uint32_t s = 1; s <= m->n_ps; s++) {
		struct dp_ps *d = &o->ps[c->ps[s]];

		*d = m->ps[s];
		d->name = c->str[d->name];
		d->linkage_name = c->str[d->linkage_name];
		d->file = c->str[d->file];
		d->object = c->obj[d->object];
	}
	o->n_css = m->n_css;
	for (uint32_t s = 1; s <= m->n_css; s++) {
		struct dp_css *d = &o->css[c->css[s]];

		*d = m->css[s];
		d->ps = c->ps[d->ps];
		d->file = c->str[d->file];
		d->callee_ps = c->ps[d->callee_ps];
	}
	o->n_threads = m->n_threads;
	for (uint32_t t = 1; t <= m->n_threads; t++) {
		struct dp_thread *d = &o->threads[c->thr[t]];

		*d = m->threads[t];
		d->name = c->str[d->name];
	}
	return 0;
}

/* -------------------------------------------------------------------- nodes --- */

struct arc {
	uint32_t css, ps, thr, id;
};

static int cmp_arc(const void *a, const void *b)
{
	const struct arc *x = a, *y = b;

	if (x->css != y->css)
		return x->css < y->css ? -1 : 1;
	if (x->ps != y->ps)
		return x->ps < y->ps ? -1 : 1;
	if (x->thr != y->thr)
		return x->thr < y->thr ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* Number PDs breadth-first from the root (then any the root does not reach), each PD's
 * CSDs sorted by (CSS, callee PS, callee thread): c->newpd, c->pd_order, c->csd_order. */
static int canon_order(struct canon *c, const uint32_t *start, const uint32_t *ids)
{
	const struct dp_profile *m = c->m;
	uint32_t head = 0, tail = 0, n_pd = 0, n_csd = 0, max_deg = 0;
	struct arc *arcs;

	for (uint32_t p = 1; p <= m->n_pd; p++)
		if (start[p + 1] - start[p] > max_deg)
			max_deg = start[p + 1] - start[p];
	if (!(arcs = malloc(((size_t)max_deg + 1) * sizeof(*arcs))))
		return nomem();
	for (uint32_t next = m->root_pd, scan = 1; next;) {
		c->newpd[next] = ++n_pd;
		c->pd_order[tail++] = next;
		while (head < tail) {
			uint32_t p = c->pd_order[head++], k = 0;

			for (uint32_t i = start[p]; i < start[p + 1]; i++) {
				const struct dp_pd *ce = &m->pd[m->csd[ids[i]].callee];

				arcs[k++] = (struct arc){c->css[m->csd[ids[i]].css], c->ps[ce->ps],
							 c->thr[ce->thread], ids[i]};
			}
			qsort(arcs, k, sizeof(*arcs), cmp_arc);
			for (uint32_t i = 0; i < k; i++) {
				uint32_t ce = m->csd[arcs[i].id].callee;

				c->csd_order[n_csd++] = arcs[i].id;
				if (!c->newpd[ce]) {
					c->newpd[ce] = ++n_pd;
					c->pd_order[tail++] = ce;
				}
			}
		}
		while (scan <= m->n_pd && c->newpd[scan])
			scan++;
		next = scan <= m->n_pd ? scan : 0;
	}
	free(arcs);
	return 0;
}

static int canon_nodes(struct canon *c)
{
	const struct dp_profile *m = c->m;
	struct dp_profile *o = c->out;
	size_t n = (size_t)m->n_pd + 2;
	uint32_t *start = calloc(n, sizeof(*start));
	uint32_t *ids = malloc(((size_t)m->n_csd + 1) * sizeof(*ids));
	int rc = start && ids ? 0 : nomem();

	for (uint32_t d = 1; rc == 0 && d <= m->n_csd; d++)
		start[m->csd[d].caller + 1]++;
	for (uint32_t p = 1; rc == 0 && p <= m->n_pd; p++)
		start[p + 1] += start[p];
	for (uint32_t d = 1; rc == 0 && d <= m->n_csd; d++)
		ids[start[m->csd[d].caller]++] = d;
	for (uint32_t p = m->n_pd + 1; rc == 0 && p > 1; p--)
		start[p] = start[p - 1];
	if (start)
		start[1] = 0;
	if (rc == 0)
		rc = canon_order(c, start, ids);
	free(start);
	free(ids);
	o->pd = dp_arena_array(&o->arena, (size_t)m->n_pd + 1, sizeof(*o->pd));
	o->csd = dp_arena_array(&o->arena, (size_t)m->n_csd + 1, sizeof(*o->csd));
	if (rc == 0 && (!o->pd || !o->csd))
		rc = nomem();
	if (rc < 0)
		return rc;
	o->n_pd = m->n_pd;
	o->n_csd = m->n_csd;
	for (uint32_t p = 1; p <= m->n_pd; p++)
		o->pd[c->newpd[p]] =
			(struct dp_pd){.ps = c->ps[m->pd[p].ps], .thread = c->thr[m->pd[p].thread]};
	for (uint32_t j = 0; j < m->n_csd; j++) {
		struct dp_csd *d = &o->csd[j + 1];

		*d = m->csd[c->csd_order[j]];
		d->caller = c->newpd[d->caller];
		d->callee = c->newpd[d->callee];
		d->css = c->css[d->css];
	}
	o->root_pd = c->newpd[m->root_pd];
	for (uint32_t t = 1; t <= o->n_threads; t++)
		o->threads[t].root_pd = c->newpd[o->threads[t].root_pd];
	return 0;
}

static int canon_info(struct canon *c)
{
	const struct dp_profile *m = c->m;
	struct dp_profile *o = c->out;

	o->version = m->version;
	o->elf_machine = m->elf_machine;
	o->features = m->features;
	o->sample_period_ns = m->sample_period_ns;
	o->hz = m->hz;
	o->samples_inside = m->samples_inside;
	o->samples_outside = m->samples_outside;
	o->total_callseqs = m->total_callseqs;
	o->lost_calls = m->lost_calls;
	o->lost_samples = m->lost_samples;
	o->lost_allocs = m->lost_allocs;
	o->stop_reason = c->str[m->stop_reason];
	o->program = c->str[m->program];
	o->pid = m->pid;
	o->ppid = m->ppid;
	o->start_ns = m->start_ns;
	o->end_ns = m->end_ns;
	o->exit_status = m->exit_status;
	o->argc = m->argc;
	o->argv = m->argc ? dp_arena_array(&o->arena, m->argc, sizeof(*o->argv)) : NULL;
	if (m->argc && !o->argv)
		return nomem();
	for (uint32_t a = 0; a < m->argc; a++)
		o->argv[a] = c->str[m->argv[a]];
	return 0;
}

int dp_pm_canon(const struct dp_profile *m, const struct dp_pm_keys *k, struct dp_profile *out)
{
	struct canon c = {.m = m, .out = out};
	struct dp_arena tmp;
	int rc;

	memset(out, 0, sizeof(*out));
	dp_arena_init(&out->arena, 0);
	dp_arena_init(&tmp, 0);
	c.str = dp_arena_array(&tmp, (size_t)m->strs.n + 1, sizeof(uint32_t));
	c.obj = dp_arena_array(&tmp, (size_t)m->n_objects + 1, sizeof(uint32_t));
	c.obj_order = dp_arena_array(&tmp, (size_t)m->n_objects + 1, sizeof(uint32_t));
	c.ps = dp_arena_array(&tmp, (size_t)m->n_ps + 1, sizeof(uint32_t));
	c.css = dp_arena_array(&tmp, (size_t)m->n_css + 1, sizeof(uint32_t));
	c.thr = dp_arena_array(&tmp, (size_t)m->n_threads + 1, sizeof(uint32_t));
	c.newpd = dp_arena_array(&tmp, (size_t)m->n_pd + 1, sizeof(uint32_t));
	c.pd_order = dp_arena_array(&tmp, (size_t)m->n_pd + 1, sizeof(uint32_t));
	c.csd_order = dp_arena_array(&tmp, (size_t)m->n_csd + 1, sizeof(uint32_t));
	rc = c.str && c.obj && c.obj_order && c.ps && c.css && c.thr && c.newpd && c.pd_order &&
			     c.csd_order
		     ? 0
		     : nomem();
	if (rc == 0) {
		dp_pm_sort_keys(&k->obj, c.obj_order, c.obj);
		dp_pm_sort_keys(&k->ps, NULL, c.ps);
		dp_pm_sort_keys(&k->css, NULL, c.css);
		dp_pm_sort_keys(&k->thr, NULL, c.thr);
		rc = canon_strings(&c);
	}
	if (rc == 0)
		rc = canon_static(&c);
	if (rc == 0)
		rc = canon_nodes(&c);
	if (rc == 0)
		rc = canon_info(&c);
	dp_arena_release(&tmp);
	if (rc < 0)
		dp_profile_release(out);
	return rc;
}
