/*
 * import/imp_folded.c - folded stacks (flamegraph.pl's input, `a;b;c N`): one line per
 * stack, root first, frames separated by ';', then blanks and a weight. Each line is a
 * walk from the thread root through its frames; the weight goes to the leaf context's
 * counter chosen by --metric (samples by default). One thread; no call sites.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"
#include "deepprof/format.h"
#include "imp_int.h"
#include "import.h"

struct folded {
	struct imp *b;
	struct imp_stack s;
	const char *name;
	uint64_t line, stacks;
	uint32_t metric;
};

static int bad(const struct folded *f, const char *what)
{
	return dp_error(DP_EFORMAT, "%s: line %" PRIu64 ": %s", f->name, f->line, what);
}

/* The weight at the end of [@s, @e): digits, optionally a fraction (rounded). Sets
 * *@stack_end to where the stack ends (before the blanks). */
static int weight(const struct folded *f, const char *s, const char *e, uint64_t *w,
		  const char **stack_end)
{
	const char *p = e, *dot = NULL;
	uint64_t v = 0;

	while (p > s && p[-1] != ' ' && p[-1] != '\t')
		p--;
	if (p == e)
		return bad(f, "no weight at the end of the line (expected 'a;b;c COUNT')");
	if (p == s)
		return bad(f, "no weight at the end of the line (expected 'a;b;c COUNT')");
	for (const char *q = p; q < e; q++) {
		if (*q == '.' && !dot) {
			dot = q;
			continue;
		}
		if (*q < '0' || *q > '9')
			return bad(f, "the weight at the end of the line is not a number");
		if (dot)
			continue;
		if (v > (UINT64_MAX - 9) / 10)
			return bad(f, "weight too large (more than 2^64 - 1)");
		v = v * 10 + (uint64_t)(*q - '0');
	}
	if (dot && dot + 1 < e && dot[1] >= '5')
		v++; /* flamegraph.pl accepts fractions; counters are integers */
	*w = v;
	while (p > s && (p[-1] == ' ' || p[-1] == '\t'))
		p--;
	*stack_end = p;
	return 0;
}

static uint64_t *counter(struct dp_csd *d, uint32_t metric)
{
	switch (metric) {
	case DP_CSD_CALLS:
		return &d->calls;
	case DP_CSD_CALLSEQS:
		return &d->callseqs;
	case DP_CSD_ALLOCS:
		return &d->allocs;
	case DP_CSD_ALLOC_BYTES:
		return &d->alloc_bytes;
	default:
		return &d->samples;
	}
}

static int one_line(struct folded *f, const char *s, const char *e)
{
	const char *stack_end = s, *fr;
	int64_t csd = 0, ps;
	uint64_t w = 0;
	int rc = weight(f, s, e, &w, &stack_end);

	if (rc < 0)
		return rc;
	if ((rc = imp_stack_start(f->b, &f->s, 1)) < 0)
		return rc;
	for (fr = s; fr <= stack_end;) {
		const char *semi = memchr(fr, ';', (size_t)(stack_end - fr));
		const char *end = semi ? semi : stack_end;

		if (end == fr)
			return bad(f, "empty frame name in the stack");
		ps = imp_proc(f->b, fr, (size_t)(end - fr), 0, 0);
		if (ps < 0)
			return (int)ps;
		csd = imp_enter(f->b, &f->s, (uint32_t)ps, 0, 0);
		if (csd < 0)
			return (int)csd;
		fr = end + 1;
	}
	*counter(&f->b->csd[csd], f->metric) += w;
	if (f->metric == DP_CSD_CALLS)
		f->b->csd[csd].exits += w; /* every call counted returned */
	return 0;
}

/* dp_imp_folded - imp_int.h: fill @b from @o->input and finish it, or abort it and return
 * the error. */
int dp_imp_folded(struct imp *b, const struct dp_import_opts *o)
{
	struct folded f = {.b = b, .name = o->input, .metric = o->metric};
	char *data, note[160];
	size_t len;
	int rc = imp_contents(o, &data, &len);
	int64_t t;

	if (rc == 0 && (t = imp_thread(b, 0, NULL)) < 0)
		rc = (int)t;
	for (const char *s = data, *end = data + len; rc == 0 && s < end;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s)), *e = nl ? nl : end;

		f.line++;
		if (e > s && e[-1] == '\r')
			e--;
		while (s < e && (*s == ' ' || *s == '\t'))
			s++;
		if (memchr(s, 0, (size_t)(e - s)))
			rc = bad(&f, "NUL byte (a binary file, not folded stacks?)");
		else if (s < e && *s != '#' && (rc = one_line(&f, s, e)) == 0)
			f.stacks++;
		s = nl ? nl + 1 : end;
	}
	if (rc == 0 && f.stacks == 0)
		rc = dp_error(DP_EFORMAT, "%s: line %" PRIu64 ": no stacks in the input", o->input,
			      f.line);
	free(data);
	imp_stack_release(&f.s);
	if (rc < 0) {
		imp_abort(b);
		return rc;
	}
	b->p->sample_period_ns = f.metric == DP_CSD_SAMPLES ? o->period_ns : 0;
	snprintf(note, sizeof(note), "folded stacks, weights counted as %s%s",
		 f.metric == DP_CSD_SAMPLES    ? "samples"
		 : f.metric == DP_CSD_CALLS    ? "calls"
		 : f.metric == DP_CSD_CALLSEQS ? "callseqs"
		 : f.metric == DP_CSD_ALLOCS   ? "allocations"
					       : "allocated bytes",
		 f.metric == DP_CSD_SAMPLES && !o->period_ns ? " (period unknown)" : "");
	return imp_finish(b, "folded", o->input,
			  f.metric | (f.metric == DP_CSD_CALLS ? DP_CSD_EXITS : 0), note);
}
