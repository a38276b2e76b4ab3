/*
 * report/report_json.c - dp_report_json(): a report as JSON, the stable interface for
 * other tools. The schema (its version is DP_REPORT_SCHEMA) is documented member by
 * member in docs/REPORTS.md; a change to what this file emits must bump the version and
 * update that document.
 */
#include <string.h>

#include "../core/json.h"
#include "deepprof/format.h"
#include "report_int.h"

/* The schema version: bump on any incompatible change (docs/REPORTS.md). */
#define DP_REPORT_SCHEMA 2

/* Pretty layout: top-level members, sections, section members and rows one per line;
 * a row, a fact or a link on one line. */
#define DP_JSON_PRETTY_ROWS 4u
#define DP_JSON_PRETTY_FLAT 2u

static const char *const dp_row_flag_names[] = {
	"recursive", "inactive", "multi", "sum", "contour", "self", "tail", "region", "thread",
};

/* A row is always one compact line: it is written straight into the buffer, member
 * names as literals ("," "\"key\":" included), numbers without printf. */

/* Append literal @lit (@n bytes) then @v in decimal. */
static inline void jr_u64(struct dp_buf *o, const char *lit, size_t n, uint64_t v)
{
	char *p = dp_buf_room(o, n + 20);

	if (!p)
		return;
	memcpy(p, lit, n);
	dp_buf_commit(o, p + n + dp_buf_fmt_u64(p + n, v));
}

/* Append literal @lit (@n bytes) then @s as a JSON string (NULL: null). */
static inline void jr_str(struct dp_buf *o, const char *lit, size_t n, const char *s)
{
	dp_buf_add(o, lit, n);
	if (s)
		dp_json_escape(o, s, strlen(s));
	else
		dp_buf_add(o, "null", 4);
}

#define JR_U64(o, lit, v) jr_u64(o, lit, sizeof(lit) - 1, v)
#define JR_STR(o, lit, s) jr_str(o, lit, sizeof(lit) - 1, s)

static void json_flags(struct dp_buf *o, unsigned flags)
{
	bool first = true;

	dp_buf_add(o, ",\"flags\":[", 10);
	for (unsigned i = 0; i < sizeof(dp_row_flag_names) / sizeof(dp_row_flag_names[0]); i++) {
		if (!(flags & (1u << i)))
			continue;
		if (!first)
			dp_buf_addc(o, ',');
		dp_json_escape(o, dp_row_flag_names[i], strlen(dp_row_flag_names[i]));
		first = false;
	}
	dp_buf_addc(o, ']');
}

static void json_own(struct dp_buf *o, const struct dp_costs *c)
{
	JR_U64(o, ",\"own\":{\"calls\":", c->calls);
	JR_U64(o, ",\"exits\":", c->exits);
	JR_U64(o, ",\"unwinds\":", c->unwinds);
	JR_U64(o, ",\"samples\":", c->samples);
	JR_U64(o, ",\"callseqs\":", c->callseqs);
	JR_U64(o, ",\"allocs\":", c->allocs);
	JR_U64(o, ",\"bytes\":", c->alloc_bytes);
	dp_buf_addc(o, '}');
}

static void json_inherit(struct dp_json *j, const char *key, const struct dp_inherit *c)
{
	dp_json_key(j, key);
	dp_json_begin_object(j);
	dp_json_kv_u64(j, "samples", c->samples);
	dp_json_kv_u64(j, "callseqs", c->callseqs);
	dp_json_kv_u64(j, "allocs", c->allocs);
	dp_json_kv_u64(j, "bytes", c->alloc_bytes);
	dp_json_end_object(j);
}

/* ,"base": the costs of a row's counterpart in a comparison's base profile, or null. */
static void json_row_base(struct dp_buf *o, const struct dp_rep_base *b)
{
	if (!b->found) {
		dp_buf_adds(o, ",\"base\":null");
		return;
	}
	dp_buf_adds(o, ",\"base\":{\"found\":true");
	json_own(o, &b->own);
	JR_U64(o, ",\"desc\":{\"samples\":", b->desc.samples);
	JR_U64(o, ",\"callseqs\":", b->desc.callseqs);
	JR_U64(o, ",\"allocs\":", b->desc.allocs);
	JR_U64(o, ",\"bytes\":", b->desc.alloc_bytes);
	dp_buf_add(o, "}}", 2);
}

/* The members of a row, compact (the object's braces are the caller's), with its
 * counterpart @b in a comparison's base (NULL: no comparison). */
