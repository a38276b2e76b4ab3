/*
 * display/display_table.c - report rows to display tables: the columns the preferences
 * ask for (ports, time, ticks, callseqs, allocs, bytes, each with % of the root total and
 * optional per-call values), header links that re-sort, the hiding of inactive rows, the
 * formatting of every cell in human units, and each row's link.
 */
#include <stdio.h>
#include <string.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "display_int.h"

enum dp_cval {
	DP_CV_CALLS = 0,
	DP_CV_EXITS,
	DP_CV_UNWINDS,
	DP_CV_TICKS, /* raw samples of scope */
	DP_CV_VALUE, /* metric in scope and per */
	DP_CV_PCT,   /* metric in scope, % of the root total */
	DP_CV_CMP    /* a compare column (r->cmp): metric holds its enum dp_dcmp */
};

/* What a numeric column shows. */
struct dp_colspec {
	enum dp_cval what;
	enum dp_metric metric;
	enum dp_scope scope;
	enum dp_per per;
	const char *label, *group;
};

#define DP_MAX_NUMCOLS 40

/* dp_disp_inh: see display_int.h. */
uint64_t dp_disp_inh(const struct dp_inherit *c, enum dp_metric m)
{
	switch (m) {
	case DP_METRIC_TIME:
		return c->samples;
	case DP_METRIC_CALLSEQS:
		return c->callseqs;
	case DP_METRIC_ALLOCS:
		return c->allocs;
	case DP_METRIC_BYTES:
		return c->alloc_bytes;
	case DP_METRIC_CALLS:
	case DP_METRIC_COUNT:
		break;
	}
	return 0;
}

/* dp_disp_row_raw: see display_int.h. */
uint64_t dp_disp_row_raw(const struct dp_rep_row *row, enum dp_metric m, enum dp_scope scope)
{
	struct dp_inherit own = dp_costs_inherit(&row->own);

	if (m == DP_METRIC_CALLS)
		return row->own.calls;
	return dp_disp_inh(&own, m) + (scope == DP_SCOPE_TOTAL ? dp_disp_inh(&row->desc, m) : 0);
}

/* Append the columns of one cost group (value, %, total, %, per-call values). */
static uint32_t dp_group_cols(struct dp_colspec *c, uint32_t n, enum dp_metric m, const char *group,
			      bool per_call)
{
	c[n++] = (struct dp_colspec){DP_CV_VALUE, m, DP_SCOPE_SELF, DP_PER_OVERALL, "Self", group};
	c[n++] = (struct dp_colspec){DP_CV_PCT, m, DP_SCOPE_SELF, DP_PER_OVERALL, "%", group};
	c[n++] =
		(struct dp_colspec){DP_CV_VALUE, m, DP_SCOPE_TOTAL, DP_PER_OVERALL, "Total", group};
	c[n++] = (struct dp_colspec){DP_CV_PCT, m, DP_SCOPE_TOTAL, DP_PER_OVERALL, "%", group};
	if (per_call) {
		c[n++] = (struct dp_colspec){DP_CV_VALUE, m,	       DP_SCOPE_SELF,
					     DP_PER_CALL, "Self/call", group};
		c[n++] = (struct dp_colspec){DP_CV_VALUE,  m,	 DP_SCOPE_TOTAL, DP_PER_CALL,
					     "Total/call", group};
	}
	return n;
}

/* The numeric columns @f (DP_FIELD_*) asks for, into @c. Return: how many. */
static uint32_t dp_columns(unsigned f, struct dp_colspec *c)
{
	uint32_t n = 0;

	if (f & DP_FIELD_PORTS) {
		c[n++] = (struct dp_colspec){DP_CV_CALLS,    DP_METRIC_CALLS, DP_SCOPE_SELF,
					     DP_PER_OVERALL, "Calls",	      "ports"};
		c[n++] = (struct dp_colspec){DP_CV_EXITS,    DP_METRIC_CALLS, DP_SCOPE_SELF,
					     DP_PER_OVERALL, "Exits",	      "ports"};
		c[n++] = (struct dp_colspec){DP_CV_UNWINDS,  DP_METRIC_CALLS, DP_SCOPE_SELF,
					     DP_PER_OVERALL, "Unwinds",	      "ports"};
	}
	if (f & DP_FIELD_TICKS) {
		c[n++] = (struct dp_colspec){DP_CV_TICKS,    DP_METRIC_TIME, DP_SCOPE_SELF,
					     DP_PER_OVERALL, "Self",	     "ticks"};
		c[n++] = (struct dp_colspec){DP_CV_TICKS,    DP_METRIC_TIME, DP_SCOPE_TOTAL,
					     DP_PER_OVERALL, "Total",	     "ticks"};
	}
	if (f & DP_FIELD_TIME)
		n = dp_group_cols(c, n, DP_METRIC_TIME, "time", f & DP_FIELD_TIME_PC);
	if (f & DP_FIELD_CALLSEQS)
		n = dp_group_cols(c, n, DP_METRIC_CALLSEQS, "callseqs", f & DP_FIELD_CALLSEQS_PC);
	if (f & DP_FIELD_ALLOCS)
		n = dp_group_cols(c, n, DP_METRIC_ALLOCS, "allocs", f & DP_FIELD_ALLOCS_PC);
	if (f & DP_FIELD_BYTES)
		n = dp_group_cols(c, n, DP_METRIC_BYTES, "bytes", f & DP_FIELD_BYTES_PC);
	return n;
}

