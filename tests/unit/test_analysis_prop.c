/*
 * tests/unit/test_analysis_prop.c - property tests of the analysis core on generated
 * profiles (test_analysis_gen.c), many seeds: indexes hold every item once under its
 * key; cliques equal mutual reachability (small graphs) and are numbered bottom-up;
 * entries follow the documented rule; inherited costs are consistent in every clique
 * and the root total is the sum of all own costs; summaries equal the sums they name.
 */
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/analysis_int.h"
#include "core/err.h"
#include "deepprof/format.h"
#include "harness.h"
#include "test_analysis_gen.h"

#define N_INH 4

static void inh(const struct dp_inherit *i, uint64_t v[N_INH])
{
	v[0] = i->samples;
	v[1] = i->callseqs;
	v[2] = i->allocs;
	v[3] = i->alloc_bytes;
}

static void csd_inh(const struct dp_csd *d, uint64_t v[N_INH])
{
	v[0] = d->samples;
	v[1] = d->callseqs;
	v[2] = d->allocs;
	v[3] = d->alloc_bytes;
}

static void add_inh(uint64_t acc[N_INH], const struct dp_inherit *i)
{
	uint64_t v[N_INH];

	inh(i, v);
	for (int k = 0; k < N_INH; k++)
		acc[k] += v[k];
}

static void add_csd(uint64_t acc[N_INH], const struct dp_csd *d)
{
	uint64_t v[N_INH];

	csd_inh(d, v);
	for (int k = 0; k < N_INH; k++)
		acc[k] += v[k];
}

static void check_inh(const uint64_t want[N_INH], const struct dp_inherit *got)
{
	uint64_t v[N_INH];

	inh(got, v);
	for (int k = 0; k < N_INH; k++)
		CHECK_EQ(v[k], want[k]);
}

static int costs_eq(const struct dp_costs *x, const struct dp_costs *y)
{
	return x->calls == y->calls && x->exits == y->exits && x->unwinds == y->unwinds &&
	       x->samples == y->samples && x->callseqs == y->callseqs && x->allocs == y->allocs &&
	       x->alloc_bytes == y->alloc_bytes;
}

static int inh_eq(const struct dp_inherit *x, const struct dp_inherit *y)
{
	return x->samples == y->samples && x->callseqs == y->callseqs && x->allocs == y->allocs &&
	       x->alloc_bytes == y->alloc_bytes;
}

/* Every item 1..n_items exactly once, under key[item], increasing (after @skip_first). */
static void check_csr(const struct dp_csr *c, uint32_t n_keys, uint32_t n_items,
		      const uint32_t *key, int skip_first)
{
	CHECK_EQ(c->n, n_keys);
	CHECK_EQ(c->start[1], 0);
	CHECK_EQ(c->start[n_keys + 1], n_items);
	for (uint32_t k = 1; k <= n_keys; k++) {
		const uint32_t *it = dp_csr_items(c, k);
		uint32_t n = dp_csr_count(c, k);

		for (uint32_t j = 0; j < n; j++) {
			CHECK(it[j] >= 1 && it[j] <= n_items);
			if (it[j] >= 1 && it[j] <= n_items && key[it[j]] != k)
				CHECK_EQ(key[it[j]], k);
			if (j > (skip_first ? 1u : 0u) && it[j] <= it[j - 1])
				CHECK(it[j] > it[j - 1]);
		}
	}
}

static uint32_t *keys(uint32_t n, const void *key0, size_t stride)
{
	uint32_t *k = calloc((size_t)n + 1, sizeof(*k));

	for (uint32_t i = 1; k && i <= n; i++)
		k[i] = *(const uint32_t *)(const void *)((const char *)key0 + i * stride);
	return k;
}

