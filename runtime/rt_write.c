/*
 * runtime/rt_write.c - the writer: snapshots every thread's graph (racing with the
 * running threads; nodes are read only up to their published counts), gives the nodes
 * global ids (mmap'd scratch maps for fn -> PS and (caller fn, site) -> CSS), encodes
 * the chunks of docs/FORMAT.md and writes NAME.tmp.PID with write(2), CRC on the fly,
 * then renames it into place. One write at a time; no stdio, no malloc.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h> /* rename */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deepprof/format.h"
#include "rt_int.h"

enum {
	DP_W_INFO,
	DP_W_THRD,
	DP_W_OBJS,
	DP_W_PSTA,
	DP_W_CSST,
	DP_W_PDYN,
	DP_W_CSDY,
	DP_W_SPCS,
	DP_W_N
};

static const uint32_t dp_rt_chunk_ids[DP_W_N] = {
	DP_CHUNK_INFO, DP_CHUNK_THRD, DP_CHUNK_OBJS, DP_CHUNK_PSTA,
	DP_CHUNK_CSST, DP_CHUNK_PDYN, DP_CHUNK_CSDY, DP_CHUNK_SPCS,
};

struct dp_rt_snap {
	struct dp_rt_thread *th;
	uint32_t n_csd, n_pd, n_ps;
	uint32_t pd_base, csd_base; /* global id of local index 0 */
	uint64_t samples_inside;    /* read once: THRD and INFO agree */
};

/* Open addressing map of (a, b) -> id; capacity fixed from upper bounds. */
struct dp_rt_map_ent {
	uintptr_t a, b;
	uint32_t id;
};

struct dp_rt_idmap {
	struct dp_rt_map_ent *tab;
	size_t cap, bytes;
	uint32_t n;
	struct dp_rt_buf list; /* entries in id order */
};

struct dp_rt_wctx {
	struct dp_rt_buf snaps;
	uint32_t n_threads;
	struct dp_rt_idmap ps, css;
	struct dp_rt_buf ps_entry; /* by PS id - 1: the address the file gives it */
	struct dp_rt_buf css_of;   /* the CSS id of each CSD of the snapshot, in order */
	uint32_t n_pd, n_csd;
	uint64_t samples_in, samples_out, callseqs, lost_calls, lost_samples, lost_allocs;
	struct dp_rt_buf chunk[DP_W_N];
	uint64_t count[DP_W_N]; /* leading count of the payload; INFO has none */
	int failed;
};

/* An empty map of 1024 slots; it grows as it fills (call sites are usually far fewer
 * than the contexts that bound them). */
DP_RT_NOINST static int dp_rt_idmap_init(struct dp_rt_idmap *m)
{
	m->cap = 1024;
	m->bytes = m->cap * sizeof(*m->tab);
	m->tab = dp_rt_map(m->bytes, 0);
	return m->tab ? 0 : -1;
}

DP_RT_NOINST static size_t dp_rt_idmap_slot(const struct dp_rt_idmap *m, uintptr_t a, uintptr_t b)
{
	uint64_t k = (uint64_t)a ^ ((uint64_t)b * 0xFF51AFD7ED558CCDull);

	return (size_t)((k * 0x9E3779B97F4A7C15ull) >> 20) & (m->cap - 1);
}

/* Double @m's table, from its entries in id order. Returns 0 or -1. */
DP_RT_NOINST static int dp_rt_idmap_grow(struct dp_rt_idmap *m)
{
	const struct dp_rt_map_ent *e = (const void *)m->list.p;
	struct dp_rt_map_ent *tab = dp_rt_map(m->bytes * 2, 0);

	if (!tab)
		return -1;
	dp_rt_unmap(m->tab, m->bytes, 0);
	m->tab = tab;
	m->cap *= 2;
	m->bytes *= 2;
	for (uint32_t i = 0; i < m->n; i++) {
		size_t h = dp_rt_idmap_slot(m, e[i].a, e[i].b);

		while (m->tab[h].id)
			h = (h + 1) & (m->cap - 1);
		m->tab[h] = e[i];
	}
	return 0;
}