/* The DP_FIELD_* bits of @f whose counters @measured (DP_CSD_*) has: a column of a
 * counter the profile did not measure would only show zeros. */
static unsigned dp_measured_fields(unsigned f, uint32_t measured)
{
	if (!(measured & DP_CSD_CALLS))
		f &= ~(DP_FIELD_PORTS | DP_FIELD_TIME_PC | DP_FIELD_CALLSEQS_PC |
		       DP_FIELD_ALLOCS_PC | DP_FIELD_BYTES_PC);
	if (!(measured & DP_CSD_SAMPLES))
		f &= ~(DP_FIELD_TIME | DP_FIELD_TIME_PC | DP_FIELD_TICKS);
	if (!(measured & DP_CSD_CALLSEQS))
		f &= ~(DP_FIELD_CALLSEQS | DP_FIELD_CALLSEQS_PC);
	if (!(measured & DP_CSD_ALLOCS))
		f &= ~(DP_FIELD_ALLOCS | DP_FIELD_ALLOCS_PC);
	if (!(measured & DP_CSD_ALLOC_BYTES))
		f &= ~(DP_FIELD_BYTES | DP_FIELD_BYTES_PC);
	return f;
}

/* Format value @v of metric @m (a count, samples, bytes) into @s; return the length. */
static size_t dp_fmt_metric(char *s, size_t n, double v, enum dp_metric m,
			    const struct dp_report *r)
{
	enum dp_time_unit u = r->q.prefs.time_unit;

	if (m == DP_METRIC_TIME && u != DP_TIME_TICKS && r->sample_period_ns)
		return dp_fmt_seconds(s, n, v * (double)r->sample_period_ns * 1e-9, u);
	if (m == DP_METRIC_BYTES)
		return dp_fmt_bytes(s, n, v);
	return dp_fmt_count(s, n, v);
}

/* The tooltip kind of a cell of @c showing @raw (which the text may abbreviate). */
static uint8_t dp_cell_tipkind(const struct dp_colspec *c, uint64_t raw)
{
	if (c->what == DP_CV_VALUE && c->metric == DP_METRIC_TIME && raw)
		return DP_TIP_SAMPLES;
	if (c->what == DP_CV_VALUE && c->metric == DP_METRIC_BYTES && raw >= 1024)
		return DP_TIP_BYTES;
	return raw >= 10000 ? DP_TIP_COUNT : DP_TIP_NONE;
}

/* Cell @cell of column @c for @row (whose counterpart in a comparison's base is @b). */
static void dp_cell(const struct dp_report *r, const struct dp_colspec *c,
		    const struct dp_rep_row *row, const struct dp_rep_base *b,
		    struct dp_dcell *cell)
{
	size_t n = sizeof(cell->text), len = 0;
	uint64_t raw = 0;
	double v;

	switch (c->what) {
	case DP_CV_CMP:
		dp_disp_cmp_cell(r, (enum dp_dcmp)c->metric, row, b, cell);
		return;
	case DP_CV_CALLS:
	case DP_CV_EXITS:
	case DP_CV_UNWINDS:
		raw = c->what == DP_CV_CALLS   ? row->own.calls
		      : c->what == DP_CV_EXITS ? row->own.exits
					       : row->own.unwinds;
		len = dp_fmt_count(cell->text, n, (double)raw);
		break;
	case DP_CV_TICKS:
		raw = dp_disp_row_raw(row, DP_METRIC_TIME, c->scope);
		len = dp_fmt_count(cell->text, n, (double)raw);
		break;
	case DP_CV_PCT:
		len = dp_fmt_pct(cell->text, n, (double)dp_disp_row_raw(row, c->metric, c->scope),
				 (double)dp_disp_inh(&r->root_total, c->metric));
		break;
	case DP_CV_VALUE:
		raw = dp_disp_row_raw(row, c->metric, c->scope);
		v = (double)raw;
		if (c->per == DP_PER_CALL) {
			v = row->own.calls ? v / (double)row->own.calls : 0.0;
			raw = 0;
		}
		len = dp_fmt_metric(cell->text, n, v, c->metric, r);
		break;
	}
	cell->raw = raw;
	cell->len = (uint8_t)len;
	cell->tip = c->what == DP_CV_PCT ? DP_TIP_NONE : dp_cell_tipkind(c, raw);
}

