/*
 * cli/run_tree.c - the processes of one `deepprof run` (run_tree.h): a private
 * directory for the profiles the processes write, symbolized, merged or kept one per
 * process, and removed.
 */
#define _GNU_SOURCE /* mkdtemp */

#include "run_tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../analysis/profile_merge.h"
#include "../core/err.h"
#include "../core/vec.h"
#include "../symbol/symbol.h"

struct dp_run_file {
	char path[PATH_MAX]; /* in the private directory */
	long pid;
};

static const char *tmp_base(void)
{
	const char *d = getenv("TMPDIR");

	return d && d[0] == '/' ? d : "/tmp";
}

int dp_run_tree_open(struct dp_run_tree *t)
{
	const char *base = tmp_base();
	size_t n = 0;
	int len;

	len = snprintf(t->dir, sizeof(t->dir), "%s%sdeepprof-run.XXXXXX", base,
		       base[strlen(base) - 1] == '/' ? "" : "/");
	if (len < 0 || (size_t)len >= sizeof(t->dir) || !mkdtemp(t->dir)) {
		fprintf(stderr, "deepprof run: cannot make a temporary directory in %s: %s\n", base,
			len < 0 || (size_t)len >= sizeof(t->dir) ? "name too long"
								 : strerror(errno));
		t->dir[0] = '\0';
		return -1;
	}
	for (const char *s = t->dir; *s && n + 16 < sizeof(t->pattern); s++) {
		if (*s == '%')
			t->pattern[n++] = '%';
		t->pattern[n++] = *s;
	}
	t->pattern[n] = '\0';
	if (n + 16 >= sizeof(t->pattern)) {
		fprintf(stderr, "deepprof run: temporary directory name too long\n");
		dp_run_tree_close(t);
		return -1;
	}
	memcpy(t->pattern + n, "/%e.%p.data", sizeof("/%e.%p.data"));
	return 0;
}

void dp_run_tree_close(struct dp_run_tree *t)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	if (!t->dir[0])
		return;
	d = opendir(t->dir);
	while (d && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", t->dir, e->d_name) < (int)sizeof(path))
			unlink(path);
	}
	if (d)
		closedir(d);
	if (rmdir(t->dir) != 0)
		fprintf(stderr, "deepprof run: cannot remove %s: %s\n", t->dir, strerror(errno));
	t->dir[0] = '\0';
}

/* Symbolize @path (in directory @dir) in place; a failure is reported and the file
 * stays as it is. Messages name the file without the private directory. */
static void symbolize(const char *dir, const char *path)
{
	struct dp_symbolize_opts opts;
	size_t dn = strlen(dir);
	char summary[512];
	const char *s = summary;

	memset(&opts, 0, sizeof(opts));
	summary[0] = '\0';
	if (dp_symbolize_file(path, &opts, summary, sizeof(summary)) < 0) {
		fprintf(stderr, "deepprof: cannot symbolize: %s\n", dp_errmsg());
		return;
	}
	if (strncmp(s, dir, dn) == 0 && s[dn] == '/')
		s += dn + 1;
	if (*s)
		fprintf(stderr, "deepprof: %s\n", s);
}

/* The pid in a runtime's file name "PROG.PID.data", or -1 if @name is not one. */
static long file_pid(const char *name)
{
	size_t n = strlen(name);
	const char *p;
	long pid = 0;

	if (name[0] == '.' || n < 8 || strcmp(name + n - 5, ".data") != 0)
		return -1;
	p = name + n - 5;
	while (p > name && p[-1] >= '0' && p[-1] <= '9')
		p--;
	if (p == name + n - 5 || p == name || p[-1] != '.' || n - 5 - (size_t)(p - name) > 9)
		return -1;
	for (; *p != '.'; p++)
		pid = pid * 10 + (*p - '0');
	return pid;
}

