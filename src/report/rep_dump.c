/*
 * report/rep_dump.c - the raw dumps of one node for debugging, with the profile's own ids
 * (those of the view asked for: the merged view renumbers PDs and CSDs).
 *
 * Every dump page: id=N (required; unknown -> -DP_ENOENT with the valid range); subject =
 * the node's row; facts = every field of the node (names, files and addresses as strings,
 * ids and counts as numbers; an absent name or file is ""), plus what the analysis knows
 * of it; sections list related nodes, each at depth 0, made by the row makers (flags:
 * RECURSIVE, INACTIVE as they set them). A section holds at most DP_DUMP_MAX_ROWS rows;
 * the n_* fact gives the full count and the note says when a section was cut.
 * - dump_ps: facts id, kind ("function", "root", "thread", "region"), addr ("0x..."), name,
 *   linkage_name, file, line, linkage ("unknown", "global", "static", "weak"), object,
 *   object_path, module, module_name, n_cp, n_pds, n_csss, n_callers. Sections "pds" (PD
 *   rows of its contexts), "csss" (CSS rows of the call sites in its body), "callers"
 *   (CSD rows of every CSD calling one of its PDs).
 * - dump_pd: facts id, ps, name, thread, clique, n_cp, coverage (the n_cp counts,
 *   space-separated; only when n_cp > 0), n_csds, n_callers. Sections "csds" (CSD rows of
 *   the calls it makes), "callers" (CSD rows of the calls reaching it).
 * - dump_css: facts id, ps (the caller), caller_name, addr, kind ("unknown", "direct",
 *   "indirect", "callback", "thread", "entry", "inlined", "tail"), file, line, callee_ps,
 *   callee_name ("" when not known statically), n_csds. Section "csds" (its CSD rows).
 * - dump_csd: facts id, caller (PD), caller_ps, caller_name, css, callee (PD), callee_ps,
 *   callee_name, calls, exits, unwinds, samples, callseqs, allocs, bytes, desc_samples,
 *   desc_callseqs, desc_allocs, desc_bytes (dp_analysis_csd_desc), child_clique (the
 *   callee's clique if the call crosses cliques, else 0), clique_entry (1 if it is that
 *   clique's entry). Sections "caller" and "callee": one PD row each.
 * - dump_clique: facts id, entry_csd (0: none), entry_pd, entry_ps, entry_name,
 *   parent_clique (the clique of the entry's caller; 0: none), reachable (1 if reachable
 *   from the root PD), n_members, total_samples, total_callseqs, total_allocs,
 *   total_bytes. Sections "members" (PD rows, the entry PD first, then by id) and
 *   "entry" (the entry CSD's row; empty when the clique has none).
 * No links: every row carries its ids.
 */
#include <inttypes.h>
#include <string.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "report_int.h"

/* Rows per dump section at most (a procedure may have millions of contexts). */
#define DP_DUMP_MAX_ROWS 1000u

typedef void (*dp_dump_maker)(struct dp_report *r, const struct dp_report_ctx *c, uint32_t id,
			      struct dp_rep_row *row);

/* add_note - append @text (a new sentence) to the report's note; 0 or -DP_ENOMEM */
static int add_note(struct dp_report *r, const char *text)
{
	const char *n = r->note ? dp_rep_printf(r, "%s %s", r->note, text) : text;

	if (!n)
		return -DP_ENOMEM;
	r->note = n;
	return 0;
}

/* dump_section - section @id of the rows @make makes for @ids[0..@n), cut at the cap */
static int dump_section(struct dp_report *r, const struct dp_report_ctx *c, const char *id,
			const char *title, const uint32_t *ids, uint32_t n, dp_dump_maker make)
{
	uint32_t shown = n < DP_DUMP_MAX_ROWS ? n : DP_DUMP_MAX_ROWS;
	struct dp_rep_rows l;

	dp_rep_rows_init(&l, r);
	for (uint32_t i = 0; i < shown; i++) {
		struct dp_rep_row *row = dp_rep_rows_add(&l);

		if (!row)
			return -DP_ENOMEM;
		make(r, c, ids[i], row);
	}
	if (shown < n) {
		const char *t =
			dp_rep_printf(r, "Section %s shows the first %u of %u rows.", id, shown, n);

		if (!t || add_note(r, t) < 0)
			return -DP_ENOMEM;
	}
	return dp_rep_section(r, id, title, &l);
}

