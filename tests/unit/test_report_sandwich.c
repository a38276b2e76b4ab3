/*
 * tests/unit/test_report_sandwich.c - the flame page zoomed at a clique (root=: its rows
 * and the "path" above them), the "members" of recursive cliques, the callees tree of a
 * procedure (flame&proc=N) and the sandwich page: exact rows of the fixture, errors, and
 * the callees tree against a brute force on generated profiles (recursion folded into
 * cliques, so that a procedure's contexts nest).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "harness.h"
#include "query/query.h"
#include "report/report_int.h"
#include "test_analysis_gen.h"
#include "test_report_fix.h"

/* kind, id, depth and samples in all (own + desc) of each row of section @sec */
struct want {
	enum dp_ent kind;
	uint32_t id, depth;
	uint64_t samples;
};

static void rows_are(const struct dp_report *r, const char *sec, const struct want *w, uint32_t n)
{
	const struct dp_rep_section *s = r ? tf_section(r, sec) : NULL;

	CHECK(s != NULL);
	if (!s)
		return;
	CHECK_EQ(s->n_rows, n);
	for (uint32_t i = 0; i < n && i < s->n_rows; i++) {
		const struct dp_rep_row *x = &s->rows[i];

		if (x->kind != w[i].kind || x->id != w[i].id || x->depth != w[i].depth ||
		    x->own.samples + x->desc.samples != w[i].samples)
			fprintf(stderr, "%s row %u: %s %u depth %u samples %llu\n", sec, i,
				dp_ent_name(x->kind), x->id, x->depth,
				(unsigned long long)(x->own.samples + x->desc.samples));
		CHECK_EQ(x->kind, w[i].kind);
		CHECK_EQ(x->id, w[i].id);
		CHECK_EQ(x->depth, w[i].depth);
		CHECK_EQ(x->own.samples + x->desc.samples, w[i].samples);
	}
}

/* root=C: the tree from C (min= of C's total), and the path from the top down to C's
 * parent; with thread=1 the path starts at the thread's clique */
TEST(flame_root_fixture)
{
	struct tf_ctx t;
	struct dp_report *r;
	uint32_t work = 0, top = 0;
	int rc;

	TF_OPEN(&t, NULL);
	work = tf_clique_of(&t, 5);
	top = tf_clique_of(&t, 1);
	r = tf_page(&t, "page=flame&root=%u&min=0", work);
	CHECK(r != NULL);
	if (r) {
		struct want tree[] = {{DP_ENT_CLIQUE, work, 0, 41}, {DP_ENT_CSD, 6, 1, 40}};
		struct want path[] = {{DP_ENT_CLIQUE, top, 0, 81},
				      {DP_ENT_CSD, 1, 1, 81},
				      {DP_ENT_CSD, 2, 2, 81}};

		rows_are(r, "tree", tree, 2);
		rows_are(r, "path", path, 3);
		CHECK_EQ(r->subject.kind, DP_ENT_CLIQUE);
		CHECK_EQ(r->subject.id, work);
		CHECK(strstr(r->title, "Flame graph from work (clique ") == r->title);
		CHECK_EQ(tf_fact(r, "kept"), 2);
	}
	dp_report_free(r);
	/* min= is of the zoomed clique's total: 40 of 41 stays at 90 %, not at 99 % */
	r = tf_page(&t, "page=flame&root=%u&min=90", work);
	CHECK(r && tf_section(r, "tree")->n_rows == 2);
	dp_report_free(r);
	r = tf_page(&t, "page=flame&root=%u&min=99", work);
	CHECK(r && tf_section(r, "tree")->n_rows == 1);
	dp_report_free(r);
	/* in thread 1's graph the path starts at the thread's clique */
	r = tf_page(&t, "page=flame&root=%u&thread=1&min=0", work);
	CHECK(r != NULL);
	if (r) {
		struct want path[] = {{DP_ENT_CLIQUE, tf_clique_of(&t, 2), 0, 81},
				      {DP_ENT_CSD, 2, 1, 81}};

		rows_are(r, "path", path, 2);
	}
	dp_report_free(r);
	/* the top itself: an empty path, the rows of the graph without root= */
	r = tf_page(&t, "page=flame&root=%u&min=0", top);
	CHECK(r && tf_section(r, "path") && tf_section(r, "path")->n_rows == 0);
	{
		struct dp_report *whole = tf_page(&t, "page=flame&min=0");

		CHECK(r && whole && tf_section(r, "tree")->n_rows >= 10);
		CHECK(r && whole &&
		      tf_section(whole, "tree")->n_rows == tf_section(r, "tree")->n_rows);
		dp_report_free(whole);
	}
	dp_report_free(r);
	/* errors: unknown clique, a clique outside the thread, root= with proc= */
	CHECK(tf_report(&t, "page=flame&root=999", &rc, 1) == NULL);
	CHECK_EQ(rc, -DP_ENOENT);
	{
		char q[64];

		snprintf(q, sizeof(q), "page=flame&root=%u&thread=1", top);
		CHECK(tf_report(&t, q, &rc, 1) == NULL);
		CHECK_EQ(rc, -DP_ENOENT);
		CHECK(strstr(dp_errmsg(), "is not in thread 1's graph") != NULL);
	}
	CHECK(tf_report(&t, "page=flame&root=3&proc=3", &rc, 1) == NULL);
	CHECK_EQ(rc, -DP_EUSAGE);
	CHECK(tf_report(&t, "page=flame&proc=3&thread=1", &rc, 1) == NULL);
	CHECK_EQ(rc, -DP_EUSAGE);
	tf_close(&t);
}