/* Whether the preferences hide inactive row @row. */
static bool dp_row_hidden(const struct dp_rep_row *row, unsigned show)
{
	unsigned bit;

	if (!(row->flags & DP_ROW_INACTIVE))
		return false;
	switch (row->kind) {
	case DP_ENT_CSS:
	case DP_ENT_CSD:
		bit = DP_SHOW_INACTIVE_SITES;
		break;
	case DP_ENT_MODULE:
	case DP_ENT_OBJECT:
		bit = DP_SHOW_INACTIVE_MODULES;
		break;
	default:
		bit = DP_SHOW_INACTIVE_PROCS;
		break;
	}
	return !(show & bit);
}

/* The page a row of @kind links to (and the letter of its short reference); *@id is
 * set from the row's ids. DP_PAGE_COUNT: no link. */
static enum dp_page dp_row_page(const struct dp_rep_row *row, uint32_t *id, char *c)
{
	switch (row->kind) {
	case DP_ENT_CSD:
	case DP_ENT_PD:
	case DP_ENT_THREAD:
		*id = row->clique ? row->clique : row->ps;
		*c = row->clique ? 'c' : 'p';
		return row->clique ? DP_PAGE_CLIQUE : DP_PAGE_PROC;
	case DP_ENT_CSS:
		*id = row->css ? row->css : row->id;
		*c = 's';
		return DP_PAGE_SITE;
	case DP_ENT_PS:
		*id = row->ps ? row->ps : row->id;
		*c = 'p';
		return DP_PAGE_PROC;
	case DP_ENT_CLIQUE:
		*id = row->clique ? row->clique : row->id;
		*c = 'c';
		return DP_PAGE_CLIQUE;
	case DP_ENT_MODULE:
		*id = row->module ? row->module : row->id;
		*c = 'm';
		return DP_PAGE_MODULE;
	default:
		return DP_PAGE_COUNT;
	}
}

/* The row's link: its page and id, and the short reference shown in text. */
static int dp_row_link(struct dp_display *d, const struct dp_report *r,
		       const struct dp_rep_row *row, struct dp_drow *out)
{
	uint32_t id = 0;
	char c = 0;
	enum dp_page page = dp_row_page(row, &id, &c);

	out->ref = "";
	if (page == DP_PAGE_COUNT || !id)
		return 0;
	out->href = dp_disp_link_to(d, &r->q, page, id);
	out->ref = dp_disp_ref(d, c, id);
	return out->href && out->ref ? 0 : -DP_ENOMEM;
}

/* Call path @path ("a > b > c > d > e") elided in the middle when it has more than four
 * names ("a > b > ... > d > e"), in @d's arena; NULL on out of memory. */
static const char *dp_elide_path(struct dp_display *d, const char *path)
{
	const char *p = path, *second = NULL, *last2 = NULL, *last = NULL;
	uint32_t n = 1;

	for (const char *q; (q = strstr(p, " > ")) != NULL; p = q + 3) {
		n++;
		if (n == 3)
			second = q; /* the end of the second name */
		last2 = last;
		last = q;
	}
	if (n <= 4 || !second || !last2)
		return dp_disp_strdup(d, path);
	return dp_disp_printf(d, "%.*s > ...%s", (int)(second - path), path, last2);
}

/* Fill display row @out from report row @row. */
static int dp_make_row(struct dp_display *d, const struct dp_report *r, const struct dp_colspec *cs,
		       uint32_t n_num, const struct dp_rep_row *row, const struct dp_rep_base *b,
		       struct dp_drow *out)
{
	const char *t[2] = {row->name ? row->name : "", row->file ? row->file : ""};
	size_t len[2] = {strlen(t[0]), strlen(t[1])};
	char *block[2];

