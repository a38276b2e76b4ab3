/*
 * format/writer.c - serialise a struct dp_profile into the data file format, chunk by
 * chunk in a fixed order, and replace a file atomically with the result. Canonical:
 * zero CSD counters omitted, the SYMS string table in order of first use.
 */
#define _POSIX_C_SOURCE 200809L /* O_CLOEXEC, fsync, strdup */

#include "writer.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "../core/err.h"
#include "deepprof/format.h"
#include "reader.h"

#define MAX_CHUNKS 10

struct wr {
	const struct dp_profile *p;
	struct dp_buf *b;
	size_t base; /* offset of the file's first byte in b */
	size_t hdr;  /* offset in b of the open chunk's header */
	uint32_t n_toc;
	uint32_t toc_id[MAX_CHUNKS];
	uint64_t toc_off[MAX_CHUNKS], toc_len[MAX_CHUNKS];
};

/* Encodes straight into the buffer (the hot path of writing big profiles). */
static void put_num(struct wr *w, uint64_t v)
{
	struct dp_buf *b = w->b;

	if (dp_buf_grow(b, DP_VARINT_MAX) < 0)
		return;
	b->len += dp_fmt_put_varint(b->data + b->len, v);
	b->data[b->len] = 0;
}

/* A profile string as a str (strings may hold NULs: use the table's length). */
static void put_str(struct wr *w, uint32_t id)
{
	const struct dp_strtab *t = &w->p->strs;

	if (id == 0 || id >= t->n) {
		put_num(w, 0);
		return;
	}
	put_num(w, t->len[id]);
	dp_buf_add(w->b, t->str[id], t->len[id]);
}

static void chunk_begin(struct wr *w)
{
	static const uint8_t zero[DP_FMT_CHUNK_HEADER_SIZE];

	w->hdr = w->b->len;
	dp_buf_add(w->b, zero, sizeof(zero));
}

static void chunk_end(struct wr *w, uint32_t id)
{
	uint64_t len = w->b->len - w->hdr - DP_FMT_CHUNK_HEADER_SIZE;

	if (dp_buf_error(w->b))
		return;
	dp_fmt_put_u32(w->b->data + w->hdr, id);
	dp_fmt_put_u64(w->b->data + w->hdr + 8, len);
	w->toc_id[w->n_toc] = id;
	w->toc_off[w->n_toc] = w->hdr + DP_FMT_CHUNK_HEADER_SIZE - w->base;
	w->toc_len[w->n_toc] = len;
	w->n_toc++;
}

static void write_info(struct wr *w)
{
	const struct dp_profile *p = w->p;
	const uint64_t nums[] = {p->n_ps,
				 p->n_css,
				 p->n_pd,
				 p->n_csd,
				 p->root_pd,
				 p->sample_period_ns,
				 p->hz,
				 p->samples_inside,
				 p->samples_outside,
				 p->total_callseqs,
				 p->lost_calls,
				 p->lost_samples,
				 p->lost_allocs};

	chunk_begin(w);
	for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		put_num(w, nums[i]);
	put_str(w, p->stop_reason);
	put_str(w, p->program);
	put_num(w, p->argc);
	for (uint32_t i = 0; i < p->argc; i++)
		put_str(w, p->argv[i]);
	put_num(w, p->pid);
	put_num(w, p->ppid);
	put_num(w, p->start_ns);
	put_num(w, p->end_ns);
	put_num(w, p->exit_status);
	chunk_end(w, DP_CHUNK_INFO);
}

static void write_thrd(struct wr *w)
{
	chunk_begin(w);
	put_num(w, w->p->n_threads);
	for (uint32_t i = 1; i <= w->p->n_threads; i++) {
		const struct dp_thread *t = &w->p->threads[i];

		put_num(w, t->tid);
		put_str(w, t->name);
		put_num(w, t->root_pd);
		put_num(w, t->start_ns);
		put_num(w, t->end_ns);
		put_num(w, t->samples_inside);
		put_num(w, t->flags);
	}
	chunk_end(w, DP_CHUNK_THRD);
}