/* the one recursive clique of two procedures (is_even and is_odd) is listed; fib's
 * clique (one PD) is not */
TEST(members_fixture)
{
	struct tf_ctx t;
	struct dp_report *r;
	const struct dp_rep_section *m;

	TF_OPEN(&t, NULL);
	r = tf_page(&t, "page=flame&min=0");
	m = r ? tf_section(r, "members") : NULL;
	CHECK(m != NULL && m->n_rows == 2);
	if (m && m->n_rows == 2) {
		CHECK_EQ(m->rows[0].kind, DP_ENT_CLIQUE);
		CHECK_EQ(m->rows[0].clique, tf_clique_of(&t, 9));
		CHECK_EQ(m->rows[0].n, 2);
		CHECK_STR(m->rows[0].name, "is_even");
		CHECK_EQ(m->rows[1].kind, DP_ENT_PS);
		CHECK_EQ(m->rows[1].id, TF_ODD);
		CHECK_EQ(m->rows[1].depth, 1);
		CHECK_STR(m->rows[1].name, "is_odd");
	}
	dp_report_free(r);
	tf_close(&t);
}

/* the callees of main, of cheap (two contexts), of is_odd (a member, not the entry, of
 * its clique) and of is_even (the entry: the whole clique) */
TEST(callees_fixture)
{
	struct tf_ctx t;
	struct dp_report *r;
	int rc;

	TF_OPEN(&t, NULL);
	r = tf_page(&t, "page=flame&name=main&min=0");
	CHECK(r != NULL);
	if (r) {
		struct want tree[] = {
			{DP_ENT_PS, TF_MAIN, 0, 81}, {DP_ENT_PS, TF_CB1, 1, 3},
			{DP_ENT_PS, TF_CB2, 1, 4},   {DP_ENT_PS, TF_CHEAP, 1, 1},
			{DP_ENT_PS, TF_FIB, 1, 20},  {DP_ENT_PS, TF_EVEN, 1, 10},
			{DP_ENT_PS, TF_WORK, 1, 41}, {DP_ENT_PS, TF_CHEAP, 2, 40},
		};
		const struct dp_rep_row *fib = &tf_section(r, "tree")->rows[4];

		rows_are(r, "tree", tree, 8);
		CHECK_STR(r->title, "Callees of main (flame graph)");
		CHECK_EQ(r->subject.own.samples + r->subject.desc.samples, 81);
		CHECK_EQ(r->subject.n, 1);
		CHECK(r->subject.flags & DP_ROW_SUM);
		/* one context: the clique to zoom the flame graph at, its calls */
		CHECK_EQ(fib->clique, tf_clique_of(&t, 4));
		CHECK_EQ(fib->n, 1);
		CHECK_EQ(fib->own.calls, 1);
		CHECK_EQ(tf_section(r, "members"), NULL);
	}
	dp_report_free(r);
	/* min=10: 8.1 samples; cb1, cb2 and main's cheap (8 in all) dropped, no "(other)" */
	r = tf_page(&t, "page=flame&name=main&min=10");
	if (r) {
		struct want tree[] = {
			{DP_ENT_PS, TF_MAIN, 0, 81},  {DP_ENT_PS, TF_FIB, 1, 20},
			{DP_ENT_PS, TF_EVEN, 1, 10},  {DP_ENT_PS, TF_WORK, 1, 41},
			{DP_ENT_PS, TF_CHEAP, 2, 40},
		};

		rows_are(r, "tree", tree, 5);
		CHECK_EQ(tf_fact(r, "dropped"), 3);
	}
	dp_report_free(r);
	/* two contexts merged */
	r = tf_page(&t, "page=flame&proc=%u&min=0", TF_CHEAP);
	if (r) {
		struct want tree[] = {{DP_ENT_PS, TF_CHEAP, 0, 41}};

		rows_are(r, "tree", tree, 1);
		CHECK_EQ(tf_section(r, "tree")->rows[0].n, 2);
		CHECK_EQ(tf_section(r, "tree")->rows[0].clique, 0);
		CHECK_EQ(r->subject.own.calls, 11);
	}
	dp_report_free(r);
	/* a member of a clique: itself only; the entry: its clique */
	r = tf_page(&t, "page=flame&name=is_odd&min=0");
	if (r) {
		struct want tree[] = {{DP_ENT_PS, TF_ODD, 0, 5}};

		rows_are(r, "tree", tree, 1);
	}
	dp_report_free(r);
	r = tf_page(&t, "page=flame&name=is_even&min=0");
	if (r) {
		struct want tree[] = {{DP_ENT_PS, TF_EVEN, 0, 10}};

		rows_are(r, "tree", tree, 1);
		CHECK_EQ(r->subject.own.samples, 5); /* its own: CSDs 9 and 11 */
	}
	dp_report_free(r);
	CHECK(tf_report(&t, "page=flame&proc=999", &rc, 1) == NULL);
	CHECK_EQ(rc, -DP_ENOENT);
	CHECK(tf_report(&t, "page=flame&name=nope", &rc, 1) == NULL);
	CHECK_EQ(rc, -DP_ENOENT);
	tf_close(&t);
}