static void check_indexes(const struct dp_profile *p, const struct dp_analysis *a)
{
	uint32_t *kc = keys(p->n_csd, &p->csd[0].caller, sizeof(*p->csd));
	uint32_t *ke = keys(p->n_csd, &p->csd[0].callee, sizeof(*p->csd));
	uint32_t *ks = keys(p->n_csd, &p->csd[0].css, sizeof(*p->csd));
	uint32_t *kp = keys(p->n_pd, &p->pd[0].ps, sizeof(*p->pd));
	uint32_t *kx = keys(p->n_css, &p->css[0].ps, sizeof(*p->css));
	uint32_t *kq = calloc((size_t)p->n_csd + 1, sizeof(*kq));

	CHECK(kc && ke && ks && kp && kx && kq);
	if (kc && ke && ks && kp && kx && kq) {
		for (uint32_t i = 1; i <= p->n_csd; i++)
			kq[i] = p->pd[p->csd[i].callee].ps;
		check_csr(&a->pd_csds, p->n_pd, p->n_csd, kc, 0);
		check_csr(&a->pd_callers, p->n_pd, p->n_csd, ke, 0);
		check_csr(&a->css_csds, p->n_css, p->n_csd, ks, 0);
		check_csr(&a->ps_pds, p->n_ps, p->n_pd, kp, 0);
		check_csr(&a->ps_csss, p->n_ps, p->n_css, kx, 0);
		check_csr(&a->ps_callers, p->n_ps, p->n_csd, kq, 0);
		check_csr(&a->clique_pds, a->n_cliques, p->n_pd, a->pd_clique, 1);
		check_csr(&a->module_pss, a->n_modules, p->n_ps, a->ps_module, 0);
	}
	free(kc);
	free(ke);
	free(ks);
	free(kp);
	free(kx);
	free(kq);
}

/* mark[v] = 1 for every PD reachable from @src (itself included); @q: n_pd + 1 slots. */
static void reach(const struct dp_profile *p, const struct dp_analysis *a, uint32_t src,
		  uint8_t *mark, uint32_t *q)
{
	uint32_t head = 0, tail = 0;

	memset(mark, 0, (size_t)p->n_pd + 1);
	mark[src] = 1;
	q[tail++] = src;
	while (head < tail) {
		uint32_t v = q[head++];
		const uint32_t *out = dp_csr_items(&a->pd_csds, v);

		for (uint32_t j = 0; j < dp_csr_count(&a->pd_csds, v); j++) {
			uint32_t w = p->csd[out[j]].callee;

			if (!mark[w]) {
				mark[w] = 1;
				q[tail++] = w;
			}
		}
	}
}

/* Same clique exactly when mutually reachable (small graphs only: n_pd^2 bytes). */
static void check_naive_scc(const struct dp_profile *p, const struct dp_analysis *a)
{
	size_t n = (size_t)p->n_pd + 1;
	uint8_t *r = calloc(n * n, 1);
	uint32_t *q = malloc(n * sizeof(*q));

	CHECK(r && q);
	for (uint32_t u = 1; r && q && u <= p->n_pd; u++)
		reach(p, a, u, r + u * n, q);
	for (uint32_t u = 1; r && q && u <= p->n_pd; u++)
		for (uint32_t v = 1; v <= p->n_pd; v++) {
			int same = r[u * n + v] && r[v * n + u];

			if (same != (a->pd_clique[u] == a->pd_clique[v]))
				CHECK_EQ(same, a->pd_clique[u] == a->pd_clique[v]);
		}
	free(r);
	free(q);
}

static void check_entries(const struct dp_profile *p, const struct dp_analysis *a)
{
	uint32_t *want = calloc((size_t)a->n_cliques + 1, sizeof(*want)), n_cross = 0, n_ent = 0;

	CHECK(want != NULL);
	for (uint32_t i = 1; want && i <= p->n_csd; i++) {
		uint32_t cc = a->pd_clique[p->csd[i].callee], pc = a->pd_clique[p->csd[i].caller];
		uint32_t w;

		if (cc == pc) {
			CHECK_EQ(a->csd_child_clique[i], 0);
			continue;
		}
		n_cross++;
		CHECK(pc > cc); /* bottom-up numbering */
		CHECK_EQ(a->csd_child_clique[i], cc);
		w = want[cc];
		if (cc != a->root_clique &&
		    (!w ||
		     (a->pd_clique[p->csd[w].caller] > a->root_clique && pc <= a->root_clique)))
			want[cc] = i;
	}
	for (uint32_t c = 1; want && c <= a->n_cliques; c++) {
		uint32_t head = c == a->root_clique ? p->root_pd
				: want[c]	    ? p->csd[want[c]].callee
						    : 0;

		CHECK_EQ(a->clique_entry[c], want[c]);
		n_ent += want[c] != 0;
		if (head)
			CHECK_EQ(dp_csr_items(&a->clique_pds, c)[0], head);
	}
	CHECK_EQ(a->n_extra_entries, n_cross - n_ent);
	free(want);
}