/* The id of (@a, @b), assigned in order if new; 0 if out of memory. */
DP_RT_NOINST static uint32_t dp_rt_idmap_get(struct dp_rt_idmap *m, uintptr_t a, uintptr_t b)
{
	size_t h = dp_rt_idmap_slot(m, a, b);
	struct dp_rt_map_ent *e;

	for (; m->tab[h].id; h = (h + 1) & (m->cap - 1))
		if (m->tab[h].a == a && m->tab[h].b == b)
			return m->tab[h].id;
	if ((m->n + 1) * 2 > m->cap) {
		if (dp_rt_idmap_grow(m) != 0)
			return 0;
		for (h = dp_rt_idmap_slot(m, a, b); m->tab[h].id; h = (h + 1) & (m->cap - 1))
			;
	}
	e = dp_rt_buf_room(&m->list, sizeof(*e));
	if (!e)
		return 0;
	m->tab[h].a = e->a = a;
	m->tab[h].b = e->b = b;
	m->tab[h].id = e->id = ++m->n;
	return e->id;
}

DP_RT_NOINST static void dp_rt_idmap_release(struct dp_rt_idmap *m)
{
	if (m->tab)
		dp_rt_unmap(m->tab, m->bytes, 0);
	dp_rt_buf_release(&m->list);
}

/* PS ids: 1 program root, 2 the thread roots (fn 0), then functions, keyed by function
 * key; @entry, the function's entry address (struct dp_rt_ps), is recorded for a new id. */
DP_RT_NOINST static uint32_t dp_rt_ps_id(struct dp_rt_wctx *w, uintptr_t fn, uintptr_t entry)
{
	uint32_t n = w->ps.n, id;
	uintptr_t *e;

	if (!fn)
		return 2;
	id = dp_rt_idmap_get(&w->ps, fn, 1);
	if (id > n) {
		e = dp_rt_buf_room(&w->ps_entry, sizeof(*e));
		if (!e)
			return 0;
		*e = entry;
	}
	return id;
}

/* Take the threads in the file and their node counts (CSDs first, see the header). */
DP_RT_NOINST static int dp_rt_snapshot(struct dp_rt_wctx *w)
{
	struct dp_rt_thread *th;
	struct dp_rt_snap *s;

	pthread_mutex_lock(&dp_rt_g.threads_lock);
	for (th = dp_rt_g.threads; th; th = th->next) {
		if (!th->alive_in_file)
			continue;
		s = dp_rt_buf_room(&w->snaps, sizeof(*s));
		if (!s)
			break;
		s->th = th;
		s->n_csd = DP_RT_LOAD_ACQ(&th->csd.count);
		s->n_pd = DP_RT_LOAD_ACQ(&th->pd.count);
		s->n_ps = DP_RT_LOAD_ACQ(&th->ps.count);
		s->samples_inside = __atomic_load_n(&th->samples_inside, __ATOMIC_RELAXED);
		w->n_threads++;
	}
	pthread_mutex_unlock(&dp_rt_g.threads_lock);
	return w->snaps.failed ? -1 : 0;
}

