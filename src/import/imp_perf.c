/*
 * import/imp_perf.c - perf: a perf.data file (`perf record -g`, frame pointers or
 * --call-graph=dwarf), read by running
 *   perf script -i FILE -F comm,tid,time,period,event,ip,sym,symoff,dso
 * or that text given directly (any field selection with comm, tid and a callchain). A
 * sample is a header line "COMM TID [CPU] TIME: PERIOD EVENT:" then one line per frame,
 * leaf first, "ADDR SYM+OFF (DSO)", then a blank line. Each sample is walked root first
 * (the return address of each caller frame is the call site) and its period added to
 * the leaf context; threads are kept by tid. Only the first event seen is imported.
 * Periods that are all equal become a count of samples of that period; cpu-clock and
 * task-clock periods are nanoseconds.
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

#define MAX_TOKENS 64

struct perf {
	struct imp *b;
	struct imp_stack s;
	const char *name;
	uint64_t line, hdr_line; /* the current line, the sample header's */
	char event[128];
	uint64_t period, other_events, samples;
	int uneven; /* periods differ */
	/* the sample being read: thread, period, frames (leaf first) */
	int64_t thread;
	uint64_t weight;
	struct frame {
		uint64_t addr;
		uint32_t ps;
	} * fr;
	uint32_t n_fr, cap_fr;
	int skip; /* the sample is of another event */
};

static int bad(const struct perf *f, const char *what)
{
	return dp_error(DP_EFORMAT, "%s: line %" PRIu64 ": %s", f->name, f->line, what);
}

static int is_num(const char *s, size_t n)
{
	if (n == 0)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
	}
	return 1;
}

/* "123.456789:" */
static int is_time(const char *s, size_t n)
{
	const char *dot = memchr(s, '.', n);

	return n > 2 && s[n - 1] == ':' && dot && is_num(s, (size_t)(dot - s)) &&
	       is_num(dot + 1, (size_t)(s + n - 2 - dot));
}

/* "TID" or "PID/TID": sets *@tid. */
static int tid_token(const char *s, size_t n, uint64_t *tid)
{
	const char *slash = memchr(s, '/', n);

	if (slash && !is_num(s, (size_t)(slash - s)))
		return 0;
	if (slash) {
		n -= (size_t)(slash + 1 - s);
		s = slash + 1;
	}
	if (!is_num(s, n) || n > 19)
		return 0;
	*tid = strtoull(s, NULL, 10);
	return 1;
}

/*
 * The header line [@s, @e): "COMM TID [CPU] TIME: PERIOD EVENT:" with TIME, PERIOD and
 * [CPU] optional, COMM possibly with blanks. With a TIME, the TID is before it (CPU
 * skipped) and PERIOD after it; without, the numbers before EVENT are TID [PERIOD].
 */
static int header(struct perf *f, char *s, char *e)
{
	char *tok[MAX_TOKENS], comm[256];
	size_t len[MAX_TOKENS];
	int n = 0, t = -1, ev = -1, tid_at = -1;
	uint64_t tid = 0, x;

	for (char *p = s; p < e && n < MAX_TOKENS;) {
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (p == e)
			break;
		tok[n] = p;
		while (p < e && *p != ' ' && *p != '\t')
			p++;
		len[n] = (size_t)(p - tok[n]);
		n++;
	}
	for (int i = 1; i < n && ev < 0; i++) {
		if (t < 0 && is_time(tok[i], len[i]))
			t = i;
		else if (tok[i][len[i] - 1] == ':' && !is_num(tok[i], len[i] - 1))
			ev = i;
	}
	if (ev < 0)
		return bad(f, "sample header without an event name ('COMM TID TIME: PERIOD "
			      "EVENT:' expected)");
	f->weight = 1;
	if (t >= 0) {
		if (ev - 1 > t && is_num(tok[ev - 1], len[ev - 1]))
			f->weight = strtoull(tok[ev - 1], NULL, 10);
		for (tid_at = t - 1; tid_at > 0 && tok[tid_at][0] == '[';)
			tid_at--;
	} else {
		int found = 0, at[2] = {-1, -1};

		for (int i = ev - 1; i >= 1 && found < 2; i--) {
			if (tok[i][0] == '[')
				continue;
			if (!tid_token(tok[i], len[i], &x))
				break;
			at[found++] = i;
		}
		tid_at = found == 2 ? at[1] : at[0];
		if (found == 2)
			f->weight = strtoull(tok[at[0]], NULL, 10);
	}
	if (tid_at < 1 || !tid_token(tok[tid_at], len[tid_at], &tid))
		return bad(f, "sample header without a thread id ('COMM TID ...' expected)");
	snprintf(comm, sizeof(comm), "%.*s", (int)(tok[tid_at - 1] + len[tid_at - 1] - tok[0]),
		 tok[0]);
	if (!f->event[0])
		snprintf(f->event, sizeof(f->event), "%.*s", (int)len[ev] - 1, tok[ev]);
	f->skip = strlen(f->event) != len[ev] - 1 || memcmp(f->event, tok[ev], len[ev] - 1) != 0;
	if (f->skip) {
		f->other_events++;
		return 0;
	}
	f->thread = imp_thread(f->b, tid, comm);
	if (!f->b->p->program && f->thread > 0) { /* the first sample's command names it */
		int64_t id = imp_str(f->b, comm, strlen(comm));

		f->b->p->program = id > 0 ? (uint32_t)id : 0;
	}
	return f->thread < 0 ? (int)f->thread : 0;
}