static void check_cliques(const struct dp_profile *p, const struct dp_analysis *a, uint8_t *mark,
			  uint32_t *q)
{
	CHECK_EQ(a->root_clique, a->pd_clique[p->root_pd]);
	for (uint32_t v = 1; v <= p->n_pd; v++)
		CHECK(a->pd_clique[v] >= 1 && a->pd_clique[v] <= a->n_cliques);
	/* cliques 1..root_clique are exactly those reachable from the root */
	reach(p, a, p->root_pd, mark, q);
	for (uint32_t v = 1; v <= p->n_pd; v++)
		if (mark[v] != (a->pd_clique[v] <= a->root_clique))
			CHECK_EQ(mark[v], a->pd_clique[v] <= a->root_clique);
	check_entries(p, a);
	if (p->n_pd <= 200)
		check_naive_scc(p, a);
}

static struct dp_costs csd_costs(const struct dp_csd *d)
{
	struct dp_costs c = {d->calls,	  d->exits,  d->unwinds,    d->samples,
			     d->callseqs, d->allocs, d->alloc_bytes};

	return c;
}

/* PD own and desc, clique totals and entries, recomputed from their definitions. */
static void check_propagation(const struct dp_profile *p, const struct dp_analysis *a)
{
	struct dp_costs *own = calloc((size_t)p->n_pd + 1, sizeof(*own));
	struct dp_inherit *desc = calloc((size_t)p->n_pd + 1, sizeof(*desc));
	struct dp_inherit *tot = calloc((size_t)a->n_cliques + 1, sizeof(*tot));
	struct dp_inherit *in = calloc((size_t)a->n_cliques + 1, sizeof(*in));

	CHECK(own && desc && tot && in);
	if (!own || !desc || !tot || !in)
		goto out;
	for (uint32_t i = 1; i <= p->n_csd; i++) {
		const struct dp_csd *d = &p->csd[i];
		struct dp_costs c = csd_costs(d);
		uint32_t cc = a->csd_child_clique[i];
		struct dp_inherit cdesc = dp_analysis_csd_desc(a, i);

		dp_costs_add(&own[d->callee], &c);
		if (!dp_analysis_is_entry(a, i))
			CHECK(inh_eq(&cdesc, &(struct dp_inherit){0}));
		if (!cc)
			continue;
		struct dp_inherit t = {d->samples, d->callseqs, d->allocs, d->alloc_bytes};

		dp_inherit_add(&t, &cdesc);
		dp_inherit_add(&desc[d->caller], &t);
		dp_inherit_add(&in[cc], &t);
	}
	for (uint32_t v = 1; v <= p->n_pd; v++) {
		struct dp_inherit o = {own[v].samples, own[v].callseqs, own[v].allocs,
				       own[v].alloc_bytes};
		struct dp_costs got = dp_analysis_pd_own(a, v);
		struct dp_inherit got_i = dp_analysis_pd_own_inherit(a, v);

		CHECK(costs_eq(&own[v], &got));
		CHECK(inh_eq(&o, &got_i));
		CHECK(inh_eq(&desc[v], &a->pd_desc[v]));
		dp_inherit_add(&tot[a->pd_clique[v]], &o);
		dp_inherit_add(&tot[a->pd_clique[v]], &desc[v]);
	}
	/* each clique's total is what its entering CSDs carry (own + desc), in sum */
	for (uint32_t c = 1; c <= a->n_cliques; c++) {
		CHECK(inh_eq(&tot[c], &a->clique_total[c]));
		if (a->clique_entry[c])
			CHECK(inh_eq(&in[c], &a->clique_total[c]));
	}
out:
	free(own);
	free(desc);
	free(tot);
	free(in);
}

/* Root total == the own costs of every CSD whose caller is reachable from the root. */
static void check_root_total(const struct dp_profile *p, const struct dp_analysis *a,
			     const uint8_t *mark)
{
	uint64_t want[N_INH] = {0};

	for (uint32_t i = 1; i <= p->n_csd; i++)
		if (mark[p->csd[i].caller])
			add_csd(want, &p->csd[i]);
	check_inh(want, &a->root_total);
}

/* Runtime-like profiles: one entry per clique, and a clique's total is the own cost of
 * everything reachable from it (checked on up to 200 cliques). */
