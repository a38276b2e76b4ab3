/*
 * analysis/pmerge_union.c - the second half of building the union of the inputs of
 * dp_profile_merge() (pmerge.c has the first: objects, programs, PSs, CSSs): threads
 * matched by (program, entry functions, ordinal), the static tables filled from the
 * instances chosen, every PD and CSD copied under one root, and INFO summed.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "pmerge_int.h"

static int nomem(void)
{
	return dp_error(DP_ENOMEM, "out of memory merging profiles");
}

/* A string of input @p interned into the union; -DP_ENOMEM. */
static int64_t ustr(struct dp_pm *m, const struct dp_profile *p, uint32_t id)
{
	return id ? dp_strtab_intern_cstr(&m->u->strs, dp_profile_str(p, id)) : 0;
}

static uint64_t dur(uint64_t start, uint64_t end)
{
	return end > start ? end - start : 0;
}

/* ------------------------------------------------------------------- threads --- */

static int cmp_pair(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

/* Fold input thread @t of @p into union thread @id (@fresh: its first instance). The
 * name is part of the key, so it is the same in every instance. */
static int fold_thread(struct dp_pm *m, const struct dp_profile *p, uint32_t t, uint32_t id,
		       int fresh)
{
	const struct dp_thread *s = &p->threads[t];
	struct dp_thread *d = &m->u->threads[id];
	int64_t name = ustr(m, p, s->name);
	uint32_t keep = DP_THREAD_MAIN | DP_THREAD_STOPPED;

	if (name < 0)
		return (int)name;
	if (fresh) {
		*d = *s;
		d->name = (uint32_t)name;
		d->root_pd = 0;
		m->thr_dur[id] = dur(s->start_ns, s->end_ns);
		return 0;
	}
	d->tid = s->tid < d->tid ? s->tid : d->tid;
	d->start_ns = s->start_ns < d->start_ns ? s->start_ns : d->start_ns;
	d->samples_inside += s->samples_inside;
	d->flags = (d->flags & s->flags) | ((d->flags | s->flags) & keep);
	m->thr_dur[id] += dur(s->start_ns, s->end_ns);
	return 0;
}

/*
 * Match input @i's threads: key = program, the sorted ranks (@rank) of the functions its
 * root enters, its name, and its ordinal among the input's threads with that program,
 * those entries and that name (workers named by number match by name, even when they
 * started in another order). @pairs is scratch for n_csd + 1 values.
 */
int dp_pm_map_threads(struct dp_pm *m, uint32_t i, const uint32_t *rank, uint64_t *pairs)
{
	struct dp_pm_in *x = &m->in[i];
	const struct dp_profile *p = x->p;
	struct dp_strtab sigs;
	uint32_t n = 0, at = 0, *ord = calloc((size_t)p->n_threads + 2, sizeof(*ord));
	int rc = ord ? dp_strtab_init(&sigs) : nomem();

	if (rc < 0) {
		free(ord);
		return rc;
	}
	for (uint32_t d = 1; d <= p->n_csd; d++) {
		const struct dp_csd *c = &p->csd[d];
		uint32_t t = p->pd[c->caller].thread;

		if (t && p->threads[t].root_pd == c->caller && p->css[c->css].kind == DP_CSS_ENTRY)
			pairs[n++] = (uint64_t)t << 32 | rank[x->ps[p->pd[c->callee].ps]];
	}
	qsort(pairs, n, sizeof(*pairs), cmp_pair);
	for (uint32_t t = 1; rc == 0 && t <= p->n_threads; t++) {
		uint32_t b = at, cnt = 0, last = 0;
		int64_t sid, id = 0;
		int fresh = 0;

		dp_buf_reset(&m->key);
		dp_pm_put_key(&m->key, &m->units, x->thr_unit[t]);
		while (at < n && pairs[at] >> 32 == t)
			at++;
		for (uint32_t j = b; j < at; j++)
			if (j == b || (uint32_t)pairs[j] != last) {
				last = (uint32_t)pairs[j];
				cnt++;
			}
		dp_pm_put_u32(&m->key, cnt);
		for (uint32_t j = b; j < at; j++)
			if (j == b || pairs[j] != pairs[j - 1])
				dp_pm_put_u32(&m->key, (uint32_t)pairs[j]);
		dp_pm_put_str(&m->key, p, p->threads[t].name);
		sid = dp_pm_intern(m, &sigs, &fresh);
		if (sid >= 0)
			dp_pm_put_u32(&m->key, ord[sid]++);
		if (sid < 0 || (id = dp_pm_intern(m, &m->k.thr, &fresh)) < 0)
			rc = (int)(sid < 0 ? sid : id);
		else
			rc = fold_thread(m, p, t, (uint32_t)id, fresh);
		x->thr[t] = (uint32_t)id;
	}
	dp_strtab_release(&sigs);
	free(ord);
	return rc;
}

/* ------------------------------------------------------------- static tables --- */

static int fill_objects(struct dp_pm *m)
{
	struct dp_profile *u = m->u;

	u->n_objects = m->k.obj.n - 1;
	for (uint32_t k = 1; k <= u->n_objects; k++) {
		const struct dp_profile *p = m->in[m->obj_src[k].in].p;
		const struct dp_object *s = &p->objects[m->obj_src[k].id];
		int64_t path = ustr(m, p, s->path);

		if (path < 0)
			return (int)path;
		u->objects[k] = *s;
		u->objects[k].path = (uint32_t)path;
		u->objects[k].first_seg = u->n_segs;
		if (s->n_segs) /* segs may be NULL when there are none */
			memcpy(u->segs + u->n_segs, p->segs + s->first_seg,
			       s->n_segs * sizeof(*u->segs));
		u->n_segs += s->n_segs;
	}
	return 0;
}

/* Address @a of input @x (in its object @o, 0 none) at the union object's bias. */
static uint64_t rebase(const struct dp_pm *m, const struct dp_pm_in *x, uint32_t o, uint64_t a)
{
	return o ? a - x->p->objects[o].bias + m->u->objects[x->obj[o]].bias : a;
}

static int fill_ps(struct dp_pm *m)
{
	struct dp_profile *u = m->u;

	u->n_ps = m->k.ps.n - 1;
	for (uint32_t k = 1; k <= u->n_ps; k++) {
		const struct dp_pm_in *x = &m->in[m->ps_src[k].in];
		const struct dp_profile *p = x->p;
		struct dp_ps s = {.kind = DP_PS_PROGRAM, .name = p->program};
		int64_t name, lname, file;

		if (m->ps_src[k].id)
			s = p->ps[m->ps_src[k].id];
		else
			s.object = dp_pm_main_object(p);
		if (s.kind == DP_PS_FUNCTION || s.kind == DP_PS_LIBRARY)
			s.addr = rebase(m, x, dp_pm_obj_of(p, s.object, s.addr), s.addr);
		s.object = s.object ? x->obj[s.object] : 0;
		if ((name = ustr(m, p, s.name)) < 0 || (lname = ustr(m, p, s.linkage_name)) < 0 ||
		    (file = ustr(m, p, s.file)) < 0)
			return nomem();
		s.name = (uint32_t)name;
		s.linkage_name = (uint32_t)lname;
		s.file = (uint32_t)file;
		s.n_cp = 0;
		s.cp = NULL;
		u->ps[k] = s;
	}
	return 0;
}

static int fill_css(struct dp_pm *m)
{
	struct dp_profile *u = m->u;

	u->n_css = m->k.css.n - 1;
	for (uint32_t k = 1; k <= u->n_css; k++) {
		const struct dp_pm_src *src = &m->css_src[k];
		const struct dp_pm_in *x = &m->in[src->in];
		struct dp_css s = {.ps = src->ps, .kind = src->kind};
		int64_t file;

		if (src->id) {
			s = x->p->css[src->id];
			s.ps = x->ps[s.ps];
			s.addr = rebase(m, x, dp_pm_obj_at(x->p, s.addr), s.addr);
			s.callee_ps = s.callee_ps ? x->ps[s.callee_ps] : 0;
			if ((file = ustr(m, x->p, s.file)) < 0)
				return (int)file;
			s.file = (uint32_t)file;
		}
		u->css[k] = s;
	}
	return 0;
}

/* ------------------------------------------------------------------- nodes --- */

/* The union id of PD @j of input @x (its root is the union's root, 1). */
static uint32_t upd(const struct dp_pm_in *x, uint32_t j)
{
	uint32_t root = x->p->root_pd;

	return j == root ? 1 : x->pd_base + j - (j > root);
}

/* The runs a single-program profile holds: the most calls of one of its threads (each
 * run calls its main thread once; 1 for a file the runtime wrote). */
static uint64_t runs(const struct dp_profile *p)
{
	uint64_t n = 1;

	for (uint32_t d = 1; d <= p->n_csd; d++)
		if (p->csd[d].caller == p->root_pd && p->csd[d].calls > n)
			n = p->csd[d].calls;
	return n;
}

static void copy_nodes(struct dp_pm *m, struct dp_pm_in *x)
{
	const struct dp_profile *p = x->p;
	struct dp_profile *u = m->u;

	for (uint32_t j = 1; j <= p->n_pd; j++) {
		const struct dp_pd *s = &p->pd[j];

		u->pd[upd(x, j)] = (struct dp_pd){.ps = x->ps[s->ps],
						  .thread = s->thread ? x->thr[s->thread] : 0};
	}
	if (x->prog_pd)
		u->pd[x->prog_pd] = (struct dp_pd){.ps = x->prog_ps};
	for (uint32_t d = 1; d <= p->n_csd; d++) {
		struct dp_csd c = p->csd[d];

		c.caller = upd(x, c.caller);
		c.callee = upd(x, c.callee);
		if (!x->css[c.css]) { /* the root's call of a thread: now the program's */
			c.caller = x->prog_pd;
			c.css = x->prog_thr_css;
		} else {
			c.css = x->css[c.css];
		}
		u->csd[x->csd_base + d] = c;
	}
	for (uint32_t t = 1; t <= p->n_threads; t++)
		u->threads[x->thr[t]].root_pd = upd(x, p->threads[t].root_pd);
	if (x->prog_pd)
		u->csd[x->csd_base + p->n_csd + 1] = (struct dp_csd){
			.caller = 1,
			.css = x->root_prog_css,
			.callee = x->prog_pd,
			.calls = runs(p),
		};
}

/*
 * dp_pm_nodes - fill the union's static tables from the chosen instances, then its PDs
 * and CSDs: every input's, its root made the union's root (PD 1), a program node added
 * for a single-program input when there are several programs.
 * Return: 0 or -DP_ENOMEM.
 */
int dp_pm_nodes(struct dp_pm *m)
{
	struct dp_profile *u = m->u;
	uint32_t n_pd = 1, n_csd = 0;
	int rc;

	if ((rc = fill_objects(m)) < 0 || (rc = fill_ps(m)) < 0 || (rc = fill_css(m)) < 0)
		return rc;
	u->n_threads = m->k.thr.n - 1;
	for (uint32_t t = 1; t <= u->n_threads; t++)
		if (u->threads[t].flags & DP_THREAD_ENDED)
			u->threads[t].end_ns = u->threads[t].start_ns + m->thr_dur[t];
		else
			u->threads[t].end_ns = 0;
	for (uint32_t i = 0; i < m->n_in; i++) {
		struct dp_pm_in *x = &m->in[i];
		int made = m->multi && x->unit;

		x->pd_base = n_pd;
		x->csd_base = n_csd;
		n_pd += x->p->n_pd - 1;
		x->prog_pd = made ? ++n_pd : 0;
		n_csd += x->p->n_csd + (made ? 1 : 0);
	}
	u->n_pd = n_pd;
	u->n_csd = n_csd;
	u->pd = dp_arena_array(&u->arena, (size_t)n_pd + 1, sizeof(*u->pd));
	u->csd = dp_arena_array(&u->arena, (size_t)n_csd + 1, sizeof(*u->csd));
	if (!u->pd || !u->csd)
		return nomem();
	u->root_pd = 1;
	for (uint32_t i = 0; i < m->n_in; i++)
		copy_nodes(m, &m->in[i]);
	return 0;
}

/* -------------------------------------------------------------------- INFO --- */

/* Whether input @a's run is the representative rather than @b's: earliest start, then
 * lowest pid, program, exit status (the program, argv and pids come from it). */
static int rep_before(const struct dp_profile *a, const struct dp_profile *b)
{
	int c;

	if (a->start_ns != b->start_ns)
		return a->start_ns < b->start_ns;
	if (a->pid != b->pid)
		return a->pid < b->pid;
	if ((c = strcmp(dp_profile_str(a, a->program), dp_profile_str(b, b->program))))
		return c < 0;
	return a->exit_status < b->exit_status;
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/*
 * dp_pm_info - the union's header and INFO: counters and run times summed, the
 * sampling period the largest, the program, command line and ids those of the earliest
 * run, the start the earliest, the end the start plus the summed run times.
 * Return: 0 or -DP_ENOMEM.
 */
int dp_pm_info(struct dp_pm *m)
{
	struct dp_profile *u = m->u;
	const struct dp_profile *r = m->in[0].p;
	uint64_t run = 0;
	int64_t s;

	for (uint32_t i = 1; i < m->n_in; i++)
		if (rep_before(m->in[i].p, r))
			r = m->in[i].p;
	u->version = r->version;
	u->elf_machine = r->elf_machine;
	u->start_ns = r->start_ns;
	u->pid = r->pid;
	u->ppid = r->ppid;
	u->exit_status = r->exit_status;
	for (uint32_t i = 0; i < m->n_in; i++) {
		const struct dp_profile *p = m->in[i].p;

		u->features |= p->features & (DP_FEAT_SYMBOLIZED | DP_FEAT_STOPPED);
		u->sample_period_ns = max64(u->sample_period_ns, p->sample_period_ns);
		u->hz = max64(u->hz, p->hz);
		u->samples_inside += p->samples_inside;
		u->samples_outside += p->samples_outside;
		u->total_callseqs += p->total_callseqs;
		u->lost_calls += p->lost_calls;
		u->lost_samples += p->lost_samples;
		u->lost_allocs += p->lost_allocs;
		run += dur(p->start_ns, p->end_ns);
		if (p->stop_reason &&
		    (!u->stop_reason || strcmp(dp_profile_str(p, p->stop_reason),
					       dp_profile_str(u, u->stop_reason)) < 0)) {
			if ((s = ustr(m, p, p->stop_reason)) < 0)
				return (int)s;
			u->stop_reason = (uint32_t)s;
		}
	}
	if (m->multi)
		u->features |= DP_FEAT_SYMBOLIZED; /* the program nodes' names */
	u->end_ns = u->start_ns + run;
	if ((s = ustr(m, r, r->program)) < 0)
		return (int)s;
	u->program = (uint32_t)s;
	u->argc = r->argc;
	u->argv = r->argc ? dp_arena_array(&u->arena, r->argc, sizeof(*u->argv)) : NULL;
	if (r->argc && !u->argv)
		return nomem();
	for (uint32_t a = 0; a < r->argc; a++) {
		if ((s = ustr(m, r, r->argv[a])) < 0)
			return (int)s;
		u->argv[a] = (uint32_t)s;
	}
	return 0;
}
