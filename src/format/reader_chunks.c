/*
 * format/reader_chunks.c - parse and validate the node and run chunks (INFO, OBJS,
 * PSTA, CSST, THRD, PDYN, CSDY) into the profile, plus the cross-chunk checks on the
 * root PDs. Every count is checked against the bytes left before anything is allocated
 * and every id against its node count before it is used.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "reader_int.h"

static void cur_init(struct dp_cur *c, struct dp_rd *rd, enum dp_rd_chunk k, const char *nm)
{
	c->rd = rd;
	c->pos = rd->off[k];
	c->end = rd->off[k] + rd->len[k];
	c->chunk = nm;
}

/* A node count in INFO: below 2^32 - 1 (ids are uint32_t). */
static int info_counts(struct dp_cur *c, struct dp_profile *p)
{
	int rc = dp_rd_u32(c, &p->n_ps, "n_ps");

	if (rc == 0)
		rc = dp_rd_u32(c, &p->n_css, "n_css");
	if (rc == 0)
		rc = dp_rd_u32(c, &p->n_pd, "n_pd");
	if (rc == 0)
		rc = dp_rd_u32(c, &p->n_csd, "n_csd");
	return rc;
}

static int info_stop_reason(struct dp_cur *c, struct dp_profile *p)
{
	size_t at = c->pos;
	int rc = dp_rd_str(c, &p->stop_reason, "stop_reason");
	bool stopped = p->features & DP_FEAT_STOPPED;

	if (rc < 0)
		return rc;
	if (stopped && p->stop_reason == 0)
		return dp_rd_fail(c->rd, at, "stopped flag is set but the stop reason is empty");
	if (!stopped && p->stop_reason != 0)
		return dp_rd_fail(c->rd, at, "stop reason given but the stopped flag is not set");
	return 0;
}

int dp_rd_info(struct dp_rd *rd)
{
	struct dp_profile *p = rd->p;
	struct dp_cur c;
	uint64_t *u64s[] = {
		&p->sample_period_ns, &p->hz,	      &p->samples_inside, &p->samples_outside,
		&p->total_callseqs,   &p->lost_calls, &p->lost_samples,	  &p->lost_allocs};
	const char *u64_names[] = {
		"sample_period_ns", "hz",	  "samples_inside", "samples_outside",
		"total_callseqs",   "lost_calls", "lost_samples",   "lost_allocs"};
	int rc;

	cur_init(&c, rd, DP_RD_INFO, "INFO");
	rc = info_counts(&c, p);
	if (rc < 0)
		return rc;
	rd->root_pd_at = c.pos;
	rc = dp_rd_id(&c, &p->root_pd, 1, p->n_pd, "INFO", 0, "root_pd", "PDs");
	for (size_t i = 0; rc == 0 && i < sizeof(u64s) / sizeof(u64s[0]); i++)
		rc = dp_rd_num(&c, u64s[i], u64_names[i]);
	if (rc == 0)
		rc = info_stop_reason(&c, p);
	if (rc == 0)
		rc = dp_rd_str(&c, &p->program, "program");
	if (rc == 0)
		rc = dp_rd_count(&c, &p->argc, 1, "argc");
	if (rc < 0)
		return rc;
	p->argv = dp_rd_alloc(rd, p->argc + 1u, sizeof(*p->argv));
	if (!p->argv)
		return -DP_ENOMEM;
	for (uint32_t i = 0; rc == 0 && i < p->argc; i++)
		rc = dp_rd_str(&c, &p->argv[i], "argv");
	if (rc == 0)
		rc = dp_rd_num(&c, &p->pid, "pid");
	if (rc == 0)
		rc = dp_rd_num(&c, &p->ppid, "ppid");
	if (rc == 0)
		rc = dp_rd_num(&c, &p->start_ns, "start_ns");
	if (rc == 0)
		rc = dp_rd_num(&c, &p->end_ns, "end_ns");
	if (rc == 0)
		rc = dp_rd_num(&c, &p->exit_status, "exit_status");
	return rc < 0 ? rc : dp_rd_end(&c);
}

