/*
 * format/reader.c - the reader's entry points: file input, the container checks
 * (header, end record, checksum, table of contents, chunk headers) and the field
 * cursor shared by the chunk parsers. Payloads are parsed in reader_chunks.c and
 * reader_syms.c. Nothing is trusted before it is checked (the checksum, computed on a
 * second thread while the chunks are parsed, decides before anything is returned).
 */
#define _DEFAULT_SOURCE /* O_CLOEXEC, fsync, strdup */

#include "reader.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "reader_int.h"

static const uint32_t chunk_ids[DP_RD_N_CHUNKS] = {
	DP_CHUNK_INFO, DP_CHUNK_THRD, DP_CHUNK_OBJS, DP_CHUNK_PSTA, DP_CHUNK_CSST,
	DP_CHUNK_PDYN, DP_CHUNK_CSDY, DP_CHUNK_SYMS, DP_CHUNK_ORIG, DP_CHUNK_SPCS,
};

int dp_rd_fail(struct dp_rd *rd, size_t at, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return dp_error(DP_EFORMAT, "%s: %s at byte %zu", rd->name, msg, at);
}

int dp_rd_num_slow(struct dp_cur *c, uint64_t *v, const char *what)
{
	const uint8_t *p = c->rd->data + c->pos, *end = c->rd->data + c->end;
	size_t n;

	if (c->pos >= c->end)
		return dp_rd_fail(c->rd, c->pos, "%s chunk ends before its %s", c->chunk, what);
	n = dp_fmt_get_varint(p, end, v);
	if (n == 0)
		return dp_rd_fail(c->rd, c->pos, "%s chunk ends inside its %s", c->chunk, what);
	if (n == (size_t)-1 && *p == 0x80)
		return dp_rd_fail(c->rd, c->pos,
				  "non-canonical number (leading zero group) in %s "
				  "of %s chunk",
				  what, c->chunk);
	if (n == (size_t)-1)
		return dp_rd_fail(c->rd, c->pos, "number over 64 bits in %s of %s chunk", what,
				  c->chunk);
	c->pos += n;
	return 0;
}

int dp_rd_u32(struct dp_cur *c, uint32_t *v, const char *what)
{
	size_t at = c->pos;
	uint64_t x = 0;
	int rc = dp_rd_num(c, &x, what);

	if (rc < 0)
		return rc;
	if (x >= UINT32_MAX)
		return dp_rd_fail(c->rd, at, "%s %" PRIu64 " in %s chunk is too large", what, x,
				  c->chunk);
	*v = (uint32_t)x;
	return 0;
}

int dp_rd_count(struct dp_cur *c, uint32_t *n, size_t min_bytes, const char *what)
{
	size_t at = c->pos, left;
	int rc = dp_rd_u32(c, n, what);

	if (rc < 0)
		return rc;
	left = c->end - c->pos;
	if (min_bytes && *n > left / min_bytes)
		return dp_rd_fail(c->rd, at,
				  "%s %" PRIu32 " in %s chunk needs at least %zu bytes "
				  "per record but only %zu bytes are left",
				  what, *n, c->chunk, min_bytes, left);
	return 0;
}

int dp_rd_bytes(struct dp_cur *c, const uint8_t **s, size_t *len, const char *what)
{
	size_t at = c->pos;
	uint64_t n = 0;
	int rc = dp_rd_num(c, &n, what);

	if (rc < 0)
		return rc;
	if (n > c->end - c->pos)
		return dp_rd_fail(c->rd, at,
				  "%s of %" PRIu64 " bytes runs past the end of the %s "
				  "chunk",
				  what, n, c->chunk);
	*s = c->rd->data + c->pos;
	*len = (size_t)n;
	c->pos += (size_t)n;
	return 0;
}

int dp_rd_str(struct dp_cur *c, uint32_t *id, const char *what)
{
	const uint8_t *s = NULL;
	size_t len = 0;
	int64_t r;
	int rc = dp_rd_bytes(c, &s, &len, what);

	if (rc < 0)
		return rc;
	r = dp_strtab_intern(&c->rd->p->strs, (const char *)s, len);
	if (r < 0)
		return (int)r;
	*id = (uint32_t)r;
	return 0;
}

int dp_rd_id_slow(struct dp_cur *c, uint32_t *id, uint32_t lo, uint32_t n, const char *who,
		  uint32_t who_id, const char *field, const char *plural)
{
	size_t at = c->pos;
	uint64_t v = 0;
	int rc = dp_rd_num_slow(c, &v, field);

	if (rc < 0)
		return rc;
	if ((v < lo || v > n) && who_id == 0)
		return dp_rd_fail(c->rd, at, "%s has %s %" PRIu64 " but there are %" PRIu32 " %s",
				  who, field, v, n, plural);
	if (v < lo || v > n)
		return dp_rd_fail(c->rd, at,
				  "%s %" PRIu32 " has %s %" PRIu64 " but there are %" PRIu32 " %s",
				  who, who_id, field, v, n, plural);
	*id = (uint32_t)v;
	return 0;
}

