/*
 * runtime/rt_meta.c - what the writer needs besides the graph: its growable mmap'd
 * byte buffers with the format's encoders, the output file name (DEEPPROF_OUTPUT with
 * %p and %e, fork children), the program path, command line, thread names and the
 * loaded objects (dl_iterate_phdr: bias, PT_LOAD segments, GNU build-id). No malloc.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "deepprof/format.h"
#include "rt_int.h"

static char dp_rt_pattern[4096] = "Deep.data";
static char dp_rt_prog[4096];

static int dp_rt_cat(char *buf, size_t len, size_t *n, const char *s, size_t sn);

/* dp_rt_buf_release - unmap @b's memory and make it empty. */
DP_RT_NOINST void dp_rt_buf_release(struct dp_rt_buf *b)
{
	if (b->p)
		munmap(b->p, b->cap);
	b->p = NULL;
	b->len = b->cap = 0;
	b->failed = 0;
}

/* dp_rt_buf_room - append @n bytes to @b and return them, or NULL (b->failed set). */
DP_RT_NOINST void *dp_rt_buf_room(struct dp_rt_buf *b, size_t n)
{
	if (b->failed)
		return NULL;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : (size_t)64 << 10;
		void *p;

		while (cap < b->len + n)
			cap *= 2;
		if (b->p)
			p = mremap(b->p, b->cap, cap, MREMAP_MAYMOVE);
		else
			p = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
				 0);
		if (p == MAP_FAILED) {
			b->failed = 1;
			return NULL;
		}
		b->p = p;
		b->cap = cap;
	}
	b->len += n;
	return b->p + b->len - n;
}

/* Write @v at @p as a num (big-endian varint, as dp_fmt_put_varint); returns its size. */
DP_RT_NOINST static inline size_t dp_rt_put_num(uint8_t *p, uint64_t v)
{
	size_t n = ((size_t)(64 - __builtin_clzll(v | 1)) + 6) / 7;

	p[n - 1] = (uint8_t)(v & 0x7F);
	for (size_t i = n - 1; i > 0; i--) {
		v >>= 7;
		p[i - 1] = (uint8_t)(0x80 | (v & 0x7F));
	}
	return n;
}

/* dp_rt_buf_num - append @v as a num (big-endian varint). */
DP_RT_NOINST void dp_rt_buf_num(struct dp_rt_buf *b, uint64_t v)
{
	dp_rt_buf_nums(b, &v, 1);
}

/* dp_rt_buf_nums - append the @n values of @v as nums, with one check for room (the
 * writer's records: its time is mostly in these). */
DP_RT_NOINST void dp_rt_buf_nums(struct dp_rt_buf *b, const uint64_t *v, size_t n)
{
	uint8_t *p = dp_rt_buf_room(b, n * DP_VARINT_MAX), *q = p;

	if (!p)
		return;
	for (size_t i = 0; i < n; i++) {
		if (v[i] < 0x80)
			*q++ = (uint8_t)v[i];
		else
			q += dp_rt_put_num(q, v[i]);
	}
	b->len -= n * DP_VARINT_MAX - (size_t)(q - p);
}

/* dp_rt_buf_str - append a str: num length @n, then the bytes of @s. */
DP_RT_NOINST void dp_rt_buf_str(struct dp_rt_buf *b, const char *s, size_t n)
{
	uint8_t *p;

	dp_rt_buf_num(b, n);
	p = dp_rt_buf_room(b, n);
	if (p && n)
		memcpy(p, s, n);
}

/* Append @s escaped for the pattern (% doubled) at @n in @buf of @len bytes; -1 if it
 * does not fit. */
DP_RT_NOINST static int dp_rt_cat_esc(char *buf, size_t len, size_t *n, const char *s)
{
	for (; *s; s++) {
		if (*n + 2 >= len)
			return -1;
		if (*s == '%')
			buf[(*n)++] = '%';
		buf[(*n)++] = *s;
	}
	buf[*n] = 0;
	return 0;
}

/*
 * dp_rt_output_init - fix the output pattern when the runtime starts (global init):
 * DEEPPROF_OUTPUT (default Deep.data) with %e expanded and, if relative, the current
 * directory put in front, so that a program that calls chdir() still writes where it
 * was started. %p and %% stay for the writer (a fork child writes its own pid).
 */
