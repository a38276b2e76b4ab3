/*
 * tests/unit/test_format_corrupt.c - the reader against broken input: every truncation,
 * bit flips everywhere, and hand-made files that pass the checksum but carry bad ids,
 * huge counts, bad kinds, bad varints or a broken table of contents, each rejected with
 * its exact message and offset. Run it under DP_SANITIZE=ON too (no crash, no leak).
 */
#include <stdlib.h>
#include <zlib.h>

#include "core/err.h"
#include "deepprof/format.h"
#include "format/reader.h"
#include "format/writer.h"
#include "harness.h"
#include "sample_profile.h"

#define ALL_FEAT (DP_FEAT_SYMBOLIZED | DP_FEAT_STOPPED | DP_FEAT_COVERAGE)

static void sample_file(struct dp_buf *f, uint64_t features)
{
	struct dp_profile p;

	dp_buf_init(f, 1 << 20);
	CHECK_EQ(dp_sample_profile(&p, features), 0);
	CHECK_EQ(dp_write_buffer(&p, f), 0);
	dp_profile_release(&p);
}

/* Reads @len bytes expecting failure with exactly @msg ("t: ..." form). */
static void expect_msg(const uint8_t *d, size_t len, const char *msg, int line)
{
	struct dp_profile p;
	int rc = dp_read_buffer(d, len, "t", &p);

	if (rc != -DP_EFORMAT || strcmp(dp_errmsg(), msg) != 0) {
		fprintf(stderr, "line %d: rc %d, got \"%s\"\n  expected \"%s\"\n", line, rc,
			rc ? dp_errmsg() : "(accepted)", msg);
		dp_test_failures++;
	}
	if (rc == 0)
		dp_profile_release(&p);
}
#define EXPECT(d, len, ...)                            \
	do {                                           \
		char m_[512];                          \
		snprintf(m_, sizeof(m_), __VA_ARGS__); \
		expect_msg((d), (len), m_, __LINE__);  \
	} while (0)

/* Any rejection whose message ends in "at byte N". */
static int rejected(const uint8_t *d, size_t len)
{
	struct dp_profile p;
	int rc = dp_read_buffer(d, len, "t", &p);

	if (rc == 0) {
		dp_profile_release(&p);
		return 0;
	}
	return rc == -DP_EFORMAT && strstr(dp_errmsg(), " at byte ") != NULL &&
	       strncmp(dp_errmsg(), "t: ", 3) == 0;
}

TEST(truncated_everywhere)
{
	struct dp_buf f;
	int bad = 0;

	sample_file(&f, ALL_FEAT);
	for (size_t len = 0; len < f.len; len++) {
		uint8_t *copy = malloc(len ? len : 1); /* exact size: ASan sees any overread */

		memcpy(copy, f.data, len);
		if (!rejected(copy, len) && bad++ < 5)
			fprintf(stderr, "truncation at %zu accepted or bad message: %s\n", len,
				dp_errmsg());
		if (len >= 64 && len % 97 == 0)
			EXPECT(copy, len, "t: file truncated (no end record) at byte %zu", len);
		free(copy);
	}
	CHECK_EQ(bad, 0);
	EXPECT(f.data, 0, "t: file truncated (no header) at byte 0");
	EXPECT(f.data, 5, "t: file truncated (no header) at byte 5");
	EXPECT(f.data, 31, "t: file truncated (no header) at byte 31");
	EXPECT(f.data, 32, "t: file truncated (no end record) at byte 32");
	dp_buf_release(&f);
}

TEST(bit_flips_everywhere)
{
	struct dp_buf f;
	uint8_t *copy;
	int bad = 0, n = 0;

	sample_file(&f, ALL_FEAT);
	copy = malloc(f.len);
	for (size_t off = 0; off < f.len; off++) {
		for (int bit = 0; bit < 8; bit++) {
			memcpy(copy, f.data, f.len);
			copy[off] ^= (uint8_t)(1u << bit);
			n++;
			if (!rejected(copy, f.len) && bad++ < 5)
				fprintf(stderr, "flip at %zu bit %d: %s\n", off, bit, dp_errmsg());
		}
	}
	CHECK_EQ(bad, 0);
	CHECK_EQ(n, (int)f.len * 8);
	free(copy);
	dp_buf_release(&f);
}

/* ---- a test-side container builder, independent of writer.c ---- */

struct chunk {
	uint32_t id;
	uint8_t data[4096];
	size_t len;
};

