/*
 * format/dump.c - the JSON rendering of a profile for `deepprof dump --format=json`:
 * one object, one line per record of each node array. Names and order of the members
 * are a documented interface (docs/FORMAT.md); change both together.
 */
#include "dump.h"

#include <inttypes.h>
#include <stdio.h>

#include "../core/json.h"
#include "deepprof/format.h"

const char *dp_dump_ps_kind(uint32_t kind)
{
	static const char *const names[] = {"function", "root",	   "thread",
					    "region",	"program", "library"};

	return kind <= DP_PS_KIND_FILE_MAX ? names[kind] : "?";
}

const char *dp_dump_css_kind(uint32_t kind)
{
	static const char *const names[] = {"unknown", "direct", "indirect", "callback",
					    "thread",  "entry",	 "inlined",  "tail",
					    "program", "library"};

	return kind <= DP_CSS_KIND_FILE_MAX ? names[kind] : "?";
}

const char *dp_dump_linkage(uint32_t linkage)
{
	static const char *const names[] = {"unknown", "global", "static", "weak"};

	return linkage <= DP_LINK_MAX ? names[linkage] : "?";
}

struct jd {
	const struct dp_profile *p;
	struct dp_json j;
	struct dp_buf *out;
	dp_dump_flush_fn flush;
	void *arg;
};

/* Between records: hand full buffers to the flush function. */
static int jd_maybe_flush(struct jd *d)
{
	int rc = dp_buf_error(d->out);

	if (rc == 0 && d->flush && d->out->len > DP_DUMP_CHUNK)
		rc = d->flush(d->out, d->arg);
	return rc;
}

static void jd_str(struct jd *d, const char *key, uint32_t id)
{
	dp_json_kv_str(&d->j, key, dp_profile_str(d->p, id));
}

static void jd_run(struct jd *d)
{
	const struct dp_profile *p = d->p;
	struct dp_json *j = &d->j;

	dp_json_kv_u64(j, "version", p->version);
	dp_json_kv_u64(j, "elf_machine", p->elf_machine);
	dp_json_kv_u64(j, "features", p->features);
	dp_json_kv_bool(j, "symbolized", p->features & DP_FEAT_SYMBOLIZED);
	jd_str(d, "program", p->program);
	dp_json_key(j, "argv");
	dp_json_begin_array(j);
	for (uint32_t i = 0; i < p->argc; i++)
		dp_json_str(j, dp_profile_str(p, p->argv[i]));
	dp_json_end_array(j);
	dp_json_kv_u64(j, "pid", p->pid);
	dp_json_kv_u64(j, "ppid", p->ppid);
	dp_json_kv_u64(j, "start_ns", p->start_ns);
	dp_json_kv_u64(j, "end_ns", p->end_ns);
	dp_json_kv_u64(j, "exit_status", p->exit_status);
	dp_json_kv_u64(j, "sample_period_ns", p->sample_period_ns);
	dp_json_kv_u64(j, "hz", p->hz);
	dp_json_kv_u64(j, "samples_inside", p->samples_inside);
	dp_json_kv_u64(j, "samples_outside", p->samples_outside);
	dp_json_kv_u64(j, "total_callseqs", p->total_callseqs);
	dp_json_key(j, "lost");
	dp_json_begin_object(j);
	dp_json_kv_u64(j, "calls", p->lost_calls);
	dp_json_kv_u64(j, "samples", p->lost_samples);
	dp_json_kv_u64(j, "allocs", p->lost_allocs);
	dp_json_end_object(j);
	jd_str(d, "stop_reason", p->stop_reason);
	dp_json_kv_u64(j, "root_pd", p->root_pd);
	if (!p->origin)
		return; /* written by the runtime: every counter measured */
	jd_str(d, "origin", p->origin);
	jd_str(d, "origin_input", p->origin_input);
	jd_str(d, "origin_note", p->origin_note);
	dp_json_kv_u64(j, "metrics", p->metrics);
}