static int objs_one(struct dp_cur *c, uint32_t i, uint32_t *seg_next)
{
	struct dp_profile *p = c->rd->p;
	struct dp_object *o = &p->objects[i];
	const uint8_t *bid = NULL;
	size_t len = 0, at;
	int rc = dp_rd_str(c, &o->path, "path");

	if (rc == 0)
		rc = dp_rd_num(c, &o->bias, "bias");
	at = c->pos;
	if (rc == 0)
		rc = dp_rd_bytes(c, &bid, &len, "build_id");
	if (rc < 0)
		return rc;
	if (len > DP_BUILD_ID_MAX)
		return dp_rd_fail(c->rd, at,
				  "object %" PRIu32 " has a build-id of %zu bytes (at "
				  "most %d)",
				  i, len, DP_BUILD_ID_MAX);
	memcpy(o->build_id, bid, len);
	o->build_id_len = (uint32_t)len;
	rc = dp_rd_count(c, &o->n_segs, 3, "n_segs");
	o->first_seg = *seg_next;
	for (uint32_t s = 0; rc == 0 && s < o->n_segs; s++) {
		struct dp_segment *sg = &p->segs[(*seg_next)++];

		rc = dp_rd_num(c, &sg->start, "segment start");
		if (rc == 0)
			rc = dp_rd_num(c, &sg->size, "segment size");
		if (rc == 0)
			rc = dp_rd_u32(c, &sg->flags, "segment flags");
	}
	return rc;
}

int dp_rd_objs(struct dp_rd *rd)
{
	struct dp_profile *p = rd->p;
	uint32_t seg_next = 0;
	struct dp_cur c;
	int rc;

	cur_init(&c, rd, DP_RD_OBJS, "OBJS");
	rc = dp_rd_count(&c, &p->n_objects, 4, "object count");
	if (rc < 0)
		return rc;
	p->objects = dp_rd_alloc(rd, p->n_objects + 1u, sizeof(*p->objects));
	/* every segment takes at least 3 bytes: this bounds the total */
	p->segs = dp_rd_alloc(rd, (c.end - c.pos) / 3 + 1, sizeof(*p->segs));
	if (!p->objects || !p->segs)
		return -DP_ENOMEM;
	for (uint32_t i = 1; rc == 0 && i <= p->n_objects; i++)
		rc = objs_one(&c, i, &seg_next);
	p->n_segs = seg_next;
	return rc < 0 ? rc : dp_rd_end(&c);
}

/* A chunk's record count, which must equal INFO's. */
static int node_count(struct dp_cur *c, uint32_t info_n, size_t min_bytes, const char *plural)
{
	size_t at = c->pos;
	uint32_t n;
	int rc = dp_rd_count(c, &n, min_bytes, "record count");

	if (rc < 0)
		return rc;
	if (n != info_n)
		return dp_rd_fail(c->rd, at, "%s chunk has %" PRIu32 " %s but INFO says %" PRIu32,
				  c->chunk, n, plural, info_n);
	return 0;
}