int dp_rd_end(struct dp_cur *c)
{
	if (c->pos != c->end)
		return dp_rd_fail(c->rd, c->pos, "%zu trailing bytes in %s chunk", c->end - c->pos,
				  c->chunk);
	return 0;
}

void *dp_rd_alloc(struct dp_rd *rd, size_t n, size_t size)
{
	void *a = dp_arena_array(&rd->p->arena, n, size);

	if (!a)
		dp_error(DP_ENOMEM, "%s: out of memory for %zu records", rd->name, n);
	return a;
}

/* Writes a chunk id as four printable characters. */
static const char *chunk_name(uint32_t id, char out[5])
{
	for (int i = 0; i < 4; i++) {
		uint8_t ch = (uint8_t)(id >> (8 * i));

		out[i] = (char)(ch >= 0x20 && ch < 0x7F ? ch : '?');
	}
	out[4] = 0;
	return out;
}

static int check_header(struct dp_rd *rd, size_t *header_size)
{
	const uint8_t *d = rd->data;
	uint16_t version, min_reader, hsize;
	uint64_t feat;

	if (rd->size < 8 && (rd->size == 0 || memcmp(d, DP_FMT_MAGIC, rd->size) == 0))
		return dp_rd_fail(rd, rd->size, "file truncated (no header)");
	if (rd->size < 8 || memcmp(d, DP_FMT_MAGIC, 8) != 0)
		return dp_rd_fail(rd, 0, "not a deepprof data file (bad magic)");
	if (rd->size < DP_FMT_HEADER_SIZE)
		return dp_rd_fail(rd, rd->size, "file truncated (no header)");
	version = dp_fmt_get_u16(d + 8);
	min_reader = dp_fmt_get_u16(d + 10);
	hsize = dp_fmt_get_u16(d + 12);
	if (version < 1)
		return dp_rd_fail(rd, 8, "bad format version %u", version);
	if (min_reader < 1 || min_reader > version)
		return dp_rd_fail(rd, 10, "bad minimum reader version %u", min_reader);
	if (min_reader > DP_FMT_VERSION)
		return dp_rd_fail(rd, 10,
				  "file needs reader version %u or newer (this reader is "
				  "version %u)",
				  min_reader, DP_FMT_VERSION);
	if (hsize < DP_FMT_HEADER_SIZE)
		return dp_rd_fail(rd, 12, "bad header size %u", hsize);
	if (dp_fmt_get_u32(d + 16) != DP_FMT_ENDIAN_MARK)
		return dp_rd_fail(rd, 16, "bad endianness marker 0x%08" PRIx32,
				  dp_fmt_get_u32(d + 16));
	if (dp_fmt_get_u32(d + 20) != 0)
		return dp_rd_fail(rd, 20, "reserved header field is not zero");
	feat = dp_fmt_get_u64(d + 24);
	if (feat & ~(uint64_t)DP_FEAT_KNOWN)
		return dp_rd_fail(rd, 24, "unknown feature bits 0x%" PRIx64,
				  feat & ~(uint64_t)DP_FEAT_KNOWN);
	rd->p->version = version;
	rd->p->elf_machine = dp_fmt_get_u16(d + 14);
	rd->p->features = feat;
	*header_size = hsize;
	return 0;
}

/* The CRC-32 of [data, data + len), computed on a second thread while the chunks are
 * parsed (on a large file it is a tenth of the read). */
struct crc_job {
	const uint8_t *data;
	size_t len;
	uint32_t crc;
	pthread_t thread;
	bool running;
};

static void *crc_run(void *arg)
{
	struct crc_job *j = arg;
	uint32_t crc = (uint32_t)crc32(0L, Z_NULL, 0);

	for (size_t done = 0; done < j->len;) {
		size_t n = j->len - done > (1u << 30) ? (1u << 30) : j->len - done;

		crc = (uint32_t)crc32(crc, j->data + done, (uInt)n);
		done += n;
	}
	j->crc = crc;
	return NULL;
}

/* Start @j on a thread for large inputs (computed at once if that fails or is small). */
static void crc_start(struct crc_job *j, const uint8_t *data, size_t len)
{
	j->data = data;
	j->len = len;
	j->running = len >= ((size_t)1 << 20) && pthread_create(&j->thread, NULL, crc_run, j) == 0;
	if (!j->running)
		crc_run(j);
}