DP_RT_NOINST void dp_rt_output_init(void)
{
	const char *s = getenv("DEEPPROF_OUTPUT");
	const char *prog = dp_rt_program(), *base = strrchr(prog, '/');
	char cwd[sizeof(dp_rt_pattern)], out[sizeof(dp_rt_pattern)];
	size_t n = 0;
	int r = 0;

	base = base ? base + 1 : prog;
	if (!s || !*s)
		s = "Deep.data";
	out[0] = 0;
	if (s[0] != '/') {
		if (!getcwd(cwd, sizeof(cwd))) {
			dp_rt_say("deepprof: no current directory; the profile goes to ", s,
				  " relative to the directory at exit\n");
			cwd[0] = 0;
		}
		if (cwd[0])
			r = dp_rt_cat_esc(out, sizeof(out), &n, cwd) ||
			    dp_rt_cat(out, sizeof(out), &n, cwd[1] ? "/" : "", cwd[1] ? 1 : 0);
	}
	for (; *s && !r; s++) {
		if (s[0] == '%' && s[1] == 'e') {
			r = dp_rt_cat_esc(out, sizeof(out), &n, base);
			s++;
		} else if (s[0] == '%' && s[1]) {
			r = dp_rt_cat(out, sizeof(out), &n, s, 2);
			s++;
		} else {
			r = dp_rt_cat(out, sizeof(out), &n, s, 1);
		}
	}
	if (r) {
		dp_rt_say("deepprof: DEEPPROF_OUTPUT too long; using Deep.data\n", NULL, NULL);
		return;
	}
	memcpy(dp_rt_pattern, out, n + 1);
}

/* dp_rt_program - absolute path of the executable ("" if unknown). */
DP_RT_NOINST const char *dp_rt_program(void)
{
	ssize_t n = readlink("/proc/self/exe", dp_rt_prog, sizeof(dp_rt_prog) - 1);

	dp_rt_prog[n > 0 ? n : 0] = 0;
	return dp_rt_prog;
}

/* Append @s (NUL-terminated) at @n in @buf of @len bytes; -1 if it does not fit. */
DP_RT_NOINST static int dp_rt_cat(char *buf, size_t len, size_t *n, const char *s, size_t sn)
{
	if (*n + sn >= len)
		return -1;
	memcpy(buf + *n, s, sn);
	*n += sn;
	buf[*n] = 0;
	return 0;
}

DP_RT_NOINST static size_t dp_rt_utoa(char *out, uint64_t v)
{
	char tmp[24];
	size_t n = 0, i;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		out[i] = tmp[n - 1 - i];
	out[n] = 0;
	return n;
}

/*
 * dp_rt_output_name - the output file name into @buf (@len bytes): the pattern fixed at
 * start (dp_rt_output_init) with %p = pid, %% = %. In a fork child whose pattern has no %p,
 * ".PID" goes before a final ".data", or at the end. Returns 0, or -1 if too long.
 */
DP_RT_NOINST static int dp_rt_output_name1(char *buf, size_t len)
{
	char pid[24];
	size_t n = 0, pn = dp_rt_utoa(pid, (uint64_t)dp_rt_g.pid);
	int has_pid = 0, r = 0;

	buf[0] = 0;
	for (const char *s = dp_rt_pattern; *s && !r; s++) {
		if (s[0] == '%' && s[1] == 'p') {
			r = dp_rt_cat(buf, len, &n, pid, pn);
			has_pid = 1;
			s++;
		} else if (s[0] == '%' && s[1] == '%') {
			r = dp_rt_cat(buf, len, &n, "%", 1);
			s++;
		} else {
			r = dp_rt_cat(buf, len, &n, s, 1);
		}
	}
	if (r || has_pid || !dp_rt_g.forked_child)
		return r;
	if (n >= 5 && !strcmp(buf + n - 5, ".data")) {
		n -= 5;
		buf[n] = 0;
		if (dp_rt_cat(buf, len, &n, ".", 1) || dp_rt_cat(buf, len, &n, pid, pn))
			return -1;
		return dp_rt_cat(buf, len, &n, ".data", 5);
	}
	if (dp_rt_cat(buf, len, &n, ".", 1))
		return -1;
	return dp_rt_cat(buf, len, &n, pid, pn);
}

/*
 * dp_rt_output_names - the output file name into @name and the temporary file it is
 * written to first (NAME.tmp.PID, same directory) into @tmp, both @len bytes. Returns 0,
 * or -1 if too long.
 */
DP_RT_NOINST int dp_rt_output_names(char *name, char *tmp, size_t len)
{
	char pid[24];
	size_t pn = dp_rt_utoa(pid, (uint64_t)dp_rt_g.pid), n;

	if (dp_rt_output_name1(name, len) != 0)
		return -1;
	n = strlen(name);
	memcpy(tmp, name, n + 1);
	if (dp_rt_cat(tmp, len, &n, ".tmp.", 5) != 0)
		return -1;
	return dp_rt_cat(tmp, len, &n, pid, pn);
}