/* Splits a valid file into its chunks (through its TOC). */
static size_t split(const struct dp_buf *f, struct chunk *c)
{
	size_t e = f->len - DP_FMT_END_SIZE, toc = dp_fmt_get_u64(f->data + e + 8);
	size_t n = dp_fmt_get_u32(f->data + e + 24);

	for (size_t i = 0; i < n; i++) {
		const uint8_t *t = f->data + toc + i * DP_FMT_TOC_ENTRY_SIZE;

		c[i].id = dp_fmt_get_u32(t);
		c[i].len = dp_fmt_get_u64(t + 16);
		memcpy(c[i].data, f->data + dp_fmt_get_u64(t + 8), c[i].len);
	}
	return n;
}

static void fix_crc(struct dp_buf *f)
{
	dp_fmt_put_u32(f->data + f->len - 4, (uint32_t)crc32(0L, f->data, (uInt)(f->len - 4)));
}

/* Builds a file from @n chunks; off[i] receives chunk i's payload offset. */
static void build(struct dp_buf *f, uint64_t features, const struct chunk *c, size_t n, size_t *off)
{
	uint8_t b[DP_FMT_END_SIZE] = {0};
	size_t toc;

	dp_buf_init(f, 1 << 20);
	memcpy(b, DP_FMT_MAGIC, 8);
	dp_fmt_put_u16(b + 8, 1);
	dp_fmt_put_u16(b + 10, 1);
	dp_fmt_put_u16(b + 12, 32);
	dp_fmt_put_u16(b + 14, 62);
	dp_fmt_put_u32(b + 16, DP_FMT_ENDIAN_MARK);
	dp_fmt_put_u64(b + 24, features);
	dp_buf_add(f, b, 32);
	for (size_t i = 0; i < n; i++) {
		memset(b, 0, sizeof(b));
		dp_fmt_put_u32(b, c[i].id);
		dp_fmt_put_u64(b + 8, c[i].len);
		dp_buf_add(f, b, 16);
		off[i] = f->len;
		dp_buf_add(f, c[i].data, c[i].len);
	}
	toc = f->len;
	for (size_t i = 0; i < n; i++) {
		memset(b, 0, sizeof(b));
		dp_fmt_put_u32(b, c[i].id);
		dp_fmt_put_u64(b + 8, off[i]);
		dp_fmt_put_u64(b + 16, c[i].len);
		dp_buf_add(f, b, 24);
	}
	memset(b, 0, sizeof(b));
	memcpy(b, DP_FMT_END_MAGIC, 8);
	dp_fmt_put_u64(b + 8, toc);
	dp_fmt_put_u64(b + 16, f->len + 32);
	dp_fmt_put_u32(b + 24, (uint32_t)n);
	dp_buf_add(f, b, 32);
	fix_crc(f);
}

static size_t find(const struct chunk *c, size_t n, uint32_t id)
{
	for (size_t i = 0; i < n; i++) {
		if (c[i].id == id)
			return i;
	}
	return n;
}

/* Replaces the leading count of a payload (one byte in the sample) by @bytes. */
static void replace_count(struct chunk *c, const uint8_t *bytes, size_t n)
{
	memmove(c->data + n, c->data + 1, c->len - 1);
	memcpy(c->data, bytes, n);
	c->len = c->len - 1 + n;
}

TEST(builder_matches_writer)
{
	struct dp_buf f, g;
	struct chunk c[8];
	size_t off[8], n;

	sample_file(&f, ALL_FEAT);
	n = split(&f, c);
	CHECK_EQ(n, 8);
	build(&g, ALL_FEAT, c, n, off);
	CHECK(f.len == g.len && memcmp(f.data, g.data, f.len) == 0);
	dp_buf_release(&f);
	dp_buf_release(&g);
}