/* A frame line [@s, @e) (blanks skipped): "ADDR SYM+0xOFF (DSO)" or "ADDR [unknown]
 * (DSO)"; the DSO part is optional. */
static int frame(struct perf *f, char *s, char *e)
{
	char *p, *sym, *sym_end, *dso = NULL, *dso_end = NULL, name[512];
	uint64_t addr = strtoull(s, &p, 16);
	int64_t ps, dso_id = 0;
	int n;

	if (p == s || (p < e && *p != ' ' && *p != '\t'))
		return bad(f, "call chain line without a hex address");
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	sym = p;
	sym_end = e;
	if (e > sym && e[-1] == ')') {
		for (char *q = e - 1; q > sym; q--) {
			if (*q == '(' && (q[-1] == ' ' || q[-1] == '\t')) {
				dso = q + 1;
				dso_end = e - 1;
				sym_end = q - 1;
				break;
			}
		}
	}
	while (sym_end > sym && (sym_end[-1] == ' ' || sym_end[-1] == '\t'))
		sym_end--;
	for (char *q = sym_end; q > sym + 1; q--) { /* strip "+0x1f" */
		if (q[-1] == '+' && q + 1 < sym_end && q[0] == '0' && q[1] == 'x') {
			sym_end = q - 1;
			break;
		}
		if (!((*q >= '0' && *q <= '9') || (*q >= 'a' && *q <= 'f') || *q == 'x') &&
		    q != sym_end)
			break;
	}
	if (sym_end == sym)
		return bad(f, "call chain line without a symbol");
	if (dso) {
		char *base = dso_end;

		while (base > dso && base[-1] != '/')
			base--;
		if ((dso_id = imp_str(f->b, base, (size_t)(dso_end - base))) < 0)
			return (int)dso_id;
	}
	if ((size_t)(sym_end - sym) == 9 && memcmp(sym, "[unknown]", 9) == 0 && dso &&
	    dso_end - dso != 9)
		n = snprintf(name, sizeof(name), "[unknown] (%.*s)", (int)(dso_end - dso), dso);
	else
		n = snprintf(name, sizeof(name), "%.*s", (int)(sym_end - sym), sym);
	ps = imp_proc(f->b, name, n < (int)sizeof(name) ? (size_t)n : sizeof(name) - 1,
		      (uint64_t)dso_id, 0);
	if (ps < 0)
		return (int)ps;
	if (dso && !f->b->ps[ps].file && dso_end - dso > 1 && *dso == '/') {
		/* no source file: the object stands for the module (contours, module pages) */
		int64_t file = imp_str(f->b, dso, (size_t)(dso_end - dso));

		if (file < 0)
			return (int)file;
		f->b->ps[ps].file = (uint32_t)file;
	}
	if (DP_VEC_GROW(f->fr, f->cap_fr, f->n_fr + 1) < 0)
		return dp_error(DP_ENOMEM, "out of memory importing (call chain)");
	f->fr[f->n_fr++] = (struct frame){addr, (uint32_t)ps};
	return 0;
}