static void write_objs(struct wr *w)
{
	chunk_begin(w);
	put_num(w, w->p->n_objects);
	for (uint32_t i = 1; i <= w->p->n_objects; i++) {
		const struct dp_object *o = &w->p->objects[i];

		put_str(w, o->path);
		put_num(w, o->bias);
		put_num(w, o->build_id_len);
		dp_buf_add(w->b, o->build_id, o->build_id_len);
		put_num(w, o->n_segs);
		for (uint32_t s = 0; s < o->n_segs; s++) {
			const struct dp_segment *sg = &w->p->segs[o->first_seg + s];

			put_num(w, sg->start);
			put_num(w, sg->size);
			put_num(w, sg->flags);
		}
	}
	chunk_end(w, DP_CHUNK_OBJS);
}

static void write_psta(struct wr *w)
{
	bool cov = w->p->features & DP_FEAT_COVERAGE;

	chunk_begin(w);
	put_num(w, w->p->n_ps);
	for (uint32_t id = 1; id <= w->p->n_ps; id++) {
		const struct dp_ps *ps = &w->p->ps[id];

		put_num(w, ps->kind);
		put_num(w, ps->addr);
		put_num(w, ps->n_cp);
		if (ps->kind == DP_PS_REGION) {
			put_str(w, ps->name);
			put_num(w, ps->mismatched);
		}
		for (uint32_t i = 0; cov && i < ps->n_cp; i++) {
			put_num(w, ps->cp[i].kind);
			put_num(w, ps->cp[i].line);
		}
	}
	chunk_end(w, DP_CHUNK_PSTA);
}

static void write_csst(struct wr *w)
{
	chunk_begin(w);
	put_num(w, w->p->n_css);
	for (uint32_t id = 1; id <= w->p->n_css; id++) {
		put_num(w, w->p->css[id].ps);
		put_num(w, w->p->css[id].addr);
		put_num(w, w->p->css[id].kind);
	}
	chunk_end(w, DP_CHUNK_CSST);
}

static void write_pdyn(struct wr *w)
{
	chunk_begin(w);
	put_num(w, w->p->n_pd);
	for (uint32_t id = 1; id <= w->p->n_pd; id++) {
		const struct dp_pd *pd = &w->p->pd[id];

		put_num(w, pd->ps);
		put_num(w, pd->thread);
		put_num(w, pd->n_cp);
		for (uint32_t i = 0; i < pd->n_cp; i++)
			put_num(w, pd->cp[i]);
	}
	chunk_end(w, DP_CHUNK_PDYN);
}

static void write_csdy(struct wr *w)
{
	chunk_begin(w);
	put_num(w, w->p->n_csd);
	for (uint32_t id = 1; id <= w->p->n_csd; id++) {
		const struct dp_csd *d = &w->p->csd[id];
		const uint64_t f[DP_CSD_N_FIELDS] = {d->calls,	    d->exits,	 d->unwinds,
						     d->samples,    d->callseqs, d->allocs,
						     d->alloc_bytes};
		uint32_t mask = 0;

		for (int b = 0; b < DP_CSD_N_FIELDS; b++)
			mask |= f[b] ? 1u << b : 0;
		put_num(w, d->caller);
		put_num(w, d->css);
		put_num(w, d->callee);
		put_num(w, mask);
		for (int b = 0; b < DP_CSD_N_FIELDS; b++) {
			if (f[b])
				put_num(w, f[b]);
		}
	}
	chunk_end(w, DP_CHUNK_CSDY);
}

/* Assigns SYMS string ids in order of first use; @map is [0..strs.n), 0 = unassigned. */
static void syms_use(struct wr *w, uint32_t *map, uint32_t *n, uint32_t id)
{
	if (id == 0 || id >= w->p->strs.n || map[id])
		return;
	map[id] = ++*n;
	put_str(w, id);
}

static uint32_t syms_id(const struct wr *w, const uint32_t *map, uint32_t id)
{
	return id < w->p->strs.n ? map[id] : 0;
}

