/*
 * tests/fuzz/fuzz_reader.c - libFuzzer target for the data-file reader: any input must be
 * accepted or rejected cleanly; an accepted one must also render (JSON, text) and survive
 * a write -> read round trip (so the writer never produces what the reader refuses).
 * Each input is read twice: as is, and with its end record's size and CRC made to match,
 * so that mutations reach the payload parsers instead of stopping at the checksum.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/buf.h"
#include "deepprof/format.h"
#include "format/dump.h"
#include "format/reader.h"
#include "format/writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_one(const uint8_t *data, size_t size)
{
	struct dp_profile p, q;
	struct dp_buf b, c;

	if (dp_read_buffer(data, size, "fuzz", &p) < 0)
		return;
	dp_buf_init(&b, (size_t)256 << 20);
	if (dp_write_buffer(&p, &b) < 0 || dp_read_buffer(b.data, b.len, "rewritten", &q) < 0) {
		fprintf(stderr, "accepted input does not round-trip\n");
		abort();
	}
	/* the writer is canonical: what it wrote, read and written again, is the same bytes */
	dp_buf_init(&c, (size_t)256 << 20);
	if (dp_write_buffer(&q, &c) < 0 || c.len != b.len || memcmp(c.data, b.data, b.len) != 0) {
		fprintf(stderr, "rewriting a rewritten profile changed its bytes\n");
		abort();
	}
	dp_buf_release(&c);
	dp_profile_release(&q);
	dp_buf_reset(&b);
	if (dp_dump_json(&p, &b, NULL, NULL) < 0)
		abort();
	dp_buf_reset(&b);
	if (dp_dump_text(&p, "fuzz", &b, NULL, NULL) < 0)
		abort();
	dp_buf_release(&b);
	dp_profile_release(&p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *fixed;

	check_one(data, size);
	if (size < DP_FMT_HEADER_SIZE + DP_FMT_END_SIZE ||
	    memcmp(data + size - DP_FMT_END_SIZE, DP_FMT_END_MAGIC, 8) != 0)
		return 0;
	fixed = malloc(size);
	if (!fixed)
		return 0;
	memcpy(fixed, data, size);
	dp_fmt_put_u64(fixed + size - 16, size);
	dp_fmt_put_u32(fixed + size - 4, (uint32_t)crc32(0L, fixed, (uInt)(size - 4)));
	check_one(fixed, size);
	free(fixed);
	return 0;
}