static const char *ps_kind_name(uint32_t k)
{
	static const char *const names[] = {"function", "root",	   "thread",
					    "region",	"program", "library"};

	return k <= DP_PS_KIND_FILE_MAX ? names[k] : "invalid";
}

static const char *css_kind_name(uint32_t k)
{
	static const char *const names[] = {"unknown", "direct", "indirect", "callback",
					    "thread",  "entry",	 "inlined",  "tail",
					    "program", "library"};

	return k <= DP_CSS_KIND_FILE_MAX ? names[k] : "invalid";
}

static const char *linkage_name(uint32_t k)
{
	static const char *const names[] = {"unknown", "global", "static", "weak"};

	return k <= DP_LINK_MAX ? names[k] : "invalid";
}

/* hex - "0x..." of @v in the arena ("" on out of memory: the caller checks errors once) */
static const char *hex(struct dp_report *r, uint64_t v)
{
	const char *s = dp_rep_printf(r, "0x%" PRIx64, v);

	return s ? s : "";
}

static int dump_ps(struct dp_report *r, const struct dp_report_ctx *c, uint32_t id)
{
	const struct dp_profile *p = c->p;
	const struct dp_analysis *a = c->a;
	const struct dp_ps *s = &p->ps[id];
	uint32_t m = a->ps_module[id];
	int rc = 0;

	dp_rep_row_ps(r, c, id, &r->subject);
	r->has_subject = true;
	r->title = dp_rep_printf(r, "ProcStatic %u: %s", id, r->subject.name);
	rc |= dp_rep_fact_u64(r, "id", "id", id);
	rc |= dp_rep_fact_str(r, "kind", "kind", ps_kind_name(s->kind));
	rc |= dp_rep_fact_str(r, "addr", "address", hex(r, s->addr));
	rc |= dp_rep_fact_str(r, "name", "name", dp_profile_str(p, s->name));
	rc |= dp_rep_fact_str(r, "linkage_name", "linkage name",
			      dp_profile_str(p, s->linkage_name));
	rc |= dp_rep_fact_str(r, "file", "file", dp_profile_str(p, s->file));
	rc |= dp_rep_fact_u64(r, "line", "line", s->line);
	rc |= dp_rep_fact_str(r, "linkage", "linkage", linkage_name(s->linkage));
	rc |= dp_rep_fact_u64(r, "object", "object", s->object);
	rc |= dp_rep_fact_str(r, "object_path", "object path",
			      s->object && s->object <= p->n_objects
				      ? dp_profile_str(p, p->objects[s->object].path)
				      : "");
	rc |= dp_rep_fact_u64(r, "module", "module", m);
	rc |= dp_rep_fact_str(r, "module_name", "module name", dp_analysis_module_name(a, m));
	rc |= dp_rep_fact_u64(r, "n_cp", "coverage points", s->n_cp);
	rc |= dp_rep_fact_u64(r, "n_pds", "contexts (PDs)", dp_csr_count(&a->ps_pds, id));
	rc |= dp_rep_fact_u64(r, "n_csss", "call sites (CSSs)", dp_csr_count(&a->ps_csss, id));
	rc |= dp_rep_fact_u64(r, "n_callers", "calls to it (CSDs)",
			      dp_csr_count(&a->ps_callers, id));
	if (rc < 0 || !r->title)
		return -DP_ENOMEM;
	if ((rc = dump_section(r, c, "pds", "Contexts (ProcDynamic)", dp_csr_items(&a->ps_pds, id),
			       dp_csr_count(&a->ps_pds, id), dp_rep_row_pd)) < 0 ||
	    (rc = dump_section(r, c, "csss", "Call sites (CallSiteStatic)",
			       dp_csr_items(&a->ps_csss, id), dp_csr_count(&a->ps_csss, id),
			       dp_rep_row_css)) < 0)
		return rc;
	return dump_section(r, c, "callers", "Calls to it (CallSiteDynamic)",
			    dp_csr_items(&a->ps_callers, id), dp_csr_count(&a->ps_callers, id),
			    dp_rep_row_csd);
}