/* Pass 1: global ids for PS, CSS, PD and CSD. */
DP_RT_NOINST static int dp_rt_assign_ids(struct dp_rt_wctx *w)
{
	struct dp_rt_snap *snaps = (void *)w->snaps.p;
	uint32_t pd_next = 2, csd_next = w->n_threads + 1;

	uint32_t *css;

	if (dp_rt_idmap_get(&w->ps, 0, 0) != 1 || dp_rt_idmap_get(&w->ps, 0, 2) != 2 ||
	    dp_rt_idmap_get(&w->css, 0, 0) != 1 || !dp_rt_buf_room(&w->ps_entry, 16))
		return -1;
	for (uint32_t t = 0; t < w->n_threads; t++) {
		struct dp_rt_snap *s = &snaps[t];
		struct dp_rt_iter it;
		struct dp_rt_ps *ps;
		struct dp_rt_csd *csd;
		uint32_t n_pd = 1;

		dp_rt_iter_init(&it, &s->th->ps, s->n_ps);
		while ((ps = dp_rt_iter_next(&it)))
			if (!(ps->id = dp_rt_ps_id(w, ps->fn, ps->entry)))
				return -1;
		css = dp_rt_buf_room(&w->css_of, s->n_csd * sizeof(*css));
		if (!css)
			return -1;
		dp_rt_iter_init(&it, &s->th->csd, s->n_csd);
		while ((csd = dp_rt_iter_next(&it))) {
			if (csd->callee->index + 1 > n_pd)
				n_pd = csd->callee->index + 1;
			/* csd->ps, in this thread's PS list, has its id */
			if (!(*css++ = dp_rt_idmap_get(&w->css, csd->caller->ps->fn, csd->site)))
				return -1;
		}
		/* PDs published after the CSD snapshot have no CSD yet: leave them out */
		s->n_pd = n_pd < s->n_pd ? n_pd : s->n_pd;
		s->pd_base = pd_next;
		s->csd_base = csd_next;
		pd_next += s->n_pd;
		csd_next += s->n_csd;
	}
	w->n_pd = pd_next - 1; /* the program root PD included */
	w->n_csd = csd_next - 1;
	return 0;
}

/* One CSDY record; @calls, if not 0, for the CSD's (the roots': 1). */
DP_RT_NOINST static void dp_rt_put_csd(struct dp_rt_wctx *w, uint64_t caller, uint64_t css,
				       uint64_t callee, const struct dp_rt_csd *csd, uint64_t calls)
{
	struct dp_rt_buf *b = &w->chunk[DP_W_CSDY];
	uint64_t v[DP_CSD_N_FIELDS], rec[4 + DP_CSD_N_FIELDS];
	uint64_t mask = 0;
	size_t n = 4;

	const struct dp_rt_cold *cold = dp_rt_cold(csd);

	/* The owning thread may be running: read the leaving counters before calls, so
	 * that calls >= exits + unwinds holds in the file too. */
	v[1] = DP_RT_LOAD_ACQ(&csd->exits);
	v[2] = DP_RT_LOAD_ACQ(&cold->unwinds);
	v[0] = DP_RT_LOAD_ACQ(&csd->calls);
	/* one read each (atomic), or the compiler may read a moving counter twice */
	v[3] = __atomic_load_n(&cold->samples, __ATOMIC_RELAXED);
	v[4] = __atomic_load_n(&csd->callseqs, __ATOMIC_RELAXED);
	v[5] = __atomic_load_n(&cold->allocs, __ATOMIC_RELAXED);
	v[6] = __atomic_load_n(&cold->alloc_bytes, __ATOMIC_RELAXED);
	if (calls)
		v[0] = calls;
	for (int i = 0; i < DP_CSD_N_FIELDS; i++) {
		mask |= (uint64_t)(v[i] != 0) << i;
		if (v[i])
			rec[n++] = v[i];
	}
	rec[0] = caller;
	rec[1] = css;
	rec[2] = callee;
	rec[3] = mask;
	dp_rt_buf_nums(b, rec, n);
	w->samples_out += v[3];
	w->callseqs += v[4];
}

