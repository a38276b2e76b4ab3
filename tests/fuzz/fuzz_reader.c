/*
 * tests/fuzz/fuzz_reader.c - libFuzzer target for the data-file reader: any input must be
 * accepted or rejected cleanly; an accepted one must also render (JSON, text) and survive
 * a write -> read round trip (so the writer never produces what the reader refuses).
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/buf.h"
#include "format/dump.h"
#include "format/reader.h"
#include "format/writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dp_profile p, q;
	struct dp_buf b;

	if (dp_read_buffer(data, size, "fuzz", &p) < 0)
		return 0;
	dp_buf_init(&b, (size_t)256 << 20);
	if (dp_write_buffer(&p, &b) < 0 || dp_read_buffer(b.data, b.len, "rewritten", &q) < 0) {
		fprintf(stderr, "accepted input does not round-trip\n");
		abort();
	}
	dp_profile_release(&q);
	dp_buf_reset(&b);
	if (dp_dump_json(&p, &b, NULL, NULL) < 0)
		abort();
	dp_buf_reset(&b);
	if (dp_dump_text(&p, "fuzz", &b, NULL, NULL) < 0)
		abort();
	dp_buf_release(&b);
	dp_profile_release(&p);
	return 0;
}