TEST(bad_varints_and_counts)
{
	static const uint8_t noncanon[] = {0x80, 0x88};
	static const uint8_t over64[] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
					 0xFF, 0xFF, 0xFF, 0xFF, 0x01};
	static const uint8_t huge[] = {0x83, 0xAB, 0x9F, 0x40}; /* 7,000,000 */
	struct dp_buf f, g;
	struct chunk c[8];
	size_t off[8], n, k;

	sample_file(&f, ALL_FEAT);
	n = split(&f, c);
	k = find(c, n, DP_CHUNK_PSTA);
	c[k].data[0] = 0x80; /* count "08" with a leading zero group */
	replace_count(&c[k], noncanon, 2);
	build(&g, ALL_FEAT, c, n, off);
	EXPECT(g.data, g.len,
	       "t: non-canonical number (leading zero group) in record count of "
	       "PSTA chunk at byte %zu",
	       off[k]);
	dp_buf_release(&g);

	n = split(&f, c);
	replace_count(&c[k], over64, sizeof(over64));
	build(&g, ALL_FEAT, c, n, off);
	EXPECT(g.data, g.len, "t: number over 64 bits in record count of PSTA chunk at byte %zu",
	       off[k]);
	dp_buf_release(&g);

	n = split(&f, c);
	replace_count(&c[k], huge, sizeof(huge));
	build(&g, ALL_FEAT, c, n, off);
	EXPECT(g.data, g.len,
	       "t: record count 7000000 in PSTA chunk needs at least 3 bytes per "
	       "record but only %zu bytes are left at byte %zu",
	       c[k].len - 4, off[k]);
	dp_buf_release(&g);

	n = split(&f, c);
	k = find(c, n, DP_CHUNK_THRD);
	c[k].data[c[k].len++] = 0;
	build(&g, ALL_FEAT, c, n, off);
	EXPECT(g.data, g.len, "t: 1 trailing bytes in THRD chunk at byte %zu",
	       off[k] + c[k].len - 1);
	dp_buf_release(&g);

	n = split(&f, c);
	k = find(c, n, DP_CHUNK_CSDY);
	c[k].data[c[k].len - 1] |= 0x80; /* the last counter now runs off the end */
	build(&g, ALL_FEAT, c, n, off);
	EXPECT(g.data, g.len, "t: CSDY chunk ends inside its callseqs at byte %zu",
	       off[k] + c[k].len - 1);
	dp_buf_release(&g);
	dp_buf_release(&f);
}

TEST(bad_toc)
{
	struct dp_buf f, g;
	struct chunk c[9];
	size_t off[9], n, toc;

	sample_file(&f, 0);
	n = split(&f, c);
	CHECK_EQ(n, 7);
	/* a duplicate INFO */
	c[n] = c[0];
	build(&g, 0, c, n + 1, off);
	EXPECT(g.data, g.len, "t: chunk INFO appears twice at byte %zu", off[n] - 16);
	dp_buf_release(&g);
	/* an unknown chunk is skipped */
	c[n].id = DP_FMT_ID('X', 'T', 'R', 'A');
	build(&g, 0, c, n + 1, off);
	CHECK(rejected(g.data, g.len) == 0);
	dp_buf_release(&g);
	/* a missing PDYN */
	c[5] = c[n];
	build(&g, 0, c, n, off);
	toc = g.len - 32 - n * 24;
	EXPECT(g.data, g.len, "t: required chunk PDYN is missing at byte %zu", toc);
	dp_buf_release(&g);
	/* overlapping entries: entry 1 points into chunk 0 */
	n = split(&f, c);
	build(&g, 0, c, n, off);
	toc = g.len - 32 - n * 24;
	dp_fmt_put_u64(g.data + toc + 24 + 8, off[0] + 4);
	fix_crc(&g);
	EXPECT(g.data, g.len,
	       "t: TOC entry 1 (THRD) has payload offset %zu but its chunk header "
	       "would be at %zu at byte %zu",
	       off[0] + 4, off[1] - 16, toc + 32);
	/* an entry running over the TOC */
	dp_fmt_put_u64(g.data + toc + 24 + 8, off[1]);
	dp_fmt_put_u64(g.data + toc + 6 * 24 + 16, 100000);
	fix_crc(&g);
	EXPECT(g.data, g.len,
	       "t: chunk CSDY (TOC entry 6) of 100000 bytes overlaps the table of "
	       "contents at byte %zu",
	       toc + 6 * 24 + 16);
	dp_buf_release(&g);
	/* the TOC count disagrees with the TOC offset */
	build(&g, 0, c, n, off);
	dp_fmt_put_u32(g.data + g.len - 8, 6);
	fix_crc(&g);
	EXPECT(g.data, g.len,
	       "t: table of contents at %zu with 6 entries does not end at the "
	       "end record at byte %zu",
	       toc, g.len - 24);
	dp_buf_release(&g);
	/* SYMS without the flag, and the flag without SYMS */
	build(&g, DP_FEAT_SYMBOLIZED, c, n, off);
	EXPECT(g.data, g.len, "t: symbolized flag is set but there is no SYMS chunk at byte 24");
	dp_buf_release(&g);
	dp_buf_release(&f);
}