static void json_row_members(struct dp_buf *o, const struct dp_rep_row *row,
			     const struct dp_rep_base *b)
{
	JR_STR(o, "\"kind\":", dp_ent_name(row->kind));
	JR_U64(o, ",\"id\":", row->id);
	JR_U64(o, ",\"depth\":", row->depth);
	json_flags(o, row->flags);
	JR_STR(o, ",\"name\":", row->name ? row->name : "");
	JR_STR(o, ",\"callee\":", row->callee);
	JR_STR(o, ",\"file\":", row->file);
	JR_U64(o, ",\"line\":", row->line);
	JR_U64(o, ",\"ps\":", row->ps);
	JR_U64(o, ",\"css\":", row->css);
	JR_U64(o, ",\"clique\":", row->clique);
	JR_U64(o, ",\"module\":", row->module);
	JR_U64(o, ",\"thread\":", row->thread);
	JR_U64(o, ",\"n\":", row->n);
	json_own(o, &row->own);
	JR_U64(o, ",\"desc\":{\"samples\":", row->desc.samples);
	JR_U64(o, ",\"callseqs\":", row->desc.callseqs);
	JR_U64(o, ",\"allocs\":", row->desc.allocs);
	JR_U64(o, ",\"bytes\":", row->desc.alloc_bytes);
	/* own + desc, said once: for a procedure its total (the cost with it on the stack) */
	JR_U64(o, "},\"total\":{\"samples\":", row->own.samples + row->desc.samples);
	JR_U64(o, ",\"callseqs\":", row->own.callseqs + row->desc.callseqs);
	JR_U64(o, ",\"allocs\":", row->own.allocs + row->desc.allocs);
	JR_U64(o, ",\"bytes\":", row->own.alloc_bytes + row->desc.alloc_bytes);
	dp_buf_addc(o, '}');
	if (row->path && row->path[0])
		JR_STR(o, ",\"path\":", row->path);
	if (b)
		json_row_base(o, b);
}

/* A row as one compact object (its members never indented: the layout keeps j->pretty
 * at most the depth the row is written at; a deeper one is clamped for the row). */
static void json_row(struct dp_json *j, const struct dp_rep_row *row, const struct dp_rep_base *b)
{
	unsigned saved = j->pretty;

	dp_json_begin_object(j);
	if (j->pretty >= j->depth)
		j->pretty = j->depth - 1;
	json_row_members(j->out, row, b);
	j->last = 'v';
	dp_json_end_object(j);
	j->pretty = saved;
}

static void json_sections(struct dp_json *j, const struct dp_report *r)
{
	size_t n_rows = 0;

	for (uint32_t s = 0; s < r->n_sections; s++)
		n_rows += r->sections[s].n_rows;
	dp_buf_hint(j->out, n_rows * 480); /* about what a row takes */
	dp_json_key(j, "sections");
	dp_json_begin_array(j);
	for (uint32_t s = 0; s < r->n_sections; s++) {
		const struct dp_rep_section *sec = &r->sections[s];

		dp_json_begin_object(j);
		dp_json_kv_str(j, "id", sec->id ? sec->id : "");
		dp_json_kv_str(j, "title", sec->title);
		dp_json_key(j, "rows");
		dp_json_begin_array(j);
		for (uint32_t i = 0; i < sec->n_rows; i++)
			json_row(j, &sec->rows[i], r->cmp ? &r->cmp->rows[s][i] : NULL);
		dp_json_end_array(j);
		dp_json_end_object(j);
	}
	dp_json_end_array(j);
}

static void json_facts(struct dp_json *j, const struct dp_report *r)
{
	dp_json_key(j, "facts");
	dp_json_begin_array(j);
	for (uint32_t i = 0; i < r->n_facts; i++) {
		const struct dp_rep_fact *f = &r->facts[i];

		dp_json_begin_object(j);
		dp_json_kv_str(j, "key", f->key);
		dp_json_kv_str(j, "label", f->label ? f->label : f->key);
		dp_json_key(j, "value");
		if (f->type == DP_FACT_STR)
			dp_json_str(j, f->s ? f->s : "");
		else if (f->type == DP_FACT_F64)
			dp_json_double(j, f->f);
		else
			dp_json_u64(j, f->u);
		dp_json_end_object(j);
	}
	dp_json_end_array(j);
}

/* The canonical query string of @q into @tmp (reset first), as a JSON string value. */
static void json_query(struct dp_json *j, const struct dp_query *q, struct dp_buf *tmp)
{
	dp_buf_reset(tmp);
	if (!q)
		dp_json_null(j);
	else if (dp_buf_fail(j->out, dp_query_format(q, tmp)) == 0)
		dp_json_str(j, dp_buf_cstr(tmp));
}

