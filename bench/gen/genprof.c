/*
 * bench/gen/genprof.c - deepprof-genprof: write a large synthetic profile for the load
 * benchmarks. Usage: deepprof-genprof N OUT.data [--threads T] [--seed S] [--run R]
 * About N contexts (PDs; CSDs a few percent more), deterministic for a given seed; the
 * structure is the seed's, the counters also depend on R (the runs of one program); the
 * file is checked by reading it back before it replaces OUT.data (dp_write_file).
 */
#include "genprof.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "format/writer.h"

static int usage(void)
{
	fprintf(stderr, "usage: deepprof-genprof N OUT.data [--threads T] [--seed S] [--run R]\n");
	return 2;
}

/* Parses an unsigned number in [@lo, @hi] with an optional k/M suffix; 0 on success. */
static int parse_num(const char *s, uint64_t lo, uint64_t hi, uint64_t *v)
{
	char *end;
	double x = strtod(s, &end);

	if (end == s)
		return -1;
	if (*end == 'k' || *end == 'K') {
		x *= 1e3;
		end++;
	} else if (*end == 'M' || *end == 'm') {
		x *= 1e6;
		end++;
	}
	if (*end || x < (double)lo || x > (double)hi)
		return -1;
	*v = (uint64_t)x;
	return 0;
}

static int generate(const struct dp_gen_opts *o, const char *out)
{
	struct dp_profile p;
	struct dp_gen g;
	int rc, finished = 0;

	memset(&g, 0, sizeof(g));
	g.o = *o;
	g.rng = o->seed * 0x9E3779B97F4A7C15u + 0x2545F4914F6CDD1Du;
	g.rng = g.rng ? g.rng : 1;
	g.p = &p;
	rc = dp_profile_init(&p);
	if (rc == 0)
		rc = dp_gen_static(&g);
	if (rc == 0)
		rc = dp_gen_threads(&g);
	if (rc == 0)
		rc = dp_gen_finish(&g);
	finished = rc == 0;
	if (rc == 0) {
		printf("deepprof-genprof: %" PRIu32 " PS, %" PRIu32 " CSS, %" PRIu32 " PD, %" PRIu32
		       " CSD, %" PRIu32 " threads; depth max %" PRIu64 ", mean %.1f\n",
		       p.n_ps, p.n_css, p.n_pd, p.n_csd, p.n_threads, g.max_depth_seen,
		       (double)g.depth_sum / (p.n_pd > 1 ? p.n_pd - 1 : 1));
		rc = dp_write_file(&p, out);
	}
	if (!finished) {
		free(p.css);
		p.css = NULL;
	}
	dp_gen_release(&g);
	dp_profile_release(&p);
	if (rc < 0)
		fprintf(stderr, "deepprof-genprof: %s\n", dp_errmsg());
	return rc < 0 ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct dp_gen_opts o = {.n_threads = 4, .seed = 1};
	const char *out = NULL;
	int pos = 0;
	uint64_t v;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--threads") && i + 1 < argc) {
			if (parse_num(argv[++i], 1, 256, &v) < 0)
				return usage();
			o.n_threads = (uint32_t)v;
		} else if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			if (parse_num(argv[++i], 0, 1e15, &o.seed) < 0)
				return usage();
		} else if (!strcmp(argv[i], "--run") && i + 1 < argc) {
			if (parse_num(argv[++i], 0, 1e15, &o.run) < 0)
				return usage();
		} else if (pos == 0 && parse_num(argv[i], 100, 2e9, &o.n_contexts) == 0) {
			pos++;
		} else if (pos == 1 && argv[i][0] != '-') {
			out = argv[i];
			pos++;
		} else {
			return usage();
		}
	}
	if (pos != 2)
		return usage();
	return generate(&o, out);
}
