/*
 * analysis/pmerge.c - dp_profile_merge(): the union of the inputs, in which objects,
 * functions, call sites and threads are matched by content keys (build-id and offset,
 * or with DP_MERGE_FORCE name and source position) and every PD and CSD is copied with
 * the roots made one; the merged thread view's closure (merge.c, by thread) then merges
 * the calling contexts top-down and pmerge_canon.c numbers the result.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "merge_int.h"
#include "pmerge_int.h"
#include "profile_merge.h"

static int nomem(void)
{
	return dp_error(DP_ENOMEM, "out of memory merging profiles");
}

int dp_pm_put_u32(struct dp_buf *b, uint32_t v)
{
	uint8_t x[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};

	return dp_buf_add(b, x, 4);
}

int dp_pm_put_u64(struct dp_buf *b, uint64_t v)
{
	int rc = dp_pm_put_u32(b, (uint32_t)(v >> 32));

	return rc < 0 ? rc : dp_pm_put_u32(b, (uint32_t)v);
}

int dp_pm_put_str(struct dp_buf *b, const struct dp_profile *p, uint32_t id)
{
	const char *s = dp_profile_str(p, id);
	size_t len = strlen(s);
	int rc = dp_pm_put_u32(b, (uint32_t)len);

	return rc < 0 ? rc : dp_buf_add(b, s, len);
}

/* The key bytes of entry @id of @t, length-prefixed, appended to @b. */
int dp_pm_put_key(struct dp_buf *b, const struct dp_strtab *t, uint32_t id)
{
	int rc = dp_pm_put_u32(b, t->len[id]);

	return rc < 0 ? rc : dp_buf_add(b, t->str[id], t->len[id]);
}

/* Intern m->key into @t: the id, and *@fresh whether it is new. */
int64_t dp_pm_intern(struct dp_pm *m, struct dp_strtab *t, int *fresh)
{
	uint32_t n = t->n;
	int64_t id;

	if (dp_buf_error(&m->key))
		return nomem();
	id = dp_strtab_intern(t, (const char *)m->key.data, m->key.len);
	*fresh = id >= (int64_t)n;
	return id;
}

/* ------------------------------------------------------------------- objects --- */

static int obj_key(struct dp_buf *b, const struct dp_profile *p, uint32_t o)
{
	const struct dp_object *ob = &p->objects[o];

	dp_buf_reset(b);
	if (ob->build_id_len) {
		dp_buf_addc(b, 'B');
		return dp_buf_add(b, ob->build_id, ob->build_id_len);
	}
	dp_buf_addc(b, 'P');
	return dp_buf_adds(b, dp_profile_str(p, ob->path));
}

/* The object of input @p holding address @a (by its segments), 0 if none. */
uint32_t dp_pm_obj_at(const struct dp_profile *p, uint64_t a)
{
	for (uint32_t o = 1; a && o <= p->n_objects; o++)
		for (uint32_t s = 0; s < p->objects[o].n_segs; s++) {
			const struct dp_segment *g = &p->segs[p->objects[o].first_seg + s];

			if (a - g->start < g->size)
				return o;
		}
	return 0;
}

int dp_pm_map_objects(struct dp_pm *m, uint32_t i)
{
	struct dp_pm_in *x = &m->in[i];
	const struct dp_profile *p = x->p;

	for (uint32_t o = 1; o <= p->n_objects; o++) {
		int fresh = 0;
		int64_t id;

		obj_key(&m->key, p, o);
		if ((id = dp_pm_intern(m, &m->k.obj, &fresh)) < 0)
			return (int)id;
		x->obj[o] = (uint32_t)id;
		if (fresh || p->objects[o].bias <
				     m->in[m->obj_src[id].in].p->objects[m->obj_src[id].id].bias)
			m->obj_src[id] = (struct dp_pm_src){i, o, 0, 0};
	}
	return 0;
}

/* ----------------------------------------------------------------- programs --- */

