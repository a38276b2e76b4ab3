/*
 * display/display_compare.c - the compare view of a report compared with a base profile
 * (r->cmp, dp_report_compare()): the note that says what is compared, the four compare
 * columns of every table (Base, New, Change, Rel.) and the values of the differential
 * flame graph (each node's change in self cost, as a heat from -1 to 1, and its tooltip).
 * Time is compared as a share of each run's samples (each run's 100 % its own total)
 * unless the comparison is absolute, then in seconds; the other metrics as counts.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../core/err.h"
#include "display_int.h"

/* The value compared for costs @own, @desc of metric c->metric in @scope: a share of the
 * run's total (time), seconds (time, absolute) or the count; @base: of the base's run. */
static double cmp_value(const struct dp_report *r, const struct dp_costs *own,
			const struct dp_inherit *desc, enum dp_scope scope, bool base)
{
	const struct dp_rep_compare *c = r->cmp;
	struct dp_rep_row t = {.own = *own, .desc = *desc};
	double raw = (double)dp_disp_row_raw(&t, c->metric, scope);
	double total = (double)(base ? c->base_total.samples : r->root_total.samples);
	double period = (double)(base ? c->base_period_ns : r->sample_period_ns);

	if (c->metric != DP_METRIC_TIME)
		return raw;
	if (c->absolute)
		return raw * period * 1e-9;
	return total > 0 ? raw / total : 0.0;
}

/* Format compared value @v (not negative) into @s (DP_UNIT_MAX bytes); its length. */
static size_t cmp_fmt(const struct dp_report *r, double v, char *s)
{
	const struct dp_rep_compare *c = r->cmp;
	enum dp_time_unit u =
		r->q.prefs.time_unit == DP_TIME_TICKS ? DP_TIME_AUTO : r->q.prefs.time_unit;

	if (c->metric == DP_METRIC_TIME)
		return c->absolute ? dp_fmt_seconds(s, DP_UNIT_MAX, v, u)
				   : dp_fmt_pct(s, DP_UNIT_MAX, v, 1.0);
	if (c->metric == DP_METRIC_BYTES)
		return dp_fmt_bytes(s, DP_UNIT_MAX, v);
	return dp_fmt_count(s, DP_UNIT_MAX, v);
}

/* @v with its sign ("+1.2k", "-30%", "0") into @s, @fmt formatting |v|; its length. */
static size_t cmp_signed(const struct dp_report *r, double v, char *s,
			 size_t (*fmt)(const struct dp_report *, double, char *))
{
	char t[DP_UNIT_MAX];
	size_t n;

	if (v == 0.0) {
		s[0] = '0';
		s[1] = '\0';
		return 1;
	}
	n = fmt(r, fabs(v), t);
	if (n + 2 > DP_UNIT_MAX)
		n = DP_UNIT_MAX - 2;
	s[0] = v > 0 ? '+' : '-';
	memcpy(s + 1, t, n);
	s[n + 1] = '\0';
	return n + 1;
}

/* A relative change @v (a fraction) as a percentage, for cmp_signed(). */
static size_t cmp_fmt_rel(const struct dp_report *r, double v, char *s)
{
	(void)r;
	return dp_fmt_pct(s, DP_UNIT_MAX, v, 1.0);
}

const char *dp_disp_cmp_label(enum dp_dcmp k)
{
	static const char *const labels[DP_DCMP_N] = {"Base", "New", "Change", "Rel."};

	return (unsigned)k < DP_DCMP_N ? labels[k] : "";
}

const char *dp_disp_cmp_group(struct dp_display *d, const struct dp_report *r)
{
	const struct dp_rep_compare *c = r->cmp;

	return dp_disp_printf(d, "vs base: %s%s", dp_metric_name(c->metric),
			      c->metric == DP_METRIC_CALLS ? ""
			      : c->scope == DP_SCOPE_TOTAL ? " total"
							   : " self");
}

void dp_disp_cmp_cell(const struct dp_report *r, enum dp_dcmp k, const struct dp_rep_row *row,
		      const struct dp_rep_base *b, struct dp_dcell *cell)
{
	const struct dp_rep_compare *c = r->cmp;
	double nv = cmp_value(r, &row->own, &row->desc, c->scope, false);
	double bv = b && b->found ? cmp_value(r, &b->own, &b->desc, c->scope, true) : 0.0;
	bool found = b && b->found;
	size_t len = 0;

	cell->raw = 0;
	cell->tip = DP_TIP_NONE;
	switch (k) {
	case DP_DCMP_BASE:
		if (found) {
			len = cmp_fmt(r, bv, cell->text);
		} else {
			memcpy(cell->text, "-", 2);
			len = 1;
		}
		break;
	case DP_DCMP_NEW:
		len = cmp_fmt(r, nv, cell->text);
		break;
	case DP_DCMP_CHANGE:
		len = cmp_signed(r, nv - bv, cell->text, cmp_fmt);
		break;
	case DP_DCMP_REL:
	case DP_DCMP_N:
		if (!found || (bv == 0.0 && nv > 0.0)) {
			memcpy(cell->text, "new", 4);
			len = 3;
		} else if (bv == 0.0) {
			memcpy(cell->text, "-", 2);
			len = 1;
		} else if (nv == bv) {
			memcpy(cell->text, "0%", 3);
			len = 2;
		} else {
			len = cmp_signed(r, (nv - bv) / bv, cell->text, cmp_fmt_rel);
		}
		break;
	}
	cell->len = (uint8_t)len;
	if (c->metric != DP_METRIC_TIME && (k == DP_DCMP_BASE || k == DP_DCMP_NEW)) {
		cell->raw = (uint64_t)(k == DP_DCMP_BASE ? bv : nv);
		cell->tip = cell->raw >= 10000 ? DP_TIP_COUNT : DP_TIP_NONE;
	}
}