/* Pass 2: CSDY and PDYN (sums for INFO on the way). */
DP_RT_NOINST static void dp_rt_encode_dynamic(struct dp_rt_wctx *w)
{
	struct dp_rt_snap *snaps = (void *)w->snaps.p;
	struct dp_rt_buf *pdb = &w->chunk[DP_W_PDYN];
	const uint32_t *css = (const void *)w->css_of.p;

	for (uint32_t t = 0; t < w->n_threads; t++)
		dp_rt_put_csd(w, 1, 1, snaps[t].pd_base, snaps[t].th->root_csd, 1);
	dp_rt_buf_num(pdb, 1); /* the program root PD */
	dp_rt_buf_num(pdb, 0);
	dp_rt_buf_num(pdb, 0);
	for (uint32_t t = 0; t < w->n_threads; t++) {
		struct dp_rt_snap *s = &snaps[t];
		struct dp_rt_iter it;
		struct dp_rt_csd *csd;
		struct dp_rt_pd *pd;

		dp_rt_iter_init(&it, &s->th->csd, s->n_csd);
		while ((csd = dp_rt_iter_next(&it)))
			dp_rt_put_csd(w, s->pd_base + csd->caller->index, *css++,
				      s->pd_base + csd->callee->index, csd, 0);
		dp_rt_iter_init(&it, &s->th->pd, s->n_pd);
		while ((pd = dp_rt_iter_next(&it))) {
			uint64_t v[3] = {pd->ps->id, t + 1, 0}; /* from the PS pass */

			dp_rt_buf_nums(pdb, v, 3);
		}
		w->samples_in += s->samples_inside;
		w->lost_calls += s->th->lost_calls;
		w->lost_samples += s->th->lost_samples;
		w->lost_allocs += s->th->lost_allocs;
	}
	w->count[DP_W_CSDY] = w->n_csd;
	w->count[DP_W_PDYN] = w->n_pd;
}

/*
 * SPCS: every thread's sampled PCs whose CSD is in the file (global CSD id, PC,
 * samples), then the samples that found no room in the tables. The handler may add
 * entries meanwhile: an entry is read only once its pc is published.
 */
DP_RT_NOINST static void dp_rt_encode_pcs(struct dp_rt_wctx *w)
{
	struct dp_rt_snap *snaps = (void *)w->snaps.p;
	struct dp_rt_buf *b = &w->chunk[DP_W_SPCS];
	uint64_t n = 0, missed = 0;

	for (uint32_t t = 0; t < w->n_threads; t++) {
		const struct dp_rt_snap *s = &snaps[t];
		const struct dp_rt_pcs_tab *tab = DP_RT_LOAD_ACQ(&s->th->pcs);

		missed += __atomic_load_n(&s->th->pcs_missed, __ATOMIC_RELAXED);
		for (uint32_t i = 0; tab && i < tab->cap; i++) {
			const struct dp_rt_pcs_ent *e = &tab->ent[i];
			uintptr_t pc = DP_RT_LOAD_ACQ(&e->pc);
			uint32_t n_e = __atomic_load_n(&e->n, __ATOMIC_RELAXED);

			if (!pc || !n_e || (e->csd != DP_RT_PCS_ROOT && e->csd >= s->n_csd))
				continue; /* a CSD made after the snapshot is not in the file */
			dp_rt_buf_num(b, e->csd == DP_RT_PCS_ROOT ? t + 1 : s->csd_base + e->csd);
			dp_rt_buf_num(b, pc);
			dp_rt_buf_num(b, n_e);
			n++;
		}
	}
	dp_rt_buf_num(b, missed);
	w->count[DP_W_SPCS] = n;
}

