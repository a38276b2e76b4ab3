/*
 * tests/fuzz/fuzz_import.c - libFuzzer targets for the importers (src/import), one
 * executable per format (DP_FUZZ_FROM: fuzz_import_folded, _perf, _pprof, _uftrace): any
 * input must be imported or rejected cleanly ("INPUT: position: problem"), and an
 * imported profile must pass the writer's read-back check (dp_write_buffer + the reader)
 * and render as JSON. uftrace inputs are "SYMBOLS\n#DAT\nRECORDS" (or only RECORDS):
 * written as prog.sym and 1.dat into a record directory whose info, task.txt and map
 * are fixed (fuzz_import_uftrace_dir()).
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include "fuzz_import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/err.h"
#include "format/dump.h"
#include "format/reader.h"
#include "format/writer.h"
#include "import/import.h"

int dp_fuzz_import_one(enum dp_import_from from, const char *name, const uint8_t *data, size_t size,
		       const char *dir)
{
	struct dp_import_opts o = {.from = from, .input = name, .data = data, .len = size};
	struct dp_profile p, q;
	struct dp_buf b;
	int rc;

	if (from == DP_IMPORT_UFTRACE) {
		if (dp_fuzz_uftrace_dir(dir, data, size) < 0)
			return -1;
		o.input = dir;
		o.data = NULL;
	}
	rc = dp_import(&o, &p);
	if (rc < 0) {
		if (!strstr(dp_errmsg(), o.input) || !*dp_errmsg()) {
			fprintf(stderr, "rejected without naming the input: %s\n", dp_errmsg());
			abort();
		}
		return 1;
	}
	dp_buf_init(&b, (size_t)256 << 20);
	if (dp_write_buffer(&p, &b) < 0 || dp_read_buffer(b.data, b.len, "imported", &q) < 0) {
		fprintf(stderr, "imported profile is not a valid data file: %s\n", dp_errmsg());
		abort();
	}
	dp_profile_release(&q);
	dp_buf_reset(&b);
	if (dp_dump_json(&p, &b, NULL, NULL) < 0)
		abort();
	dp_buf_release(&b);
	dp_profile_release(&p);
	return 0;
}

static int put(const char *dir, const char *name, const void *data, size_t len)
{
	char path[4096];
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f)
		return -1;
	if (len && fwrite(data, 1, len, f) != len)
		rc = -1;
	if (fclose(f) != 0)
		rc = -1;
	return rc;
}

int dp_fuzz_uftrace_dir(const char *dir, const uint8_t *data, size_t size)
{
	static const char task[] = "SESS timestamp=1.0 pid=1 sid=0123456789abcdef "
				   "exename=\"/x/prog\"\nTASK timestamp=1.0 tid=1 pid=1\n";
	static const char map[] = "00001000-00009000 r-xp 00000000 00:00 0 /x/prog\n";
	static const char sym[] = "0000000000000100 T main\n0000000000000200 T work\n"
				  "0000000000000300 t fib\n";
	uint8_t info[64] = "Ftrace!";
	const uint8_t *mark = NULL;

	for (size_t i = 0; i + 6 <= size && !mark; i++) {
		if (memcmp(data + i, "\n#DAT\n", 6) == 0)
			mark = data + i;
	}
	info[8] = 4;	   /* version */
	info[12] = 40;	   /* header size */
	info[14] = 1;	   /* little-endian */
	info[15] = 2;	   /* 64-bit */
	info[16] = 1 << 5; /* SYM_REL_ADDR */
	memcpy(info + 40, "exename:/x/prog\n", 16);
	if (put(dir, "info", info, 56) < 0 || put(dir, "task.txt", task, sizeof(task) - 1) < 0 ||
	    put(dir, "sid-0123456789abcdef.map", map, sizeof(map) - 1) < 0)
		return -1;
	if (mark)
		return put(dir, "prog.sym", data, (size_t)(mark - data)) |
		       put(dir, "1.dat", mark + 6, size - (size_t)(mark + 6 - data));
	return put(dir, "prog.sym", sym, sizeof(sym) - 1) | put(dir, "1.dat", data, size);
}

#ifdef DP_FUZZ_FROM
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char dir[64];

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/dp-fuzz-uftrace.XXXXXX");
		if (!mkdtemp(dir))
			abort();
	}
	dp_fuzz_import_one(DP_FUZZ_FROM, "fuzz", data, size, dir);
	return 0;
}
#endif