static int psta_one(struct dp_cur *c, uint32_t id)
{
	struct dp_profile *p = c->rd->p;
	struct dp_ps *ps = &p->ps[id];
	size_t at = c->pos;
	int rc = dp_rd_u32(c, &ps->kind, "kind");

	if (rc < 0)
		return rc;
	if (ps->kind > DP_PS_KIND_FILE_MAX)
		return dp_rd_fail(c->rd, at, "PS %" PRIu32 " has bad kind %" PRIu32, id, ps->kind);
	at = c->pos;
	if ((rc = dp_rd_num(c, &ps->addr, "addr")) < 0)
		return rc;
	if (ps->kind != DP_PS_FUNCTION && ps->kind != DP_PS_LIBRARY && ps->addr != 0)
		return dp_rd_fail(c->rd, at, "artificial PS %" PRIu32 " has address 0x%" PRIx64, id,
				  ps->addr);
	at = c->pos;
	if ((rc = dp_rd_count(c, &ps->n_cp, 2, "n_cp")) < 0)
		return rc;
	if (ps->kind == DP_PS_REGION && ((rc = dp_rd_str(c, &ps->name, "region name")) < 0 ||
					 (rc = dp_rd_num(c, &ps->mismatched, "mismatched")) < 0))
		return rc;
	if (ps->n_cp == 0)
		return 0;
	if (!(p->features & DP_FEAT_COVERAGE))
		return dp_rd_fail(c->rd, at,
				  "PS %" PRIu32 " has %" PRIu32 " coverage points but "
				  "the coverage flag is not set",
				  id, ps->n_cp);
	if (!(ps->cp = dp_rd_alloc(c->rd, ps->n_cp, sizeof(*ps->cp))))
		return -DP_ENOMEM;
	for (uint32_t i = 0; rc == 0 && i < ps->n_cp; i++) {
		rc = dp_rd_u32(c, &ps->cp[i].kind, "coverage point kind");
		if (rc == 0)
			rc = dp_rd_u32(c, &ps->cp[i].line, "coverage point line");
	}
	return rc;
}

int dp_rd_psta(struct dp_rd *rd)
{
	struct dp_profile *p = rd->p;
	struct dp_cur c;
	int rc;

	cur_init(&c, rd, DP_RD_PSTA, "PSTA");
	if ((rc = node_count(&c, p->n_ps, 3, "PSs")) < 0)
		return rc;
	if (!(p->ps = dp_rd_alloc(rd, p->n_ps + 1u, sizeof(*p->ps))))
		return -DP_ENOMEM;
	for (uint32_t id = 1; rc == 0 && id <= p->n_ps; id++)
		rc = psta_one(&c, id);
	return rc < 0 ? rc : dp_rd_end(&c);
}

int dp_rd_csst(struct dp_rd *rd)
{
	struct dp_profile *p = rd->p;
	struct dp_cur c;
	size_t at;
	int rc;

	cur_init(&c, rd, DP_RD_CSST, "CSST");
	if ((rc = node_count(&c, p->n_css, 3, "CSSs")) < 0)
		return rc;
	if (!(p->css = dp_rd_alloc(rd, p->n_css + 1u, sizeof(*p->css))))
		return -DP_ENOMEM;
	for (uint32_t id = 1; rc == 0 && id <= p->n_css; id++) {
		struct dp_css *s = &p->css[id];

		rc = dp_rd_id(&c, &s->ps, 1, p->n_ps, "CSS", id, "ps", "PSs");
		if (rc == 0)
			rc = dp_rd_num(&c, &s->addr, "addr");
		at = c.pos;
		if (rc == 0)
			rc = dp_rd_u32(&c, &s->kind, "kind");
		if (rc == 0 && s->kind > DP_CSS_KIND_FILE_MAX)
			rc = dp_rd_fail(rd, at, "CSS %" PRIu32 " has bad kind %" PRIu32, id,
					s->kind);
	}
	return rc < 0 ? rc : dp_rd_end(&c);
}

static int thrd_one(struct dp_cur *c, uint32_t i)
{
	struct dp_profile *p = c->rd->p;
	struct dp_thread *t = &p->threads[i];
	size_t at;
	int rc = dp_rd_num(c, &t->tid, "tid");

	if (rc == 0)
		rc = dp_rd_str(c, &t->name, "thread name");
	c->rd->thread_root_at[i] = c->pos;
	if (rc == 0)
		rc = dp_rd_id(c, &t->root_pd, 1, p->n_pd, "thread", i, "root_pd", "PDs");
	if (rc == 0)
		rc = dp_rd_num(c, &t->start_ns, "start_ns");
	if (rc == 0)
		rc = dp_rd_num(c, &t->end_ns, "end_ns");
	if (rc == 0)
		rc = dp_rd_num(c, &t->samples_inside, "samples_inside");
	at = c->pos;
	if (rc == 0)
		rc = dp_rd_u32(c, &t->flags, "flags");
	if (rc == 0 &&
	    (t->flags & ~(uint32_t)(DP_THREAD_ENDED | DP_THREAD_MAIN | DP_THREAD_STOPPED)))
		rc = dp_rd_fail(c->rd, at, "thread %" PRIu32 " has unknown flags 0x%" PRIx32, i,
				t->flags);
	return rc;
}