static void check_runtime_like(const struct dp_profile *p, const struct dp_analysis *a,
			       uint8_t *mark, uint32_t *q)
{
	uint32_t step = a->n_cliques / 200 + 1;

	CHECK_EQ(a->n_extra_entries, 0);
	for (uint32_t c = 1; c <= a->n_cliques; c++)
		CHECK((c == a->root_clique) == (a->clique_entry[c] == 0));
	for (uint32_t c = 1; c <= a->n_cliques; c += step) {
		uint64_t want[N_INH] = {0};

		reach(p, a, dp_csr_items(&a->clique_pds, c)[0], mark, q);
		for (uint32_t v = 1; v <= p->n_pd; v++)
			if (mark[v]) {
				struct dp_inherit o = {dp_analysis_pd_own(a, v).samples,
						       dp_analysis_pd_own(a, v).callseqs,
						       dp_analysis_pd_own(a, v).allocs,
						       dp_analysis_pd_own(a, v).alloc_bytes};

				add_inh(want, &o);
			}
		check_inh(want, &a->clique_total[c]);
	}
}

static void check_summaries(const struct dp_profile *p, const struct dp_analysis *a)
{
	struct dp_costs g_pd = {0}, g_ps = {0}, g_mod = {0}, g_obj = {0};
	uint32_t widest = dp_analysis_widest_ps(a);

	for (uint32_t v = 1; v <= p->n_pd; v++) {
		struct dp_costs o = dp_analysis_pd_own(a, v);

		dp_costs_add(&g_pd, &o);
	}
	for (uint32_t s = 1; s <= p->n_ps; s++) {
		struct dp_costs o = {0};
		struct dp_inherit d = {0};
		uint64_t by_callers[N_INH] = {0}, oi[N_INH];
		const uint32_t *it = dp_csr_items(&a->ps_pds, s);

		/* the widest procedure: none has more PDs, none before it as many */
		CHECK(s == widest || dp_csr_count(&a->ps_pds, s) <
					     dp_csr_count(&a->ps_pds, widest) + (s > widest));
		for (uint32_t j = 0; j < dp_csr_count(&a->ps_pds, s); j++) {
			struct dp_costs po = dp_analysis_pd_own(a, it[j]);

			dp_costs_add(&o, &po);
			dp_inherit_add(&d, &a->pd_desc[it[j]]);
		}
		CHECK(costs_eq(&o, &a->ps_own[s]));
		CHECK(inh_eq(&d, &a->ps_desc[s]));
		it = dp_csr_items(&a->ps_callers, s);
		for (uint32_t j = 0; j < dp_csr_count(&a->ps_callers, s); j++)
			add_csd(by_callers, &p->csd[it[j]]);
		inh(&(struct dp_inherit){o.samples, o.callseqs, o.allocs, o.alloc_bytes}, oi);
		CHECK_MEM(by_callers, oi, sizeof(oi));
		CHECK_EQ(a->module_file[a->ps_module[s]],
			 p->ps[s].file < p->strs.n ? p->ps[s].file : 0);
		dp_costs_add(&g_ps, &a->ps_own[s]);
	}
	for (uint32_t s = 1; s <= p->n_css; s++) {
		struct dp_costs o = {0};
		struct dp_inherit d = {0};
		const uint32_t *it = dp_csr_items(&a->css_csds, s);

		for (uint32_t j = 0; j < dp_csr_count(&a->css_csds, s); j++) {
			struct dp_costs c = csd_costs(&p->csd[it[j]]);
			struct dp_inherit cd = dp_analysis_csd_desc(a, it[j]);

			dp_costs_add(&o, &c);
			dp_inherit_add(&d, &cd);
		}
		CHECK(costs_eq(&o, &a->css_own[s]));
		CHECK(inh_eq(&d, &a->css_desc[s]));
	}
	for (uint32_t m = 1; m <= a->n_modules; m++) {
		struct dp_costs o = {0};
		struct dp_inherit d = {0};
		const uint32_t *it = dp_csr_items(&a->module_pss, m);

		for (uint32_t j = 0; j < dp_csr_count(&a->module_pss, m); j++) {
			dp_costs_add(&o, &a->ps_own[it[j]]);
			dp_inherit_add(&d, &a->ps_desc[it[j]]);
		}
		CHECK(costs_eq(&o, &a->module_own[m]));
		dp_costs_add(&g_mod, &a->module_own[m]);
	}
	for (uint32_t o = 0; o <= p->n_objects; o++) {
		struct dp_costs want = {0};

		for (uint32_t s = 1; s <= p->n_ps; s++)
			if (p->ps[s].object == o)
				dp_costs_add(&want, &a->ps_own[s]);
		CHECK(costs_eq(&want, &a->object_own[o]));
		dp_costs_add(&g_obj, &a->object_own[o]);
	}
	CHECK(costs_eq(&g_pd, &g_ps));
	CHECK(costs_eq(&g_pd, &g_mod));
	CHECK(costs_eq(&g_pd, &g_obj));
}

