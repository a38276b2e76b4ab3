/*
 * analysis/merge.c - dp_profile_merge_threads(): decides which PDs of the merged thread
 * view are one, by congruence closure over a union-find: thread roots with the same set
 * of entry functions, and, in any class, the callees of CSDs with the same CSS and callee
 * PS. Iterative (a worklist of pairs to unite); merge_out.c builds the result.
 */
#include "merge.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/hash.h"
#include "../core/vec.h"
#include "deepprof/format.h"
#include "merge_int.h"

#define MG_TAB_MIN 1024u

static int nomem(void)
{
	return dp_error(DP_ENOMEM, "out of memory merging threads");
}

/* The reader guarantees these for files; profiles built in memory may not. The nodes are
 * checked by mg_init() and csd_index(), in the passes they make over them anyway. */
static int check_ids(const struct dp_profile *p)
{
	if (!p->ps || !p->pd || (p->n_css && !p->css) || (p->n_csd && !p->csd))
		return dp_error(DP_EFORMAT, "cannot merge threads: node arrays missing");
	if (p->root_pd < 1 || p->root_pd > p->n_pd)
		return dp_error(DP_EFORMAT,
				"cannot merge threads: root PD %" PRIu32 " out of range",
				p->root_pd);
	return 0;
}

static int check_threads(const struct dp_profile *p)
{
	for (uint32_t i = 1; i <= p->n_threads; i++)
		if (p->threads && p->threads[i].root_pd > p->n_pd)
			return dp_error(DP_EFORMAT,
					"cannot merge threads: thread %" PRIu32
					" has root PD %" PRIu32 " out of range",
					i, p->threads[i].root_pd);
	return 0;
}

uint32_t dp_mg_find(struct dp_mg *m, uint32_t x)
{
	while (m->parent[x] != x) {
		m->parent[x] = m->parent[m->parent[x]];
		x = m->parent[x];
	}
	return x;
}

/* ------------------------------------------------------ thread root signatures --- */

/* A thread root PD and the sorted, distinct callee PSs of its entry CSDs. */
struct sig_rec {
	uint64_t hash;
	uint32_t pd, off, len;
};

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static int cmp_sig(const void *a, const void *b)
{
	const struct sig_rec *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return (x->pd > y->pd) - (x->pd < y->pd);
}

/* Fill @r with thread root @pd's entry set, appended to @list at *@n_list. */
static void sig_collect(const struct dp_mg *m, uint32_t pd, struct sig_rec *r, uint32_t *list,
			uint32_t *n_list)
{
	const struct dp_profile *p = m->in;
	uint32_t n = *n_list, len = 0;
	uint64_t h = 14695981039346656037u;

	for (uint32_t i = m->csd_start[pd]; i < m->csd_start[pd + 1]; i++) {
		const struct dp_csd *d = &p->csd[m->csd_ids[i]];

		if (p->css[d->css].kind == DP_CSS_ENTRY)
			list[n + len++] = p->pd[d->callee].ps;
	}
	qsort(list + n, len, sizeof(*list), cmp_u32);
	r->pd = pd;
	r->off = n;
	r->len = 0;
	for (uint32_t i = 0; i < len; i++) {
		if (r->len && list[n + r->len - 1] == list[n + i])
			continue;
		list[n + r->len++] = list[n + i];
		h = (h ^ list[n + i]) * 1099511628211u;
	}
	r->hash = h;
	*n_list = n + r->len;
}

/* Number the distinct entry sets of sorted @r (@n of them) into m->sig, from 1. */
static void sig_number(struct dp_mg *m, const struct sig_rec *r, uint32_t n, const uint32_t *list)
{
	uint32_t n_class = 0, run = 0;

	for (uint32_t i = 0; i < n; i++) {
		uint32_t j;

		if (r[i].hash != r[run].hash || r[i].len != r[run].len)
			run = i;
		for (j = run; j < i; j++)
			if (memcmp(list + r[j].off, list + r[i].off, r[i].len * sizeof(*list)) == 0)
				break;
		m->sig[r[i].pd] = j < i ? m->sig[r[j].pd] : ++n_class;
		m->key[r[i].pd] |= m->sig[r[i].pd];
	}
}

/* m->sig: thread root PDs (PS kind thread) with equal entry sets get equal classes; or,
 * merging by thread, those of the same thread. */