/* The sample read: walk its frames root first, the period to the leaf context. */
static int sample_end(struct perf *f)
{
	int64_t csd = 0;
	int rc;

	if (f->skip || f->thread <= 0)
		return 0;
	if (f->n_fr == 0)
		return dp_error(DP_EFORMAT,
				"%s: line %" PRIu64
				": sample without a call chain (record with perf record -g)",
				f->name, f->hdr_line);
	if ((rc = imp_stack_start(f->b, &f->s, (uint32_t)f->thread)) < 0)
		return rc;
	for (uint32_t i = f->n_fr; i-- > 0;) {
		/* the call site of frame i is the return address in its caller, frame i + 1 */
		uint64_t site = i + 1 < f->n_fr ? f->fr[i + 1].addr : 0;

		if ((csd = imp_enter(f->b, &f->s, f->fr[i].ps, site, 0)) < 0)
			return (int)csd;
	}
	f->b->csd[csd].samples += f->weight;
	if (f->samples++ == 0)
		f->period = f->weight;
	else if (f->weight != f->period)
		f->uneven = 1;
	f->n_fr = 0;
	f->thread = 0;
	return 0;
}

static int parse(struct perf *f, char *data, size_t len)
{
	int in_sample = 0, rc = 0;

	for (char *s = data, *end = data + len; rc == 0 && s < end;) {
		char *nl = memchr(s, '\n', (size_t)(end - s)), *e = nl ? nl : end, *p = s;

		f->line++;
		if (e > s && e[-1] == '\r')
			e--;
		while (p < e && (*p == ' ' || *p == '\t'))
			p++;
		if (memchr(s, 0, (size_t)(e - s)))
			rc = bad(f, "NUL byte (a binary file, not perf script output?)");
		else if (p == e) {
			if (in_sample)
				rc = sample_end(f);
			in_sample = 0;
		} else if (*s == '#' && !in_sample) {
			/* perf script --header lines */
		} else if (p == s) {
			if (in_sample)
				rc = sample_end(f);
			f->hdr_line = f->line;
			if (rc == 0)
				rc = header(f, s, e);
			in_sample = 1;
		} else if (!in_sample) {
			rc = bad(f, "call chain line before any sample header");
		} else if (!f->skip) {
			rc = frame(f, p, e);
		}
		s = nl ? nl + 1 : end;
	}
	if (rc == 0 && in_sample)
		rc = sample_end(f);
	if (rc == 0 && f->samples == 0)
		rc = dp_error(DP_EFORMAT, "%s: line %" PRIu64 ": no samples in the input", f->name,
			      f->line);
	return rc;
}

/* Periods all equal: samples become a count of samples of that period. */
static void settle(struct perf *f, char *note, size_t size)
{
	struct dp_profile *p = f->b->p;
	int clock =
		strncmp(f->event, "cpu-clock", 9) == 0 || strncmp(f->event, "task-clock", 10) == 0;

	if (!f->uneven && f->period > 1) {
		for (uint32_t i = 1; i <= f->b->n_csd; i++)
			f->b->csd[i].samples /= f->period;
	}
	if (!f->uneven)
		p->sample_period_ns = clock ? f->period : 0;
	else
		p->sample_period_ns = clock ? 1 : 0;
	p->hz = clock && p->sample_period_ns ? 1000000000 / p->sample_period_ns : 0;
	snprintf(note, size,
		 "perf samples of %s, %s%s; no call counts%s%" PRIu64 " samples of other events "
		 "skipped",
		 f->event, f->uneven ? "weighted by period" : "one per sample",
		 clock ? " (time)" : " (not time: shown as ticks)", "; ", f->other_events);
}

/* dp_imp_perf - imp_int.h: fill @b from @o->input and finish it, or abort it and return
 * the error. */
int dp_imp_perf(struct imp *b, const struct dp_import_opts *o)
{
	struct perf f = {.b = b, .name = o->input};
	char *data = NULL, note[300], what[512];
	size_t len = 0;
	int rc;

	if (o->from == DP_IMPORT_PERF && !o->data) {
		const char *argv[] = {o->perf ? o->perf : "perf",
				      "script",
				      "-i",
				      o->input,
				      "-F",
				      "comm,tid,time,period,event,ip,sym,symoff,dso",
				      NULL};

		snprintf(what, sizeof(what), "%s (perf script output)", o->input);
		f.name = what;
		snprintf(note, sizeof(note), "%s: perf script", o->input);
		rc = imp_run_capture(argv, note, &data, &len);
	} else {
		rc = imp_contents(o, &data, &len);
	}
	if (rc == 0)
		rc = parse(&f, data, len);
	free(data);
	free(f.fr);
	imp_stack_release(&f.s);
	if (rc < 0) {
		imp_abort(b);
		return rc;
	}
	settle(&f, note, sizeof(note));
	return imp_finish(b, "perf", o->input, DP_CSD_SAMPLES, note);
}