/* Adds group @g to the set @seen/@list (of @n) unless there. */
static void group_add(uint8_t *seen, uint32_t *list, uint32_t *n, uint32_t g)
{
	if (!seen[g]) {
		seen[g] = 1;
		list[(*n)++] = g;
	}
}

/*
 * Module totals by brute force: each PD's own cost belongs to its module and to the
 * module of every PD making a call on its chain of ancestor contexts (the callers of the
 * entry CSDs above it); calls of artificial procedures count for no module. Then module_desc must
 * be that total minus module_own, and no module total may exceed the root total.
 */
static void check_module_totals(const struct dp_profile *p, const struct dp_analysis *a,
				int runtime_like)
{
	uint64_t(*tot)[N_INH] = calloc((size_t)a->n_modules + 1, sizeof(*tot));
	uint8_t *seen = calloc((size_t)a->n_modules + 1, 1);
	uint32_t *list = malloc(((size_t)a->n_modules + 1) * sizeof(*list));
	uint64_t root[N_INH];

	CHECK(tot && seen && list);
	if (!tot || !seen || !list)
		goto out;
	inh(&a->root_total, root);
	for (uint32_t q = 1; q <= p->n_pd; q++) {
		uint32_t n = 0, pd = q, e;

		group_add(seen, list, &n, a->ps_module[p->pd[q].ps]);
		while ((e = a->clique_entry[a->pd_clique[pd]]) != 0) {
			pd = p->csd[e].caller;
			if (p->ps[p->pd[pd].ps].kind == DP_PS_FUNCTION)
				group_add(seen, list, &n, a->ps_module[p->pd[pd].ps]);
		}
		for (uint32_t i = 0; i < n; i++) {
			add_inh(tot[list[i]],
				&(struct dp_inherit){dp_analysis_pd_own(a, q).samples,
						     dp_analysis_pd_own(a, q).callseqs,
						     dp_analysis_pd_own(a, q).allocs,
						     dp_analysis_pd_own(a, q).alloc_bytes});
			seen[list[i]] = 0;
		}
	}
	for (uint32_t m = 1; m <= a->n_modules; m++) {
		struct dp_inherit own = {a->module_own[m].samples, a->module_own[m].callseqs,
					 a->module_own[m].allocs, a->module_own[m].alloc_bytes};
		uint64_t got[N_INH], o[N_INH];

		inh(&a->module_desc[m], got);
		inh(&own, o);
		for (int k = 0; k < N_INH; k++) {
			CHECK_EQ(got[k] + o[k], tot[m][k]);
			/* (unreachable cliques of wild graphs are outside the root total) */
			CHECK(!runtime_like || tot[m][k] <= root[k]);
		}
	}
out:
	free(tot);
	free(seen);
	free(list);
}

/*
 * Procedure totals by brute force: clique C's total counts for procedure X when C holds a
 * PD of X and no clique above C (along the entry CSDs' callers) does; the Mercury total
 * (own + desc) is never more in runtime-like profiles (elsewhere it may count a nesting
 * twice), nor the total more than the root total.
 */