static int thread_signatures(struct dp_mg *m)
{
	const struct dp_profile *p = m->in;
	uint32_t n_t = 0, n_list = 0, n_calls = 0, n_thr_ps = 0;
	uint8_t *thr = calloc((size_t)p->n_ps + 1, 1); /* PS is a thread root: a small array
							   instead of random reads of PSs */
	struct sig_rec *r;
	uint32_t *list;

	if (!thr)
		return nomem();
	for (uint32_t i = 1; i <= p->n_ps; i++)
		n_thr_ps += thr[i] = p->ps[i].kind == DP_PS_THREAD;
	if (m->by_thread) {
		for (uint32_t i = 1; n_thr_ps && i <= p->n_pd; i++)
			if (thr[m->key[i] >> 32] && p->pd[i].thread) {
				m->sig[i] = p->pd[i].thread;
				m->key[i] |= m->sig[i];
			}
		free(thr);
		return 0;
	}
	for (uint32_t i = 1; n_thr_ps && i <= p->n_pd; i++) /* key >> 32: the PD's PS */
		if (thr[m->key[i] >> 32]) {
			n_t++;
			n_calls += m->csd_start[i + 1] - m->csd_start[i];
		}
	r = n_t ? malloc(n_t * sizeof(*r)) : NULL;
	list = n_t ? malloc(((size_t)n_calls + 1) * sizeof(*list)) : NULL;
	if (n_t && (!r || !list)) {
		free(thr);
		free(r);
		free(list);
		return nomem();
	}
	n_t = 0;
	for (uint32_t i = 1; r && i <= p->n_pd; i++)
		if (thr[m->key[i] >> 32])
			sig_collect(m, i, &r[n_t++], list, &n_list);
	if (r) {
		qsort(r, n_t, sizeof(*r), cmp_sig);
		sig_number(m, r, n_t, list);
	}
	free(thr);
	free(r);
	free(list);
	return 0;
}

/* ------------------------------------------------------------------ the table --- */

static uint32_t mg_hash(uint32_t rep, uint32_t css, uint64_t k)
{
	return dp_hash_end(dp_hash_add(dp_hash_add(0, (uint64_t)rep << 32 | css), k));
}

/* The table slot of (@rep, @css, @k): the entry holding it, or the empty slot where it
 * would go (csd == 0). Never fails: the table is never full. */
static struct dp_mg_ent *mg_slot(const struct dp_mg *m, uint32_t rep, uint32_t css, uint64_t k)
{
	size_t mask = m->n_tab - 1, h = (size_t)mg_hash(rep, css, k) & mask;

	for (; m->tab[h].csd; h = (h + 1) & mask) {
		struct dp_mg_ent *e = &m->tab[h];

		if (e->rep == rep && e->css == css && e->k == k)
			return e;
	}
	return &m->tab[h];
}

/* Regrow (or just clean) the table: keep the live entries at a load of at most 1/3. */
static int tab_rehash(struct dp_mg *m)
{
	struct dp_mg_ent *old = m->tab;
	size_t n_old = m->n_tab, live = 0, n = MG_TAB_MIN;

	for (size_t i = 0; i < n_old; i++)
		if (old[i].csd && m->parent[old[i].rep] == old[i].rep)
			live++;
	while (n < live * 3 + 3)
		n *= 2;
	m->tab = calloc(n, sizeof(*m->tab));
	if (!m->tab) {
		m->tab = old;
		return nomem();
	}
	m->n_tab = n;
	m->n_used = live;
	for (size_t i = 0; i < n_old; i++) {
		const struct dp_mg_ent *e = &old[i];

		if (e->csd && m->parent[e->rep] == e->rep)
			*mg_slot(m, e->rep, e->css, e->k) = *e;
	}
	free(old);
	return 0;
}

static int pend_push(struct dp_mg *m, uint32_t x, uint32_t y)
{
	if (DP_VEC_GROWZ(m->pend, m->cap_pend, 2 * (m->n_pend + 1)) < 0)
		return nomem();
	m->pend[2 * m->n_pend] = x;
	m->pend[2 * m->n_pend + 1] = y;
	m->n_pend++;
	return 0;
}