static int write_syms(struct wr *w)
{
	const struct dp_profile *p = w->p;
	uint32_t *map = calloc(p->strs.n + 1u, sizeof(*map)), n_str = 0;
	struct dp_buf strings, *b = w->b;

	if (!map)
		return dp_error(DP_ENOMEM, "out of memory writing symbols");
	dp_buf_init(&strings, b->max);
	w->b = &strings; /* the table is built aside: its count comes first */
	for (uint32_t id = 1; id <= p->n_ps; id++) {
		syms_use(w, map, &n_str, p->ps[id].name);
		syms_use(w, map, &n_str, p->ps[id].linkage_name);
		syms_use(w, map, &n_str, p->ps[id].file);
	}
	for (uint32_t id = 1; id <= p->n_css; id++)
		syms_use(w, map, &n_str, p->css[id].file);
	w->b = b;
	chunk_begin(w);
	put_num(w, n_str);
	if (dp_buf_error(&strings))
		b->err = dp_buf_error(&strings);
	dp_buf_add(b, strings.data, strings.len);
	dp_buf_release(&strings);
	put_num(w, p->n_ps);
	for (uint32_t id = 1; id <= p->n_ps; id++) {
		const struct dp_ps *ps = &p->ps[id];

		put_num(w, syms_id(w, map, ps->name));
		put_num(w, syms_id(w, map, ps->linkage_name));
		put_num(w, syms_id(w, map, ps->file));
		put_num(w, ps->line);
		put_num(w, ps->linkage);
		put_num(w, ps->object);
	}
	put_num(w, p->n_css);
	for (uint32_t id = 1; id <= p->n_css; id++) {
		put_num(w, syms_id(w, map, p->css[id].file));
		put_num(w, p->css[id].line);
		put_num(w, p->css[id].callee_ps);
	}
	chunk_end(w, DP_CHUNK_SYMS);
	free(map);
	return dp_buf_error(b);
}

/* SPCS, when the profile has it (sampled PCs, or only the missed count once symbolized). */
static void write_spcs(struct wr *w)
{
	chunk_begin(w);
	put_num(w, w->p->n_pcs);
	for (uint32_t i = 0; i < w->p->n_pcs; i++) {
		put_num(w, w->p->pcs[i].csd);
		put_num(w, w->p->pcs[i].pc);
		put_num(w, w->p->pcs[i].samples);
	}
	put_num(w, w->p->pcs_missed);
	chunk_end(w, DP_CHUNK_SPCS);
}

/* ORIG, only for imported profiles (origin set). */
static void write_orig(struct wr *w)
{
	chunk_begin(w);
	put_str(w, w->p->origin);
	put_str(w, w->p->origin_input);
	put_num(w, w->p->metrics);
	put_str(w, w->p->origin_note);
	chunk_end(w, DP_CHUNK_ORIG);
}

static void write_header(struct wr *w)
{
	uint8_t h[DP_FMT_HEADER_SIZE] = {0};

	memcpy(h, DP_FMT_MAGIC, 8);
	dp_fmt_put_u16(h + 8, DP_FMT_VERSION);
	dp_fmt_put_u16(h + 10, DP_FMT_MIN_READER_VERSION);
	dp_fmt_put_u16(h + 12, DP_FMT_HEADER_SIZE);
	dp_fmt_put_u16(h + 14, (uint16_t)w->p->elf_machine);
	dp_fmt_put_u32(h + 16, DP_FMT_ENDIAN_MARK);
	dp_fmt_put_u64(h + 24, w->p->features);
	dp_buf_add(w->b, h, sizeof(h));
}

static void write_toc_end(struct wr *w)
{
	uint8_t e[DP_FMT_TOC_ENTRY_SIZE > DP_FMT_END_SIZE ? DP_FMT_TOC_ENTRY_SIZE
							  : DP_FMT_END_SIZE];
	uint64_t toc = w->b->len - w->base;
	uint32_t crc;

	for (uint32_t i = 0; i < w->n_toc; i++) {
		memset(e, 0, sizeof(e));
		dp_fmt_put_u32(e, w->toc_id[i]);
		dp_fmt_put_u64(e + 8, w->toc_off[i]);
		dp_fmt_put_u64(e + 16, w->toc_len[i]);
		dp_buf_add(w->b, e, DP_FMT_TOC_ENTRY_SIZE);
	}
	memset(e, 0, sizeof(e));
	memcpy(e, DP_FMT_END_MAGIC, 8);
	dp_fmt_put_u64(e + 8, toc);
	dp_fmt_put_u64(e + 16, w->b->len + DP_FMT_END_SIZE - w->base);
	dp_fmt_put_u32(e + 24, w->n_toc);
	if (dp_buf_add(w->b, e, DP_FMT_END_SIZE) < 0)
		return;
	crc = (uint32_t)crc32(0L, Z_NULL, 0);
	for (size_t done = w->base, end = w->b->len - 4; done < end;) {
		size_t n = end - done > (1u << 30) ? (1u << 30) : end - done;

		crc = (uint32_t)crc32(crc, w->b->data + done, (uInt)n);
		done += n;
	}
	dp_fmt_put_u32(w->b->data + w->b->len - 4, crc);
}

