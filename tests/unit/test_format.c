/*
 * tests/unit/test_format.c - the format codecs (varints at their edges, fixed-width
 * fields, CRC-32) and the writer/reader round trip: a profile using every feature is
 * written, read back and compared field by field, and rewriting gives the same bytes.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/err.h"
#include "deepprof/format.h"
#include "format/reader.h"
#include "format/writer.h"
#include "harness.h"
#include "sample_profile.h"

static size_t enc(uint64_t v, uint8_t *out)
{
	return dp_fmt_put_varint(out, v);
}

TEST(varint_golden)
{
	uint8_t b[DP_VARINT_MAX];
	uint64_t v = 1;

	CHECK_EQ(enc(0, b), 1);
	CHECK_EQ(b[0], 0x00);
	CHECK_EQ(enc(127, b), 1);
	CHECK_EQ(b[0], 0x7F);
	CHECK_EQ(enc(128, b), 2);
	CHECK(b[0] == 0x81 && b[1] == 0x00);
	CHECK_EQ(enc(300, b), 2);
	CHECK(b[0] == 0x82 && b[1] == 0x2C);
	CHECK_EQ(enc((uint64_t)1 << 63, b), 10);
	CHECK(b[0] == 0x81 && b[1] == 0x80 && b[8] == 0x80 && b[9] == 0x00);
	CHECK_EQ(enc(UINT64_MAX, b), 10);
	CHECK(b[0] == 0x81 && b[1] == 0xFF && b[8] == 0xFF && b[9] == 0x7F);
	CHECK_EQ(dp_fmt_get_varint(b, b + 10, &v), 10);
	CHECK_EQ(v, UINT64_MAX);
}

TEST(varint_roundtrip_sizes)
{
	uint8_t b[DP_VARINT_MAX];

	for (int bit = 0; bit < 64; bit++) {
		uint64_t vals[3] = {(uint64_t)1 << bit, ((uint64_t)1 << bit) - 1,
				    ((uint64_t)1 << bit) | 0x55};

		for (int k = 0; k < 3; k++) {
			uint64_t got = ~vals[k];
			size_t n = enc(vals[k], b);

			CHECK_EQ(n, dp_fmt_varint_size(vals[k]));
			CHECK_EQ(n, vals[k] ? (size_t)(64 - __builtin_clzll(vals[k]) + 6) / 7 : 1);
			CHECK_EQ(dp_fmt_get_varint(b, b + n, &got), n);
			CHECK_EQ(got, vals[k]);
			/* every strict prefix is "truncated" */
			for (size_t cut = 0; cut < n; cut++)
				CHECK_EQ(dp_fmt_get_varint(b, b + cut, &got), 0);
		}
	}
}

TEST(varint_invalid)
{
	static const uint8_t noncanon[] = {0x80, 0x01};
	static const uint8_t noncanon0[] = {0x80, 0x00};
	static const uint8_t over64[] = {0x82, 0x80, 0x80, 0x80, 0x80,
					 0x80, 0x80, 0x80, 0x80, 0x00}; /* 2^64 */
	static const uint8_t eleven[] = {0x81, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
					 0xFF, 0xFF, 0xFF, 0xFF, 0x7F};
	static const uint8_t trunc[] = {0x81, 0xFF};
	uint64_t v = 42;

	CHECK_EQ(dp_fmt_get_varint(noncanon, noncanon + 2, &v), (size_t)-1);
	CHECK_EQ(dp_fmt_get_varint(noncanon0, noncanon0 + 2, &v), (size_t)-1);
	CHECK_EQ(dp_fmt_get_varint(over64, over64 + sizeof(over64), &v), (size_t)-1);
	CHECK_EQ(dp_fmt_get_varint(eleven, eleven + sizeof(eleven), &v), (size_t)-1);
	CHECK_EQ(dp_fmt_get_varint(trunc, trunc + 2, &v), 0);
	CHECK_EQ(dp_fmt_get_varint(trunc, trunc, &v), 0);
	CHECK_EQ(v, 42); /* untouched on failure */
}

