/*
 * bench/gen/genprof_finish.c - the last step of a synthetic profile: call sequence
 * counts consistent with the calls (what a PD calls is spread over the CSDs entering
 * it), INFO's totals, the functions never called dropped (the runtime writes only PSs
 * it saw; their unused call sites stay, as the symbolizer adds them), and the node
 * arrays moved into the profile's arena.
 */
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "deepprof/format.h"
#include "genprof.h"

/* callseqs of every CSD: the calls made by its callee PD, shared among the CSDs entering
 * that PD in proportion to their calls, the rounding left to the creating CSD. */
static int gen_callseqs(struct dp_gen *g)
{
	struct dp_profile *p = g->p;
	uint64_t *out = calloc((size_t)p->n_pd + 1, sizeof(*out));
	uint64_t *in = calloc((size_t)p->n_pd + 1, sizeof(*in));

	if (!out || !in) {
		free(out);
		free(in);
		return dp_error(DP_ENOMEM, "out of memory computing call sequences");
	}
	for (uint32_t c = 1; c <= p->n_csd; c++) {
		out[g->csd[c].caller] += g->csd[c].calls;
		in[g->csd[c].callee] += g->csd[c].calls;
	}
	for (uint32_t c = 1; c <= p->n_csd; c++) {
		struct dp_csd *d = &g->csd[c];

		if (g->creator[d->callee] != c)
			d->callseqs = out[d->callee] / in[d->callee] * d->calls;
		out[d->callee] -= d->callseqs; /* what is left for the creator */
	}
	for (uint32_t pd = 2; pd <= p->n_pd; pd++)
		g->csd[g->creator[pd]].callseqs = out[pd];
	free(out);
	free(in);
	return 0;
}

/* Keeps the PSs that have a PD (and the artificial ones) and their CSSs, renumbered. */
static int gen_compact(struct dp_gen *g)
{
	struct dp_profile *p = g->p;
	uint32_t *ps_map = calloc((size_t)p->n_ps + 1, sizeof(*ps_map));
	uint32_t *css_map = calloc((size_t)p->n_css + 1, sizeof(*css_map));
	uint32_t n_ps = 0, n_css = 0;

	if (!ps_map || !css_map) {
		free(ps_map);
		free(css_map);
		return dp_error(DP_ENOMEM, "out of memory compacting the profile");
	}
	ps_map[1] = ps_map[2] = 1;
	for (uint32_t pd = 1; pd <= p->n_pd; pd++)
		ps_map[g->pd[pd].ps] = 1;
	for (uint32_t ps = 1; ps <= p->n_ps; ps++)
		if (ps_map[ps]) {
			ps_map[ps] = ++n_ps;
			p->ps[n_ps] = p->ps[ps];
		}
	for (uint32_t css = 1; css <= p->n_css; css++) {
		struct dp_css *c = &p->css[css];

		if (!ps_map[c->ps])
			continue;
		css_map[css] = ++n_css;
		c->ps = ps_map[c->ps];
		c->callee_ps = ps_map[c->callee_ps];
		p->css[n_css] = *c;
	}
	for (uint32_t pd = 1; pd <= p->n_pd; pd++)
		g->pd[pd].ps = ps_map[g->pd[pd].ps];
	for (uint32_t c = 1; c <= p->n_csd; c++)
		g->csd[c].css = css_map[g->csd[c].css];
	p->n_ps = n_ps;
	p->n_css = n_css;
	free(ps_map);
	free(css_map);
	return 0;
}

/* INFO: totals, program, command line, process, times. */
static int gen_info(struct dp_gen *g)
{
	struct dp_profile *p = g->p;
	static const char *const argv[] = {"synthprog", "--synthetic", "input.dat"};

	p->version = DP_FMT_VERSION;
	p->elf_machine = 62; /* EM_X86_64 */
	p->features = DP_FEAT_SYMBOLIZED;
	p->sample_period_ns = 1000000;
	p->hz = 1000;
	for (uint32_t c = 1; c <= p->n_csd; c++) {
		p->samples_outside += g->csd[c].samples;
		p->total_callseqs += g->csd[c].callseqs;
	}
	p->samples_inside = p->samples_outside / 500;
	p->program = (uint32_t)dp_strtab_intern_cstr(&p->strs, "/usr/bin/synthprog");
	p->argc = 3;
	p->argv = dp_arena_array(&p->arena, 3, sizeof(*p->argv));
	if (!p->argv)
		return dp_error(DP_ENOMEM, "out of memory");
	for (uint32_t i = 0; i < 3; i++) {
		int64_t id = dp_strtab_intern_cstr(&p->strs, argv[i]);

		if (id < 0)
			return (int)id;
		p->argv[i] = (uint32_t)id;
	}
	p->pid = 4001;
	p->ppid = 4000;
	p->start_ns = 1795306558000000000ull;
	/* the threads ran side by side: wall time about the samples per thread */
	p->end_ns = p->start_ns + 1000000ull * (p->samples_outside / p->n_threads + 1);
	p->exit_status = 1;
	return 0;
}

/* dp_gen_finish - contract in genprof.h. */
int dp_gen_finish(struct dp_gen *g)
{
	struct dp_profile *p = g->p;
	int rc = gen_callseqs(g);

	if (rc == 0)
		rc = gen_compact(g);
	if (rc == 0)
		rc = gen_info(g);
	if (rc < 0)
		return rc;
	{
		struct dp_css *css = dp_arena_array(&p->arena, (size_t)p->n_css + 1, sizeof(*css));
		struct dp_pd *pd = dp_arena_array(&p->arena, (size_t)p->n_pd + 1, sizeof(*pd));
		struct dp_csd *csd = dp_arena_array(&p->arena, (size_t)p->n_csd + 1, sizeof(*csd));

		if (!css || !pd || !csd)
			return dp_error(DP_ENOMEM, "out of memory finishing the profile");
		memcpy(css, p->css, ((size_t)p->n_css + 1) * sizeof(*css));
		free(p->css);
		p->css = css;
		memcpy(pd, g->pd, ((size_t)p->n_pd + 1) * sizeof(*pd));
		free(g->pd);
		g->pd = NULL;
		p->pd = pd;
		memcpy(csd, g->csd, ((size_t)p->n_csd + 1) * sizeof(*csd));
		free(g->csd);
		g->csd = NULL;
		p->csd = csd;
	}
	return 0;
}

/* dp_gen_release - contract in genprof.h. */
void dp_gen_release(struct dp_gen *g)
{
	free(g->fn);
	free(g->site);
	free(g->callee);
	free(g->pd);
	free(g->csd);
	free(g->ps_top);
	free(g->budget);
	free(g->creator);
	memset(g, 0, sizeof(*g));
}
