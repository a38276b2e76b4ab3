/*
 * format/dump_text.c - the text rendering of a profile for `deepprof dump`: a run
 * summary, then one aligned table per section (threads, objects, PS, CSS, PD, CSD) with
 * every field. Column widths come from a first pass over each section.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "deepprof/format.h"
#include "dump.h"

struct td {
	const struct dp_profile *p;
	struct dp_buf *out;
	dp_dump_flush_fn flush;
	void *arg;
};

static int td_flush(struct td *d)
{
	int rc = dp_buf_error(d->out);

	if (rc == 0 && d->flush && d->out->len > DP_DUMP_CHUNK)
		rc = d->flush(d->out, d->arg);
	return rc;
}

static int ndig(uint64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

static int wmax(int w, uint64_t v)
{
	return ndig(v) > w ? ndig(v) : w;
}

/* A string with control characters shown as '?', so a hostile name cannot break lines. */
static void td_text(struct td *d, const char *s)
{
	for (; *s; s++)
		dp_buf_addc(d->out, (uint8_t)*s < 0x20 || *s == 0x7F ? '?' : (uint8_t)*s);
}

static void td_run(struct td *d, const char *name)
{
	const struct dp_profile *p = d->p;
	struct dp_buf *o = d->out;

	dp_buf_addf(o,
		    "deepprof data file %s (format version %" PRIu32 ", ELF machine %" PRIu32 ")\n",
		    name, p->version, p->elf_machine);
	dp_buf_addf(o, "  features          0x%" PRIx64 "%s%s%s\n", p->features,
		    p->features & DP_FEAT_SYMBOLIZED ? " symbolized" : "",
		    p->features & DP_FEAT_STOPPED ? " stopped" : "",
		    p->features & DP_FEAT_COVERAGE ? " coverage" : "");
	dp_buf_adds(o, "  program           ");
	td_text(d, dp_profile_str(p, p->program));
	dp_buf_adds(o, "\n  argv             ");
	for (uint32_t i = 0; i < p->argc; i++) {
		dp_buf_adds(o, " ");
		td_text(d, dp_profile_str(p, p->argv[i]));
	}
	dp_buf_addf(o, "\n  pid               %" PRIu64 " (ppid %" PRIu64 ")\n", p->pid, p->ppid);
	dp_buf_addf(o, "  time              start_ns %" PRIu64 ", end_ns %" PRIu64 "\n",
		    p->start_ns, p->end_ns);
	if (p->exit_status)
		dp_buf_addf(o, "  exit status       %" PRIu64 "\n", p->exit_status - 1);
	else
		dp_buf_adds(o, "  exit status       unknown\n");
	dp_buf_addf(o, "  sampling          %" PRIu64 " Hz requested, period %" PRIu64 " ns\n",
		    p->hz, p->sample_period_ns);
	dp_buf_addf(o, "  samples           %" PRIu64 " in CSDs, %" PRIu64 " inside the runtime\n",
		    p->samples_outside, p->samples_inside);
	dp_buf_addf(o, "  total callseqs    %" PRIu64 "\n", p->total_callseqs);
	dp_buf_addf(o,
		    "  lost              calls %" PRIu64 ", samples %" PRIu64 ", allocs %" PRIu64
		    "\n",
		    p->lost_calls, p->lost_samples, p->lost_allocs);
	dp_buf_adds(o, "  stop reason       ");
	td_text(d, p->stop_reason ? dp_profile_str(p, p->stop_reason) : "-");
	dp_buf_addf(o, "\n  root PD           %" PRIu32 "\n", p->root_pd);
	if (p->origin) {
		dp_buf_adds(o, "  imported from     ");
		td_text(d, dp_profile_str(p, p->origin));
		dp_buf_adds(o, " ");
		td_text(d, dp_profile_str(p, p->origin_input));
		dp_buf_addf(o, " (metrics 0x%" PRIx32 ")\n  import note       ", p->metrics);
		td_text(d, dp_profile_str(p, p->origin_note));
		dp_buf_adds(o, "\n");
	}
}

static int td_threads(struct td *d)
{
	const struct dp_profile *p = d->p;
	int wi = 5, wt = 3, wr = 7, ws = 8, we = 6, wn = 14, rc = 0;

	for (uint32_t i = 1; i <= p->n_threads; i++) {
		const struct dp_thread *t = &p->threads[i];

		wi = wmax(wi, i);
		wt = wmax(wt, t->tid);
		wr = wmax(wr, t->root_pd);
		ws = wmax(ws, t->start_ns);
		we = wmax(we, t->end_ns);
		wn = wmax(wn, t->samples_inside);
	}
	dp_buf_addf(d->out, "\nthreads (%" PRIu32 ")\n  %*s %*s %*s flags %*s %*s %*s name\n",
		    p->n_threads, wi, "index", wt, "tid", wr, "root_pd", ws, "start_ns", we,
		    "end_ns", wn, "samples_inside");
	for (uint32_t i = 1; rc == 0 && i <= p->n_threads; i++) {
		const struct dp_thread *t = &p->threads[i];

		dp_buf_addf(d->out,
			    "  %*" PRIu32 " %*" PRIu64 " %*" PRIu32 " 0x%03" PRIx32 " %*" PRIu64
			    " %*" PRIu64 " %*" PRIu64 " ",
			    wi, i, wt, t->tid, wr, t->root_pd, t->flags, ws, t->start_ns, we,
			    t->end_ns, wn, t->samples_inside);
		td_text(d, dp_profile_str(p, t->name));
		dp_buf_addc(d->out, '\n');
		rc = td_flush(d);
	}
	return rc;
}