/* PSTA, CSST, THRD and OBJS. */
DP_RT_NOINST static void dp_rt_encode_static(struct dp_rt_wctx *w)
{
	const struct dp_rt_map_ent *e = (const void *)w->ps.list.p;
	const uintptr_t *entry = (const void *)w->ps_entry.p;
	struct dp_rt_snap *snaps = (void *)w->snaps.p;
	struct dp_rt_buf *b = &w->chunk[DP_W_PSTA];
	char name[64];

	for (uint32_t i = 0; i < w->ps.n; i++) {
		int region = i >= 2 && DP_RT_IS_REGION(e[i].a);

		dp_rt_buf_num(b, i == 0	  ? DP_PS_ROOT
				 : i == 1 ? DP_PS_THREAD
				 : region ? DP_PS_REGION
					  : DP_PS_FUNCTION);
		dp_rt_buf_num(b, i < 2 || region ? 0 : entry[i]);
		dp_rt_buf_num(b, 0);
		if (region)
			dp_rt_region_put(b, e[i].a);
	}
	w->count[DP_W_PSTA] = w->ps.n;
	e = (const void *)w->css.list.p;
	b = &w->chunk[DP_W_CSST];
	for (uint32_t i = 0; i < w->css.n; i++) {
		dp_rt_buf_num(b, i == 0 ? 1 : dp_rt_ps_id(w, e[i].a, 0));
		dp_rt_buf_num(b, e[i].b & ~DP_RT_TAIL_SITE);
		dp_rt_buf_num(b, i == 0			    ? DP_CSS_THREAD
				 : !e[i].a		    ? DP_CSS_ENTRY
				 : e[i].b & DP_RT_TAIL_SITE ? DP_CSS_TAIL
							    : DP_CSS_UNKNOWN);
	}
	w->count[DP_W_CSST] = w->css.n;
	b = &w->chunk[DP_W_THRD];
	for (uint32_t t = 0; t < w->n_threads; t++) {
		const struct dp_rt_thread *th = snaps[t].th;
		uint32_t flags = DP_RT_LOAD_ACQ(&th->flags);

		dp_rt_buf_num(b, (uint64_t)th->tid);
		dp_rt_thread_name(th, name, sizeof(name));
		dp_rt_buf_str(b, name, strlen(name));
		dp_rt_buf_num(b, snaps[t].pd_base);
		dp_rt_buf_num(b, th->start_ns);
		dp_rt_buf_num(b, (flags & DP_THREAD_ENDED) ? th->end_ns : 0);
		dp_rt_buf_num(b, snaps[t].samples_inside);
		dp_rt_buf_num(b, flags & (DP_THREAD_ENDED | DP_THREAD_MAIN | DP_THREAD_STOPPED));
	}
	w->count[DP_W_THRD] = w->n_threads;
	w->count[DP_W_OBJS] = dp_rt_objects(&w->chunk[DP_W_OBJS]);
}

DP_RT_NOINST static void dp_rt_encode_info(struct dp_rt_wctx *w, int at_exit)
{
	struct dp_rt_buf *b = &w->chunk[DP_W_INFO];
	const char *prog = dp_rt_program();
	uint64_t v[] = {w->ps.n,
			w->css.n,
			w->n_pd,
			w->n_csd,
			1,
			dp_rt_g.sampling ? dp_rt_g.period_ns : 0,
			dp_rt_g.sampling ? dp_rt_g.hz : 0, /* no rate when off (SIGPROF taken) */
			w->samples_in,
			w->samples_out,
			w->callseqs,
			w->lost_calls,
			w->lost_samples,
			w->lost_allocs};

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		dp_rt_buf_num(b, v[i]);
	dp_rt_buf_str(b, dp_rt_g.stop_reason, dp_rt_g.stopped ? strlen(dp_rt_g.stop_reason) : 0);
	dp_rt_buf_str(b, prog, strlen(prog));
	{
		struct dp_rt_buf args = {0};
		uint32_t argc = dp_rt_cmdline(&args);
		uint8_t *p;

		dp_rt_buf_num(b, argc);
		p = dp_rt_buf_room(b, args.len);
		if (p && args.len)
			memcpy(p, args.p, args.len);
		w->failed |= args.failed;
		dp_rt_buf_release(&args);
	}
	dp_rt_buf_num(b, (uint64_t)dp_rt_g.pid);
	dp_rt_buf_num(b, (uint64_t)getppid());
	dp_rt_buf_num(b, dp_rt_g.start_ns);
	dp_rt_buf_num(b, dp_rt_now_ns(CLOCK_REALTIME));
	dp_rt_buf_num(b, at_exit && dp_rt_g.exit_status_known
				 ? (uint64_t)(dp_rt_g.exit_status & 0xff) + 1
				 : 0);
}

/* CRC-32 tables for slicing by 8 (dp_rt_crc32), made by the first write. */
static uint32_t dp_rt_crc_tab[8][256];

