/*
 * report/report_json.c - dp_report_json(): a report as JSON, the stable interface for
 * other tools. The schema (its version is DP_REPORT_SCHEMA) is documented member by
 * member in docs/REPORTS.md; a change to what this file emits must bump the version and
 * update that document.
 */
#include "../core/json.h"
#include "report_int.h"

/* The schema version: bump on any incompatible change (docs/REPORTS.md). */
#define DP_REPORT_SCHEMA 1

/* Pretty layout: top-level members, sections, section members and rows one per line;
 * a row, a fact or a link on one line. */
#define DP_JSON_PRETTY_ROWS 4u
#define DP_JSON_PRETTY_FLAT 2u

static const char *const dp_row_flag_names[] = {
	"recursive", "inactive", "multi", "sum", "contour", "self",
};

static void json_flags(struct dp_json *j, unsigned flags)
{
	dp_json_key(j, "flags");
	dp_json_begin_array(j);
	for (unsigned i = 0; i < sizeof(dp_row_flag_names) / sizeof(dp_row_flag_names[0]); i++)
		if (flags & (1u << i))
			dp_json_str(j, dp_row_flag_names[i]);
	dp_json_end_array(j);
}

static void json_own(struct dp_json *j, const struct dp_costs *c)
{
	dp_json_key(j, "own");
	dp_json_begin_object(j);
	dp_json_kv_u64(j, "calls", c->calls);
	dp_json_kv_u64(j, "exits", c->exits);
	dp_json_kv_u64(j, "unwinds", c->unwinds);
	dp_json_kv_u64(j, "samples", c->samples);
	dp_json_kv_u64(j, "callseqs", c->callseqs);
	dp_json_kv_u64(j, "allocs", c->allocs);
	dp_json_kv_u64(j, "bytes", c->alloc_bytes);
	dp_json_end_object(j);
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

static void json_row(struct dp_json *j, const struct dp_rep_row *row)
{
	dp_json_begin_object(j);
	dp_json_kv_str(j, "kind", dp_ent_name(row->kind));
	dp_json_kv_u64(j, "id", row->id);
	dp_json_kv_u64(j, "depth", row->depth);
	json_flags(j, row->flags);
	dp_json_kv_str(j, "name", row->name ? row->name : "");
	dp_json_kv_str(j, "callee", row->callee);
	dp_json_kv_str(j, "file", row->file);
	dp_json_kv_u64(j, "line", row->line);
	dp_json_kv_u64(j, "ps", row->ps);
	dp_json_kv_u64(j, "css", row->css);
	dp_json_kv_u64(j, "clique", row->clique);
	dp_json_kv_u64(j, "module", row->module);
	dp_json_kv_u64(j, "thread", row->thread);
	dp_json_kv_u64(j, "n", row->n);
	json_own(j, &row->own);
	json_inherit(j, "desc", &row->desc);
	dp_json_end_object(j);
}

static void json_sections(struct dp_json *j, const struct dp_report *r)
{
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
			json_row(j, &sec->rows[i]);
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
	if (q && dp_query_format(q, tmp) == 0)
		dp_json_str(j, dp_buf_cstr(tmp));
	else
		dp_json_null(j);
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
		json_row(j, &r->subject);
		j->pretty = saved;
	} else {
		dp_json_null(j);
	}
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
	json_pager(&j, r);
	rc = dp_json_end_object(&j);
	if (pretty)
		dp_buf_addc(out, '\n');
	dp_buf_release(&tmp);
	return rc < 0 ? rc : dp_buf_error(out);
}