static int td_objects(struct td *d)
{
	const struct dp_profile *p = d->p;
	int rc = 0;

	dp_buf_addf(d->out, "\nobjects (%" PRIu32 ")\n", p->n_objects);
	for (uint32_t i = 1; rc == 0 && i <= p->n_objects; i++) {
		const struct dp_object *o = &p->objects[i];

		dp_buf_addf(d->out, "  %" PRIu32 " bias 0x%" PRIx64 " build-id ", i, o->bias);
		for (uint32_t k = 0; k < o->build_id_len && k < DP_BUILD_ID_MAX; k++)
			dp_buf_addf(d->out, "%02x", o->build_id[k]);
		if (!o->build_id_len)
			dp_buf_adds(d->out, "-");
		dp_buf_adds(d->out, " ");
		td_text(d, dp_profile_str(p, o->path));
		dp_buf_addc(d->out, '\n');
		for (uint32_t s = 0; s < o->n_segs; s++) {
			const struct dp_segment *sg = &p->segs[o->first_seg + s];

			dp_buf_addf(d->out,
				    "      segment 0x%" PRIx64 " size %" PRIu64 " flags 0x%" PRIx32
				    "\n",
				    sg->start, sg->size, sg->flags);
		}
		rc = td_flush(d);
	}
	return rc;
}

static int td_ps(struct td *d)
{
	const struct dp_profile *p = d->p;
	int wi = ndig(p->n_ps) > 2 ? ndig(p->n_ps) : 2, wo = 6, wl = 4, rc = 0;
	char label[32];

	for (uint32_t id = 1; id <= p->n_ps; id++) {
		wo = wmax(wo, p->ps[id].object);
		wl = wmax(wl, p->ps[id].line);
	}
	dp_buf_addf(d->out, "\nps (%" PRIu32 ")\n  %*s %-8s %-18s %-7s %*s %*s name [file]\n",
		    p->n_ps, wi, "id", "kind", "addr", "linkage", wo, "object", wl, "line");
	for (uint32_t id = 1; rc == 0 && id <= p->n_ps; id++) {
		const struct dp_ps *ps = &p->ps[id];

		snprintf(label, sizeof(label), "0x%" PRIx64, ps->addr);
		dp_buf_addf(d->out, "  %*" PRIu32 " %-8s %-18s %-7s %*" PRIu32 " %*" PRIu32 " ", wi,
			    id, dp_dump_ps_kind(ps->kind), label, dp_dump_linkage(ps->linkage), wo,
			    ps->object, wl, ps->line);
		td_text(d, dp_profile_ps_label(p, id, label, sizeof(label)));
		if (ps->file) {
			dp_buf_adds(d->out, " [");
			td_text(d, dp_profile_str(p, ps->file));
			dp_buf_adds(d->out, "]");
		}
		if (ps->kind == DP_PS_REGION && ps->mismatched)
			dp_buf_addf(d->out, " (%" PRIu64 " mismatched leaves)", ps->mismatched);
		for (uint32_t i = 0; i < ps->n_cp; i++)
			dp_buf_addf(d->out, "%s%" PRIu32 ":%" PRIu32, i ? " " : " cp ",
				    ps->cp[i].kind, ps->cp[i].line);
		dp_buf_addc(d->out, '\n');
		rc = td_flush(d);
	}
	return rc;
}

static int td_css(struct td *d)
{
	const struct dp_profile *p = d->p;
	int wi = ndig(p->n_css) > 2 ? ndig(p->n_css) : 2, wp = 2, wc = 9, rc = 0;
	char addr[32];

	for (uint32_t id = 1; id <= p->n_css; id++) {
		wp = wmax(wp, p->css[id].ps);
		wc = wmax(wc, p->css[id].callee_ps);
	}
	dp_buf_addf(d->out, "\ncss (%" PRIu32 ")\n  %*s %*s %-8s %-18s %*s file:line\n", p->n_css,
		    wi, "id", wp, "ps", "kind", "addr", wc, "callee_ps");
	for (uint32_t id = 1; rc == 0 && id <= p->n_css; id++) {
		const struct dp_css *s = &p->css[id];

		snprintf(addr, sizeof(addr), "0x%" PRIx64, s->addr);
		dp_buf_addf(d->out, "  %*" PRIu32 " %*" PRIu32 " %-8s %-18s %*" PRIu32 " ", wi, id,
			    wp, s->ps, dp_dump_css_kind(s->kind), addr, wc, s->callee_ps);
		td_text(d, s->file ? dp_profile_str(p, s->file) : "?");
		dp_buf_addf(d->out, ":%" PRIu32 "\n", s->line);
		rc = td_flush(d);
	}
	return rc;
}