int dp_write_buffer(const struct dp_profile *p, struct dp_buf *out)
{
	struct wr w = {.p = p, .b = out, .base = out->len};

	write_header(&w);
	write_info(&w);
	write_thrd(&w);
	write_objs(&w);
	write_psta(&w);
	write_csst(&w);
	write_pdyn(&w);
	write_csdy(&w);
	if ((p->features & DP_FEAT_SYMBOLIZED) && write_syms(&w) < 0)
		return dp_buf_error(out) ? dp_buf_error(out) : -DP_ENOMEM;
	if (p->origin)
		write_orig(&w);
	if (p->has_pcs)
		write_spcs(&w);
	write_toc_end(&w);
	return dp_buf_error(out);
}

/* Writes all of @b to @fd. */
static int write_fd(int fd, const struct dp_buf *b, const char *tmp)
{
	size_t done = 0;

	while (done < b->len) {
		ssize_t n = write(fd, b->data + done, b->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return dp_error(DP_EIO, "%s: write failed: %s", tmp, strerror(errno));
		done += (size_t)n;
	}
	if (fsync(fd) < 0)
		return dp_error(DP_EIO, "%s: fsync failed: %s", tmp, strerror(errno));
	return 0;
}

/* Makes the rename durable; failure here loses nothing already written, so it is ignored. */
static void sync_dir(const char *path)
{
	char *copy = strdup(path);
	int fd;

	if (!copy)
		return;
	fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(copy);
}

/* The file in @b, checked by the reader, renamed over @path from PATH.tmp.PID (written
 * in place when @path exists and is not a regular file, such as /dev/null). */
static int replace_file(const struct dp_buf *b, const char *path)
{
	size_t len = strlen(path) + 32;
	char *tmp = malloc(len);
	struct stat st;
	int fd, rc;

	if (!tmp)
		return dp_error(DP_ENOMEM, "out of memory writing %s", path);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* /dev/null, a FIFO: write in place, never rename over a device node */
		fd = open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0)
			rc = dp_error(DP_EIO, "%s: cannot open: %s", path, strerror(errno));
		else
			rc = write_fd(fd, b, path);
		if (fd >= 0 && close(fd) < 0 && rc == 0)
			rc = dp_error(DP_EIO, "%s: close failed: %s", path, strerror(errno));
		goto out_free;
	}
	snprintf(tmp, len, "%s.tmp.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0) {
		rc = dp_error(DP_EIO, "%s: cannot create: %s", tmp, strerror(errno));
		goto out_free;
	}
	rc = write_fd(fd, b, tmp);
	if (close(fd) < 0 && rc == 0)
		rc = dp_error(DP_EIO, "%s: close failed: %s", tmp, strerror(errno));
	if (rc == 0 && rename(tmp, path) < 0)
		rc = dp_error(DP_EIO, "cannot rename %s to %s: %s", tmp, path, strerror(errno));
	if (rc < 0)
		unlink(tmp);
	else
		sync_dir(path);
out_free:
	free(tmp);
	return rc;
}

int dp_write_file(const struct dp_profile *p, const char *path)
{
	struct dp_profile check;
	struct dp_buf b;
	size_t nlen = strlen(path) + 16;
	char *name = malloc(nlen);
	int rc;

	if (!name)
		return dp_error(DP_ENOMEM, "out of memory writing %s", path);
	snprintf(name, nlen, "%s (as written)", path);
	dp_buf_init(&b, SIZE_MAX - 1);
	rc = dp_write_buffer(p, &b);
	if (rc == 0)
		rc = dp_read_buffer(b.data, b.len, name, &check);
	if (rc == 0) {
		dp_profile_release(&check);
		rc = replace_file(&b, path);
	}
	dp_buf_release(&b);
	free(name);
	return rc;
}