static void json_links(struct dp_json *j, const struct dp_report *r, struct dp_buf *tmp)
{
	dp_json_key(j, "links");
	dp_json_begin_array(j);
	for (uint32_t i = 0; i < r->n_links; i++) {
		dp_json_begin_object(j);
		dp_json_kv_str(j, "label", r->links[i].label ? r->links[i].label : "");
		dp_json_key(j, "query");
		json_query(j, r->links[i].q, tmp);
		dp_json_end_object(j);
	}
	dp_json_end_array(j);
}

static void json_pager(struct dp_json *j, const struct dp_report *r)
{
	dp_json_key(j, "pager");
	dp_json_begin_object(j);
	dp_json_kv_u64(j, "n_items", r->n_items);
	dp_json_kv_u64(j, "bunch", r->bunch);
	dp_json_kv_u64(j, "n_bunches", r->n_bunches);
	dp_json_end_object(j);
}

/* The members up to the subject: schema, page, query, title. */
static void json_head(struct dp_json *j, const struct dp_report *r, struct dp_buf *tmp)
{
	dp_json_kv_u64(j, "schema", DP_REPORT_SCHEMA);
	dp_json_kv_str(j, "page", dp_query_page_name(r->q.page));
	dp_json_key(j, "query");
	json_query(j, &r->q, tmp);
	dp_json_kv_str(j, "title", r->title ? r->title : "");
	dp_json_key(j, "subject");
	if (r->has_subject) {
		unsigned saved = j->pretty;

		j->pretty = saved ? 1 : 0; /* the subject on one line, like a row */
		json_row(j, &r->subject, r->cmp ? &r->cmp->subject : NULL);
		j->pretty = saved;
	} else {
		dp_json_null(j);
	}
}

/* "measured": the counters an imported profile has (absent: all of them). */
static void json_measured(struct dp_json *j, const struct dp_report *r)
{
	static const char *const names[DP_CSD_N_FIELDS] = {
		"calls", "exits", "unwinds", "samples", "callseqs", "allocs", "alloc_bytes"};

	if (!r->imported)
		return;
	dp_json_key(j, "measured");
	dp_json_begin_array(j);
	for (unsigned i = 0; i < DP_CSD_N_FIELDS; i++)
		if (r->measured & (1u << i))
			dp_json_str(j, names[i]);
	dp_json_end_array(j);
}

/* "compare": what a comparison with a base profile compares (absent without one). */
static void json_compare(struct dp_json *j, const struct dp_report *r)
{
	const struct dp_rep_compare *c = r->cmp;

	if (!c)
		return;
	dp_json_key(j, "compare");
	dp_json_begin_object(j);
	dp_json_kv_str(j, "base", c->base_name);
	dp_json_kv_bool(j, "found", c->found);
	dp_json_kv_str(j, "metric", dp_metric_name(c->metric));
	dp_json_kv_str(j, "scope", c->scope == DP_SCOPE_TOTAL ? "total" : "self");
	dp_json_kv_str(j, "unit",
		       c->metric == DP_METRIC_TIME ? c->absolute ? "ns" : "share" : "count");
	json_inherit(j, "base_totals", &c->base_total);
	dp_json_kv_u64(j, "base_sample_period_ns", c->base_period_ns);
	dp_json_kv_u64(j, "rows", c->n_rows);
	dp_json_kv_u64(j, "rows_found", c->n_found);
	dp_json_end_object(j);
}

int dp_report_json(const struct dp_report *r, bool pretty, struct dp_buf *out)
{
	struct dp_json j;
	struct dp_buf tmp;
	unsigned rows_level = pretty ? DP_JSON_PRETTY_ROWS : 0;
	unsigned flat_level = pretty ? DP_JSON_PRETTY_FLAT : 0;
	int rc;

	dp_buf_init(&tmp, (size_t)64 << 10);
	dp_json_init(&j, out, flat_level);
	dp_json_begin_object(&j);
	json_head(&j, r, &tmp);
	j.pretty = rows_level;
	json_sections(&j, r);
	j.pretty = flat_level;
	json_facts(&j, r);
	json_links(&j, r, &tmp);
	dp_json_kv_str(&j, "note", r->note);
	json_inherit(&j, "totals", &r->root_total);
	dp_json_kv_u64(&j, "sample_period_ns", r->sample_period_ns);
	json_measured(&j, r);
	json_pager(&j, r);
	json_compare(&j, r);
	rc = dp_json_end_object(&j);
	if (pretty)
		dp_buf_addc(out, '\n');
	dp_buf_release(&tmp);
	return rc < 0 ? rc : dp_buf_error(out);
}