TEST(bad_header_and_end)
{
	struct dp_buf f;
	struct {
		size_t at;
		uint8_t val;
		const char *msg;
	} cases[] = {
		{0, 'X', "t: not a deepprof data file (bad magic) at byte 0"},
		{8, 0, "t: bad format version 0 at byte 8"},
		{10, 2, "t: bad minimum reader version 2 at byte 10"},
		{12, 16, "t: bad header size 16 at byte 12"},
		{16, 0, "t: bad endianness marker 0x0a0b0c00 at byte 16"},
		{21, 1, "t: reserved header field is not zero at byte 20"},
		{24, 0x09, "t: unknown feature bits 0x8 at byte 24"},
		{31, 0x80, "t: unknown feature bits 0x8000000000000000 at byte 24"},
	};

	sample_file(&f, DP_FEAT_SYMBOLIZED);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t old = f.data[cases[i].at];

		f.data[cases[i].at] = cases[i].val;
		fix_crc(&f);
		expect_msg(f.data, f.len, cases[i].msg, (int)i);
		f.data[cases[i].at] = old;
	}
	/* a newer file this reader cannot read */
	dp_fmt_put_u16(f.data + 8, 3);
	dp_fmt_put_u16(f.data + 10, 2);
	EXPECT(f.data, f.len,
	       "t: file needs reader version 2 or newer (this reader is version "
	       "1) at byte 10");
	dp_fmt_put_u16(f.data + 8, 1);
	dp_fmt_put_u16(f.data + 10, 1);
	fix_crc(&f);
	CHECK(rejected(f.data, f.len) == 0);
	dp_fmt_put_u64(f.data + f.len - 16, f.len + 1);
	EXPECT(f.data, f.len,
	       "t: end record says the file has %zu bytes but it has %zu at byte "
	       "%zu",
	       f.len + 1, f.len, f.len - 16);
	dp_fmt_put_u64(f.data + f.len - 16, f.len);
	f.data[40] ^= 1;
	EXPECT(f.data, f.len, "t: checksum mismatch (stored 0x%08x, computed 0x%08x) at byte %zu",
	       (unsigned)dp_fmt_get_u32(f.data + f.len - 4),
	       (unsigned)crc32(0L, f.data, (uInt)(f.len - 4)), f.len - 4);
	dp_buf_release(&f);
}

/* The offset of the first byte where @a and @b differ (equal lengths). */
static size_t first_diff(const struct dp_buf *a, const struct dp_buf *b)
{
	size_t i = 0;

	while (i < a->len && i < b->len && a->data[i] == b->data[i])
		i++;
	return i;
}

/*
 * Writes the sample twice, once with @mutate(p, 0) (a valid value of the same encoded
 * size, locating the field) and once with @mutate(p, 1) (the bad value): the bad file
 * must be rejected with @msg + " at byte " + the field's offset.
 */
static void bad_field_at(void (*mutate)(struct dp_profile *, int), const char *msg, size_t at,
			 int line)
{
	struct dp_profile p;
	struct dp_buf good, bad;
	char full[512];

	dp_buf_init(&good, 1 << 20);
	dp_buf_init(&bad, 1 << 20);
	CHECK_EQ(dp_sample_profile(&p, ALL_FEAT), 0);
	mutate(&p, 0);
	CHECK_EQ(dp_write_buffer(&p, &good), 0);
	mutate(&p, 1);
	CHECK_EQ(dp_write_buffer(&p, &bad), 0);
	snprintf(full, sizeof(full), "t: %s at byte %zu", msg, at ? at : first_diff(&good, &bad));
	expect_msg(bad.data, bad.len, full, line);
	dp_profile_release(&p);
	dp_buf_release(&good);
	dp_buf_release(&bad);
}

static void bad_field(void (*mutate)(struct dp_profile *, int), const char *msg, int line)
{
	bad_field_at(mutate, msg, 0, line);
}

