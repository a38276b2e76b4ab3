/*
 * import/imp_folded.c - folded stacks (flamegraph.pl's input, `a;b;c N`): one line per
 * stack, root first, frames separated by ';', then blanks and a weight. Each line is a
 * walk from the thread root through its frames; the weight goes to the leaf context's
 * counter chosen by --metric (samples by default). One thread; no call sites. All lines
 * are checked first (errors in file order), then sorted and walked: the frames a line
 * shares with the line before are not walked again, the context stack is kept down to
 * the first frame that differs.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/vec.h"
#include "deepprof/format.h"
#include "imp_int.h"
#include "import.h"

struct folded {
	struct imp *b;
	struct imp_stack s;
	const char *name;
	uint64_t line;
	uint32_t metric;
	const char *prev, *prev_end; /* the previous line's stack, walked into s */
};

/* How many leading frames [@s, @e) shares with the previous line's stack: the frames
 * wholly inside their common prefix and ending at a ';' (or the end) in both. */
static uint32_t shared_frames(const struct folded *f, const char *s, const char *e)
{
	const char *p = f->prev;
	size_t la = (size_t)(e - s), lb = p ? (size_t)(f->prev_end - p) : 0, i = 0;
	uint32_t n = 0;

	if (!p || f->s.n == 0)
		return 0;
	while (i < la && i < lb && s[i] == p[i])
		n += s[i++] == ';';
	if ((i == la || s[i] == ';') && (i == lb || p[i] == ';'))
		n++; /* the frame the prefix ends with is whole in both */
	return n < f->s.n - 1 ? n : f->s.n - 1;
}

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

/* One stack line, checked and waiting to be walked. */
struct fline {
	const char *s, *end; /* the stack */
	uint64_t w;
};

/* Checks line [@s, @e) and appends it to @v (*@n used, *@cap room). */
static int check_line(struct folded *f, const char *s, const char *e, struct fline **v, size_t *n,
		      size_t *cap)
{
	const char *stack_end = s;
	uint64_t w = 0;
	int rc = weight(f, s, e, &w, &stack_end);

	if (rc < 0)
		return rc;
	for (const char *q = s; q < stack_end; q++) {
		if (*q == ';' && (q == s || q[-1] == ';' || q + 1 == stack_end))
			return bad(f, "empty frame name in the stack");
	}
	if (DP_VEC_GROWZ(*v, *cap, *n + 1) < 0)
		return dp_error(DP_ENOMEM, "%s: out of memory", f->name);
	(*v)[(*n)++] = (struct fline){s, stack_end, w};
	return 0;
}

/* Walks one checked line, from where it parts from the previous one. */
static int walk_line(struct folded *f, const struct fline *l)
{
	const char *stack_end = l->end, *fr = l->s;
	int64_t csd = 0, ps;
	uint32_t keep = shared_frames(f, l->s, l->end);
	int rc;

	f->prev = NULL; /* set again once this line is walked */
	if (keep > 0) {
		f->s.n = keep + 1;
		csd = f->s.f[keep].csd;
		for (uint32_t i = 0; i < keep; i++) {
			const char *semi = memchr(fr, ';', (size_t)(stack_end - fr));

			fr = semi ? semi + 1 : stack_end + 1;
		}
	} else if ((rc = imp_stack_start(f->b, &f->s, 1)) < 0) {
		return rc;
	}
	while (fr <= stack_end) {
		const char *semi = memchr(fr, ';', (size_t)(stack_end - fr));
		const char *end = semi ? semi : stack_end;

		ps = imp_proc(f->b, fr, (size_t)(end - fr), 0, 0);
		if (ps < 0)
			return (int)ps;
		csd = imp_enter(f->b, &f->s, (uint32_t)ps, 0, 0);
		if (csd < 0)
			return (int)csd;
		fr = end + 1;
	}
	f->prev = l->s;
	f->prev_end = stack_end;
	*counter(&f->b->csd[csd], f->metric) += l->w;
	if (f->metric == DP_CSD_CALLS)
		f->b->csd[csd].exits += l->w; /* every call counted returned */
	return 0;
}

static int cmp_fline(const void *a, const void *b)
{
	const struct fline *x = a, *y = b;
	size_t lx = (size_t)(x->end - x->s), ly = (size_t)(y->end - y->s);
	int c = memcmp(x->s, y->s, lx < ly ? lx : ly);

	return c ? c : (lx > ly) - (lx < ly);
}

/* dp_imp_folded - imp_int.h: fill @b from @o->input and finish it, or abort it and return
 * the error. */
int dp_imp_folded(struct imp *b, const struct dp_import_opts *o)
{
	struct folded f = {.b = b, .name = o->input, .metric = o->metric};
	struct fline *lines = NULL;
	char *data, note[160];
	size_t len, n = 0, cap = 0;
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
		else if (s < e && *s != '#')
			rc = check_line(&f, s, e, &lines, &n, &cap);
		s = nl ? nl + 1 : end;
	}
	if (rc == 0 && n == 0)
		rc = dp_error(DP_EFORMAT, "%s: line %" PRIu64 ": no stacks in the input", o->input,
			      f.line);
	/* sorted, lines share their leading frames with the line before: fewer lookups;
	 * the contexts do not depend on the order */
	for (size_t i = 1; rc == 0 && i < n; i++) {
		if (cmp_fline(&lines[i - 1], &lines[i]) > 0) { /* not sorted yet */
			qsort(lines, n, sizeof(*lines), cmp_fline);
			break;
		}
	}
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = walk_line(&f, &lines[i]);
	free(lines);
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