/* the sandwich: the callers page's tree and the callees page's tree, side by side */
TEST(sandwich_fixture)
{
	static const char *const which[2][2] = {{"callers", "flame_callers"}, {"callees", "flame"}};
	struct tf_ctx t;

	TF_OPEN(&t, NULL);
	for (uint32_t ps = TF_MAIN; ps <= TF_ODD; ps++) {
		struct dp_report *s = tf_page(&t, "page=sandwich&min=0&proc=%u", ps);

		CHECK(s != NULL);
		if (!s)
			continue;
		CHECK_EQ(s->subject.kind, DP_ENT_PS);
		CHECK_EQ(s->subject.id, ps);
		CHECK(strstr(s->title, "Sandwich of ") == s->title);
		for (int k = 0; k < 2; k++) {
			char key[32];
			struct dp_report *r = tf_page(&t, "page=%s&min=0&proc=%u", which[k][1], ps);
			const struct dp_rep_section *a = tf_section(s, which[k][0]);
			const struct dp_rep_section *b = r ? tf_section(r, "tree") : NULL;

			CHECK(a != NULL && b != NULL && a->n_rows == b->n_rows);
			for (uint32_t i = 0; a && b && i < a->n_rows && i < b->n_rows; i++) {
				CHECK_EQ(a->rows[i].kind, b->rows[i].kind);
				CHECK_EQ(a->rows[i].id, b->rows[i].id);
				CHECK_EQ(a->rows[i].depth, b->rows[i].depth);
				CHECK_EQ(a->rows[i].n, b->rows[i].n);
				CHECK(!memcmp(&a->rows[i].own, &b->rows[i].own,
					      sizeof(a->rows[i].own)));
				CHECK(!memcmp(&a->rows[i].desc, &b->rows[i].desc,
					      sizeof(a->rows[i].desc)));
			}
			snprintf(key, sizeof(key), "%s_kept", which[k][0]);
			CHECK_EQ(tf_fact(s, key), tf_fact(r, "kept"));
			dp_report_free(r);
		}
		dp_report_free(s);
	}
	tf_close(&t);
}