TEST(fixed_and_crc)
{
	uint8_t b[8];
	static const uint8_t check[] = "123456789";

	dp_fmt_put_u16(b, 0x1234);
	CHECK(b[0] == 0x34 && b[1] == 0x12);
	CHECK_EQ(dp_fmt_get_u16(b), 0x1234);
	dp_fmt_put_u32(b, DP_FMT_ENDIAN_MARK);
	CHECK(b[0] == 0x0D && b[1] == 0x0C && b[2] == 0x0B && b[3] == 0x0A);
	CHECK_EQ(dp_fmt_get_u32(b), DP_FMT_ENDIAN_MARK);
	dp_fmt_put_u64(b, 0x0102030405060708u);
	CHECK(b[0] == 0x08 && b[7] == 0x01);
	CHECK_EQ(dp_fmt_get_u64(b), 0x0102030405060708u);
	CHECK_EQ(dp_fmt_crc32(0, check, 9), 0xCBF43926u);
	CHECK_EQ(crc32(0L, check, 9), 0xCBF43926u);
	CHECK_EQ(dp_fmt_crc32(dp_fmt_crc32(0, check, 4), check + 4, 5), 0xCBF43926u);
}

static void check_str(const struct dp_profile *a, uint32_t ia, const struct dp_profile *b,
		      uint32_t ib)
{
	CHECK_STR(dp_profile_str(a, ia), dp_profile_str(b, ib));
}

static void check_run(const struct dp_profile *a, const struct dp_profile *b)
{
	CHECK_EQ(a->version, b->version);
	CHECK_EQ(a->elf_machine, b->elf_machine);
	CHECK_EQ(a->features, b->features);
	CHECK_EQ(a->root_pd, b->root_pd);
	CHECK_EQ(a->sample_period_ns, b->sample_period_ns);
	CHECK_EQ(a->hz, b->hz);
	CHECK_EQ(a->samples_inside, b->samples_inside);
	CHECK_EQ(a->samples_outside, b->samples_outside);
	CHECK_EQ(a->total_callseqs, b->total_callseqs);
	CHECK_EQ(a->lost_calls, b->lost_calls);
	CHECK_EQ(a->lost_samples, b->lost_samples);
	CHECK_EQ(a->lost_allocs, b->lost_allocs);
	check_str(a, a->stop_reason, b, b->stop_reason);
	check_str(a, a->program, b, b->program);
	CHECK_EQ(a->argc, b->argc);
	for (uint32_t i = 0; i < a->argc && i < b->argc; i++)
		check_str(a, a->argv[i], b, b->argv[i]);
	CHECK_EQ(a->pid, b->pid);
	CHECK_EQ(a->ppid, b->ppid);
	CHECK_EQ(a->start_ns, b->start_ns);
	CHECK_EQ(a->end_ns, b->end_ns);
	CHECK_EQ(a->exit_status, b->exit_status);
	CHECK_EQ(a->n_threads, b->n_threads);
	for (uint32_t i = 1; i <= a->n_threads && i <= b->n_threads; i++) {
		const struct dp_thread *x = &a->threads[i], *y = &b->threads[i];

		CHECK_EQ(x->tid, y->tid);
		check_str(a, x->name, b, y->name);
		CHECK_EQ(x->root_pd, y->root_pd);
		CHECK_EQ(x->start_ns, y->start_ns);
		CHECK_EQ(x->end_ns, y->end_ns);
		CHECK_EQ(x->samples_inside, y->samples_inside);
		CHECK_EQ(x->flags, y->flags);
	}
}

static void check_objects(const struct dp_profile *a, const struct dp_profile *b)
{
	CHECK_EQ(a->n_objects, b->n_objects);
	CHECK_EQ(a->n_segs, b->n_segs);
	for (uint32_t i = 1; i <= a->n_objects && i <= b->n_objects; i++) {
		const struct dp_object *x = &a->objects[i], *y = &b->objects[i];

		check_str(a, x->path, b, y->path);
		CHECK_EQ(x->bias, y->bias);
		CHECK_EQ(x->build_id_len, y->build_id_len);
		CHECK_MEM(x->build_id, y->build_id, x->build_id_len);
		CHECK_EQ(x->n_segs, y->n_segs);
		for (uint32_t s = 0; s < x->n_segs && s < y->n_segs; s++) {
			const struct dp_segment *sx = &a->segs[x->first_seg + s];
			const struct dp_segment *sy = &b->segs[y->first_seg + s];

			CHECK_EQ(sx->start, sy->start);
			CHECK_EQ(sx->size, sy->size);
			CHECK_EQ(sx->flags, sy->flags);
		}
	}
}