	out->depth = row->depth;
	out->flags = row->flags;
	if (dp_disp_pack(d, 2, 2, t, len, row->file ? 1 : 2, row->line, block) < 0)
		return -DP_ENOMEM;
	out->name = block[0];
	out->where = block[1];
	if (row->path && row->path[0]) {
		out->title = dp_disp_strdup(d, row->path);
		out->name = dp_elide_path(d, row->path);
		if (!out->title || !out->name)
			return -DP_ENOMEM;
	}
	out->num = dp_arena_array(&d->arena, n_num ? n_num : 1, sizeof(*out->num));
	if (!out->num)
		return dp_error(DP_ENOMEM, "out of memory building a table");
	for (uint32_t i = 0; i < n_num; i++)
		dp_cell(r, &cs[i], row, b, &out->num[i]);
	return dp_row_link(d, r, row, out);
}

/* The order rows are in: the prefs' sort, or on the top page without sort= its ranking
 * (by metric, scope and per, descending). */
static struct dp_prefs dp_sort_now(const struct dp_report *r)
{
	struct dp_prefs p = r->q.prefs;

	if (r->q.page == DP_PAGE_TOP && r->q.sort_default) {
		p.sort = DP_SORT_COST;
		p.sort_metric = r->q.metric;
		p.sort_scope = r->q.scope;
		p.sort_per = r->q.per;
		p.sort_rev = false;
	}
	return p;
}

/* Whether @a and @b sort the same way, directions aside. */
static bool dp_same_key(const struct dp_prefs *a, const struct dp_prefs *b)
{
	if (a->sort != b->sort)
		return false;
	if (a->sort != DP_SORT_COST)
		return true;
	return a->sort_metric == b->sort_metric && a->sort_per == b->sort_per &&
	       (a->sort_metric == DP_METRIC_CALLS || a->sort_scope == b->sort_scope);
}

/*
 * The header link sorting by @key (@key's sort fields, the rest ignored): the page's
 * query with that sort in its natural direction, or, when the table is sorted by it
 * already, in the other direction. *@sorted and *@rev say whether it is sorted by @key
 * and which way.
 */
static const char *dp_sort_link(struct dp_display *d, const struct dp_report *r,
				const struct dp_prefs *key, bool *sorted, bool *rev)
{
	struct dp_prefs now = dp_sort_now(r);
	struct dp_query q = r->q;

	*sorted = dp_same_key(&now, key);
	*rev = *sorted && now.sort_rev;
	q.prefs.sort = key->sort;
	q.prefs.sort_metric = key->sort_metric;
	q.prefs.sort_scope = key->sort_metric == DP_METRIC_CALLS ? DP_SCOPE_SELF : key->sort_scope;
	q.prefs.sort_per = key->sort_per;
	q.prefs.sort_rev = *sorted && !now.sort_rev;
	q.sort_default = false;
	return dp_disp_href(d, &q);
}

/* The header link re-sorting by column @c (NULL if it has none). */
static const char *dp_sort_href(struct dp_display *d, const struct dp_report *r,
				const struct dp_colspec *c, bool *sorted, bool *rev)
{
	struct dp_prefs key = r->q.prefs;

	*sorted = *rev = false;
	if (c->what == DP_CV_EXITS || c->what == DP_CV_UNWINDS || c->what == DP_CV_CMP)
		return NULL;
	key.sort = DP_SORT_COST;
	key.sort_metric = c->metric;
	key.sort_scope = c->scope;
	key.sort_per = c->per;
	return dp_sort_link(d, r, &key, sorted, rev);
}