/* coverage - the counts of PD @pd's coverage points, space-separated */
static const char *coverage(struct dp_report *r, const struct dp_pd *d)
{
	struct dp_buf b;
	const char *s;

	dp_buf_init(&b, (size_t)1 << 24);
	for (uint32_t i = 0; i < d->n_cp && d->cp; i++)
		dp_buf_addf(&b, "%s%" PRIu64, i ? " " : "", d->cp[i]);
	s = dp_buf_error(&b) ? NULL : dp_rep_strdup(r, dp_buf_cstr(&b));
	dp_buf_release(&b);
	return s;
}

static int dump_pd(struct dp_report *r, const struct dp_report_ctx *c, uint32_t id)
{
	const struct dp_analysis *a = c->a;
	const struct dp_pd *d = &c->p->pd[id];
	int rc = 0;

	dp_rep_row_pd(r, c, id, &r->subject);
	r->has_subject = true;
	r->title = dp_rep_printf(r, "ProcDynamic %u: %s", id, r->subject.name);
	rc |= dp_rep_fact_u64(r, "id", "id", id);
	rc |= dp_rep_fact_u64(r, "ps", "procedure (PS)", d->ps);
	rc |= dp_rep_fact_str(r, "name", "name", r->subject.name);
	rc |= dp_rep_fact_u64(r, "thread", "thread", d->thread);
	rc |= dp_rep_fact_u64(r, "clique", "clique", a->pd_clique[id]);
	rc |= dp_rep_fact_u64(r, "n_cp", "coverage points", d->n_cp);
	if (d->n_cp) {
		const char *cov = coverage(r, d);

		rc |= cov ? dp_rep_fact_str(r, "coverage", "coverage counts", cov) : -DP_ENOMEM;
	}
	rc |= dp_rep_fact_u64(r, "n_csds", "calls made (CSDs)", dp_csr_count(&a->pd_csds, id));
	rc |= dp_rep_fact_u64(r, "n_callers", "calls to it (CSDs)",
			      dp_csr_count(&a->pd_callers, id));
	if (rc < 0 || !r->title)
		return -DP_ENOMEM;
	rc = dump_section(r, c, "csds", "Calls made (CallSiteDynamic)",
			  dp_csr_items(&a->pd_csds, id), dp_csr_count(&a->pd_csds, id),
			  dp_rep_row_csd);
	if (rc < 0)
		return rc;
	return dump_section(r, c, "callers", "Calls to it (CallSiteDynamic)",
			    dp_csr_items(&a->pd_callers, id), dp_csr_count(&a->pd_callers, id),
			    dp_rep_row_csd);
}

static int dump_css(struct dp_report *r, const struct dp_report_ctx *c, uint32_t id)
{
	const struct dp_profile *p = c->p;
	const struct dp_analysis *a = c->a;
	const struct dp_css *s = &p->css[id];
	const char *caller = s->ps && s->ps <= p->n_ps ? dp_rep_ps_name(r, c, s->ps, 0) : "";
	bool callee_ok = s->callee_ps && s->callee_ps <= p->n_ps;
	int rc = 0;

	dp_rep_row_css(r, c, id, &r->subject);
	r->has_subject = true;
	r->title = dp_rep_printf(r, "CallSiteStatic %u: in %s", id, caller);
	rc |= dp_rep_fact_u64(r, "id", "id", id);
	rc |= dp_rep_fact_u64(r, "ps", "caller (PS)", s->ps);
	rc |= dp_rep_fact_str(r, "caller_name", "caller", caller);
	rc |= dp_rep_fact_str(r, "addr", "return address", hex(r, s->addr));
	rc |= dp_rep_fact_str(r, "kind", "kind", css_kind_name(s->kind));
	rc |= dp_rep_fact_str(r, "file", "file", dp_profile_str(p, s->file));
	rc |= dp_rep_fact_u64(r, "line", "line", s->line);
	rc |= dp_rep_fact_u64(r, "callee_ps", "static callee (PS)", s->callee_ps);
	rc |= dp_rep_fact_str(r, "callee_name", "static callee",
			      callee_ok ? dp_rep_ps_name(r, c, s->callee_ps, 0) : "");
	rc |= dp_rep_fact_u64(r, "n_csds", "contexts (CSDs)", dp_csr_count(&a->css_csds, id));
	if (rc < 0 || !r->title)
		return -DP_ENOMEM;
	return dump_section(r, c, "csds", "Contexts (CallSiteDynamic)",
			    dp_csr_items(&a->css_csds, id), dp_csr_count(&a->css_csds, id),
			    dp_rep_row_csd);
}