static void check_static(const struct dp_profile *a, const struct dp_profile *b)
{
	CHECK_EQ(a->n_ps, b->n_ps);
	for (uint32_t id = 1; id <= a->n_ps && id <= b->n_ps; id++) {
		const struct dp_ps *x = &a->ps[id], *y = &b->ps[id];

		CHECK_EQ(x->kind, y->kind);
		CHECK_EQ(x->addr, y->addr);
		check_str(a, x->name, b, y->name);
		check_str(a, x->linkage_name, b, y->linkage_name);
		check_str(a, x->file, b, y->file);
		CHECK_EQ(x->line, y->line);
		CHECK_EQ(x->linkage, y->linkage);
		CHECK_EQ(x->object, y->object);
		CHECK_EQ(x->n_cp, y->n_cp);
		for (uint32_t i = 0; i < x->n_cp && i < y->n_cp; i++) {
			CHECK_EQ(x->cp[i].kind, y->cp[i].kind);
			CHECK_EQ(x->cp[i].line, y->cp[i].line);
		}
	}
	CHECK_EQ(a->n_css, b->n_css);
	for (uint32_t id = 1; id <= a->n_css && id <= b->n_css; id++) {
		const struct dp_css *x = &a->css[id], *y = &b->css[id];

		CHECK_EQ(x->ps, y->ps);
		CHECK_EQ(x->addr, y->addr);
		CHECK_EQ(x->kind, y->kind);
		check_str(a, x->file, b, y->file);
		CHECK_EQ(x->line, y->line);
		CHECK_EQ(x->callee_ps, y->callee_ps);
	}
}

static void check_dynamic(const struct dp_profile *a, const struct dp_profile *b)
{
	CHECK_EQ(a->n_pd, b->n_pd);
	for (uint32_t id = 1; id <= a->n_pd && id <= b->n_pd; id++) {
		const struct dp_pd *x = &a->pd[id], *y = &b->pd[id];

		CHECK_EQ(x->ps, y->ps);
		CHECK_EQ(x->thread, y->thread);
		CHECK_EQ(x->n_cp, y->n_cp);
		for (uint32_t i = 0; i < x->n_cp && i < y->n_cp; i++)
			CHECK_EQ(x->cp[i], y->cp[i]);
	}
	CHECK_EQ(a->n_csd, b->n_csd);
	for (uint32_t id = 1; id <= a->n_csd && id <= b->n_csd; id++) {
		const struct dp_csd *x = &a->csd[id], *y = &b->csd[id];

		CHECK_EQ(x->caller, y->caller);
		CHECK_EQ(x->css, y->css);
		CHECK_EQ(x->callee, y->callee);
		CHECK_EQ(x->calls, y->calls);
		CHECK_EQ(x->exits, y->exits);
		CHECK_EQ(x->unwinds, y->unwinds);
		CHECK_EQ(x->samples, y->samples);
		CHECK_EQ(x->callseqs, y->callseqs);
		CHECK_EQ(x->allocs, y->allocs);
		CHECK_EQ(x->alloc_bytes, y->alloc_bytes);
	}
}

static void check_same(const struct dp_profile *a, const struct dp_profile *b)
{
	check_run(a, b);
	check_objects(a, b);
	check_static(a, b);
	check_dynamic(a, b);
}

static void roundtrip(uint64_t features)
{
	struct dp_profile a, b;
	struct dp_buf f1, f2;

	dp_buf_init(&f1, 1 << 20);
	dp_buf_init(&f2, 1 << 20);
	CHECK_EQ(dp_sample_profile(&a, features), 0);
	CHECK_EQ(dp_write_buffer(&a, &f1), 0);
	if (dp_read_buffer(f1.data, f1.len, "rt", &b) != 0) {
		fprintf(stderr, "round trip read failed: %s\n", dp_errmsg());
		CHECK(0);
	} else {
		check_same(&a, &b);
		CHECK_EQ(b.n_ps, DP_SAMPLE_N_PS);
		CHECK_EQ(b.n_csd, DP_SAMPLE_N_CSD);
		CHECK_EQ(b.csd[8].alloc_bytes, UINT64_MAX);
		CHECK_EQ(dp_write_buffer(&b, &f2), 0);
		CHECK_EQ(f1.len, f2.len);
		CHECK(f1.len == f2.len && memcmp(f1.data, f2.data, f1.len) == 0);
		dp_profile_release(&b);
	}
	dp_profile_release(&a);
	dp_buf_release(&f1);
	dp_buf_release(&f2);
}