static int jd_threads(struct jd *d)
{
	struct dp_json *j = &d->j;
	int rc = 0;

	dp_json_key(j, "threads");
	dp_json_begin_array(j);
	for (uint32_t i = 1; rc == 0 && i <= d->p->n_threads; i++) {
		const struct dp_thread *t = &d->p->threads[i];

		dp_json_begin_object(j);
		dp_json_kv_u64(j, "index", i);
		dp_json_kv_u64(j, "tid", t->tid);
		jd_str(d, "name", t->name);
		dp_json_kv_u64(j, "root_pd", t->root_pd);
		dp_json_kv_u64(j, "start_ns", t->start_ns);
		dp_json_kv_u64(j, "end_ns", t->end_ns);
		dp_json_kv_u64(j, "samples_inside", t->samples_inside);
		dp_json_kv_u64(j, "flags", t->flags);
		dp_json_end_object(j);
		rc = jd_maybe_flush(d);
	}
	dp_json_end_array(j);
	return rc;
}

static void jd_build_id(struct jd *d, const struct dp_object *o)
{
	char hex[2 * DP_BUILD_ID_MAX + 1] = "";

	for (uint32_t i = 0; i < o->build_id_len && i < DP_BUILD_ID_MAX; i++)
		snprintf(hex + 2 * i, 3, "%02x", o->build_id[i]);
	dp_json_kv_str(&d->j, "build_id", hex);
}

static int jd_objects(struct jd *d)
{
	struct dp_json *j = &d->j;
	int rc = 0;

	dp_json_key(j, "objects");
	dp_json_begin_array(j);
	for (uint32_t i = 1; rc == 0 && i <= d->p->n_objects; i++) {
		const struct dp_object *o = &d->p->objects[i];

		dp_json_begin_object(j);
		dp_json_kv_u64(j, "index", i);
		jd_str(d, "path", o->path);
		dp_json_kv_hex(j, "bias", o->bias);
		jd_build_id(d, o);
		dp_json_key(j, "segments");
		dp_json_begin_array(j);
		for (uint32_t s = 0; s < o->n_segs; s++) {
			const struct dp_segment *sg = &d->p->segs[o->first_seg + s];

			dp_json_begin_object(j);
			dp_json_kv_hex(j, "start", sg->start);
			dp_json_kv_u64(j, "size", sg->size);
			dp_json_kv_u64(j, "flags", sg->flags);
			dp_json_end_object(j);
		}
		dp_json_end_array(j);
		dp_json_end_object(j);
		rc = jd_maybe_flush(d);
	}
	dp_json_end_array(j);
	return rc;
}

static void jd_ps_one(struct jd *d, uint32_t id)
{
	const struct dp_ps *ps = &d->p->ps[id];
	struct dp_json *j = &d->j;

	dp_json_begin_object(j);
	dp_json_kv_u64(j, "id", id);
	dp_json_kv_str(j, "kind", dp_dump_ps_kind(ps->kind));
	dp_json_kv_hex(j, "addr", ps->addr);
	jd_str(d, "name", ps->name);
	jd_str(d, "linkage_name", ps->linkage_name);
	jd_str(d, "file", ps->file);
	dp_json_kv_u64(j, "line", ps->line);
	dp_json_kv_str(j, "linkage", dp_dump_linkage(ps->linkage));
	dp_json_kv_u64(j, "object", ps->object);
	if (ps->kind == DP_PS_REGION)
		dp_json_kv_u64(j, "mismatched", ps->mismatched);
	if (d->p->features & DP_FEAT_COVERAGE) {
		dp_json_key(j, "cp");
		dp_json_begin_array(j);
		for (uint32_t i = 0; i < ps->n_cp; i++) {
			dp_json_begin_object(j);
			dp_json_kv_u64(j, "kind", ps->cp[i].kind);
			dp_json_kv_u64(j, "line", ps->cp[i].line);
			dp_json_end_object(j);
		}
		dp_json_end_array(j);
	}
	dp_json_end_object(j);
}

static void jd_css_one(struct jd *d, uint32_t id)
{
	const struct dp_css *s = &d->p->css[id];
	struct dp_json *j = &d->j;

	dp_json_begin_object(j);
	dp_json_kv_u64(j, "id", id);
	dp_json_kv_u64(j, "ps", s->ps);
	dp_json_kv_hex(j, "addr", s->addr);
	jd_str(d, "file", s->file);
	dp_json_kv_u64(j, "line", s->line);
	dp_json_kv_str(j, "kind", dp_dump_css_kind(s->kind));
	dp_json_kv_u64(j, "callee_ps", s->callee_ps);
	dp_json_end_object(j);
}