/* The header of a table: Id, Name, the numeric columns, Where. */
static int dp_table_header(struct dp_display *d, const struct dp_report *r,
			   const struct dp_colspec *cs, uint32_t n_num, struct dp_dtable *t)
{
	struct dp_prefs key = r->q.prefs;
	struct dp_dcol *name, *where;

	t->n_cols = n_num + 3;
	t->n_num = n_num;
	t->cols = dp_arena_array(&d->arena, t->n_cols, sizeof(*t->cols));
	if (!t->cols)
		return dp_error(DP_ENOMEM, "out of memory building a table");
	t->cols[0] = (struct dp_dcol){.kind = DP_DCOL_ID, .label = "Id"};
	name = &t->cols[1];
	*name = (struct dp_dcol){.kind = DP_DCOL_NAME, .label = "Name"};
	key.sort = DP_SORT_NAME;
	name->href = dp_sort_link(d, r, &key, &name->sorted, &name->rev);
	for (uint32_t i = 0; i < n_num; i++) {
		struct dp_dcol *c = &t->cols[2 + i];

		c->kind = DP_DCOL_NUM;
		c->label = cs[i].label;
		c->group = cs[i].group;
		c->href = dp_sort_href(d, r, &cs[i], &c->sorted, &c->rev);
		c->port = cs[i].what == DP_CV_CALLS	? 1
			  : cs[i].what == DP_CV_EXITS	? 2
			  : cs[i].what == DP_CV_UNWINDS ? 3
							: 0;
		c->cmp = cs[i].what == DP_CV_CMP;
	}
	where = &t->cols[n_num + 2];
	*where = (struct dp_dcol){.kind = DP_DCOL_WHERE, .label = "Where"};
	key.sort = DP_SORT_SOURCE;
	where->href = dp_sort_link(d, r, &key, &where->sorted, &where->rev);
	if (!name->href || !where->href)
		return dp_error(DP_ENOMEM, "out of memory building a table");
	for (uint32_t i = 0; i < n_num; i++)
		if (!t->cols[2 + i].href && cs[i].what != DP_CV_EXITS &&
		    cs[i].what != DP_CV_UNWINDS && cs[i].what != DP_CV_CMP)
			return dp_error(DP_ENOMEM, "out of memory building a table");
	return 0;
}

/* Link that shows the hidden inactive rows of this table. */
static const char *dp_show_href(struct dp_display *d, const struct dp_report *r)
{
	struct dp_query q = r->q;

	q.prefs.inactive =
		DP_SHOW_INACTIVE_SITES | DP_SHOW_INACTIVE_PROCS | DP_SHOW_INACTIVE_MODULES;
	return dp_disp_href(d, &q);
}

/* The compare columns of @r (with a comparison) after the *@n columns of @c (*@n
 * updated). Return: 0 or -DP_ENOMEM. */
static int dp_cmp_columns(struct dp_display *d, const struct dp_report *r, struct dp_colspec *c,
			  uint32_t *n)
{
	const char *group = r->cmp ? dp_disp_cmp_group(d, r) : NULL;

	if (!r->cmp)
		return 0;
	if (!group)
		return -DP_ENOMEM;
	for (int k = 0; k < DP_DCMP_N; k++)
		c[(*n)++] = (struct dp_colspec){DP_CV_CMP,
						(enum dp_metric)k,
						DP_SCOPE_SELF,
						DP_PER_OVERALL,
						dp_disp_cmp_label((enum dp_dcmp)k),
						group};
	return 0;
}

int dp_disp_table(struct dp_display *d, const struct dp_report *r, const char *title,
		  const char *id, const struct dp_rep_row *rows, uint32_t n_rows, bool subject,
		  const struct dp_rep_base *base)
{
	struct dp_colspec cs[DP_MAX_NUMCOLS];
	uint32_t n_num = dp_columns(r->imported ? dp_measured_fields(r->q.prefs.fields, r->measured)
						: r->q.prefs.fields,
				    cs);
	struct dp_dblock *b = dp_disp_block(d, DP_DB_TABLE);
	struct dp_dtable *t;
	uint32_t skip_below = UINT32_MAX; /* hiding the subtree under a hidden row */

	if (!b || dp_cmp_columns(d, r, cs, &n_num) < 0)
		return -DP_ENOMEM;
	b->title = title ? dp_disp_strdup(d, title) : NULL;
	b->id = id ? dp_disp_strdup(d, id) : NULL;
	t = &b->table;
	if (dp_table_header(d, r, cs, n_num, t) < 0)
		return -DP_ENOMEM;
	t->rows = dp_arena_array(&d->arena, n_rows ? n_rows : 1, sizeof(*t->rows));
	if (!t->rows)
		return dp_error(DP_ENOMEM, "out of memory building a table");
	for (uint32_t i = 0; i < n_rows; i++) {
		const struct dp_rep_row *row = &rows[i];
		struct dp_drow *o;

		if (row->depth > skip_below) {
			t->n_hidden++;
			continue;
		}
		skip_below = UINT32_MAX;
		if (!subject && dp_row_hidden(row, r->q.prefs.inactive)) {
			t->n_hidden++;
			skip_below = row->depth;
			continue;
		}
		o = &t->rows[t->n_rows++];
		if (dp_make_row(d, r, cs, n_num, row, base ? &base[i] : NULL, o) < 0)
			return -DP_ENOMEM;
		if (subject)
			o->flags |= DP_DROW_SUBJECT;
	}
	if (t->n_hidden && !(t->show_href = dp_show_href(d, r)))
		return -DP_ENOMEM;
	return 0;
}