/* Record the CSD at CSR position @i as made by class @rep: a new entry, or a pair of
 * callees to unite. */
static int tab_add(struct dp_mg *m, uint32_t rep, uint32_t i)
{
	uint32_t d = m->csd_ids[i], css = m->pos_css[i], callee = m->pos_callee[i];
	uint64_t k = m->key[callee];
	struct dp_mg_ent *e;
	int rc;

	if ((m->n_used + 1) * 2 > m->n_tab && (rc = tab_rehash(m)) < 0)
		return rc;
	e = mg_slot(m, rep, css, k);
	if (e->csd) {
		m->grp[d] = e->csd == d ? 0 : e->csd;
		return e->callee == callee ? 0 : pend_push(m, callee, e->callee);
	}
	m->grp[d] = 0;
	*e = (struct dp_mg_ent){.k = k, .rep = rep, .css = css, .csd = d, .callee = callee};
	m->n_used++;
	return 0;
}

/* ---------------------------------------------------------------- the closure --- */

#define MG_SMALL 16u /* PDs making more CSDs are checked for duplicates with the table */

/* Enter every CSD of class @rep's members under @rep, and mark it indexed. */
static int index_class(struct dp_mg *m, uint32_t rep)
{
	uint32_t mem = rep;
	int rc = 0;

	m->indexed[rep] = 1;
	m->n_indexed++;
	do {
		for (uint32_t i = m->csd_start[mem]; rc == 0 && i < m->csd_start[mem + 1]; i++)
			rc = tab_add(m, rep, i);
		mem = m->next[mem];
	} while (rc == 0 && mem != rep);
	return rc;
}

#define MG_PAIR 8u /* single PDs making at most this many CSDs each unite without the table */

/*
 * Unite single PDs @x and @y (neither indexed, each making at most MG_PAIR CSDs, none
 * twice with one key): match their CSDs by (CSS, callee key), queue the matched callees,
 * and record the groups in m->grp (@y's matched CSDs into @x's).
 */
static int unite_pair(struct dp_mg *m, uint32_t x, uint32_t y)
{
	uint32_t bx = m->csd_start[x], nx = m->csd_start[x + 1] - bx;
	uint32_t by = m->csd_start[y], ny = m->csd_start[y + 1] - by;
	const uint32_t *css = m->pos_css, *callee = m->pos_callee;
	uint64_t kx[MG_PAIR];
	int rc = 0;

	for (uint32_t i = 0; i < nx; i++) {
		kx[i] = m->key[callee[bx + i]];
		m->grp[m->csd_ids[bx + i]] = 0;
	}
	for (uint32_t j = by; rc == 0 && j < by + ny; j++) {
		uint64_t k = m->key[callee[j]];
		uint32_t i;

		for (i = 0; i < nx && (kx[i] != k || css[bx + i] != css[j]); i++)
			;
		m->grp[m->csd_ids[j]] = i < nx ? m->csd_ids[bx + i] : 0;
		if (i < nx && callee[bx + i] != callee[j])
			rc = pend_push(m, callee[j], callee[bx + i]);
	}
	return rc;
}

/* Unite the classes of @x and @y: the smaller one's CSDs are entered under the larger
 * one's representative (indexed first if it was not), which may queue more pairs; two
 * short single PDs are matched directly (unite_pair()). */
static int unite(struct dp_mg *m, uint32_t x, uint32_t y)
{
	uint32_t rx = dp_mg_find(m, x), ry = dp_mg_find(m, y), mem, t;
	int rc = 0;

	if (rx == ry)
		return 0;
	if (m->size[rx] < m->size[ry] || (m->size[rx] == m->size[ry] && rx > ry)) {
		t = rx;
		rx = ry;
		ry = t;
	}
	m->n_unions++;
	m->parent[ry] = rx;
	m->size[rx] += m->size[ry];
	if (m->size[rx] == 2 && !m->indexed[rx] && !m->indexed[ry] &&
	    m->csd_start[rx + 1] - m->csd_start[rx] <= MG_PAIR &&
	    m->csd_start[ry + 1] - m->csd_start[ry] <= MG_PAIR) {
		rc = unite_pair(m, rx, ry);
	} else {
		if (!m->indexed[rx] && (rc = index_class(m, rx)) < 0)
			return rc;
		mem = ry;
		do {
			for (uint32_t i = m->csd_start[mem]; rc == 0 && i < m->csd_start[mem + 1];
			     i++)
				rc = tab_add(m, rx, i);
			mem = m->next[mem];
		} while (rc == 0 && mem != ry);
	}
	t = m->next[rx];
	m->next[rx] = m->next[ry];
	m->next[ry] = t;
	return rc;
}