static int td_pd(struct td *d)
{
	const struct dp_profile *p = d->p;
	int wi = ndig(p->n_pd) > 2 ? ndig(p->n_pd) : 2, wp = 2, wt = 6, rc = 0;
	char label[32];

	for (uint32_t id = 1; id <= p->n_pd; id++) {
		wp = wmax(wp, p->pd[id].ps);
		wt = wmax(wt, p->pd[id].thread);
	}
	dp_buf_addf(d->out, "\npd (%" PRIu32 ")\n  %*s %*s %*s function\n", p->n_pd, wi, "id", wp,
		    "ps", wt, "thread");
	for (uint32_t id = 1; rc == 0 && id <= p->n_pd; id++) {
		const struct dp_pd *pd = &p->pd[id];

		dp_buf_addf(d->out, "  %*" PRIu32 " %*" PRIu32 " %*" PRIu32 " ", wi, id, wp, pd->ps,
			    wt, pd->thread);
		td_text(d, dp_profile_ps_label(p, pd->ps, label, sizeof(label)));
		for (uint32_t i = 0; i < pd->n_cp; i++)
			dp_buf_addf(d->out, "%s%" PRIu64, i ? " " : " cp ", pd->cp[i]);
		dp_buf_addc(d->out, '\n');
		rc = td_flush(d);
	}
	return rc;
}

static void csd_fields(const struct dp_csd *c, uint64_t f[10])
{
	const uint64_t v[10] = {c->caller,  c->css,	c->callee,   c->calls,	c->exits,
				c->unwinds, c->samples, c->callseqs, c->allocs, c->alloc_bytes};

	memcpy(f, v, sizeof(v));
}

static int td_csd(struct td *d)
{
	static const char *const hdr[10] = {"caller", "css",	    "callee",  "calls",
					    "exits",  "unwinds",    "samples", "callseqs",
					    "allocs", "alloc_bytes"};
	const struct dp_profile *p = d->p;
	int w[11], rc = 0;
	uint64_t f[10];
	char l1[32], l2[32];

	w[10] = ndig(p->n_csd) > 2 ? ndig(p->n_csd) : 2;
	for (int k = 0; k < 10; k++)
		w[k] = (int)strlen(hdr[k]);
	for (uint32_t id = 1; id <= p->n_csd; id++) {
		csd_fields(&p->csd[id], f);
		for (int k = 0; k < 10; k++)
			w[k] = wmax(w[k], f[k]);
	}
	dp_buf_addf(d->out, "\ncsd (%" PRIu32 ")\n  %*s", p->n_csd, w[10], "id");
	for (int k = 0; k < 10; k++)
		dp_buf_addf(d->out, " %*s", w[k], hdr[k]);
	dp_buf_adds(d->out, "  caller -> callee\n");
	for (uint32_t id = 1; rc == 0 && id <= p->n_csd; id++) {
		const struct dp_csd *c = &p->csd[id];

		csd_fields(c, f);
		dp_buf_addf(d->out, "  %*" PRIu32, w[10], id);
		for (int k = 0; k < 10; k++)
			dp_buf_addf(d->out, " %*" PRIu64, w[k], f[k]);
		dp_buf_adds(d->out, "  ");
		td_text(d, dp_profile_ps_label(p, p->pd[c->caller].ps, l1, sizeof(l1)));
		dp_buf_adds(d->out, " -> ");
		td_text(d, dp_profile_ps_label(p, p->pd[c->callee].ps, l2, sizeof(l2)));
		dp_buf_addc(d->out, '\n');
		rc = td_flush(d);
	}
	return rc;
}

int dp_dump_text(const struct dp_profile *p, const char *name, struct dp_buf *out,
		 dp_dump_flush_fn flush, void *arg)
{
	struct td d = {.p = p, .out = out, .flush = flush, .arg = arg};
	int (*const sections[])(struct td *) = {td_threads, td_objects, td_ps,
						td_css,	    td_pd,	td_csd};
	int rc = 0;

	td_run(&d, name);
	for (size_t i = 0; rc == 0 && i < sizeof(sections) / sizeof(sections[0]); i++)
		rc = sections[i](&d);
	return rc < 0 ? rc : dp_buf_error(out);
}
