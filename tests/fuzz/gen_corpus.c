/*
 * tests/fuzz/gen_corpus.c - writes the seed files of tests/corpus/reader: valid files
 * (ok-*) made from the sample profile with several feature sets, and malformed ones
 * (bad-*) that the reader must reject: truncated, bit-flipped, and well-checksummed
 * files with bad ids, kinds, counts and varints. Usage: gen_reader_corpus DIR.
 * (ok-runtime-fib.dp in the corpus is a real file written by libdeepprof and symbolized.)
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

/* The payload offset of chunk @id (through the TOC of the valid file in @b). */
static size_t payload(const struct dp_buf *b, uint32_t id)
{
	size_t e = b->len - DP_FMT_END_SIZE, toc = dp_fmt_get_u64(b->data + e + 8);

	for (uint32_t i = 0; i < dp_fmt_get_u32(b->data + e + 24); i++) {
		const uint8_t *t = b->data + toc + i * DP_FMT_TOC_ENTRY_SIZE;

		if (dp_fmt_get_u32(t) == id)
			return dp_fmt_get_u64(t + 8);
	}
	return 0;
}

/* Sets byte @at of the payload of chunk @id to @val and makes the checksum match. */
static int gen_patch(const char *dir, const char *name, uint32_t id, size_t at, uint8_t val)
{
	struct dp_profile p;
	struct dp_buf b;
	int rc;

	if (dp_sample_profile(&p, DP_FEAT_SYMBOLIZED) < 0)
		return -1;
	dp_buf_init(&b, 1 << 20);
	rc = dp_write_buffer(&p, &b);
	if (rc == 0) {
		b.data[payload(&b, id) + at] = val;
		dp_fmt_put_u32(b.data + b.len - 4, (uint32_t)crc32(0L, b.data, (uInt)(b.len - 4)));
		rc = save(dir, name, b.data, b.len);
	}
	dp_buf_release(&b);
	dp_profile_release(&p);
	return rc;
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
	/* checksummed, but: PSTA claims 127 records; the first CSD's caller is non-canonical */
	rc |= gen_patch(dir, "bad-huge-count.dp", DP_CHUNK_PSTA, 0, 0x7F);
	rc |= gen_patch(dir, "bad-noncanonical.dp", DP_CHUNK_CSDY, 1, 0x80);
	return rc ? 1 : 0;
}