static const char *base_name(const char *s)
{
	const char *slash = strrchr(s, '/');

	return slash ? slash + 1 : s;
}

/* The key of a program whose path is string @path and main object @o (0 unknown). */
int64_t dp_pm_unit_key(struct dp_pm *m, const struct dp_profile *p, uint32_t path, uint32_t o)
{
	int fresh = 0;

	dp_buf_reset(&m->key);
	if (m->flags & DP_MERGE_FORCE) {
		dp_buf_addc(&m->key, 'N');
		dp_buf_adds(&m->key, base_name(dp_profile_str(p, path)));
	} else if (o) {
		obj_key(&m->key, p, o);
	} else {
		dp_buf_addc(&m->key, 'P');
		dp_buf_adds(&m->key, dp_profile_str(p, path));
	}
	return dp_pm_intern(m, &m->units, &fresh);
}

/* The main object of a single-program input: the one at the program's path, else 1. */
uint32_t dp_pm_main_object(const struct dp_profile *p)
{
	for (uint32_t o = 1; o <= p->n_objects; o++)
		if (p->objects[o].path && p->objects[o].path == p->program)
			return o;
	return p->n_objects ? 1 : 0;
}

/* x->thr_unit from the input's program nodes (root -> program -> thread); without any,
 * x->unit, the input's one program, for every thread. */
int dp_pm_find_units(struct dp_pm *m, struct dp_pm_in *x)
{
	const struct dp_profile *p = x->p;
	int64_t id;
	int any = 0;

	for (uint32_t d = 1; d <= p->n_csd; d++) {
		const struct dp_pd *ce = &p->pd[p->csd[d].callee];
		const struct dp_ps *cr = &p->ps[p->pd[p->csd[d].caller].ps];

		if (cr->kind != DP_PS_PROGRAM || !ce->thread)
			continue;
		if ((id = dp_pm_unit_key(m, p, cr->name, cr->object)) < 0)
			return (int)id;
		x->thr_unit[ce->thread] = (uint32_t)id;
		any = 1;
	}
	for (uint32_t t = 1; any && t <= p->n_threads; t++)
		if (!x->thr_unit[t])
			return dp_error(DP_EFORMAT,
					"%s: thread %" PRIu32 " is under no program node", x->name,
					t);
	if (any)
		return 0;
	if ((id = dp_pm_unit_key(m, p, p->program, dp_pm_main_object(p))) < 0)
		return (int)id;
	x->unit = (uint32_t)id;
	for (uint32_t t = 1; t <= p->n_threads; t++)
		x->thr_unit[t] = x->unit;
	return 0;
}

/* --------------------------------------------------------- functions and sites --- */

/* The object of input @p's PS or CSS address @a (@o if the symbolizer said), 0 none. */
uint32_t dp_pm_obj_of(const struct dp_profile *p, uint32_t o, uint64_t a)
{
	return o && o <= p->n_objects ? o : dp_pm_obj_at(p, a);
}

/* m->key := the key of PS @s of input @x (a program node's: @unit). */
static int ps_key(struct dp_pm *m, const struct dp_pm_in *x, const struct dp_ps *s, uint32_t unit)
{
	struct dp_buf *b = &m->key;
	uint32_t o;

	dp_buf_reset(b);
	dp_buf_addc(b, (uint8_t)s->kind);
	if (s->kind == DP_PS_PROGRAM)
		return dp_pm_put_key(b, &m->units, unit);
	if (s->kind != DP_PS_FUNCTION && s->kind != DP_PS_LIBRARY)
		return 0;
	if ((m->flags & DP_MERGE_FORCE) && s->name) { /* the line moves with edits above */
		dp_buf_addc(b, 'n');
		dp_pm_put_str(b, x->p, s->name);
		return dp_pm_put_str(b, x->p, s->file);
	}
	o = dp_pm_obj_of(x->p, s->object, s->addr);
	if (!o) {
		dp_buf_addc(b, 'r');
		return dp_pm_put_u64(b, s->addr);
	}
	dp_buf_addc(b, 'a');
	dp_pm_put_key(b, &m->k.obj, x->obj[o]);
	return dp_pm_put_u64(b, s->addr - x->p->objects[o].bias);
}

