/*
 * tests/unit/test_import.c - src/import: the context-stack builder (recursion folds onto
 * the outermost activation, mutual recursion included; a CSD's callee is decided once),
 * importing from memory, and the ORIG chunk (written, read back, validated).
 */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/err.h"
#include "deepprof/format.h"
#include "format/reader.h"
#include "format/writer.h"
#include "harness.h"
#include "import/imp_int.h"
#include "import/import.h"

/* Enters @name from the top of @s and counts the call (as the uftrace importer does). */
static int64_t call(struct imp *b, struct imp_stack *s, const char *name)
{
	int64_t ps = imp_proc(b, name, strlen(name), 0, 0), csd;

	if (ps < 0)
		return ps;
	b->csd[s->f[s->n - 1].csd].callseqs++;
	csd = imp_enter(b, s, (uint32_t)ps, 0, 0);
	if (csd > 0)
		b->csd[csd].calls++;
	return csd;
}

static void ret(struct imp *b, struct imp_stack *s)
{
	b->csd[s->f[s->n - 1].csd].exits++;
	s->n--;
}

static uint32_t pd_count_of(const struct dp_profile *p, const char *name)
{
	uint32_t n = 0;

	for (uint32_t i = 1; i <= p->n_pd; i++)
		n += p->ps[p->pd[i].ps].name &&
		     strcmp(dp_profile_str(p, p->ps[p->pd[i].ps].name), name) == 0;
	return n;
}

/* main -> a -> b -> a -> b, then main -> b: a and b each get one PD under main's a; the
 * inner a folds onto the outer a's PD, the inner b onto the outer b's; main's own call of
 * b is a new context. */
TEST(mutual_recursion_folds)
{
	struct dp_profile p;
	struct imp b;
	struct imp_stack s = {0};
	int64_t ab, ba, ab2;

	CHECK_EQ(imp_begin(&b, &p), 0);
	CHECK_EQ(imp_thread(&b, 7, "t"), 1);
	CHECK_EQ(imp_stack_start(&b, &s, 1), 0);
	call(&b, &s, "main");
	call(&b, &s, "a");
	ab = call(&b, &s, "b");
	ba = call(&b, &s, "a");
	ab2 = call(&b, &s, "b");
	CHECK_EQ(ab2, ab); /* (a's PD, site, b) is the same CSD again */
	CHECK_EQ(b.csd[ba].callee, b.csd[s.f[2].csd].callee); /* inner a is outer a's PD */
	ret(&b, &s);
	ret(&b, &s);
	ret(&b, &s);
	ret(&b, &s);
	call(&b, &s, "b");
	ret(&b, &s);
	ret(&b, &s);
	imp_stack_release(&s);
	CHECK_EQ(imp_finish(&b, "test", "mem", DP_CSD_CALLS, "n"), 0);
	CHECK_EQ(pd_count_of(&p, "a"), 1);
	CHECK_EQ(pd_count_of(&p, "b"), 2);
	CHECK_EQ(p.csd[ab].calls, 2);
	CHECK_EQ(p.csd[ab].exits, 2);
	CHECK_EQ(p.csd[ba].calls, 1);
	CHECK_EQ(p.total_callseqs, 6);
	CHECK_EQ(p.n_threads, 1);
	CHECK_EQ(p.threads[1].tid, 7);
	dp_profile_release(&p);
}

/* Folded stacks from memory: contexts, weights, the ORIG fields. */
TEST(folded_from_memory)
{
	static const char text[] = "main;f;f;g 5\nmain;g 2\nmain;f;f;g 1\n";
	struct dp_import_opts o = {.from = DP_IMPORT_FOLDED,
				   .input = "mem.folded",
				   .data = (const uint8_t *)text,
				   .len = sizeof(text) - 1,
				   .period_ns = 10};
	struct dp_profile p;
	uint64_t under_f = 0, under_main = 0;

	CHECK_EQ(dp_import(&o, &p), 0);
	for (uint32_t i = 1; i <= p.n_csd; i++) {
		const struct dp_csd *d = &p.csd[i];
		const char *caller = dp_profile_str(&p, p.ps[p.pd[d->caller].ps].name);

		if (strcmp(dp_profile_str(&p, p.ps[p.pd[d->callee].ps].name), "g") != 0)
			continue;
		if (strcmp(caller, "f") == 0)
			under_f += d->samples;
		else if (strcmp(caller, "main") == 0)
			under_main += d->samples;
	}
	CHECK_EQ(under_f, 6);
	CHECK_EQ(under_main, 2);
	CHECK_EQ(pd_count_of(&p, "f"), 1); /* f;f folded */
	CHECK_EQ(p.samples_outside, 8);
	CHECK_EQ(p.sample_period_ns, 10);
	CHECK_STR(dp_profile_str(&p, p.origin), "folded");
	CHECK_STR(dp_profile_str(&p, p.origin_input), "mem.folded");
	CHECK_EQ(p.metrics, DP_CSD_SAMPLES);
	dp_profile_release(&p);
	o.len = 4; /* "main" alone: no weight */
	CHECK(dp_import(&o, &p) < 0);
	CHECK(strstr(dp_errmsg(), "mem.folded: line 1: no weight") != NULL);
}

/* ORIG survives write -> read; unknown metric bits and an empty tool are refused. */
TEST(orig_chunk)
{
	static const char text[] = "a;b 3\n";
	struct dp_import_opts o = {.from = DP_IMPORT_FOLDED,
				   .input = "x",
				   .data = (const uint8_t *)text,
				   .len = sizeof(text) - 1};
	struct dp_profile p, q;
	struct dp_buf buf;

	CHECK_EQ(dp_import(&o, &p), 0);
	dp_buf_init(&buf, 1 << 20);
	CHECK_EQ(dp_write_buffer(&p, &buf), 0);
	CHECK_EQ(dp_read_buffer(buf.data, buf.len, "back", &q), 0);
	CHECK_STR(dp_profile_str(&q, q.origin), "folded");
	CHECK_STR(dp_profile_str(&q, q.origin_note), dp_profile_str(&p, p.origin_note));
	CHECK_EQ(q.metrics, DP_CSD_SAMPLES);
	dp_profile_release(&q);
	p.metrics = 0x80;
	dp_buf_reset(&buf);
	CHECK_EQ(dp_write_buffer(&p, &buf), 0);
	CHECK(dp_read_buffer(buf.data, buf.len, "bad", &q) < 0);
	CHECK(strstr(dp_errmsg(), "bad: ORIG metrics 0x80 has unknown bits at byte") != NULL);
	p.metrics = DP_CSD_SAMPLES;
	p.origin_input = p.origin; /* the tool's name as input, then an empty tool */
	p.origin = (uint32_t)dp_strtab_intern(&p.strs, "", 0);
	dp_buf_reset(&buf);
	CHECK_EQ(dp_write_buffer(&p, &buf), 0);
	CHECK_EQ(dp_read_buffer(buf.data, buf.len, "plain", &q), 0); /* origin 0: no chunk */
	CHECK_EQ(q.origin, 0);
	dp_profile_release(&q);
	dp_buf_release(&buf);
	dp_profile_release(&p);
}

DP_TEST_MAIN(test_mutual_recursion_folds, test_folded_from_memory, test_orig_chunk)