TEST(roundtrip_all_features)
{
	roundtrip(0);
	roundtrip(DP_FEAT_SYMBOLIZED);
	roundtrip(DP_FEAT_STOPPED);
	roundtrip(DP_FEAT_COVERAGE);
	roundtrip(DP_FEAT_SYMBOLIZED | DP_FEAT_STOPPED | DP_FEAT_COVERAGE);
}

/* Append one more element to @arr ([1..n] of @size bytes) in @p's arena. */
static void *grow1(struct dp_profile *p, void *arr, uint32_t n, size_t size)
{
	void *na = dp_arena_array(&p->arena, (size_t)n + 2, size);

	CHECK(na != NULL);
	if (na)
		memcpy(na, arr, ((size_t)n + 1) * size);
	return na;
}

/* The sampled PCs (SPCS) and a library leaf (PS and CSS of kind library, with their
 * addresses) are written and read back as they were, byte for byte. */
TEST(roundtrip_sampled_pcs_and_leaves)
{
	struct dp_profile a, b;
	struct dp_buf f1, f2;
	uint32_t ps, css, pd, csd;

	dp_buf_init(&f1, 1 << 20);
	dp_buf_init(&f2, 1 << 20);
	CHECK_EQ(dp_sample_profile(&a, DP_FEAT_SYMBOLIZED), 0);
	a.has_pcs = true;
	a.n_pcs = 2;
	a.pcs = dp_arena_array(&a.arena, 2, sizeof(*a.pcs));
	CHECK(a.pcs != NULL);
	a.pcs[0] = (struct dp_pcs){.csd = 3, .pc = 0x7f0000041000, .samples = 2};
	a.pcs[1] = (struct dp_pcs){.csd = 6, .pc = 0x5555000011a8, .samples = UINT64_MAX};
	a.pcs_missed = 9;
	a.ps = grow1(&a, a.ps, a.n_ps, sizeof(*a.ps));
	a.css = grow1(&a, a.css, a.n_css, sizeof(*a.css));
	a.pd = grow1(&a, a.pd, a.n_pd, sizeof(*a.pd));
	a.csd = grow1(&a, a.csd, a.n_csd, sizeof(*a.csd));
	ps = ++a.n_ps;
	css = ++a.n_css;
	pd = ++a.n_pd;
	csd = ++a.n_csd;
	a.ps[ps] = (struct dp_ps){
		.kind = DP_PS_LIBRARY,
		.addr = 0x7f0000040100,
		.name = (uint32_t)dp_strtab_intern_cstr(&a.strs, "regexec [libc.so.6]"),
		.linkage_name = (uint32_t)dp_strtab_intern_cstr(&a.strs, "regexec"),
		.linkage = DP_LINK_GLOBAL,
		.object = 2};
	a.css[css] = (struct dp_css){
		.ps = 3, .addr = 0x7f0000040100, .kind = DP_CSS_LIBRARY, .callee_ps = ps};
	a.pd[pd] = (struct dp_pd){.ps = ps, .thread = 1};
	a.csd[csd] = (struct dp_csd){.caller = 4, .css = css, .callee = pd, .samples = 4};
	CHECK_EQ(dp_write_buffer(&a, &f1), 0);
	if (dp_read_buffer(f1.data, f1.len, "rt", &b) != 0) {
		fprintf(stderr, "round trip read failed: %s\n", dp_errmsg());
		CHECK(0);
	} else {
		check_same(&a, &b);
		CHECK(b.has_pcs);
		CHECK_EQ(b.n_pcs, 2);
		CHECK_EQ(b.pcs_missed, 9);
		for (uint32_t i = 0; i < 2 && i < b.n_pcs; i++) {
			CHECK_EQ(b.pcs[i].csd, a.pcs[i].csd);
			CHECK_EQ(b.pcs[i].pc, a.pcs[i].pc);
			CHECK_EQ(b.pcs[i].samples, a.pcs[i].samples);
		}
		CHECK_EQ(dp_write_buffer(&b, &f2), 0);
		CHECK(f1.len == f2.len && memcmp(f1.data, f2.data, f1.len) == 0);
		dp_profile_release(&b);
	}
	/* without the chunk, none is read back */
	CHECK_EQ(dp_sample_profile(&b, 0), 0);
	dp_buf_reset(&f2);
	CHECK_EQ(dp_write_buffer(&b, &f2), 0);
	dp_profile_release(&b);
	CHECK_EQ(dp_read_buffer(f2.data, f2.len, "rt", &b), 0);
	CHECK(!b.has_pcs && b.n_pcs == 0 && b.pcs_missed == 0);
	dp_profile_release(&b);
	dp_profile_release(&a);
	dp_buf_release(&f1);
	dp_buf_release(&f2);
}