/* Whether PD @pd makes two CSDs with the same CSS and callee key (never in runtime
 * files but at the root, whose thread CSDs share one CSS). */
static int has_duplicates(const struct dp_mg *m, uint32_t pd)
{
	uint32_t b = m->csd_start[pd], n = m->csd_start[pd + 1] - b;
	const uint32_t *css = m->pos_css + b, *callee = m->pos_callee + b;

	if (n > MG_SMALL)
		return 1;
	for (uint32_t i = 0; i + 1 < n; i++)
		for (uint32_t j = i + 1; j < n; j++)
			if (css[i] == css[j] && m->key[callee[i]] == m->key[callee[j]])
				return 1;
	return 0;
}

/*
 * Classes start as single PDs, not in the table ("not indexed"): a PD whose CSDs have
 * distinct (CSS, key) needs no entries until it takes part in a union. Others are
 * indexed at once, which queues their duplicate callees; then the queue is run.
 */
static int closure(struct dp_mg *m)
{
	int rc = 0;

	for (uint32_t pd = 1; rc == 0 && pd <= m->in->n_pd; pd++)
		if (m->csd_start[pd + 1] - m->csd_start[pd] > 1 && has_duplicates(m, pd))
			rc = index_class(m, pd);
	while (rc == 0 && m->n_pend) {
		m->n_pend--;
		rc = unite(m, m->pend[2 * m->n_pend], m->pend[2 * m->n_pend + 1]);
	}
	return rc;
}

/*
 * The CSR of CSDs by caller: the CSDs of PD k are at positions csd_start[k] ..
 * csd_start[k + 1] of csd_ids (in id order), pos_css and pos_callee. Checks every CSD's
 * ids in the first pass, which copies the three fields into compact arrays (the CSD
 * records are the largest array of the profile: they are read once).
 */
static int csd_index(struct dp_mg *m, struct dp_arena *tmp)
{
	const struct dp_profile *p = m->in;
	size_t n = (size_t)p->n_csd + 1;
	uint32_t *start = dp_arena_array(tmp, (size_t)p->n_pd + 2, sizeof(uint32_t));
	uint32_t *caller = malloc(n * 3 * sizeof(uint32_t)), *css = caller + n, *callee = css + n;

	m->csd_ids = dp_arena_array(tmp, n, sizeof(uint32_t));
	m->pos_css = dp_arena_array(tmp, n, sizeof(uint32_t));
	m->pos_callee = dp_arena_array(tmp, n, sizeof(uint32_t));
	if (!start || !caller || !m->csd_ids || !m->pos_css || !m->pos_callee) {
		free(caller);
		return nomem();
	}
	for (uint32_t i = 1; i <= p->n_csd; i++) {
		const struct dp_csd *d = &p->csd[i];

		if (d->caller < 1 || d->caller > p->n_pd || d->callee < 1 || d->callee > p->n_pd ||
		    d->css < 1 || d->css > p->n_css) {
			free(caller);
			return dp_error(DP_EFORMAT,
					"cannot merge threads: CSD %" PRIu32
					" has caller PD %" PRIu32 ", callee PD %" PRIu32
					", CSS %" PRIu32 ": out of range",
					i, d->caller, d->callee, d->css);
		}
		caller[i] = d->caller;
		css[i] = d->css;
		callee[i] = d->callee;
		start[d->caller + 1]++;
	}
	for (uint32_t k = 1; k <= p->n_pd; k++) /* start[k + 1] = end of k = start of k + 1 */
		start[k + 1] += start[k];
	for (uint32_t i = 1; i <= p->n_csd; i++) { /* start[k] is k's cursor, ending at k + 1's */
		uint32_t at = start[caller[i]]++;

		m->csd_ids[at] = i;
		m->pos_css[at] = css[i];
		m->pos_callee[at] = callee[i];
	}
	for (uint32_t k = p->n_pd + 1; k > 1; k--)
		start[k] = start[k - 1];
	start[1] = 0;
	m->csd_start = start;
	free(caller);
	return 0;
}