static int pid_cmp(const void *a, const void *b)
{
	const struct dp_run_file *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* The profiles in @dir, sorted by pid, into *@out (malloc'd); their number, or -1. */
static int list_files(const char *dir, struct dp_run_file **out)
{
	struct dp_run_file *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	DIR *d = opendir(dir);

	if (!d) {
		fprintf(stderr, "deepprof run: cannot read %s: %s\n", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		long pid = file_pid(e->d_name);

		if (pid < 0)
			continue;
		if (DP_VEC_GROWZ(v, cap, n + 1) < 0) {
			fprintf(stderr, "deepprof run: out of memory\n");
			free(v);
			closedir(d);
			return -1;
		}
		if (snprintf(v[n].path, sizeof(v[n].path), "%s/%s", dir, e->d_name) >=
		    (int)sizeof(v[n].path))
			continue;
		v[n++].pid = pid;
	}
	closedir(d);
	if (n > 1)
		qsort(v, n, sizeof(*v), pid_cmp);
	*out = v;
	return (int)n;
}

/* Copy @src to @dst (another file system: rename cannot). 0, or -1 with errno set. */
static int copy_file(const char *src, const char *dst)
{
	char buf[65536];
	int in = open(src, O_RDONLY | O_CLOEXEC), out, err = 0;
	ssize_t r;

	if (in < 0)
		return -1;
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (out < 0) {
		err = errno;
		close(in);
		errno = err;
		return -1;
	}
	while (!err && (r = read(in, buf, sizeof(buf))) != 0) {
		if (r < 0) {
			if (errno != EINTR)
				err = errno;
			continue;
		}
		for (ssize_t w, off = 0; off < r && !err; off += w > 0 ? w : 0) {
			w = write(out, buf + off, (size_t)(r - off));
			if (w < 0 && errno != EINTR)
				err = errno;
		}
	}
	if (close(out) != 0 && !err)
		err = errno;
	close(in);
	if (err) {
		struct stat st;

		if (stat(dst, &st) == 0 && S_ISREG(st.st_mode))
			unlink(dst); /* never a device or FIFO it was writing into */
		errno = err;
		return -1;
	}
	return 0;
}

/* Move @src to @dst: renamed, or copied when @dst is on another file system or exists
 * and is not a regular file (/dev/null, a FIFO: renaming would replace the device node
 * with a file, which as root breaks /dev/null for the whole machine). */
static int move_file(const char *src, const char *dst)
{
	struct stat st;

	if (stat(dst, &st) == 0 && !S_ISREG(st.st_mode)) {
		if (copy_file(src, dst) == 0) {
			unlink(src);
			return 0;
		}
	} else if (rename(src, dst) == 0) {
		return 0;
	} else if (errno == EXDEV && copy_file(src, dst) == 0) {
		return 0;
	}
	fprintf(stderr, "deepprof run: cannot write %s: %s\n", dst, strerror(errno));
	return -1;
}

/* Where the profile goes: @output, or $TMPDIR and its last component when @output's
 * directory is gone or not writable (*@instead = 1). */
static void target_path(const char *output, char *out, size_t len, int *instead)
{
	char dir[PATH_MAX];
	const char *base = tmp_base(), *slash = strrchr(output, '/');

	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - output), output);
	*instead = access(dir[0] ? dir : "/", W_OK) != 0;
	if (*instead)
		snprintf(out, len, "%s%s", base, base[strlen(base) - 1] == '/' ? slash + 1 : slash);
	else
		snprintf(out, len, "%s", output);
}

/* The per-process name of process @pid: @out's stem + ".PID.data" (or @out + ".PID").
 * 0, or -1 if too long. */
static int process_path(const char *out, long pid, char *buf, size_t len)
{
	size_t n = strlen(out);
	int r;

	if (n >= 5 && strcmp(out + n - 5, ".data") == 0)
		r = snprintf(buf, len, "%.*s.%ld.data", (int)(n - 5), out, pid);
	else
		r = snprintf(buf, len, "%s.%ld", out, pid);
	return r < 0 || (size_t)r >= len ? -1 : 0;
}

/* --per-process: @v[0..n) to their own names; into @written the top's (else the first). */
static void keep_each(const struct dp_run_file *v, int n, const char *out, int instead, pid_t top,
		      char *written)
{
	char dst[PATH_MAX];

	written[0] = '\0';
	for (int i = 0; i < n; i++) {
		if (v[i].pid == (long)top)
			snprintf(dst, sizeof(dst), "%s", out);
		else if (process_path(out, v[i].pid, dst, sizeof(dst)) != 0) {
			fprintf(stderr, "deepprof run: %s: name too long\n", out);
			continue;
		}
		if (move_file(v[i].path, dst) != 0)
			continue;
		fprintf(stderr, "deepprof: process %ld: profile written to %s%s\n", v[i].pid, dst,
			instead ? " instead" : "");
		if (v[i].pid == (long)top || !written[0])
			snprintf(written, PATH_MAX, "%s", dst);
	}
}

int dp_run_tree_gather(struct dp_run_tree *t, const char *output, pid_t top, int per_process,
		       char *written)
{
	const char **paths;
	struct dp_run_file *v;
	char out[PATH_MAX];
	int n, instead;

	written[0] = '\0';
	n = list_files(t->dir, &v);
	if (n <= 0)
		return n;
	for (int i = 0; i < n; i++)
		symbolize(t->dir, v[i].path);
	target_path(output, out, sizeof(out), &instead);
	if (per_process) {
		keep_each(v, n, out, instead, top, written);
		free(v);
		return n;
	}
	if (n == 1) {
		if (move_file(v[0].path, out) == 0) {
			fprintf(stderr, "deepprof: profile written to %s%s\n", out,
				instead ? " instead" : "");
			snprintf(written, PATH_MAX, "%s", out);
		}
		free(v);
		return n;
	}
	paths = malloc((size_t)n * sizeof(*paths));
	if (!paths) {
		fprintf(stderr, "deepprof run: out of memory\n");
		free(v);
		return -1;
	}
	for (int i = 0; i < n; i++)
		paths[i] = v[i].path;
	if (dp_merge_files(paths, (uint32_t)n, 0, NULL, out) == 0) {
		fprintf(stderr, "deepprof: profile written to %s%s (%d processes merged)\n", out,
			instead ? " instead" : "", n);
		snprintf(written, PATH_MAX, "%s", out);
	} else {
		fprintf(stderr,
			"deepprof: cannot merge the profiles of the %d processes: %s; "
			"keeping one file per process\n",
			n, dp_errmsg());
		keep_each(v, n, out, instead, top, written);
	}
	free(paths);
	free(v);
	return n;
}