TEST(layout_golden)
{
	struct dp_profile a;
	struct dp_buf f;
	size_t e;

	dp_buf_init(&f, 1 << 20);
	CHECK_EQ(dp_sample_profile(&a, DP_FEAT_SYMBOLIZED), 0);
	CHECK_EQ(dp_write_buffer(&a, &f), 0);
	e = f.len - DP_FMT_END_SIZE;
	CHECK_MEM(f.data, "DEEPPROF", 8);
	CHECK_EQ(dp_fmt_get_u16(f.data + 8), 1);
	CHECK_EQ(dp_fmt_get_u16(f.data + 12), 32);
	CHECK_EQ(dp_fmt_get_u16(f.data + 14), 62);
	CHECK_EQ(dp_fmt_get_u64(f.data + 24), DP_FEAT_SYMBOLIZED);
	CHECK_EQ(dp_fmt_get_u32(f.data + 32), DP_CHUNK_INFO); /* first chunk right after */
	CHECK_MEM(f.data + e, "DPEND\0\0\1", 8);
	CHECK_EQ(dp_fmt_get_u64(f.data + e + 16), f.len);
	CHECK_EQ(dp_fmt_get_u32(f.data + e + 24), 8); /* 7 required chunks + SYMS */
	CHECK_EQ(dp_fmt_get_u64(f.data + e + 8), e - 8 * DP_FMT_TOC_ENTRY_SIZE);
	CHECK_EQ(dp_fmt_get_u32(f.data + e + 28), crc32(0L, f.data, (uInt)(e + 28)));
	dp_profile_release(&a);
	dp_buf_release(&f);
}

static int count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		n += de->d_name[0] != '.';
	if (d)
		closedir(d);
	return n;
}

TEST(write_file_atomic)
{
	char dir[] = "/tmp/dp-test-format-XXXXXX", path[64];
	struct dp_profile a, b, c;
	struct stat st1, st2;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/Deep.data", dir);
	CHECK_EQ(dp_sample_profile(&a, DP_FEAT_SYMBOLIZED | DP_FEAT_COVERAGE), 0);
	CHECK_EQ(dp_write_file(&a, path), 0);
	CHECK_EQ(count_entries(dir), 1); /* no temporary left behind */
	CHECK_EQ(dp_read_file(path, &b), 0);
	check_same(&a, &b);
	dp_profile_release(&b);
	/* an inconsistent profile never replaces the good file */
	CHECK_EQ(stat(path, &st1), 0);
	a.csd[4].css = 4; /* CSS 4 belongs to fib (PS 4), the caller PD 4 is main's */
	CHECK_EQ(dp_write_file(&a, path), -DP_EFORMAT);
	CHECK(strstr(dp_errmsg(), "Deep.data (as written): CSD 4 has CSS 4 of PS 4 but its "
				  "caller PD 4 has PS 3 at byte ") != NULL);
	CHECK_EQ(stat(path, &st2), 0);
	CHECK_EQ(st1.st_size, st2.st_size);
	CHECK_EQ(st1.st_ino, st2.st_ino);
	CHECK_EQ(count_entries(dir), 1);
	/* a missing directory is an I/O error and leaves nothing */
	a.csd[4].css = 3;
	CHECK_EQ(dp_write_file(&a, "/nonexistent-dir/x/Deep.data"), -DP_EIO);
	CHECK_EQ(dp_read_file("/nonexistent-dir/x/Deep.data", &c), -DP_ENOENT);
	CHECK(strstr(dp_errmsg(), "/nonexistent-dir/x/Deep.data: cannot open") != NULL);
	CHECK_EQ(dp_read_file(dir, &c), -DP_EIO); /* a directory */
	unlink(path);
	rmdir(dir);
	dp_profile_release(&a);
}

DP_TEST_MAIN(test_varint_golden, test_varint_roundtrip_sizes, test_varint_invalid,
	     test_fixed_and_crc, test_roundtrip_all_features, test_roundtrip_sampled_pcs_and_leaves,
	     test_layout_golden, test_write_file_atomic)