static int cmp_str(const struct dp_profile *a, uint32_t x, const struct dp_profile *b, uint32_t y)
{
	return strcmp(dp_profile_str(a, x), dp_profile_str(b, y));
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

/* The PS record of an instance, a program node made by the merge filled in. */
static struct dp_ps src_ps(const struct dp_pm *m, struct dp_pm_src s)
{
	const struct dp_profile *p = m->in[s.in].p;
	struct dp_ps r = {.kind = DP_PS_PROGRAM};

	if (s.id)
		return p->ps[s.id];
	r.name = p->program;
	r.object = dp_pm_main_object(p);
	return r;
}

/* Which of two instances of one PS gives the union's fields: < 0 @a. Content only, so
 * the choice is the same whatever the order of the inputs. */
static int cmp_ps(const struct dp_pm *m, struct dp_pm_src a, struct dp_pm_src b)
{
	const struct dp_profile *pa = m->in[a.in].p, *pb = m->in[b.in].p;
	struct dp_ps x = src_ps(m, a), y = src_ps(m, b);
	uint32_t oa = dp_pm_obj_of(pa, x.object, x.addr), ob = dp_pm_obj_of(pb, y.object, y.addr);
	int c;

	if ((c = (x.name == 0) - (y.name == 0)) || (c = cmp_str(pa, x.name, pb, y.name)) ||
	    (c = cmp_str(pa, x.file, pb, y.file)) || (c = cmp_u64(x.line, y.line)) ||
	    (c = cmp_u64(x.linkage, y.linkage)) ||
	    (c = cmp_str(pa, x.linkage_name, pb, y.linkage_name)) ||
	    (c = cmp_u64(oa == 0, ob == 0)))
		return c;
	if (oa && ob) {
		const struct dp_strtab *k = &m->k.obj;
		uint32_t ka = m->in[a.in].obj[oa], kb = m->in[b.in].obj[ob];
		size_t n = k->len[ka] < k->len[kb] ? k->len[ka] : k->len[kb];

		if ((c = memcmp(k->str[ka], k->str[kb], n)) ||
		    (c = cmp_u64(k->len[ka], k->len[kb])))
			return c;
		return cmp_u64(x.addr - pa->objects[oa].bias, y.addr - pb->objects[ob].bias);
	}
	return cmp_u64(x.addr, y.addr);
}

/* Enter instance @s (key in m->key) into the PS table; its union id. */
static int64_t add_ps(struct dp_pm *m, struct dp_pm_src s)
{
	int fresh = 0;
	int64_t id = dp_pm_intern(m, &m->k.ps, &fresh);

	if (id < 0)
		return id;
	if (fresh || cmp_ps(m, s, m->ps_src[id]) < 0)
		m->ps_src[id] = s;
	if (m->ps_last[id] != s.in + 1) {
		m->ps_last[id] = s.in + 1;
		m->ps_seen[id]++;
	}
	return id;
}

int dp_pm_map_ps(struct dp_pm *m, uint32_t i)
{
	struct dp_pm_in *x = &m->in[i];
	const struct dp_profile *p = x->p;
	int64_t id;

	for (uint32_t s = 1; s <= p->n_ps; s++) {
		uint32_t unit = 0;

		if (p->ps[s].kind == DP_PS_PROGRAM &&
		    (id = dp_pm_unit_key(m, p, p->ps[s].name, p->ps[s].object)) >= 0)
			unit = (uint32_t)id;
		ps_key(m, x, &p->ps[s], unit);
		if ((id = add_ps(m, (struct dp_pm_src){i, s, 0, 0})) < 0)
			return (int)id;
		x->ps[s] = (uint32_t)id;
	}
	if (!m->multi || !x->unit)
		return 0;
	dp_buf_reset(&m->key); /* the program node this single-program input goes under */
	dp_buf_addc(&m->key, DP_PS_PROGRAM);
	dp_pm_put_key(&m->key, &m->units, x->unit);
	if ((id = add_ps(m, (struct dp_pm_src){i, 0, 0, 0})) < 0)
		return (int)id;
	x->prog_ps = (uint32_t)id;
	return 0;
}

/*
 * m->key := the key of CSS @s of input @x (NULL: a call of kind @kind the merge makes in
 * union PS @ps): union PS, kind, and the address in its object; with DP_MERGE_FORCE
 * instead the source file, the line counted from the caller's first line (edits above
 * the function move both) and the statically known callee.
 */
static int css_key(struct dp_pm *m, const struct dp_pm_in *x, const struct dp_css *s, uint32_t ps,
		   uint32_t kind)
{
	struct dp_buf *b = &m->key;
	uint64_t a = s ? s->addr : 0;
	uint32_t o;

	dp_buf_reset(b);
	dp_pm_put_key(b, &m->k.ps, ps);
	dp_buf_addc(b, (uint8_t)kind);
	if ((m->flags & DP_MERGE_FORCE) && s) {
		dp_pm_put_str(b, x->p, s->file);
		dp_pm_put_u32(b, s->line - x->p->ps[s->ps].line);
		return s->callee_ps ? dp_pm_put_key(b, &m->k.ps, x->ps[s->callee_ps]) : 0;
	}
	o = dp_pm_obj_at(x->p, a);
	if (!o) {
		dp_buf_addc(b, 'r');
		return dp_pm_put_u64(b, a);
	}
	dp_buf_addc(b, 'a');
	dp_pm_put_key(b, &m->k.obj, x->obj[o]);
	return dp_pm_put_u64(b, a - x->p->objects[o].bias);
}

/* As cmp_ps() for CSSs: the one with a known source position, then by position and the
 * static callee's key. */
static int cmp_css(const struct dp_pm *m, struct dp_pm_src a, struct dp_pm_src b)
{
	const struct dp_profile *pa = m->in[a.in].p, *pb = m->in[b.in].p;
	const struct dp_css *x, *y;
	const struct dp_strtab *k = &m->k.ps;
	uint32_t ka, kb;
	int c;

	if (!a.id || !b.id)
		return (a.id != 0) - (b.id != 0);
	x = &pa->css[a.id];
	y = &pb->css[b.id];
	if ((c = (x->file == 0) - (y->file == 0)) || (c = cmp_str(pa, x->file, pb, y->file)) ||
	    (c = cmp_u64(x->line, y->line)))
		return c;
	if (!x->callee_ps || !y->callee_ps)
		return (x->callee_ps != 0) - (y->callee_ps != 0);
	ka = m->in[a.in].ps[x->callee_ps];
	kb = m->in[b.in].ps[y->callee_ps];
	if ((c = memcmp(k->str[ka], k->str[kb], k->len[ka] < k->len[kb] ? k->len[ka] : k->len[kb])))
		return c;
	return cmp_u64(k->len[ka], k->len[kb]);
}

static int64_t add_css(struct dp_pm *m, struct dp_pm_src s)
{
	int fresh = 0;
	int64_t id = dp_pm_intern(m, &m->k.css, &fresh);

	if (id >= 0 && (fresh || cmp_css(m, s, m->css_src[id]) < 0))
		m->css_src[id] = s;
	return id;
}

/* The union CSS of kind @kind that a program node made by the merge needs in union PS
 * @ps: the root's call of the program node, or the program node's call of a thread. */
static int64_t made_css(struct dp_pm *m, uint32_t i, uint32_t ps, uint32_t kind)
{
	css_key(m, &m->in[i], NULL, ps, kind);
	return add_css(m, (struct dp_pm_src){i, 0, ps, kind});
}

int dp_pm_map_css(struct dp_pm *m, uint32_t i)
{
	struct dp_pm_in *x = &m->in[i];
	const struct dp_profile *p = x->p;
	uint32_t root_ps = p->pd[p->root_pd].ps;
	int64_t id;

	for (uint32_t c = 1; c <= p->n_css; c++) {
		const struct dp_css *s = &p->css[c];

		if (m->multi && x->unit && s->ps == root_ps && s->kind == DP_CSS_THREAD)
			continue; /* replaced by the program node's */
		css_key(m, x, s, x->ps[s->ps], s->kind);
		if ((id = add_css(m, (struct dp_pm_src){i, c, 0, 0})) < 0)
			return (int)id;
		x->css[c] = (uint32_t)id;
	}
	if (!m->multi || !x->unit)
		return 0;
	if ((id = made_css(m, i, x->ps[root_ps], DP_CSS_PROGRAM)) < 0)
		return (int)id;
	x->root_prog_css = (uint32_t)id;
	if ((id = made_css(m, i, x->prog_ps, DP_CSS_THREAD)) < 0)
		return (int)id;
	x->prog_thr_css = (uint32_t)id;
	return 0;
}

/* ------------------------------------------------------------------- driver --- */

#define BAD(...) dp_error(DP_EFORMAT, __VA_ARGS__)

/* The ids merge follows, checked (the reader checks files; profiles built in memory). */
static int check_input(const struct dp_profile *p, const char *name)
{
	if (p->features & DP_FEAT_COVERAGE)
		return BAD("%s: has coverage counts, which merge does not sum yet", name);
	if (!p->ps || !p->pd || p->root_pd < 1 || p->root_pd > p->n_pd)
		return BAD("%s: no root PD", name);
	for (uint32_t i = 1; i <= p->n_pd; i++)
		if (p->pd[i].ps < 1 || p->pd[i].ps > p->n_ps || p->pd[i].thread > p->n_threads)
			return BAD("%s: PD %" PRIu32 " has PS or thread out of range", name, i);
	for (uint32_t i = 1; i <= p->n_css; i++)
		if (p->css[i].ps < 1 || p->css[i].ps > p->n_ps || p->css[i].callee_ps > p->n_ps)
			return BAD("%s: CSS %" PRIu32 " has PS out of range", name, i);
	for (uint32_t i = 1; i <= p->n_csd; i++) {
		const struct dp_csd *d = &p->csd[i];

		if (d->caller < 1 || d->caller > p->n_pd || d->callee < 1 || d->callee > p->n_pd ||
		    d->css < 1 || d->css > p->n_css)
			return BAD("%s: CSD %" PRIu32 " has an id out of range", name, i);
	}
	for (uint32_t t = 1; t <= p->n_threads; t++)
		if (p->threads[t].root_pd < 1 || p->threads[t].root_pd > p->n_pd)
			return BAD("%s: thread %" PRIu32 " has no root PD", name, t);
	for (uint32_t o = 1; o <= p->n_objects; o++)
		if (p->objects[o].first_seg + (uint64_t)p->objects[o].n_segs > p->n_segs)
			return BAD("%s: object %" PRIu32 " has segments out of range", name, o);
	for (uint32_t s = 1; s <= p->n_ps; s++)
		if (p->ps[s].object > p->n_objects)
			return BAD("%s: PS %" PRIu32 " has object out of range", name, s);
	return 0;
}

/* Allocate the maps of every input and the union's static tables (at most the sum of the
 * inputs', plus a program node and its two call sites per input). */
static int pm_alloc(struct dp_pm *m, struct dp_profile *u)
{
	size_t n_obj = 1, n_ps = 1, n_css = 1, n_thr = 1, n_segs = 0;
	struct dp_arena *a = &m->tmp;

	for (uint32_t i = 0; i < m->n_in; i++) {
		struct dp_pm_in *x = &m->in[i];
		const struct dp_profile *p = x->p;

		x->obj = dp_arena_array(a, (size_t)p->n_objects + 1, sizeof(uint32_t));
		x->ps = dp_arena_array(a, (size_t)p->n_ps + 1, sizeof(uint32_t));
		x->css = dp_arena_array(a, (size_t)p->n_css + 1, sizeof(uint32_t));
		x->thr = dp_arena_array(a, (size_t)p->n_threads + 1, sizeof(uint32_t));
		x->thr_unit = dp_arena_array(a, (size_t)p->n_threads + 1, sizeof(uint32_t));
		if (!x->obj || !x->ps || !x->css || !x->thr || !x->thr_unit)
			return nomem();
		n_obj += p->n_objects;
		n_ps += p->n_ps + 1;
		n_css += p->n_css + 2;
		n_thr += p->n_threads;
		n_segs += p->n_segs;
	}
	m->obj_src = dp_arena_array(a, n_obj, sizeof(*m->obj_src));
	m->ps_src = dp_arena_array(a, n_ps, sizeof(*m->ps_src));
	m->css_src = dp_arena_array(a, n_css, sizeof(*m->css_src));
	m->ps_seen = dp_arena_array(a, n_ps, sizeof(uint32_t));
	m->ps_last = dp_arena_array(a, n_ps, sizeof(uint32_t));
	m->thr_dur = dp_arena_array(a, n_thr, sizeof(uint64_t));
	u->objects = dp_arena_array(&u->arena, n_obj, sizeof(*u->objects));
	u->ps = dp_arena_array(&u->arena, n_ps, sizeof(*u->ps));
	u->css = dp_arena_array(&u->arena, n_css, sizeof(*u->css));
	u->threads = dp_arena_array(&u->arena, n_thr, sizeof(*u->threads));
	u->segs = dp_arena_array(&u->arena, n_segs + 1, sizeof(*u->segs));
	if (!m->obj_src || !m->ps_src || !m->css_src || !m->ps_seen || !m->ps_last || !m->thr_dur ||
	    !u->objects || !u->ps || !u->css || !u->threads || !u->segs)
		return nomem();
	return 0;
}

/* With DP_MERGE_FORCE: per input, its functions that no other input has (a line each:
 * "NAME: N of M functions matched none in the other inputs: f (file:line), ..."). */
static int force_notes(struct dp_pm *m, struct dp_buf *notes)
{
	struct dp_buf list;
	int rc = 0;

	dp_buf_init(&list, (size_t)1 << 16);
	for (uint32_t i = 0; notes && m->n_in > 1 && i < m->n_in; i++) {
		const struct dp_pm_in *x = &m->in[i];
		const struct dp_profile *p = x->p;
		uint32_t n_fn = 0, n_alone = 0;

		dp_buf_reset(&list);
		for (uint32_t s = 1; s <= p->n_ps; s++) {
			if (p->ps[s].kind != DP_PS_FUNCTION)
				continue;
			n_fn++;
			if (m->ps_seen[x->ps[s]] > 1)
				continue;
			if (n_alone++ < 8)
				dp_buf_addf(&list, "%s%s (%s:%" PRIu32 ")", n_alone > 1 ? ", " : "",
					    dp_profile_str(p, p->ps[s].name),
					    dp_profile_str(p, p->ps[s].file), p->ps[s].line);
			else if (n_alone == 9)
				dp_buf_adds(&list, ", ...");
		}
		if (n_alone)
			dp_buf_addf(notes,
				    "%s: %" PRIu32 " of %" PRIu32
				    " functions matched none in the other inputs: %s\n",
				    x->name, n_alone, n_fn, dp_buf_cstr(&list));
	}
	if (notes && (dp_buf_error(notes) || dp_buf_error(&list)))
		rc = nomem();
	dp_buf_release(&list);
	return rc;
}

/* The union of @m's inputs into @u (initialised), keys in m->k. */
static int build_union(struct dp_pm *m, struct dp_profile *u, struct dp_buf *notes)
{
	uint32_t *order = NULL, *rank = NULL;
	uint64_t *pairs = NULL;
	size_t max_csd = 1;
	int rc = pm_alloc(m, u);

	for (uint32_t i = 0; rc == 0 && i < m->n_in; i++)
		if ((rc = dp_pm_map_objects(m, i)) == 0)
			rc = dp_pm_find_units(m, &m->in[i]);
	for (uint32_t i = 0; rc == 0 && i < m->n_in; i++) {
		m->multi |= !m->in[i].unit && m->in[i].p->n_threads;
		max_csd = max_csd > m->in[i].p->n_csd + 1 ? max_csd : m->in[i].p->n_csd + 1;
	}
	m->multi |= m->units.n > 2;
	for (uint32_t i = 0; rc == 0 && i < m->n_in; i++)
		rc = dp_pm_map_ps(m, i);
	if (rc == 0) {
		order = malloc((size_t)m->k.ps.n * sizeof(*order));
		rank = malloc((size_t)m->k.ps.n * sizeof(*rank));
		pairs = malloc(max_csd * sizeof(*pairs));
		rc = order && rank && pairs ? 0 : nomem();
	}
	if (rc == 0)
		dp_pm_sort_keys(&m->k.ps, order, rank);
	for (uint32_t i = 0; rc == 0 && i < m->n_in; i++)
		if ((rc = dp_pm_map_css(m, i)) == 0)
			rc = dp_pm_map_threads(m, i, rank, pairs);
	free(order);
	free(rank);
	free(pairs);
	if (rc == 0 && (m->flags & DP_MERGE_FORCE))
		rc = force_notes(m, notes);
	if (rc == 0)
		rc = dp_pm_nodes(m);
	return rc == 0 ? dp_pm_info(m) : rc;
}

int dp_profile_merge(const struct dp_profile *const *in, const char *const *names, uint32_t n,
		     unsigned flags, struct dp_buf *notes, struct dp_profile *out)
{
	struct dp_pm m = {.flags = flags, .n_in = n};
	struct dp_profile u, merged;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	for (uint32_t i = 0; rc == 0 && i < n; i++)
		rc = check_input(in[i], names[i]);
	if (rc < 0)
		return rc;
	if (n == 0)
		return BAD("nothing to merge");
	dp_arena_init(&m.tmp, 0);
	dp_buf_init(&m.key, (size_t)1 << 20);
	m.u = &u;
	m.in = dp_arena_array(&m.tmp, n, sizeof(*m.in));
	if ((rc = dp_profile_init(&u)) < 0 || !m.in || dp_strtab_init(&m.k.obj) < 0 ||
	    dp_strtab_init(&m.k.ps) < 0 || dp_strtab_init(&m.k.css) < 0 ||
	    dp_strtab_init(&m.k.thr) < 0 || dp_strtab_init(&m.units) < 0)
		rc = nomem();
	for (uint32_t i = 0; rc == 0 && i < n; i++)
		m.in[i] = (struct dp_pm_in){.p = in[i], .name = names[i]};
	if (rc == 0)
		rc = build_union(&m, &u, notes);
	if (rc == 0 && (rc = dp_mg_merge(&u, &merged, 1)) == 0) {
		dp_profile_release(&u);
		rc = dp_pm_canon(&merged, &m.k, out);
		dp_profile_release(&merged);
	}
	dp_profile_release(&u);
	dp_strtab_release(&m.k.obj);
	dp_strtab_release(&m.k.ps);
	dp_strtab_release(&m.k.css);
	dp_strtab_release(&m.k.thr);
	dp_strtab_release(&m.units);
	dp_buf_release(&m.key);
	dp_arena_release(&m.tmp);
	return rc;
}
