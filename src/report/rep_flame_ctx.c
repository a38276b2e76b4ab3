/*
 * report/rep_flame_ctx.c - what a flame page says around its tree: the path from the top
 * of the graph down to a zoomed root (root=CLIQUE) and the member procedures of the
 * recursive cliques the tree shows, so that an interactive graph can draw the ancestors
 * of its root and name a folded recursion in its tooltips.
 *
 * Sections (after "tree"):
 *   path: with root=C, the cliques from the top of the graph down to C's parent, top
 *     first: depth 0 = the top clique (kind CLIQUE, dp_rep_row_clique: the root clique,
 *     or with thread=N the clique of thread N's root PD), then depth k = the entry CSD
 *     of the k-th clique below it (kind CSD, dp_rep_row_csd: own + desc = that clique's
 *     total). Empty when C is the top.
 *   members: for each clique of the tree (its depth-0 row and every row with a clique)
 *     that has members of more than one procedure: a CLIQUE row at depth 0 (id and clique
 *     = the clique, name = its entry procedure's, n = its member PDs, no costs), then at
 *     depth 1 a PS row (name, position, ids; no costs) per procedure among its members
 *     other than the entry's, in member order, at most DP_FLAME_MEMBERS of them found in
 *     its first DP_FLAME_MEMBERS_SCAN members.
 */
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/vec.h"
#include "rep_flame_int.h"

/* The most procedures listed per clique, and how many members are looked at for them. */
#define DP_FLAME_MEMBERS      4u
#define DP_FLAME_MEMBERS_SCAN 512u

int dp_fl_path(struct dp_report *r, const struct dp_report_ctx *c, uint32_t top, uint32_t root)
{
	const struct dp_analysis *a = c->a;
	const struct dp_profile *p = c->p;
	struct dp_rep_rows l;
	uint32_t n = 0, k = root, *chain = NULL, cap = 0;
	int rc = 0;

	dp_rep_rows_init(&l, r);
	while (k != top) { /* the entry CSDs from root up to (not including) top */
		uint32_t e = a->clique_entry[k];

		if (!e || n == a->n_cliques) {
			free(chain);
			if (r->q.thread)
				return dp_error(DP_ENOENT, "clique %u is not in thread %u's graph",
						root, r->q.thread);
			return dp_error(DP_ENOENT, "clique %u is not under the root clique %u",
					root, top);
		}
		if (DP_VEC_GROW(chain, cap, n + 1) < 0) {
			free(chain);
			return dp_error(DP_ENOMEM, "out of memory building a flame graph");
		}
		chain[n++] = e;
		k = a->pd_clique[p->csd[e].caller];
	}
	if (n)
		rc = dp_rep_rows_room(&l, n);
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		struct dp_rep_row *row = dp_rep_rows_add(&l);

		if (!row) {
			rc = -DP_ENOMEM;
			break;
		}
		if (i == 0)
			dp_rep_row_clique(r, c, top, row);
		else
			dp_rep_row_csd(r, c, chain[n - i], row);
		row->depth = i;
	}
	free(chain);
	return rc < 0 ? rc : dp_rep_section(r, "path", NULL, &l);
}

/* members_of - the rows of clique @k into @l when its members are of more than one
 * procedure */
static int members_of(struct dp_report *r, const struct dp_report_ctx *c, uint32_t k,
		      struct dp_rep_rows *l)
{
	const struct dp_analysis *a = c->a;
	const struct dp_profile *p = c->p;
	uint32_t n = dp_csr_count(&a->clique_pds, k),
		 scan = n < DP_FLAME_MEMBERS_SCAN ? n : DP_FLAME_MEMBERS_SCAN;
	const uint32_t *m = dp_csr_items(&a->clique_pds, k);
	uint32_t ps[DP_FLAME_MEMBERS + 1], n_ps = 1;
	struct dp_rep_row *row;

	if (n < 2)
		return 0;
	ps[0] = p->pd[m[0]].ps;
	for (uint32_t i = 1; i < scan && n_ps <= DP_FLAME_MEMBERS; i++) {
		uint32_t q = p->pd[m[i]].ps, j = 0;

		while (j < n_ps && ps[j] != q)
			j++;
		if (j == n_ps)
			ps[n_ps++] = q;
	}
	if (n_ps < 2)
		return 0;
	if (dp_rep_rows_room(l, n_ps) < 0 || !(row = dp_rep_rows_add(l)))
		return -DP_ENOMEM;
	row->kind = DP_ENT_CLIQUE;
	row->id = row->clique = k;
	row->ps = ps[0];
	row->name = dp_rep_ps_name(r, c, ps[0], 0);
	row->n = n;
	for (uint32_t j = 1; j < n_ps; j++) {
		const struct dp_ps *s = &p->ps[ps[j]];

		row = dp_rep_rows_add(l);
		if (!row)
			return -DP_ENOMEM;
		row->kind = DP_ENT_PS;
		row->id = row->ps = ps[j];
		row->module = a->ps_module[ps[j]];
		row->name = dp_rep_ps_name(r, c, ps[j], 0);
		row->file = s->file ? dp_profile_str(p, s->file) : NULL;
		row->line = s->line;
		row->depth = 1;
	}
	return row->name ? 0 : -DP_ENOMEM;
}

int dp_fl_members(struct dp_report *r, const struct dp_report_ctx *c)
{
	const struct dp_rep_section *tree = &r->sections[r->n_sections - 1];
	struct dp_rep_rows l;
	int rc = 0;

	dp_rep_rows_init(&l, r);
	for (uint32_t i = 0; i < tree->n_rows && rc == 0; i++) {
		const struct dp_rep_row *row = &tree->rows[i];

		if (row->clique && (row->kind == DP_ENT_CLIQUE || row->kind == DP_ENT_CSD))
			rc = members_of(r, c, row->clique, &l);
	}
	if (rc == 0)
		rc = dp_rep_section(r, "members", NULL, &l);
	if (rc == 0)
		r->sections[r->n_sections - 1].costless = true;
	return rc;
}