/* Allocate and start the union-find (every PD its own class), the PD keys (checking each
 * PD's PS), the CSR of CSDs and the table. */
/* The PD pass of mg_init(): every PD its own class and its key; stops at the first PD
 * whose PS is out of range (in *@bad). Run on a second thread: it sets no message. */
struct pd_pass {
	struct dp_mg *m;
	uint32_t bad;
};

static void *pd_pass_run(void *arg)
{
	struct pd_pass *j = arg;
	struct dp_mg *m = j->m;
	const struct dp_profile *p = m->in;

	for (uint32_t i = 1; i <= p->n_pd; i++) {
		if (p->pd[i].ps < 1 || p->pd[i].ps > p->n_ps) {
			j->bad = i;
			break;
		}
		m->key[i] = (uint64_t)p->pd[i].ps << 32;
		m->parent[i] = m->next[i] = i;
		m->size[i] = 1;
	}
	return NULL;
}

/*
 * Allocate and start the union-find (every PD its own class), the PD keys (checking each
 * PD's PS: on a second thread), the CSR of CSDs (checking each CSD) and the table. A bad
 * PD is reported before a bad CSD, as the passes once ran in that order.
 */
static int mg_init(struct dp_mg *m, struct dp_arena *tmp, const struct dp_profile *p)
{
	size_t n = (size_t)p->n_pd + 2;
	struct pd_pass job = {.m = m};
	pthread_t th = {0};
	bool par;
	int rc;

	m->in = p;
	m->sig = dp_arena_array(tmp, n, sizeof(uint32_t)); /* sparse: faulted in as used */
	m->indexed = dp_arena_array(tmp, n, 1);
	m->grp = dp_arena_array(tmp, (size_t)p->n_csd + 1, sizeof(uint32_t));
	dp_arena_prefault(tmp, 1); /* the rest is written in full at once */
	m->parent = dp_arena_array(tmp, n, sizeof(uint32_t));
	m->size = dp_arena_array(tmp, n, sizeof(uint32_t));
	m->next = dp_arena_array(tmp, n, sizeof(uint32_t));
	m->key = dp_arena_array(tmp, n, sizeof(uint64_t));
	if (!m->parent || !m->size || !m->next || !m->sig || !m->key || !m->indexed || !m->grp)
		return nomem();
	par = p->n_pd >= DP_MG_PAR_MIN && pthread_create(&th, NULL, pd_pass_run, &job) == 0;
	if (!par)
		pd_pass_run(&job);
	rc = job.bad ? 0 : csd_index(m, tmp);
	if (par)
		pthread_join(th, NULL);
	if (job.bad)
		return dp_error(DP_EFORMAT,
				"cannot merge threads: PD %" PRIu32 " has PS %" PRIu32
				" out of range",
				job.bad, p->pd[job.bad].ps);
	if (rc < 0 || (rc = check_threads(p)) < 0)
		return rc;
	m->tab = calloc(MG_TAB_MIN, sizeof(*m->tab));
	if (!m->tab)
		return nomem();
	m->n_tab = MG_TAB_MIN;
	return 0;
}

int dp_profile_merge_threads(const struct dp_profile *in, struct dp_profile *out)
{
	return dp_mg_merge(in, out, 0);
}

int dp_mg_merge(const struct dp_profile *in, struct dp_profile *out, int by_thread)
{
	struct dp_arena tmp;
	struct dp_mg m;
	int rc = check_ids(in);

	memset(out, 0, sizeof(*out));
	if (rc < 0)
		return rc;
	memset(&m, 0, sizeof(m));
	m.by_thread = by_thread;
	dp_arena_init(&tmp, 0);
	rc = mg_init(&m, &tmp, in);
	if (rc == 0)
		rc = thread_signatures(&m);
	if (rc == 0)
		rc = closure(&m);
	if (rc == 0)
		rc = dp_mg_copy_static(in, out);
	if (rc == 0) {
		rc = dp_mg_build_nodes(&m, out);
		if (rc < 0)
			dp_profile_release(out);
	}
	free(m.tab);
	free(m.pend);
	dp_arena_release(&tmp);
	return rc;
}
