/*
 * symbol/symbolize.c - the entry points of the symbol module: dp_symbolize() runs the
 * phases (open objects, name functions, classify call sites, add call sites never taken)
 * over one in-memory profile; dp_symbolize_file() wraps it in read and atomic rewrite.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../format/reader.h"
#include "../format/writer.h"
#include "deepprof/format.h"
#include "symbol_int.h"

/* Index the CUs of the return addresses of sites whose caller has an open object. */
static int index_sites(struct dp_sym_ctx *c)
{
	const struct dp_profile *p = c->p;

	for (uint32_t i = 1; i <= p->n_css; i++) {
		const struct dp_css *s = &p->css[i];
		struct dp_sym_mod *m;
		int r;

		if (!s->addr)
			continue;
		m = dp_sym_mod_of(c, dp_sym_obj_of(c, s->addr - 1));
		if (!m)
			continue;
		r = dp_sym_index_addr(c, m, s->addr - 1);
		if (r < 0)
			return r;
	}
	return 0;
}

static void count(const struct dp_profile *p, struct dp_symbolize_opts *opts)
{
	uint8_t *taken = calloc((size_t)p->n_css + 1, 1);

	opts->n_functions = opts->n_library = 0;
	for (uint32_t i = 1; i <= p->n_ps; i++) {
		opts->n_functions += p->ps[i].kind == DP_PS_FUNCTION;
		opts->n_library += p->ps[i].kind == DP_PS_LIBRARY;
	}
	opts->n_sites = p->n_css;
	opts->n_untaken = 0;
	if (!taken)
		return;
	for (uint32_t i = 1; i <= p->n_csd; i++)
		if (p->csd[i].css <= p->n_css)
			taken[p->csd[i].css] = 1;
	for (uint32_t i = 1; i <= p->n_css; i++)
		opts->n_untaken += !taken[i];
	free(taken);
}

/* dp_symbolize - see symbol.h. */
int dp_symbolize(struct dp_profile *p, struct dp_symbolize_opts *opts)
{
	struct dp_sym_ctx c = {.p = p, .opts = opts};
	int r;

	if (opts)
		opts->unresolved = 0;
	r = dp_sym_open(&c);
	if (r == 0)
		r = index_sites(&c);
	if (r == 0)
		r = dp_sym_name_procs(&c); /* also sorts the module indexes */
	if (r == 0)
		r = dp_sym_build_maps(&c);
	if (r == 0)
		r = dp_sym_classify_sites(&c);
	if (r == 0)
		r = dp_sym_add_untaken(&c);
	if (r == 0)
		r = dp_sym_make_leaves(&c);
	dp_sym_close(&c);
	if (r < 0)
		return r;
	p->features |= DP_FEAT_SYMBOLIZED;
	if (opts)
		count(p, opts);
	return 0;
}

/* dp_symbolize_file - see symbol.h. */
int dp_symbolize_file(const char *path, struct dp_symbolize_opts *opts, char *summary, size_t len)
{
	struct dp_symbolize_opts local = {0};
	struct dp_profile p;
	int r, n;

	if (!opts)
		opts = &local;
	r = dp_read_file(path, &p);
	if (r < 0)
		return r;
	r = dp_symbolize(&p, opts);
	if (r == 0)
		r = dp_write_file(&p, path);
	dp_profile_release(&p);
	if (r < 0 || !summary || len == 0)
		return r;
	n = snprintf(summary, len,
		     "%s: %" PRIu32 " functions, %" PRIu32 " call sites (%" PRIu32
		     " never taken) symbolized",
		     path, opts->n_functions, opts->n_sites, opts->n_untaken);
	if (opts->n_library && n > 0 && (size_t)n < len)
		n += snprintf(summary + n, len - (size_t)n, ", %" PRIu32 " library procedures",
			      opts->n_library);
	if (opts->unresolved && n > 0 && (size_t)n < len)
		snprintf(summary + n, len - (size_t)n, ", %" PRIu32 " functions in missing objects",
			 opts->unresolved);
	return 0;
}