int dp_disp_cmp_note(struct dp_display *d, const struct dp_report *r)
{
	const struct dp_rep_compare *c = r->cmp;
	struct dp_dblock *b = dp_disp_block(d, DP_DB_NOTE);
	const char *unit = c->metric != DP_METRIC_TIME ? ""
			   : c->absolute	       ? " (seconds)"
						       : " (as a share of each run's samples)";

	if (!b)
		return -DP_ENOMEM;
	b->id = "compare";
	if (c->found && (r->q.page == DP_PAGE_FLAME || r->q.page == DP_PAGE_FLAME_CALLERS))
		b->text = dp_disp_printf(
			d,
			"Compared with %s: the colours of the graph (the Change "
			"column of the tree) give the change of each node's self %s%s "
			"from the base to the new profile. %u of %u nodes were found "
			"in the base (by name, source file and the chain of callers).",
			c->base_name, dp_metric_name(c->metric), unit, c->n_found, c->n_rows);
	else if (!c->found)
		b->text = dp_disp_printf(d,
					 "Compared with %s, which has no counterpart of this "
					 "page's subject: every value is new.",
					 c->base_name);
	else
		b->text = dp_disp_printf(
			d,
			"Compared with %s: the columns under \"vs base\" give %s%s%s "
			"in the base and the new profile, the change and the relative "
			"change. %u of %u rows were found in the base (by name, source "
			"file and the chain of callers).",
			c->base_name, dp_metric_name(c->metric),
			c->metric == DP_METRIC_CALLS ? ""
			: c->scope == DP_SCOPE_TOTAL ? " total"
						     : " self",
			unit, c->n_found, c->n_rows);
	return b->text ? 0 : -DP_ENOMEM;
}

/* The tooltip lines of flame node @row compared with @b, in @d's arena. */
static const char *flame_tip(struct dp_display *d, const struct dp_report *r,
			     const struct dp_rep_row *row, const struct dp_rep_base *b)
{
	char bt[DP_UNIT_MAX], bs[DP_UNIT_MAX], ct[DP_UNIT_MAX], cs[DP_UNIT_MAX];
	double nt = cmp_value(r, &row->own, &row->desc, DP_SCOPE_TOTAL, false);
	double ns = cmp_value(r, &row->own, &row->desc, DP_SCOPE_SELF, false);
	double bvt = 0.0, bvs = 0.0;

	if (b && b->found) {
		bvt = cmp_value(r, &b->own, &b->desc, DP_SCOPE_TOTAL, true);
		bvs = cmp_value(r, &b->own, &b->desc, DP_SCOPE_SELF, true);
	}
	cmp_fmt(r, bvt, bt);
	cmp_fmt(r, bvs, bs);
	cmp_signed(r, nt - bvt, ct, cmp_fmt);
	cmp_signed(r, ns - bvs, cs, cmp_fmt);
	if (!b || !b->found)
		return dp_disp_printf(d, "not in the base profile\nchange: total %s, self %s", ct,
				      cs);
	return dp_disp_printf(d, "base: total %s, self %s\nchange: total %s, self %s", bt, bs, ct,
			      cs);
}

int dp_disp_flame_cmp(struct dp_display *d, const struct dp_report *r, struct dp_dblock *blk)
{
	struct dp_dflame *f = &blk->flame;
	const struct dp_rep_section *sec = r->n_sections ? &r->sections[0] : NULL;
	const struct dp_rep_base *base = sec ? r->cmp->rows[0] : NULL;
	double max = 0.0;

	if (!f->n_nodes)
		return 0;
	f->cmp = dp_arena_array(&d->arena, f->n_nodes, sizeof(*f->cmp));
	if (!f->cmp)
		return dp_error(DP_ENOMEM, "out of memory building a flame graph");
	for (uint32_t i = 0; i < f->n_nodes; i++) {
		const struct dp_rep_row *row = &sec->rows[f->nodes[i].row];
		const struct dp_rep_base *b = &base[f->nodes[i].row];
		double ns = cmp_value(r, &row->own, &row->desc, DP_SCOPE_SELF, false);
		double bs = b->found ? cmp_value(r, &b->own, &b->desc, DP_SCOPE_SELF, true) : 0.0;
		char t[DP_UNIT_MAX];

		f->cmp[i].change = ns - bs;
		if (fabs(ns - bs) > max)
			max = fabs(ns - bs);
		cmp_signed(r, ns - bs, t, cmp_fmt);
		f->cmp[i].self_change = dp_disp_strdup(d, t);
		f->cmp[i].tip = flame_tip(d, r, row, b);
		if (!f->cmp[i].self_change || !f->cmp[i].tip)
			return -DP_ENOMEM;
	}
	for (uint32_t i = 0; i < f->n_nodes; i++)
		f->cmp[i].heat = max > 0.0 ? f->cmp[i].change / max : 0.0;
	f->cmp_max = dp_disp_strdup(d, "");
	if (max > 0.0) {
		char t[DP_UNIT_MAX];

		cmp_fmt(r, max, t);
		f->cmp_max = dp_disp_strdup(d, t);
	}
	f->cmp_base = dp_disp_strdup(d, r->cmp->base_name);
	return f->cmp_max && f->cmp_base ? 0 : -DP_ENOMEM;
}