static int csd_counter_facts(struct dp_report *r, const struct dp_csd *d,
			     const struct dp_inherit *desc)
{
	int rc = 0;

	rc |= dp_rep_fact_u64(r, "calls", "calls", d->calls);
	rc |= dp_rep_fact_u64(r, "exits", "exits", d->exits);
	rc |= dp_rep_fact_u64(r, "unwinds", "unwinds", d->unwinds);
	rc |= dp_rep_fact_u64(r, "samples", "samples", d->samples);
	rc |= dp_rep_fact_u64(r, "callseqs", "callseqs", d->callseqs);
	rc |= dp_rep_fact_u64(r, "allocs", "allocations", d->allocs);
	rc |= dp_rep_fact_u64(r, "bytes", "bytes allocated", d->alloc_bytes);
	rc |= dp_rep_fact_u64(r, "desc_samples", "inherited samples", desc->samples);
	rc |= dp_rep_fact_u64(r, "desc_callseqs", "inherited callseqs", desc->callseqs);
	rc |= dp_rep_fact_u64(r, "desc_allocs", "inherited allocations", desc->allocs);
	rc |= dp_rep_fact_u64(r, "desc_bytes", "inherited bytes", desc->alloc_bytes);
	return rc < 0 ? -DP_ENOMEM : 0;
}

static int dump_csd(struct dp_report *r, const struct dp_report_ctx *c, uint32_t id)
{
	const struct dp_profile *p = c->p;
	const struct dp_analysis *a = c->a;
	const struct dp_csd *d = &p->csd[id];
	struct dp_inherit desc;
	uint32_t caller_ps = p->pd[d->caller].ps, callee_ps = p->pd[d->callee].ps;
	const char *from = dp_rep_ps_name(r, c, caller_ps, 0);
	int rc = 0;

	dp_rep_row_csd(r, c, id, &r->subject);
	r->has_subject = true;
	r->title = dp_rep_printf(r, "CallSiteDynamic %u: %s -> %s", id, from, r->subject.name);
	rc |= dp_rep_fact_u64(r, "id", "id", id);
	rc |= dp_rep_fact_u64(r, "caller", "caller (PD)", d->caller);
	rc |= dp_rep_fact_u64(r, "caller_ps", "caller (PS)", caller_ps);
	rc |= dp_rep_fact_str(r, "caller_name", "caller", from);
	rc |= dp_rep_fact_u64(r, "css", "call site (CSS)", d->css);
	rc |= dp_rep_fact_u64(r, "callee", "callee (PD)", d->callee);
	rc |= dp_rep_fact_u64(r, "callee_ps", "callee (PS)", callee_ps);
	rc |= dp_rep_fact_str(r, "callee_name", "callee", r->subject.name);
	desc = dp_analysis_csd_desc(a, id);
	rc |= csd_counter_facts(r, d, &desc);
	rc |= dp_rep_fact_u64(r, "child_clique", "callee's clique (if entered)",
			      a->csd_child_clique[id]);
	rc |= dp_rep_fact_u64(r, "clique_entry", "clique entry", dp_analysis_is_entry(a, id));
	if (rc < 0 || !r->title)
		return -DP_ENOMEM;
	rc = dump_section(r, c, "caller", "Caller (ProcDynamic)", &d->caller, 1, dp_rep_row_pd);
	if (rc < 0)
		return rc;
	return dump_section(r, c, "callee", "Callee (ProcDynamic)", &d->callee, 1, dp_rep_row_pd);
}