DP_RT_NOINST static void dp_rt_crc_init(void)
{
	if (dp_rt_crc_tab[0][1])
		return;
	for (uint32_t i = 0; i < 256; i++) {
		uint8_t b = (uint8_t)i;

		dp_rt_crc_tab[0][i] = ~dp_fmt_crc32(~0u, &b, 1); /* the raw table entry */
	}
	for (int k = 1; k < 8; k++)
		for (int i = 0; i < 256; i++)
			dp_rt_crc_tab[k][i] = (dp_rt_crc_tab[k - 1][i] >> 8) ^
					      dp_rt_crc_tab[0][dp_rt_crc_tab[k - 1][i] & 0xFF];
}

/* The CRC-32 of docs/FORMAT.md (dp_fmt_crc32) continued over @n bytes at @p, eight
 * bytes per step: the nibble-wise version took a tenth of a large profile's write. */
DP_RT_NOINST static uint32_t dp_rt_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
	crc = ~crc;
	for (; n >= 8; n -= 8, p += 8) {
		uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
				     (uint32_t)p[3] << 24);

		crc = dp_rt_crc_tab[7][lo & 0xFF] ^ dp_rt_crc_tab[6][(lo >> 8) & 0xFF] ^
		      dp_rt_crc_tab[5][(lo >> 16) & 0xFF] ^ dp_rt_crc_tab[4][lo >> 24] ^
		      dp_rt_crc_tab[3][p[4]] ^ dp_rt_crc_tab[2][p[5]] ^ dp_rt_crc_tab[1][p[6]] ^
		      dp_rt_crc_tab[0][p[7]];
	}
	for (; n; n--, p++)
		crc = (crc >> 8) ^ dp_rt_crc_tab[0][(crc ^ *p) & 0xFF];
	return ~crc;
}

struct dp_rt_out {
	int fd;
	int err; /* errno of the first failure */
	uint64_t off;
	uint32_t crc;
};

DP_RT_NOINST static void dp_rt_out(struct dp_rt_out *o, const void *p, size_t n)
{
	const uint8_t *c = p;

	o->crc = dp_rt_crc32(o->crc, c, n);
	o->off += n;
	while (n && !o->err) {
		ssize_t r = write(o->fd, c, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			o->err = r < 0 ? errno : EIO;
			break;
		}
		c += r;
		n -= (size_t)r;
	}
}

/* Header, chunks, table of contents, end record. */
DP_RT_NOINST static void dp_rt_emit(struct dp_rt_wctx *w, struct dp_rt_out *o)
{
	uint8_t h[DP_FMT_HEADER_SIZE] = {0}, toc[DP_W_N][DP_FMT_TOC_ENTRY_SIZE], end[32];
	uint64_t toc_off;

	memcpy(h, DP_FMT_MAGIC, 8);
	dp_fmt_put_u16(h + 8, DP_FMT_VERSION);
	dp_fmt_put_u16(h + 10, DP_FMT_MIN_READER_VERSION);
	dp_fmt_put_u16(h + 12, DP_FMT_HEADER_SIZE);
#if defined(__aarch64__)
	dp_fmt_put_u16(h + 14, EM_AARCH64);
#else
	dp_fmt_put_u16(h + 14, EM_X86_64);
#endif
	dp_fmt_put_u32(h + 16, DP_FMT_ENDIAN_MARK);
	dp_fmt_put_u64(h + 24, dp_rt_g.stopped ? DP_FEAT_STOPPED : 0);
	dp_rt_out(o, h, sizeof(h));
	for (int i = 0; i < DP_W_N; i++) {
		uint8_t ch[DP_FMT_CHUNK_HEADER_SIZE] = {0}, cnt[DP_VARINT_MAX];
		size_t ncnt = i == DP_W_INFO ? 0 : dp_fmt_put_varint(cnt, w->count[i]);
		uint64_t len = ncnt + w->chunk[i].len;

		dp_fmt_put_u32(ch, dp_rt_chunk_ids[i]);
		dp_fmt_put_u64(ch + 8, len);
		dp_rt_out(o, ch, sizeof(ch));
		memset(toc[i], 0, sizeof(toc[i]));
		dp_fmt_put_u32(toc[i], dp_rt_chunk_ids[i]);
		dp_fmt_put_u64(toc[i] + 8, o->off);
		dp_fmt_put_u64(toc[i] + 16, len);
		dp_rt_out(o, cnt, ncnt);
		dp_rt_out(o, w->chunk[i].p, w->chunk[i].len);
	}
	toc_off = o->off;
	dp_rt_out(o, toc, sizeof(toc));
	memcpy(end, DP_FMT_END_MAGIC, 8);
	dp_fmt_put_u64(end + 8, toc_off);
	dp_fmt_put_u64(end + 16, o->off + DP_FMT_END_SIZE);
	dp_fmt_put_u32(end + 24, DP_W_N);
	dp_rt_out(o, end, 28);
	dp_fmt_put_u32(end + 28, o->crc);
	dp_rt_out(o, end + 28, 4);
}

