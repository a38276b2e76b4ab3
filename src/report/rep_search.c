/*
 * report/rep_search.c - the search page: the procedures, modules (source files) and
 * objects whose names contain a text, or match a regular expression.
 *
 * page=search&q=TEXT (match=substring, the default: TEXT anywhere in the name, ASCII
 * case ignored; match=regex: a POSIX extended regular expression, case ignored, found
 * anywhere in the name; a bad one: -DP_EUSAGE with regcomp's reason):
 *   no subject. Title "Search: TEXT".
 *   section "procs": one PS row per procedure of kind function or region whose name
 *     (demangled) or linkage name matches (dp_rep_row_ps), sorted by prefs; only bunch
 *     K (bunch=K, size=S) is kept.
 *   section "modules": one MODULE row per module whose file (path) matches, sorted by
 *     prefs (every one kept).
 *   section "objects": one OBJECT row per object whose path matches, as on the modules
 *     page, sorted by prefs.
 *   facts: procs, modules, objects (how many matched of each).
 */
#define _GNU_SOURCE /* strcasestr */
#include <regex.h>
#include <string.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "report_int.h"

/* A compiled search: the text (substring) or the regular expression. */
struct search {
	const char *text;
	bool regex;
	regex_t re;
};

static bool found_in(const struct search *s, const char *name)
{
	if (!name || !name[0])
		return false;
	if (s->regex)
		return regexec(&s->re, name, 0, NULL, 0) == 0;
	return strcasestr(name, s->text) != NULL;
}

static int search_procs(struct dp_report *r, const struct dp_report_ctx *c, const struct search *s,
			uint32_t *n)
{
	const struct dp_profile *p = c->p;
	struct dp_rep_rows l;
	char buf[64];
	int rc;

	dp_rep_rows_init(&l, r);
	for (uint32_t ps = 1; ps <= p->n_ps; ps++) {
		const char *link =
			p->ps[ps].linkage_name ? dp_profile_str(p, p->ps[ps].linkage_name) : NULL;
		struct dp_rep_row *row;

		if (p->ps[ps].kind != DP_PS_FUNCTION && p->ps[ps].kind != DP_PS_REGION)
			continue;
		if (!found_in(s, dp_profile_ps_label(p, ps, buf, sizeof(buf))) &&
		    !found_in(s, link))
			continue;
		row = dp_rep_rows_add(&l);
		if (!row)
			return -DP_ENOMEM;
		dp_rep_row_ps(r, c, ps, row);
	}
	*n = l.n;
	rc = dp_rep_sort(r, l.rows, l.n, &r->q.prefs);
	return rc < 0 ? rc : dp_rep_section_bunch(r, "procs", "Procedures", &l);
}

static int search_modules(struct dp_report *r, const struct dp_report_ctx *c,
			  const struct search *s, uint32_t *n)
{
	struct dp_rep_rows l;
	int rc;

	dp_rep_rows_init(&l, r);
	for (uint32_t m = 1; m <= c->a->n_modules; m++) {
		struct dp_rep_row *row;

		if (!c->a->module_file[m] || !found_in(s, dp_analysis_module_name(c->a, m)))
			continue;
		row = dp_rep_rows_add(&l);
		if (!row)
			return -DP_ENOMEM;
		dp_rep_row_module(r, c, m, row);
	}
	*n = l.n;
	rc = dp_rep_sort(r, l.rows, l.n, &r->q.prefs);
	return rc < 0 ? rc : dp_rep_section(r, "modules", "Modules (source files)", &l);
}

static int search_objects(struct dp_report *r, const struct dp_report_ctx *c,
			  const struct search *s, uint32_t *n)
{
	const struct dp_profile *p = c->p;
	struct dp_rep_rows l;
	int rc;

	dp_rep_rows_init(&l, r);
	for (uint32_t o = 1; o <= p->n_objects; o++) {
		const char *path = dp_profile_str(p, p->objects[o].path);
		struct dp_rep_row *row;

		if (!found_in(s, path))
			continue;
		row = dp_rep_rows_add(&l);
		if (!row)
			return -DP_ENOMEM;
		row->kind = DP_ENT_OBJECT;
		row->id = o;
		row->name = path;
		row->own = c->a->object_own[o];
		row->desc = c->a->object_desc[o];
	}
	*n = l.n;
	rc = dp_rep_sort(r, l.rows, l.n, &r->q.prefs);
	return rc < 0 ? rc : dp_rep_section(r, "objects", "Objects", &l);
}

int dp_rep_search(struct dp_report *r, const struct dp_report_ctx *c)
{
	struct search s = {r->q.text, r->q.regex, {0}};
	uint32_t np = 0, nm = 0, no = 0;
	int rc;

	if (!s.text[0])
		return dp_error(DP_EUSAGE, "page=search needs q=TEXT");
	if (s.regex) {
		rc = regcomp(&s.re, s.text, REG_EXTENDED | REG_ICASE | REG_NOSUB);
		if (rc != 0) {
			char why[160];

			regerror(rc, &s.re, why, sizeof(why));
			return dp_error(DP_EUSAGE, "bad regular expression '%s': %s", s.text, why);
		}
	}
	r->title = dp_rep_printf(r, "Search: %s", s.text);
	rc = r->title ? search_procs(r, c, &s, &np) : -DP_ENOMEM;
	if (rc == 0)
		rc = search_modules(r, c, &s, &nm);
	if (rc == 0)
		rc = search_objects(r, c, &s, &no);
	if (s.regex)
		regfree(&s.re);
	if (rc == 0)
		rc = dp_rep_fact_u64(r, "procs", "procedures found", np);
	if (rc == 0)
		rc = dp_rep_fact_u64(r, "modules", "modules found", nm);
	if (rc == 0)
		rc = dp_rep_fact_u64(r, "objects", "objects found", no);
	return rc;
}