int dp_rd_thrd(struct dp_rd *rd)
{
	struct dp_profile *p = rd->p;
	struct dp_cur c;
	int rc;

	cur_init(&c, rd, DP_RD_THRD, "THRD");
	if ((rc = dp_rd_count(&c, &p->n_threads, 7, "thread count")) < 0)
		return rc;
	p->threads = dp_rd_alloc(rd, p->n_threads + 1u, sizeof(*p->threads));
	rd->thread_root_at = dp_rd_alloc(rd, p->n_threads + 1u, sizeof(*rd->thread_root_at));
	if (!p->threads || !rd->thread_root_at)
		return -DP_ENOMEM;
	for (uint32_t i = 1; rc == 0 && i <= p->n_threads; i++)
		rc = thrd_one(&c, i);
	return rc < 0 ? rc : dp_rd_end(&c);
}

static int pdyn_one(struct dp_cur *c, uint32_t id)
{
	struct dp_profile *p = c->rd->p;
	struct dp_pd *pd = &p->pd[id];
	size_t at;
	int rc = dp_rd_id(c, &pd->ps, 1, p->n_ps, "PD", id, "ps", "PSs");

	at = c->pos;
	if (rc == 0)
		rc = dp_rd_id(c, &pd->thread, 0, p->n_threads, "PD", id, "thread", "threads");
	if (rc < 0)
		return rc;
	if (pd->thread == 0 && id != p->root_pd && p->ps[pd->ps].kind != DP_PS_PROGRAM)
		return dp_rd_fail(c->rd, at, "PD %" PRIu32 " has no thread but is not the root PD",
				  id);
	if (pd->thread != 0 && id == p->root_pd)
		return dp_rd_fail(c->rd, at,
				  "the root PD %" PRIu32 " has thread %" PRIu32 " (must be 0)", id,
				  pd->thread);
	at = c->pos;
	if ((rc = dp_rd_count(c, &pd->n_cp, 1, "n_cp")) < 0)
		return rc;
	if (pd->n_cp != p->ps[pd->ps].n_cp)
		return dp_rd_fail(c->rd, at,
				  "PD %" PRIu32 " has %" PRIu32 " coverage counts but its"
				  " PS %" PRIu32 " has %" PRIu32 " points",
				  id, pd->n_cp, pd->ps, p->ps[pd->ps].n_cp);
	if (pd->n_cp && !(pd->cp = dp_rd_alloc(c->rd, pd->n_cp, sizeof(*pd->cp))))
		return -DP_ENOMEM;
	for (uint32_t i = 0; rc == 0 && i < pd->n_cp; i++)
		rc = dp_rd_num(c, &pd->cp[i], "coverage count");
	return rc;
}

/* PD record @id without coverage counts decoded and checked at *@pos as csdy_fast()
 * does: the position after it, or 0 for pdyn_one() to decode again and report. */
static size_t pdyn_fast(const struct dp_profile *p, const uint8_t *data, size_t pos, size_t end,
			uint32_t id)
{
	const uint8_t *q = data + pos;
	uint64_t v[3];

	if (end - pos < 3 * 10)
		return 0;
	for (int i = 0; i < 3; i++)
		if (!dp_rd_fast_at(&q, &v[i]))
			return 0;
	if (v[0] < 1 || v[0] > p->n_ps || v[1] > p->n_threads || v[2] != 0 ||
	    p->ps[v[0]].n_cp != 0 || (v[1] == 0) != (id == p->root_pd))
		return 0;
	p->pd[id].ps = (uint32_t)v[0];
	p->pd[id].thread = (uint32_t)v[1];
	return (size_t)(q - data);
}