/* ---- the callees tree against a brute force ---- */

/* A node of the brute force's tree: its path of procedures from the root. */
struct bf {
	uint32_t depth, ps[24];
	uint64_t samples, callseqs, n;
};

/* bf_at - the node of path @path (@depth long) in @t, made if new; NULL past the room */
static struct bf *bf_at(struct bf *t, uint32_t *n_t, uint32_t room, const uint32_t *path,
			uint32_t depth)
{
	for (uint32_t i = 0; i < *n_t; i++)
		if (t[i].depth == depth && !memcmp(t[i].ps, path, depth * sizeof(*path)))
			return &t[i];
	if (*n_t == room)
		return NULL;
	memset(&t[*n_t], 0, sizeof(*t));
	t[*n_t].depth = depth;
	memcpy(t[*n_t].ps, path, depth * sizeof(*path));
	return &t[(*n_t)++];
}

/*
 * The brute force of procedure @ps's callees tree: every PD z whose chain of steps up the
 * clique tree (a->pd_up, z itself included) meets a PD of @ps counts, once, under the
 * last (outermost) one x it meets; its path is the procedures of the clique entries on
 * the chain below x's clique, top first; its own costs go to every prefix of its path
 * (the root is the empty path); each entry PD on a path adds one context (n) to its
 * node, each outermost x one to the root. Return: the nodes made, or -1 (no room).
 */
static int64_t brute_callees(const struct tf_ctx *t, uint32_t ps, struct bf *tree, uint32_t room)
{
	const struct dp_analysis *a = t->a;
	uint32_t n_t = 0, chain[256], path[24];

	if (!bf_at(tree, &n_t, room, path, 0))
		return -1;
	for (uint32_t z = 1; z <= t->p.n_pd; z++) {
		uint32_t len = 0, outer = UINT32_MAX, d = 0;
		struct dp_costs own = dp_analysis_pd_own(a, z);

		for (uint32_t c = z; c && len < 256; c = a->pd_up[c].pd)
			chain[len++] = c;
		for (uint32_t i = 0; i < len; i++)
			if (t->p.pd[chain[i]].ps == ps)
				outer = i;
		if (outer == UINT32_MAX)
			continue;
		if (outer == 0)
			tree[0].n++; /* z is an outermost context itself */
		for (uint32_t i = outer; i-- > 0;) {
			uint32_t c = chain[i], up = chain[i + 1];
			bool entry = a->pd_clique[up] != a->pd_clique[c];

			if (!entry || a->pd_clique[c] == a->pd_clique[chain[outer]])
				continue;
			if (d == 24)
				return -1;
			path[d++] = t->p.pd[c].ps;
		}
		for (uint32_t k = 0; k <= d; k++) {
			struct bf *b = bf_at(tree, &n_t, room, path, k);

			if (!b)
				return -1;
			b->samples += own.samples;
			b->callseqs += own.callseqs;
		}
		/* z's context, when it is the entry its path ends with */
		if (d && outer > 0 && a->pd_clique[chain[1]] != a->pd_clique[z] &&
		    a->pd_clique[z] != a->pd_clique[chain[outer]])
			bf_at(tree, &n_t, room, path, d)->n++;
	}
	return n_t;
}

static uint64_t wild_seed;

static uint32_t wild_extra;

/* a random tree of PDs (@wild_extra arcs more) of random procedures */
static int gen_wild(struct dp_profile *p)
{
	return dp_gen_wild(p, wild_seed, 400, wild_extra, 0);
}

/*
 * Every procedure of generated profiles: the uncapped callees tree (min=0) has a row for
 * every node of the brute force and no other, with its total samples and callseqs and
 * its number of contexts. The runtime's profiles (simulated) fold recursion into
 * cliques, so a procedure's contexts never nest; random trees of procedures have them
 * nest. Half of them have a report index holding every procedure's contexts (read from
 * it). Summing the nested contexts too, giving an entry only its own PD, or reading the
 * index's contexts out of order fails it.
 */