/*
 * Write the encoded chunks to @name, through @tmp (renamed into place) unless @name
 * exists and is not a regular file (/dev/null, a FIFO, a terminal), which is written in
 * place: renaming over it would replace a device node with a file. Non-blocking, so
 * that a FIFO without a reader fails instead of hanging. Returns 0 or the errno.
 */
DP_RT_NOINST static int dp_rt_write_to(struct dp_rt_wctx *w, const char *name, const char *tmp)
{
	struct dp_rt_out o = {.fd = -1};
	struct stat st;
	int direct = stat(name, &st) == 0 && !S_ISREG(st.st_mode);

	if (direct)
		o.fd = open(name, O_WRONLY | O_CLOEXEC | O_NONBLOCK);
	else
		o.fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (o.fd < 0)
		return errno ? errno : EIO;
	dp_rt_crc_init();
	dp_rt_emit(w, &o);
	if (close(o.fd) != 0 && !o.err)
		o.err = errno;
	if (!o.err && !direct && rename(tmp, name) != 0)
		o.err = errno;
	if (o.err && !direct)
		unlink(tmp);
	return o.err;
}

/* Where this process's profile goes since its own name could not be written, "" until
 * then (dp_rt_fallback_pid's: a fork child finds its parent's here and ignores it). */
static char dp_rt_fallback[4096];
static int64_t dp_rt_fallback_pid;

/* The fallback for @name: $TMPDIR (if absolute, else /tmp) and @name's last component,
 * into @out, and its temporary file (with @name's temporary suffix @sfx) into @tmp.
 * Returns 0, or -1 if too long or the same as @name. */
DP_RT_NOINST static int dp_rt_fallback_names(const char *name, const char *sfx, char *out,
					     char *tmp, size_t len)
{
	const char *dir = getenv("TMPDIR"), *base = strrchr(name, '/');

	if (!dir || dir[0] != '/')
		dir = "/tmp";
	base = base ? base + 1 : name;
	dp_rt_join(out, len, dir, dir[1] && dir[strlen(dir) - 1] != '/' ? "/" : "", base);
	dp_rt_join(tmp, len, out, sfx, NULL);
	if (strlen(tmp) + 1 >= len || !strcmp(out, name))
		return -1;
	return 0;
}

/*
 * Write the encoded chunks to the output file atomically. When that fails, to the
 * fallback in $TMPDIR, saying once where the profile went (later writes go there
 * directly); when that fails too, the profile is lost: one line names both paths and
 * collection stops. Returns 0 or -1.
 */