int dp_rd_pdyn(struct dp_rd *rd)
{
	struct dp_profile *p = rd->p;
	struct dp_cur c;
	size_t next;
	int rc;

	cur_init(&c, rd, DP_RD_PDYN, "PDYN");
	if ((rc = node_count(&c, p->n_pd, 3, "PDs")) < 0)
		return rc;
	if (!(p->pd = dp_rd_alloc(rd, p->n_pd + 1u, sizeof(*p->pd))))
		return -DP_ENOMEM;
	for (uint32_t id = 1; rc == 0 && id <= p->n_pd; id++) {
		next = pdyn_fast(p, rd->data, c.pos, c.end, id);
		if (next)
			c.pos = next;
		else
			rc = pdyn_one(&c, id);
	}
	return rc < 0 ? rc : dp_rd_end(&c);
}

static int csdy_counters(struct dp_cur *c, struct dp_csd *d, uint32_t id)
{
	uint64_t *f[DP_CSD_N_FIELDS] = {&d->calls,    &d->exits,  &d->unwinds,	  &d->samples,
					&d->callseqs, &d->allocs, &d->alloc_bytes};
	static const char *const names[DP_CSD_N_FIELDS] = {
		"calls", "exits", "unwinds", "samples", "callseqs", "allocs", "alloc_bytes"};
	size_t at = c->pos;
	uint32_t mask;
	int rc = dp_rd_u32(c, &mask, "mask");

	if (rc < 0)
		return rc;
	if (mask & ~(uint32_t)DP_CSD_FIELDS_KNOWN)
		return dp_rd_fail(c->rd, at, "CSD %" PRIu32 " has unknown counter bits 0x%" PRIx32,
				  id, mask & ~(uint32_t)DP_CSD_FIELDS_KNOWN);
	for (int b = 0; b < DP_CSD_N_FIELDS; b++) {
		if (!(mask & (1u << b)))
			continue;
		at = c->pos;
		if ((rc = dp_rd_num(c, f[b], names[b])) < 0)
			return rc;
		if (*f[b] == 0)
			return dp_rd_fail(c->rd, at,
					  "CSD %" PRIu32 " stores a zero %s (zero counters"
					  " must be omitted)",
					  id, names[b]);
	}
	return 0;
}

static int csdy_one(struct dp_cur *c, uint32_t id)
{
	struct dp_profile *p = c->rd->p;
	struct dp_csd *d = &p->csd[id];
	size_t at;
	int rc = dp_rd_id(c, &d->caller, 1, p->n_pd, "CSD", id, "caller PD", "PDs");

	at = c->pos;
	if (rc == 0)
		rc = dp_rd_id(c, &d->css, 1, p->n_css, "CSD", id, "CSS", "CSSs");
	if (rc < 0)
		return rc;
	if (p->css[d->css].ps != p->pd[d->caller].ps)
		return dp_rd_fail(c->rd, at,
				  "CSD %" PRIu32 " has CSS %" PRIu32 " of PS %" PRIu32
				  " but its caller PD %" PRIu32 " has PS %" PRIu32,
				  id, d->css, p->css[d->css].ps, d->caller, p->pd[d->caller].ps);
	rc = dp_rd_id(c, &d->callee, 1, p->n_pd, "CSD", id, "callee PD", "PDs");
	return rc < 0 ? rc : csdy_counters(c, d, id);
}

/*
 * CSD record @d decoded and checked at *@pos with no error reporting: every field in its
 * short form (dp_rd_fast()), ids in range, the CSS's PS the caller's, mask and counters
 * valid. Returns the position after it, or 0 for anything else, which csdy_one() decodes
 * again from the record's start and reports. Nearly all of a large file's bytes are CSDs.
 */