TEST(callees_brute_force)
{
	uint32_t n_rows = 0, n_nested = 0;
	struct dp_report_index *ix = NULL;

	wild_extra = 0;
	for (uint64_t seed = 71; seed < 79; seed++) {
		struct tf_ctx t;

		tf_sim = (struct dp_gen_sim){.seed = seed,
					     .n_fn = 30,
					     .n_threads = 2,
					     .n_steps = 6000,
					     .max_depth = 10,
					     .pct_call = 52};
		wild_seed = seed;
		TF_OPEN(&t, seed < 75 ? tf_gen_sim : gen_wild);
		t.c.flame_max_nodes = UINT32_MAX;
		/* half the profiles with a report index holding every procedure's contexts */
		if (seed % 2)
			CHECK_EQ(dp_report_index_build(
					 &t.p, t.a, &(struct dp_report_index_opts){1, 1, 0}, &ix),
				 0);
		t.c.flame_ix = ix;
		for (uint32_t ps = 3; ps <= t.p.n_ps; ps++) {
			uint32_t room = 20000, path[24] = {0}, seen = 0;
			struct bf *tree = calloc(room, sizeof(*tree));
			int64_t n_t = tree ? brute_callees(&t, ps, tree, room) : -1;
			struct dp_report *r;
			const struct dp_rep_section *s;

			CHECK(n_t > 0);
			if (n_t <= 0) {
				free(tree);
				continue;
			}
			r = tf_page(&t, "page=flame&min=0&proc=%u", ps);
			s = r ? tf_section(r, "tree") : NULL;
			CHECK(s != NULL);
			for (uint32_t k = 0; s && k < s->n_rows; k++) {
				const struct dp_rep_row *w = &s->rows[k];
				struct bf *b;

				CHECK(w->depth <= 24 && w->kind == DP_ENT_PS);
				if (w->depth > 24)
					break;
				if (w->depth)
					path[w->depth - 1] = w->id;
				b = bf_at(tree, &(uint32_t){(uint32_t)n_t}, (uint32_t)n_t, path,
					  w->depth);
				CHECK(b != NULL);
				if (!b)
					continue;
				CHECK_EQ(w->own.samples + w->desc.samples, b->samples);
				CHECK_EQ(w->own.callseqs + w->desc.callseqs, b->callseqs);
				CHECK_EQ(w->n, b->n);
				seen++;
			}
			CHECK_EQ(seen, (uint32_t)n_t);
			n_rows += seen;
			n_nested += r && r->subject.n < dp_csr_count(&t.a->ps_pds, ps);
			dp_report_free(r);
			free(tree);
		}
		t.c.flame_ix = NULL;
		dp_report_index_free(ix);
		ix = NULL;
		tf_close(&t);
	}
	CHECK(n_rows > 1000);
	CHECK(n_nested > 10); /* procedures with contexts inside their own */
}

/* On profiles with several CSDs entering a clique (subtrees are not id ranges: the
 * contexts are judged by climbing), the root stands for the contexts of the procedure
 * that no other one contains (whose chain of steps up meets no other PD of it). */
TEST(callees_wild)
{
	uint32_t n_checked = 0, n_nested = 0;

	wild_extra = 60;
	for (wild_seed = 5; wild_seed < 9; wild_seed++) {
		struct tf_ctx t;

		TF_OPEN(&t, gen_wild);
		CHECK(t.a->n_extra_entries > 0);
		for (uint32_t ps = 1; ps <= t.p.n_ps; ps++) {
			const uint32_t *pds = dp_csr_items(&t.a->ps_pds, ps);
			uint32_t n = dp_csr_count(&t.a->ps_pds, ps), outer = 0;
			struct dp_report *r;

			for (uint32_t i = 0; i < n; i++) {
				bool nested = false;

				for (uint32_t c = t.a->pd_up[pds[i]].pd; c && !nested;
				     c = t.a->pd_up[c].pd)
					nested = t.p.pd[c].ps == ps;
				outer += !nested;
			}
			if (!n)
				continue;
			r = tf_page(&t, "page=flame&min=0&proc=%u", ps);
			CHECK(r != NULL);
			if (r)
				CHECK_EQ(r->subject.n, outer);
			n_nested += outer < n;
			n_checked++;
			dp_report_free(r);
		}
		tf_close(&t);
	}
	CHECK(n_checked > 20);
	CHECK(n_nested > 0);
}

DP_TEST_MAIN(test_flame_root_fixture, test_members_fixture, test_callees_fixture,
	     test_sandwich_fixture, test_callees_brute_force, test_callees_wild)