static uint32_t crc_finish(struct crc_job *j)
{
	if (j->running)
		pthread_join(j->thread, NULL);
	j->running = false;
	return j->crc;
}

/* The end record's magic and size; starts the checksum of the bytes it covers in @crc.
 * Returns the end record's offset in *@e. */
static int check_end_frame(struct dp_rd *rd, size_t hsize, size_t *e, struct crc_job *crc)
{
	const uint8_t *d = rd->data;
	uint64_t total;

	if (rd->size < hsize + DP_FMT_END_SIZE)
		return dp_rd_fail(rd, rd->size, "file truncated (no end record)");
	*e = rd->size - DP_FMT_END_SIZE;
	if (memcmp(d + *e, DP_FMT_END_MAGIC, 8) != 0)
		return dp_rd_fail(rd, rd->size, "file truncated (no end record)");
	total = dp_fmt_get_u64(d + *e + 16);
	if (total != rd->size)
		return dp_rd_fail(rd, *e + 16,
				  "end record says the file has %" PRIu64 " bytes but "
				  "it has %zu",
				  total, rd->size);
	crc_start(crc, d, *e + 28);
	return 0;
}

/* The checksum of @crc against the end record at @e (waits for the thread). */
static int check_crc(struct dp_rd *rd, size_t e, struct crc_job *crc)
{
	uint32_t stored = dp_fmt_get_u32(rd->data + e + 28), got = crc_finish(crc);

	if (got != stored)
		return dp_rd_fail(rd, e + 28,
				  "checksum mismatch (stored 0x%08" PRIx32 ", computed "
				  "0x%08" PRIx32 ")",
				  stored, got);
	return 0;
}

/* The end record's TOC offset and entry count, checked against the file (end at @e). */
static int check_end_toc(struct dp_rd *rd, size_t hsize, size_t e, size_t *toc, uint32_t *n_toc)
{
	uint64_t toc_off = dp_fmt_get_u64(rd->data + e + 8);

	*n_toc = dp_fmt_get_u32(rd->data + e + 24);
	if (toc_off < hsize || toc_off > e ||
	    (uint64_t)*n_toc * DP_FMT_TOC_ENTRY_SIZE != e - toc_off)
		return dp_rd_fail(rd, e + 8,
				  "table of contents at %" PRIu64 " with %" PRIu32
				  " entries does not end at the end record",
				  toc_off, *n_toc);
	*toc = (size_t)toc_off;
	return 0;
}

/* One TOC entry @i at @t, whose chunk header must start at *@pos; advances *@pos. */
static int check_toc_entry(struct dp_rd *rd, size_t t, uint32_t i, size_t toc, size_t *pos)
{
	const uint8_t *d = rd->data;
	uint32_t id = dp_fmt_get_u32(d + t);
	uint64_t off = dp_fmt_get_u64(d + t + 8), len = dp_fmt_get_u64(d + t + 16);
	size_t h = *pos;
	char nm[5];

	chunk_name(id, nm);
	if (dp_fmt_get_u32(d + t + 4) != 0)
		return dp_rd_fail(rd, t + 4, "reserved field of TOC entry %" PRIu32 " is not zero",
				  i);
	if (h > toc || toc - h < DP_FMT_CHUNK_HEADER_SIZE || off != h + DP_FMT_CHUNK_HEADER_SIZE)
		return dp_rd_fail(rd, t + 8,
				  "TOC entry %" PRIu32 " (%s) has payload offset %" PRIu64
				  " but its chunk header would be at %zu",
				  i, nm, off, h);
	if (len > toc - off)
		return dp_rd_fail(rd, t + 16,
				  "chunk %s (TOC entry %" PRIu32 ") of %" PRIu64
				  " bytes overlaps the table of contents",
				  nm, i, len);
	if (dp_fmt_get_u32(d + h) != id)
		return dp_rd_fail(rd, h,
				  "chunk header says '%s' but TOC entry %" PRIu32 " says '%s'",
				  chunk_name(dp_fmt_get_u32(d + h), (char[5]){0}), i, nm);
	if (dp_fmt_get_u32(d + h + 4) != 0)
		return dp_rd_fail(rd, h + 4, "reserved field of chunk %s is not zero", nm);
	if (dp_fmt_get_u64(d + h + 8) != len)
		return dp_rd_fail(rd, h + 8,
				  "chunk %s header length %" PRIu64 " differs from its "
				  "TOC entry's %" PRIu64,
				  nm, dp_fmt_get_u64(d + h + 8), len);
	for (int k = 0; k < DP_RD_N_CHUNKS; k++) {
		if (chunk_ids[k] != id)
			continue;
		if (rd->have[k])
			return dp_rd_fail(rd, h, "chunk %s appears twice", nm);
		rd->have[k] = true;
		rd->off[k] = (size_t)off;
		rd->len[k] = (size_t)len;
	}
	*pos = (size_t)(off + len);
	return 0;
}