static size_t csdy_fast(const struct dp_profile *p, const uint32_t *css_ps, const uint8_t *data,
			size_t pos, size_t end, struct dp_csd *d)
{
	const uint8_t *q = data + pos;
	uint64_t v[4], cnt[DP_CSD_N_FIELDS] = {0};

	if (end - pos < 11 * 10) /* room for the longest record: no bounds checks below */
		return 0;
	for (int i = 0; i < 4; i++)
		if (!dp_rd_fast_at(&q, &v[i]))
			return 0;
	if (v[0] < 1 || v[0] > p->n_pd || v[1] < 1 || v[1] > p->n_css || v[2] < 1 ||
	    v[2] > p->n_pd || (v[3] & ~(uint64_t)DP_CSD_FIELDS_KNOWN) ||
	    css_ps[v[1]] != p->pd[v[0]].ps)
		return 0;
	for (uint32_t mask = (uint32_t)v[3], b; mask; mask &= mask - 1) {
		b = (uint32_t)__builtin_ctz(mask);
		if (!dp_rd_fast_at(&q, &cnt[b]) || cnt[b] == 0)
			return 0;
	}
	d->caller = (uint32_t)v[0];
	d->css = (uint32_t)v[1];
	d->callee = (uint32_t)v[2];
	d->calls = cnt[0];
	d->exits = cnt[1];
	d->unwinds = cnt[2];
	d->samples = cnt[3];
	d->callseqs = cnt[4];
	d->allocs = cnt[5];
	d->alloc_bytes = cnt[6];
	return (size_t)(q - data);
}

int dp_rd_csdy(struct dp_rd *rd)
{
	struct dp_profile *p = rd->p;
	uint32_t *css_ps;
	struct dp_cur c;
	size_t next;
	int rc;

	cur_init(&c, rd, DP_RD_CSDY, "CSDY");
	if ((rc = node_count(&c, p->n_csd, 4, "CSDs")) < 0)
		return rc;
	if (!(p->csd = dp_rd_alloc(rd, p->n_csd + 1u, sizeof(*p->csd))))
		return -DP_ENOMEM;
	/* each CSS's PS in a small array: the check of every CSD reads it at random */
	if (!(css_ps = malloc(((size_t)p->n_css + 1) * sizeof(*css_ps))))
		return dp_error(DP_ENOMEM, "%s: out of memory for %" PRIu32 " records", rd->name,
				p->n_css);
	css_ps[0] = 0;
	for (uint32_t i = 1; i <= p->n_css; i++)
		css_ps[i] = p->css[i].ps;
	for (uint32_t id = 1; rc == 0 && id <= p->n_csd; id++) {
		next = csdy_fast(p, css_ps, rd->data, c.pos, c.end, &p->csd[id]);
		if (next)
			c.pos = next;
		else
			rc = csdy_one(&c, id);
	}
	free(css_ps);
	return rc < 0 ? rc : dp_rd_end(&c);
}

int dp_rd_roots(struct dp_rd *rd)
{
	struct dp_profile *p = rd->p;
	uint32_t kind = p->ps[p->pd[p->root_pd].ps].kind;

	if (kind != DP_PS_ROOT)
		return dp_rd_fail(rd, rd->root_pd_at,
				  "root PD %" PRIu32 " has a PS of kind %" PRIu32
				  " (must be %d, root)",
				  p->root_pd, kind, DP_PS_ROOT);
	for (uint32_t i = 1; i <= p->n_threads; i++) {
		const struct dp_pd *pd = &p->pd[p->threads[i].root_pd];

		if (p->ps[pd->ps].kind != DP_PS_THREAD)
			return dp_rd_fail(rd, rd->thread_root_at[i],
					  "thread %" PRIu32 " has root PD %" PRIu32
					  " whose PS has kind %" PRIu32 " (must be %d, thread)",
					  i, p->threads[i].root_pd, p->ps[pd->ps].kind,
					  DP_PS_THREAD);
		if (pd->thread != i)
			return dp_rd_fail(rd, rd->thread_root_at[i],
					  "thread %" PRIu32 " has root PD %" PRIu32
					  " which belongs to thread %" PRIu32,
					  i, p->threads[i].root_pd, pd->thread);
	}
	return 0;
}