static void check_ps_totals(const struct dp_profile *p, const struct dp_analysis *a,
			    int runtime_like)
{
	uint64_t(*tot)[N_INH] = calloc((size_t)p->n_ps + 1, sizeof(*tot));
	uint32_t *in = calloc((size_t)p->n_ps + 1, sizeof(*in)); /* last clique counted */
	uint64_t root[N_INH];

	CHECK(tot && in);
	if (!tot || !in)
		goto out;
	inh(&a->root_total, root);
	for (uint32_t c = 1; c <= a->n_cliques; c++) {
		const uint32_t *m = dp_csr_items(&a->clique_pds, c);

		for (uint32_t k = 0; k < dp_csr_count(&a->clique_pds, c); k++) {
			uint32_t x = p->pd[m[k]].ps, up = c, e, above = 0;

			if (in[x] == c)
				continue;
			while (!above && (e = a->clique_entry[up]) != 0) {
				const uint32_t *um;

				up = a->pd_clique[p->csd[e].caller];
				um = dp_csr_items(&a->clique_pds, up);
				for (uint32_t j = 0; j < dp_csr_count(&a->clique_pds, up); j++)
					above |= p->pd[um[j]].ps == x;
			}
			in[x] = c;
			if (!above)
				add_inh(tot[x], &a->clique_total[c]);
		}
	}
	for (uint32_t x = 1; x <= p->n_ps; x++) {
		uint64_t got[N_INH], own[N_INH], desc[N_INH];

		inh(&a->ps_total[x], got);
		inh(&a->ps_desc[x], desc);
		inh(&(struct dp_inherit){a->ps_own[x].samples, a->ps_own[x].callseqs,
					 a->ps_own[x].allocs, a->ps_own[x].alloc_bytes},
		    own);
		for (int k = 0; k < N_INH; k++) {
			CHECK_EQ(got[k], tot[x][k]);
			CHECK(!runtime_like || own[k] + desc[k] <= got[k]);
			CHECK(!runtime_like || got[k] <= root[k]);
		}
	}
out:
	free(tot);
	free(in);
}

/* The group totals do not depend on where grouptotal.c splits its sweep. */
static void check_split(struct dp_analysis *a)
{
	size_t nm = ((size_t)a->n_modules + 1) * sizeof(struct dp_inherit);
	size_t no = ((size_t)a->p->n_objects + 1) * sizeof(struct dp_inherit);
	size_t np = ((size_t)a->p->n_ps + 1) * sizeof(struct dp_inherit);
	struct dp_inherit *m = malloc(nm), *o = malloc(no), *ps = malloc(np);
	uint32_t step = a->n_cliques / 29 + 1;

	CHECK(m && o && ps);
	if (m && o && ps) {
		memcpy(m, a->module_desc, nm);
		memcpy(o, a->object_desc, no);
		memcpy(ps, a->ps_total, np);
		for (uint32_t mid = 0; mid <= a->n_cliques; mid += step) {
			CHECK_EQ(dp_analysis_group_totals_at(a, mid), 0);
			CHECK(memcmp(m, a->module_desc, nm) == 0);
			CHECK(memcmp(o, a->object_desc, no) == 0);
			CHECK(memcmp(ps, a->ps_total, np) == 0);
		}
	}
	free(m);
	free(o);
	free(ps);
}

/* Every property; @runtime_like: the profile obeys the runtime's rules. */
/* pd_up: a clique's first member steps to the caller of the clique's entry CSD (0 if it
 * has none), any other member to the first; so climbing from any PD reaches 0 through
 * ever higher cliques, every step either inside a clique or along its entry CSD; and
 * each step has the procedure of the PD it reaches (0 for none) */
static void check_steps_up(const struct dp_profile *p, const struct dp_analysis *a)
{
	for (uint32_t pd = 1; pd <= p->n_pd; pd++) {
		uint32_t k = a->pd_clique[pd], up = a->pd_up[pd].pd, e = a->clique_entry[k];
		uint32_t first = dp_csr_items(&a->clique_pds, k)[0];

		CHECK_EQ(a->pd_up[pd].ps, up ? p->pd[up].ps : 0);

		if (pd != first) {
			CHECK_EQ(up, first);
			continue;
		}
		CHECK_EQ(up, e ? p->csd[e].caller : 0);
		if (e)
			CHECK_EQ(p->csd[e].callee, pd);
		if (up)
			CHECK(a->pd_clique[up] > k);
	}
}

static void check_all(const struct dp_profile *p, int runtime_like)
{
	int err = 1;
	struct dp_analysis *a = dp_analysis_new(p, &err);
	uint8_t *mark = malloc((size_t)p->n_pd + 1);
	uint32_t *q = malloc(((size_t)p->n_pd + 1) * sizeof(*q));

	CHECK(a && mark && q);
	if (!a || !mark || !q) {
		fprintf(stderr, "%s\n", dp_errmsg());
		goto out;
	}
	CHECK_EQ(err, 0);
	check_indexes(p, a);
	check_cliques(p, a, mark, q);
	check_steps_up(p, a);
	check_propagation(p, a);
	check_summaries(p, a);
	reach(p, a, p->root_pd, mark, q);
	check_root_total(p, a, mark);
	if (runtime_like)
		check_runtime_like(p, a, mark, q);
	/* the definition holds when each clique has one entering CSD; grouptotal.c sweeps
	 * when every clique is also reachable from the root, else walks the clique tree */
	if (a->n_extra_entries == 0)
		check_module_totals(p, a, runtime_like);
	check_ps_totals(p, a, runtime_like);
	check_split(a);
out:
	dp_analysis_free(a);
	free(mark);
	free(q);
}