static int check_toc(struct dp_rd *rd, size_t hsize, size_t toc, uint32_t n_toc)
{
	size_t pos = hsize;
	bool sym = rd->p->features & DP_FEAT_SYMBOLIZED;
	char nm[5];
	int rc;

	for (uint32_t i = 0; i < n_toc; i++) {
		rc = check_toc_entry(rd, toc + (size_t)i * DP_FMT_TOC_ENTRY_SIZE, i, toc, &pos);
		if (rc < 0)
			return rc;
	}
	if (pos != toc)
		return dp_rd_fail(rd, pos,
				  "%zu stray bytes between the last chunk and the table "
				  "of contents",
				  toc - pos);
	for (int k = 0; k < DP_RD_SYMS; k++) {
		if (!rd->have[k])
			return dp_rd_fail(rd, toc, "required chunk %s is missing",
					  chunk_name(chunk_ids[k], nm));
	}
	if (sym && !rd->have[DP_RD_SYMS])
		return dp_rd_fail(rd, 24, "symbolized flag is set but there is no SYMS chunk");
	if (!sym && rd->have[DP_RD_SYMS])
		return dp_rd_fail(rd, rd->off[DP_RD_SYMS] - DP_FMT_CHUNK_HEADER_SIZE,
				  "SYMS chunk present but the symbolized flag is not set");
	return 0;
}

/*
 * The checks in file order: header, end record, checksum, TOC, chunks. The checksum is
 * computed while the TOC and chunks are parsed; a mismatch is still the error reported
 * whatever the parse found, as when it was checked first.
 */
static int read_all(struct dp_rd *rd)
{
	size_t hsize = 0, toc = 0, e = 0;
	uint32_t n_toc = 0;
	int (*const parse[])(struct dp_rd *) = {
		dp_rd_info, dp_rd_objs, dp_rd_psta, dp_rd_csst, dp_rd_thrd,  dp_rd_pdyn,
		dp_rd_csdy, dp_rd_syms, dp_rd_orig, dp_rd_spcs, dp_rd_roots,
	};
	struct crc_job crc = {0};
	int rc = check_header(rd, &hsize), crc_rc;

	if (rc == 0)
		rc = check_end_frame(rd, hsize, &e, &crc);
	if (rc < 0)
		return rc;
	rc = check_end_toc(rd, hsize, e, &toc, &n_toc);
	if (rc == 0)
		rc = check_toc(rd, hsize, toc, n_toc);
	for (size_t i = 0; rc == 0 && i < sizeof(parse) / sizeof(parse[0]); i++)
		rc = parse[i](rd);
	crc_rc = check_crc(rd, e, &crc); /* joins the thread on every path */
	return crc_rc < 0 ? crc_rc : rc;
}

int dp_read_buffer(const uint8_t *data, size_t len, const char *name, struct dp_profile *p)
{
	struct dp_rd rd;
	int rc = dp_profile_init(p);

	if (rc < 0)
		return rc;
	dp_arena_prefault(&p->arena, 1); /* the node arrays are filled in full */
	memset(&rd, 0, sizeof(rd));
	rd.data = data;
	rd.size = len;
	rd.name = name;
	rd.p = p;
	rc = read_all(&rd);
	if (rc < 0)
		dp_profile_release(p);
	return rc;
}

int dp_read_file(const char *path, struct dp_profile *p)
{
	struct stat st;
	uint8_t *data;
	size_t got = 0;
	int fd, rc;

	memset(p, 0, sizeof(*p));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return dp_error(errno == ENOENT ? DP_ENOENT : DP_EIO, "%s: cannot open: %s", path,
				strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > SIZE_MAX - 1) {
		rc = dp_error(DP_EIO, "%s: not a regular file", path);
		goto out_close;
	}
	data = malloc((size_t)st.st_size + 1);
	if (!data) {
		rc = dp_error(DP_ENOMEM, "%s: out of memory reading %lld bytes", path,
			      (long long)st.st_size);
		goto out_close;
	}
	/* reading 250 MB into 4 KiB pages spent a third of read()'s time faulting them in */
	dp_advise_huge(data, (size_t)st.st_size);
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, data + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = dp_error(DP_EIO, "%s: read failed: %s", path, strerror(errno));
			goto out_free;
		}
		if (n == 0)
			break; /* shrank meanwhile: the end record check reports it */
		got += (size_t)n;
	}
	rc = dp_read_buffer(data, got, path, p);
out_free:
	free(data);
out_close:
	close(fd);
	return rc;
}
