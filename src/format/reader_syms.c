/*
 * format/reader_syms.c - parse and validate the SYMS chunk: its string table (mapped
 * onto the profile's interned strings) and the names and source positions of every PS
 * and CSS. String ids, linkages, objects and callee PSs are checked against their ranges.
 * Also the optional chunks ORIG (an imported profile's origin) and SPCS (sampled PCs).
 */
#include <inttypes.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "reader_int.h"

struct syms {
	struct dp_cur c;
	uint32_t n_str;
	uint32_t *map; /* SYMS string id -> profile string id, [0..n_str] */
};

/* A SYMS string id, mapped to the profile's. */
static int syms_str(struct syms *s, uint32_t *id, const char *who, uint32_t who_id,
		    const char *field)
{
	uint32_t v;
	int rc = dp_rd_id(&s->c, &v, 0, s->n_str, who, who_id, field, "strings");

	if (rc == 0)
		*id = s->map[v];
	return rc;
}

static int syms_strings(struct syms *s)
{
	int rc = dp_rd_count(&s->c, &s->n_str, 1, "string count");

	if (rc < 0)
		return rc;
	s->map = dp_rd_alloc(s->c.rd, s->n_str + 1u, sizeof(*s->map));
	if (!s->map)
		return -DP_ENOMEM;
	for (uint32_t i = 1; rc == 0 && i <= s->n_str; i++)
		rc = dp_rd_str(&s->c, &s->map[i], "string");
	return rc;
}

static int syms_count(struct syms *s, uint32_t want, size_t min_bytes, const char *plural)
{
	size_t at = s->c.pos;
	uint32_t n;
	int rc = dp_rd_count(&s->c, &n, min_bytes, plural);

	if (rc == 0 && n != want)
		rc = dp_rd_fail(s->c.rd, at, "SYMS chunk has %" PRIu32 " %s but INFO says %" PRIu32,
				n, plural, want);
	return rc;
}

static int syms_ps(struct syms *s, uint32_t id)
{
	struct dp_profile *p = s->c.rd->p;
	struct dp_ps *ps = &p->ps[id];
	size_t at;
	int rc = syms_str(s, &ps->name, "PS", id, "name");

	if (rc == 0)
		rc = syms_str(s, &ps->linkage_name, "PS", id, "linkage_name");
	if (rc == 0)
		rc = syms_str(s, &ps->file, "PS", id, "file");
	if (rc == 0)
		rc = dp_rd_u32(&s->c, &ps->line, "line");
	at = s->c.pos;
	if (rc == 0)
		rc = dp_rd_u32(&s->c, &ps->linkage, "linkage");
	if (rc == 0 && ps->linkage > DP_LINK_MAX)
		rc = dp_rd_fail(s->c.rd, at, "PS %" PRIu32 " has bad linkage %" PRIu32, id,
				ps->linkage);
	if (rc == 0)
		rc = dp_rd_id(&s->c, &ps->object, 0, p->n_objects, "PS", id, "object", "objects");
	return rc;
}

static int syms_css(struct syms *s, uint32_t id)
{
	struct dp_profile *p = s->c.rd->p;
	struct dp_css *css = &p->css[id];
	int rc = syms_str(s, &css->file, "CSS", id, "file");

	if (rc == 0)
		rc = dp_rd_u32(&s->c, &css->line, "line");
	if (rc == 0)
		rc = dp_rd_id(&s->c, &css->callee_ps, 0, p->n_ps, "CSS", id, "callee_ps", "PSs");
	return rc;
}

int dp_rd_syms(struct dp_rd *rd)
{
	struct dp_profile *p = rd->p;
	struct syms s = {0};
	int rc;

	if (!rd->have[DP_RD_SYMS])
		return 0;
	s.c.rd = rd;
	s.c.pos = rd->off[DP_RD_SYMS];
	s.c.end = s.c.pos + rd->len[DP_RD_SYMS];
	s.c.chunk = "SYMS";
	rc = syms_strings(&s);
	if (rc == 0)
		rc = syms_count(&s, p->n_ps, 6, "PS symbols");
	for (uint32_t id = 1; rc == 0 && id <= p->n_ps; id++)
		rc = syms_ps(&s, id);
	if (rc == 0)
		rc = syms_count(&s, p->n_css, 3, "CSS symbols");
	for (uint32_t id = 1; rc == 0 && id <= p->n_css; id++)
		rc = syms_css(&s, id);
	return rc < 0 ? rc : dp_rd_end(&s.c);
}

/* ORIG: tool, input, metrics (known CSD bits only), note; see docs/FORMAT.md. */
int dp_rd_orig(struct dp_rd *rd)
{
	struct dp_profile *p = rd->p;
	struct dp_cur c = {rd, rd->off[DP_RD_ORIG], rd->off[DP_RD_ORIG] + rd->len[DP_RD_ORIG],
			   "ORIG"};
	size_t at;
	int rc;

	if (!rd->have[DP_RD_ORIG])
		return 0;
	rc = dp_rd_str(&c, &p->origin, "tool");
	if (rc == 0)
		rc = dp_rd_str(&c, &p->origin_input, "input");
	at = c.pos;
	if (rc == 0)
		rc = dp_rd_u32(&c, &p->metrics, "metrics");
	if (rc == 0 && (p->metrics & ~DP_CSD_FIELDS_KNOWN))
		rc = dp_rd_fail(rd, at, "ORIG metrics 0x%" PRIx32 " has unknown bits", p->metrics);
	if (rc == 0)
		rc = dp_rd_str(&c, &p->origin_note, "note");
	if (rc == 0 && p->origin == 0)
		rc = dp_rd_fail(rd, rd->off[DP_RD_ORIG], "ORIG chunk with an empty tool name");
	return rc < 0 ? rc : dp_rd_end(&c);
}

/* SPCS: n, n x (csd, pc, samples), missed; see docs/FORMAT.md. */
int dp_rd_spcs(struct dp_rd *rd)
{
	struct dp_profile *p = rd->p;
	struct dp_cur c = {rd, rd->off[DP_RD_SPCS], rd->off[DP_RD_SPCS] + rd->len[DP_RD_SPCS],
			   "SPCS"};
	int rc;

	if (!rd->have[DP_RD_SPCS])
		return 0;
	p->has_pcs = true;
	rc = dp_rd_count(&c, &p->n_pcs, 3, "sampled PC count");
	if (rc == 0 && p->n_pcs) {
		p->pcs = dp_rd_alloc(rd, p->n_pcs, sizeof(*p->pcs));
		if (!p->pcs)
			return -DP_ENOMEM;
	}
	for (uint32_t i = 0; rc == 0 && i < p->n_pcs; i++) {
		struct dp_pcs *e = &p->pcs[i];

		rc = dp_rd_id(&c, &e->csd, 1, p->n_csd, "sampled PC", i + 1, "csd", "CSDs");
		if (rc == 0)
			rc = dp_rd_num(&c, &e->pc, "pc");
		if (rc == 0)
			rc = dp_rd_num(&c, &e->samples, "samples");
	}
	if (rc == 0)
		rc = dp_rd_num(&c, &p->pcs_missed, "missed samples");
	return rc < 0 ? rc : dp_rd_end(&c);
}