static void m_callee(struct dp_profile *p, int bad)
{
	p->csd[3].callee = bad ? 99 : 7;
}
static void m_caller(struct dp_profile *p, int bad)
{
	p->csd[2].caller = bad ? 0 : 3;
	p->csd[2].css = 2;
}
static void m_css_ps(struct dp_profile *p, int bad)
{
	p->csd[4].css = bad ? 4 : 6;
}
static void m_ps_kind(struct dp_profile *p, int bad)
{
	p->ps[4].kind = bad ? 7 : 0;
}
static void m_css_kind(struct dp_profile *p, int bad)
{
	p->css[2].kind = bad ? DP_CSS_KIND_FILE_MAX + 1 : 5;
}
static void m_pcs_csd(struct dp_profile *p, int bad)
{
	static struct dp_pcs r;

	r = (struct dp_pcs){
		.csd = bad ? DP_SAMPLE_N_CSD + 1 : DP_SAMPLE_N_CSD, .pc = 77, .samples = 1};
	p->has_pcs = true;
	p->n_pcs = 1;
	p->pcs = &r;
}
static void m_root(struct dp_profile *p, int bad)
{
	p->ps[1].kind = bad ? DP_PS_THREAD : DP_PS_ROOT;
}
static void m_thread_root(struct dp_profile *p, int bad)
{
	p->threads[2].root_pd = bad ? 6 : 3;
}
static void m_pd_thread(struct dp_profile *p, int bad)
{
	p->pd[7].thread = bad ? 0 : 1;
}
static void m_pd_ps(struct dp_profile *p, int bad)
{
	p->pd[6].ps = bad ? 9 : 5;
}
static void m_sym_str(struct dp_profile *p, int bad)
{
	p->css[5].callee_ps = bad ? 100 : 0;
}
static void m_linkage(struct dp_profile *p, int bad)
{
	p->ps[5].linkage = bad ? 4 : 1;
}
static void m_object(struct dp_profile *p, int bad)
{
	p->ps[6].object = bad ? 3 : 2;
}
static void m_flags(struct dp_profile *p, int bad)
{
	p->threads[1].flags = bad ? 0x10 : 0x6;
}
static void m_cov(struct dp_profile *p, int bad)
{
	p->pd[9].n_cp = bad ? 2 : 3;
}

TEST(bad_ids_kinds_links)
{
	bad_field(m_callee, "CSD 3 has callee PD 99 but there are 9 PDs", __LINE__);
	bad_field(m_caller, "CSD 2 has caller PD 0 but there are 9 PDs", __LINE__);
	bad_field(m_css_ps, "CSD 4 has CSS 4 of PS 4 but its caller PD 4 has PS 3", __LINE__);
	bad_field(m_ps_kind, "PS 4 has bad kind 7", __LINE__);
	bad_field(m_css_kind, "CSS 2 has bad kind 10", __LINE__);
	bad_field(m_pcs_csd, "sampled PC 1 has csd 11 but there are 10 CSDs", __LINE__);
	/* reported at INFO's root_pd: after the 32-byte header, INFO's 16-byte chunk header
	 * and the four one-byte node counts */
	bad_field_at(m_root, "root PD 1 has a PS of kind 2 (must be 1, root)", 32 + 16 + 4,
		     __LINE__);
	bad_field(m_pd_thread, "PD 7 has no thread but is not the root PD", __LINE__);
	bad_field(m_pd_ps, "PD 6 has ps 9 but there are 8 PSs", __LINE__);
	bad_field(m_sym_str, "CSS 5 has callee_ps 100 but there are 8 PSs", __LINE__);
	bad_field(m_linkage, "PS 5 has bad linkage 4", __LINE__);
	bad_field(m_object, "PS 6 has object 3 but there are 2 objects", __LINE__);
	bad_field(m_flags, "thread 1 has unknown flags 0x10", __LINE__);
}

TEST(bad_root_links)
{
	struct dp_profile p;
	struct dp_buf f;

	/* the offending field is THRD's root_pd of thread 2; locate it by diffing */
	bad_field(m_thread_root, "thread 2 has root PD 6 whose PS has kind 0 (must be 2, thread)",
		  __LINE__);
	/* PD 9 has 2 coverage counts but fib has 3 points: the error is at PD 9's n_cp */
	CHECK_EQ(dp_sample_profile(&p, ALL_FEAT), 0);
	dp_buf_init(&f, 1 << 20);
	m_cov(&p, 1);
	CHECK_EQ(dp_write_buffer(&p, &f), 0);
	CHECK(rejected(f.data, f.len));
	CHECK(strstr(dp_errmsg(), "t: PD 9 has 2 coverage counts but its PS 4 has 3 points at "
				  "byte ") != NULL);
	dp_profile_release(&p);
	dp_buf_release(&f);
}

DP_TEST_MAIN(test_truncated_everywhere, test_bit_flips_everywhere, test_builder_matches_writer,
	     test_bad_varints_and_counts, test_bad_toc, test_bad_header_and_end,
	     test_bad_ids_kinds_links, test_bad_root_links)
