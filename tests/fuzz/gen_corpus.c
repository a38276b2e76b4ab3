/*
 * tests/fuzz/gen_corpus.c - writes the seed files of tests/corpus/reader: valid files
 * (ok-*) made from the sample profile with several feature sets, and malformed ones
 * (bad-*) that the reader must reject: truncated, bit-flipped, and well-checksummed
 * files with bad ids, kinds and counts. Usage: gen_reader_corpus DIR.
 */
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "core/err.h"
#include "deepprof/format.h"
#include "format/writer.h"
#include "sample_profile.h"

static int save(const char *dir, const char *name, const uint8_t *d, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(d, 1, len, f) != len || fclose(f) != 0) {
		perror(path);
		return -1;
	}
	return 0;
}

/* Writes the sample with @features after @mutate (may be NULL) as @name. */
static int gen(const char *dir, const char *name, uint64_t features,
	       void (*mutate)(struct dp_profile *), size_t cut, long flip)
{
	struct dp_profile p;
	struct dp_buf b;
	int rc;

	if (dp_sample_profile(&p, features) < 0)
		return -1;
	if (mutate)
		mutate(&p);
	dp_buf_init(&b, 1 << 20);
	rc = dp_write_buffer(&p, &b);
	if (rc == 0 && flip >= 0 && (size_t)flip < b.len)
		b.data[flip] ^= 0x10;
	if (rc == 0)
		rc = save(dir, name, b.data, cut && cut < b.len ? cut : b.len);
	dp_buf_release(&b);
	dp_profile_release(&p);
	return rc;
}

static void bad_callee(struct dp_profile *p)
{
	p->csd[3].callee = 99;
}

static void bad_css(struct dp_profile *p)
{
	p->csd[4].css = 4;
}

static void bad_kind(struct dp_profile *p)
{
	p->ps[4].kind = 7;
}

static void bad_root(struct dp_profile *p)
{
	p->ps[1].kind = DP_PS_THREAD; /* the root PD's PS is no longer a root */
}

static void few_threads(struct dp_profile *p)
{
	p->n_threads = 1; /* PD 6 and 9 still name thread 2 */
}

int main(int argc, char **argv)
{
	const uint64_t all = DP_FEAT_SYMBOLIZED | DP_FEAT_STOPPED | DP_FEAT_COVERAGE;
	const char *dir = argc > 1 ? argv[1] : ".";
	int rc = 0;

	rc |= gen(dir, "ok-plain.dp", 0, NULL, 0, -1);
	rc |= gen(dir, "ok-symbolized.dp", DP_FEAT_SYMBOLIZED, NULL, 0, -1);
	rc |= gen(dir, "ok-all-features.dp", all, NULL, 0, -1);
	rc |= gen(dir, "bad-truncated-half.dp", all, NULL, 300, -1);
	rc |= gen(dir, "bad-truncated-end.dp", all, NULL, 40 * 16, -1);
	rc |= gen(dir, "bad-flipped.dp", DP_FEAT_SYMBOLIZED, NULL, 0, 200);
	rc |= gen(dir, "bad-magic.dp", 0, NULL, 0, 3);
	rc |= gen(dir, "bad-callee.dp", all, bad_callee, 0, -1);
	rc |= gen(dir, "bad-css-of-other-ps.dp", all, bad_css, 0, -1);
	rc |= gen(dir, "bad-ps-kind.dp", all, bad_kind, 0, -1);
	rc |= gen(dir, "bad-root-kind.dp", 0, bad_root, 0, -1);
	rc |= gen(dir, "bad-thread-index.dp", DP_FEAT_SYMBOLIZED, few_threads, 0, -1);
	return rc ? 1 : 0;
}