static void jd_pd_one(struct jd *d, uint32_t id)
{
	const struct dp_pd *pd = &d->p->pd[id];
	struct dp_json *j = &d->j;

	dp_json_begin_object(j);
	dp_json_kv_u64(j, "id", id);
	dp_json_kv_u64(j, "ps", pd->ps);
	dp_json_kv_u64(j, "thread", pd->thread);
	if (d->p->features & DP_FEAT_COVERAGE) {
		dp_json_key(j, "cp");
		dp_json_begin_array(j);
		for (uint32_t i = 0; i < pd->n_cp; i++)
			dp_json_u64(j, pd->cp[i]);
		dp_json_end_array(j);
	}
	dp_json_end_object(j);
}

static void jd_csd_one(struct jd *d, uint32_t id)
{
	const struct dp_csd *c = &d->p->csd[id];
	struct dp_json *j = &d->j;

	dp_json_begin_object(j);
	dp_json_kv_u64(j, "id", id);
	dp_json_kv_u64(j, "caller", c->caller);
	dp_json_kv_u64(j, "css", c->css);
	dp_json_kv_u64(j, "callee", c->callee);
	dp_json_kv_u64(j, "calls", c->calls);
	dp_json_kv_u64(j, "exits", c->exits);
	dp_json_kv_u64(j, "unwinds", c->unwinds);
	dp_json_kv_u64(j, "samples", c->samples);
	dp_json_kv_u64(j, "callseqs", c->callseqs);
	dp_json_kv_u64(j, "allocs", c->allocs);
	dp_json_kv_u64(j, "alloc_bytes", c->alloc_bytes);
	dp_json_end_object(j);
}

/* The sampled PCs (SPCS) and the samples without one, when the file has the chunk. */
static int jd_pcs(struct jd *d)
{
	struct dp_json *j = &d->j;
	int rc = 0;

	if (!d->p->has_pcs)
		return 0;
	dp_json_kv_u64(j, "pcs_missed", d->p->pcs_missed);
	dp_json_key(j, "pcs");
	dp_json_begin_array(j);
	for (uint32_t i = 0; rc == 0 && i < d->p->n_pcs; i++) {
		dp_json_begin_object(j);
		dp_json_kv_u64(j, "csd", d->p->pcs[i].csd);
		dp_json_kv_hex(j, "pc", d->p->pcs[i].pc);
		dp_json_kv_u64(j, "samples", d->p->pcs[i].samples);
		dp_json_end_object(j);
		rc = jd_maybe_flush(d);
	}
	dp_json_end_array(j);
	return rc;
}

/* One node array: "key": [ record per line ]. */
static int jd_nodes(struct jd *d, const char *key, uint32_t n, void (*one)(struct jd *, uint32_t))
{
	int rc = 0;

	dp_json_key(&d->j, key);
	dp_json_begin_array(&d->j);
	for (uint32_t id = 1; rc == 0 && id <= n; id++) {
		one(d, id);
		rc = jd_maybe_flush(d);
	}
	dp_json_end_array(&d->j);
	return rc;
}

int dp_dump_json(const struct dp_profile *p, struct dp_buf *out, dp_dump_flush_fn flush, void *arg)
{
	struct jd d = {.p = p, .out = out, .flush = flush, .arg = arg};
	int rc;

	dp_json_init(&d.j, out, 2);
	dp_json_begin_object(&d.j);
	jd_run(&d);
	rc = jd_threads(&d);
	if (rc == 0)
		rc = jd_objects(&d);
	if (rc == 0)
		rc = jd_nodes(&d, "ps", p->n_ps, jd_ps_one);
	if (rc == 0)
		rc = jd_nodes(&d, "css", p->n_css, jd_css_one);
	if (rc == 0)
		rc = jd_nodes(&d, "pd", p->n_pd, jd_pd_one);
	if (rc == 0)
		rc = jd_nodes(&d, "csd", p->n_csd, jd_csd_one);
	if (rc == 0)
		rc = jd_pcs(&d);
	if (rc < 0)
		return rc;
	dp_json_end_object(&d.j);
	dp_buf_addc(out, '\n');
	return dp_buf_error(out);
}