TEST(simulated_profiles)
{
	uint32_t max_pd = 0, max_cliques = 0, n_multi = 0;

	for (uint64_t seed = 1; seed <= 40; seed++) {
		struct dp_gen_sim g = {
			seed,  4 + (uint32_t)(seed * 7 % 60),	1 + (uint32_t)(seed % 4),
			10000, 20 + (uint32_t)(seed * 13 % 60), 55};
		struct dp_profile p;
		uint64_t all[N_INH] = {0};

		if (dp_gen_simulate(&p, &g) < 0) {
			CHECK(0);
			continue;
		}
		check_all(&p, 1);
		for (uint32_t i = 1; i <= p.n_csd; i++)
			add_csd(all, &p.csd[i]);
		/* everything hangs under the root: its total is every CSD's own */
		{
			int err;
			struct dp_analysis *a = dp_analysis_new(&p, &err);

			CHECK(a != NULL);
			if (a) {
				check_inh(all, &a->root_total);
				max_cliques =
					a->n_cliques > max_cliques ? a->n_cliques : max_cliques;
				for (uint32_t c = 1; c <= a->n_cliques; c++)
					n_multi += dp_csr_count(&a->clique_pds, c) > 1;
			}
			dp_analysis_free(a);
		}
		max_pd = p.n_pd > max_pd ? p.n_pd : max_pd;
		dp_profile_release(&p);
	}
	printf("simulated: max %" PRIu32 " PDs, %" PRIu32 " cliques, %" PRIu32
	       " multi-PD cliques\n",
	       max_pd, max_cliques, n_multi);
	/* the generator really makes big graphs with recursion */
	CHECK(max_pd >= 1000);
	CHECK(max_cliques >= 500);
	CHECK(n_multi >= 40);
}

/* Deep recursion over three functions: long chains of PDs and big cliques. */
TEST(simulated_deep)
{
	for (uint64_t seed = 100; seed < 104; seed++) {
		struct dp_gen_sim g = {seed, 3, 2, 30000, 5000, 70};
		struct dp_profile p;

		if (dp_gen_simulate(&p, &g) < 0) {
			CHECK(0);
			continue;
		}
		check_all(&p, 1);
		dp_profile_release(&p);
	}
}

/* Arbitrary graphs: several CSDs entering a clique, unreachable PDs, arcs into the root. */
TEST(wild_small)
{
	for (uint64_t seed = 1; seed <= 400; seed++) {
		struct dp_profile p;

		if (dp_gen_wild(&p, seed, 2 + (uint32_t)(seed % 40), (uint32_t)(seed * 3 % 60),
				seed % 3 == 0) < 0) {
			CHECK(0);
			continue;
		}
		check_all(&p, 0);
		dp_profile_release(&p);
	}
}

TEST(wild_large)
{
	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct dp_profile p;

		if (dp_gen_wild(&p, seed, 20000, 10000 * (uint32_t)seed, seed % 2 == 0) < 0) {
			CHECK(0);
			continue;
		}
		check_all(&p, 0);
		dp_profile_release(&p);
	}
}

/* Creation trees with orphan PDs (unreachable, nothing enters them): no extra entries,
 * so module totals are checked, on grouptotal.c's walk rather than its sweep. */
TEST(wild_trees)
{
	uint32_t n_walked = 0;

	for (uint64_t seed = 1; seed <= 60; seed++) {
		struct dp_profile p;
		struct dp_analysis *a;
		int err;

		if (dp_gen_wild(&p, seed, 2 + (uint32_t)(seed * 37 % 3000), 0, 1) < 0) {
			CHECK(0);
			continue;
		}
		check_all(&p, 0);
		a = dp_analysis_new(&p, &err);
		CHECK(a != NULL);
		if (a) {
			CHECK_EQ(a->n_extra_entries, 0);
			n_walked += a->root_clique < a->n_cliques;
		}
		dp_analysis_free(a);
		dp_profile_release(&p);
	}
	CHECK(n_walked >= 30);
}

DP_TEST_MAIN(test_simulated_profiles, test_simulated_deep, test_wild_small, test_wild_large,
	     test_wild_trees)