static int clique_total_facts(struct dp_report *r, const struct dp_inherit *t)
{
	int rc = 0;

	rc |= dp_rep_fact_u64(r, "total_samples", "total samples", t->samples);
	rc |= dp_rep_fact_u64(r, "total_callseqs", "total callseqs", t->callseqs);
	rc |= dp_rep_fact_u64(r, "total_allocs", "total allocations", t->allocs);
	rc |= dp_rep_fact_u64(r, "total_bytes", "total bytes allocated", t->alloc_bytes);
	return rc < 0 ? -DP_ENOMEM : 0;
}

static int dump_clique(struct dp_report *r, const struct dp_report_ctx *c, uint32_t id)
{
	const struct dp_profile *p = c->p;
	const struct dp_analysis *a = c->a;
	uint32_t entry = a->clique_entry[id];
	uint32_t pd = dp_csr_items(&a->clique_pds, id)[0];
	uint32_t parent = entry ? a->pd_clique[p->csd[entry].caller] : 0;
	int rc = 0;

	dp_rep_row_clique(r, c, id, &r->subject);
	r->has_subject = true;
	r->title = dp_rep_printf(r, "Clique %u: %s", id, r->subject.name);
	rc |= dp_rep_fact_u64(r, "id", "id", id);
	rc |= dp_rep_fact_u64(r, "entry_csd", "entry (CSD)", entry);
	rc |= dp_rep_fact_u64(r, "entry_pd", "entry procedure (PD)", pd);
	rc |= dp_rep_fact_u64(r, "entry_ps", "entry procedure (PS)", p->pd[pd].ps);
	rc |= dp_rep_fact_str(r, "entry_name", "entry procedure", r->subject.name);
	rc |= dp_rep_fact_u64(r, "parent_clique", "parent clique", parent);
	rc |= dp_rep_fact_u64(r, "reachable", "reachable from the root", id <= a->root_clique);
	rc |= dp_rep_fact_u64(r, "n_members", "members (PDs)", dp_csr_count(&a->clique_pds, id));
	rc |= clique_total_facts(r, &a->clique_total[id]);
	if (rc < 0 || !r->title)
		return -DP_ENOMEM;
	rc = dump_section(r, c, "members", "Members (ProcDynamic)",
			  dp_csr_items(&a->clique_pds, id), dp_csr_count(&a->clique_pds, id),
			  dp_rep_row_pd);
	if (rc < 0)
		return rc;
	return dump_section(r, c, "entry", "Entry (CallSiteDynamic)", &entry, entry ? 1 : 0,
			    dp_rep_row_csd);
}

int dp_rep_dump(struct dp_report *r, const struct dp_report_ctx *c)
{
	uint32_t id = r->q.id;
	int rc;

	switch (r->q.page) {
	case DP_PAGE_DUMP_PS:
		rc = dp_rep_check_id(r, "procedure (PS)", id, c->p->n_ps);
		return rc < 0 ? rc : dump_ps(r, c, id);
	case DP_PAGE_DUMP_PD:
		rc = dp_rep_check_id(r, "procedure context (PD)", id, c->p->n_pd);
		return rc < 0 ? rc : dump_pd(r, c, id);
	case DP_PAGE_DUMP_CSS:
		rc = dp_rep_check_id(r, "call site (CSS)", id, c->p->n_css);
		return rc < 0 ? rc : dump_css(r, c, id);
	case DP_PAGE_DUMP_CSD:
		rc = dp_rep_check_id(r, "call site context (CSD)", id, c->p->n_csd);
		return rc < 0 ? rc : dump_csd(r, c, id);
	case DP_PAGE_DUMP_CLIQUE:
		rc = dp_rep_check_id(r, "clique", id, c->a->n_cliques);
		return rc < 0 ? rc : dump_clique(r, c, id);
	default:
		return dp_error(DP_EUSAGE, "page %s is not a dump page",
				dp_query_page_name(r->q.page));
	}
}