/* Read a whole small /proc file into @b; returns its length or -1. */
DP_RT_NOINST static ssize_t dp_rt_slurp(const char *path, struct dp_rt_buf *b)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r, total = 0;
	uint8_t *p;

	if (fd < 0)
		return -1;
	for (;;) {
		p = dp_rt_buf_room(b, 4096);
		if (!p)
			break;
		do
			r = read(fd, p, 4096);
		while (r < 0 && errno == EINTR);
		b->len -= 4096 - (size_t)(r > 0 ? r : 0);
		if (r <= 0)
			break;
		total += r;
	}
	close(fd);
	return total;
}

/* dp_rt_cmdline - append the command line as strs to @b; returns the count. */
DP_RT_NOINST uint32_t dp_rt_cmdline(struct dp_rt_buf *b)
{
	struct dp_rt_buf raw = {0};
	uint32_t n = 0;
	size_t i, start = 0;

	if (dp_rt_slurp("/proc/self/cmdline", &raw) > 0) {
		for (i = 0; i < raw.len; i++) {
			if (raw.p[i])
				continue;
			dp_rt_buf_str(b, (const char *)raw.p + start, i - start);
			n++;
			start = i + 1;
		}
	}
	dp_rt_buf_release(&raw);
	return n;
}

/* dp_rt_thread_name - @th's name: the live one from /proc, else the one kept at exit. */
DP_RT_NOINST void dp_rt_thread_name(const struct dp_rt_thread *th, char *out, size_t len)
{
	char path[64] = "/proc/self/task/";
	size_t n = strlen(path);
	ssize_t r = -1;
	int fd;

	n += dp_rt_utoa(path + n, (uint64_t)th->tid);
	memcpy(path + n, "/comm", 6);
	if (!(DP_RT_LOAD_ACQ(&th->flags) & DP_THREAD_ENDED)) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			r = read(fd, out, len - 1);
			close(fd);
		}
	}
	if (r <= 0) {
		memcpy(out, th->name, len < sizeof(th->name) ? len : sizeof(th->name));
		out[len - 1] = 0;
		return;
	}
	out[r] = 0;
	if (r > 0 && out[r - 1] == '\n')
		out[r - 1] = 0;
}

/* The GNU build-id of the object in @info, or a zero length. */
DP_RT_NOINST static const uint8_t *dp_rt_build_id(const struct dl_phdr_info *info, size_t *len)
{
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const uint8_t *p, *end;

		if (ph->p_type != PT_NOTE)
			continue;
		p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
		end = p + ph->p_memsz;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *nh = (const void *)p;
			size_t name = (nh->n_namesz + 3u) & ~3u, desc = (nh->n_descsz + 3u) & ~3u;
			const uint8_t *d = p + sizeof(*nh) + name;

			if (d + desc > end)
				break;
			if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
			    !memcmp(p + sizeof(*nh), "GNU", 4)) {
				*len = nh->n_descsz;
				return d;
			}
			p = d + desc;
		}
	}
	*len = 0;
	return NULL;
}

struct dp_rt_objs {
	struct dp_rt_buf *b;
	uint32_t n;
};

DP_RT_NOINST static int dp_rt_object_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct dp_rt_objs *o = arg;
	const char *path = info->dlpi_name;
	const uint8_t *id;
	size_t idlen;
	uint32_t nseg = 0;

	(void)size;
	if (!path || !*path) {
		if (o->n)
			return 0; /* unnamed objects other than the executable: nothing to find */
		path = dp_rt_prog;
	}
	dp_rt_buf_str(o->b, path, strlen(path));
	dp_rt_buf_num(o->b, (uint64_t)info->dlpi_addr);
	id = dp_rt_build_id(info, &idlen);
	if (idlen > 64)
		idlen = 0; /* not a real build-id: the format allows at most 64 bytes */
	dp_rt_buf_str(o->b, (const char *)id, idlen);
	for (int i = 0; i < info->dlpi_phnum; i++)
		nseg += info->dlpi_phdr[i].p_type == PT_LOAD;
	dp_rt_buf_num(o->b, nseg);
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		dp_rt_buf_num(o->b, (uint64_t)(info->dlpi_addr + ph->p_vaddr));
		dp_rt_buf_num(o->b, (uint64_t)ph->p_memsz);
		dp_rt_buf_num(o->b, (uint64_t)ph->p_flags);
	}
	o->n++;
	return 0;
}

/* dp_rt_objects - append the OBJS records (without the count) to @b; returns the count.
 * The executable, which the dynamic linker leaves unnamed, gets its absolute path. */
DP_RT_NOINST uint32_t dp_rt_objects(struct dp_rt_buf *b)
{
	struct dp_rt_objs o = {b, 0};

	dp_rt_program();
	dl_iterate_phdr(dp_rt_object_cb, &o);
	return o.n;
}