DP_RT_NOINST static int dp_rt_write_file(struct dp_rt_wctx *w)
{
	char name[4096], tmp[4096], alt[4096], alt_tmp[4096], msg[3 * 4096];
	int err, err2;

	if (dp_rt_output_names(name, tmp, sizeof(name)) != 0) {
		dp_rt_stop("cannot write the profile: output name too long", NULL);
		return -1;
	}
	if (dp_rt_fallback[0] && dp_rt_fallback_pid == dp_rt_g.pid &&
	    dp_rt_fallback_names(name, tmp + strlen(name), alt, alt_tmp, sizeof(alt)) == 0 &&
	    !strcmp(alt, dp_rt_fallback)) {
		err2 = dp_rt_write_to(w, alt, alt_tmp);
		if (!err2)
			return 0;
		dp_rt_join(msg, sizeof(msg), "cannot write ", alt, ": ");
		dp_rt_join(msg + strlen(msg), sizeof(msg) - strlen(msg), strerrordesc_np(err2),
			   NULL, NULL);
		dp_rt_stop("profile lost", msg);
		return -1;
	}
	err = dp_rt_write_to(w, name, tmp);
	if (!err)
		return 0;
	dp_rt_join(msg, sizeof(msg), "cannot write ", name, ": ");
	dp_rt_join(msg + strlen(msg), sizeof(msg) - strlen(msg), strerrordesc_np(err), NULL, NULL);
	if (dp_rt_fallback_names(name, tmp + strlen(name), alt, alt_tmp, sizeof(alt)) != 0) {
		dp_rt_stop("profile lost", msg);
		return -1;
	}
	err2 = dp_rt_write_to(w, alt, alt_tmp);
	if (err2) {
		dp_rt_join(msg + strlen(msg), sizeof(msg) - strlen(msg), ", nor ", alt, ": ");
		dp_rt_join(msg + strlen(msg), sizeof(msg) - strlen(msg), strerrordesc_np(err2),
			   NULL, NULL);
		dp_rt_stop("profile lost", msg);
		return -1;
	}
	memcpy(dp_rt_fallback, alt, strlen(alt) + 1);
	dp_rt_fallback_pid = dp_rt_g.pid;
	dp_rt_join(tmp, sizeof(tmp), "deepprof: ", msg, "; the profile went to ");
	dp_rt_say(tmp, alt, "\n");
	return 0;
}

DP_RT_NOINST static int dp_rt_write_locked(int at_exit)
{
	struct dp_rt_wctx w;
	int r = -1;

	memset(&w, 0, sizeof(w));
	dp_rt_sample_check();
	if (dp_rt_snapshot(&w) != 0 || dp_rt_idmap_init(&w.ps) != 0 ||
	    dp_rt_idmap_init(&w.css) != 0 || dp_rt_assign_ids(&w) != 0)
		goto out;
	dp_rt_encode_dynamic(&w);
	dp_rt_encode_pcs(&w);
	dp_rt_encode_static(&w);
	dp_rt_encode_info(&w, at_exit);
	for (int i = 0; i < DP_W_N; i++)
		w.failed |= w.chunk[i].failed;
	w.failed |= w.ps_entry.failed | w.css_of.failed;
	if (!w.failed)
		r = dp_rt_write_file(&w);
out:
	if (r && !w.failed && !dp_rt_g.stopped)
		w.failed = 1;
	if (w.failed)
		dp_rt_stop("cannot write the profile", "out of memory");
	for (int i = 0; i < DP_W_N; i++)
		dp_rt_buf_release(&w.chunk[i]);
	dp_rt_idmap_release(&w.ps);
	dp_rt_idmap_release(&w.css);
	dp_rt_buf_release(&w.ps_entry);
	dp_rt_buf_release(&w.css_of);
	dp_rt_buf_release(&w.snaps);
	return r;
}

/*
 * dp_rt_write - write the profile now (@at_exit: from the exit handler, with the exit
 * status). Serialised by the write lock; the calling thread is "inside" meanwhile.
 * Returns 0 or -1 (reason printed once and recorded). Keeps errno.
 */
DP_RT_NOINST int dp_rt_write(int at_exit)
{
	struct dp_rt_tls *t = &dp_rt_tls;
	int saved = errno, inside = t->inside, r;

	t->inside = 1;
	pthread_mutex_lock(&dp_rt_g.write_lock);
	r = dp_rt_write_locked(at_exit);
	pthread_mutex_unlock(&dp_rt_g.write_lock);
	t->inside = inside;
	errno = saved;
	return r;
}
