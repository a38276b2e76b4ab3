/*
 * import/imp_input.c - reading the importers' inputs: a whole file into memory, or the
 * standard output of a helper program (`perf script`), and the entry points of
 * import.h: format names, guessing the format, dispatch.
 */
#define _GNU_SOURCE /* O_CLOEXEC, pipe, fork, execvp, MAP_POPULATE, madvise */

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../core/err.h"
#include "../core/vec.h"
#include "deepprof/format.h"
#include "imp_int.h"
#include "import.h"

/* Appends everything readable from @fd to the buffer *@data (*@len used, *@cap size). */
static int slurp(int fd, const char *name, char **data, size_t *len, size_t *cap)
{
	for (;;) {
		ssize_t n;

		if (DP_VEC_GROWZ(*data, *cap, *len + 65536 + 1) < 0)
			return dp_error(DP_ENOMEM, "%s: out of memory reading %zu bytes", name,
					*len + 65536 + 1);
		n = read(fd, *data + *len, *cap - *len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return dp_error(DP_EIO, "%s: read failed: %s", name, strerror(errno));
		if (n == 0)
			break;
		*len += (size_t)n;
	}
	(*data)[*len] = 0;
	return 0;
}

int imp_read_all(const char *path, char **data, size_t *len)
{
	struct stat st;
	size_t cap = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	*data = NULL;
	*len = 0;
	if (fd < 0)
		return dp_error(errno == ENOENT ? DP_ENOENT : DP_EIO, "%s: cannot open: %s", path,
				strerror(errno));
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		close(fd);
		return dp_error(DP_EIO, "%s: is a directory", path);
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		cap = (size_t)st.st_size + 65536 + 2;
		*data = malloc(cap);
		if (!*data) {
			close(fd);
			return dp_error(DP_ENOMEM, "%s: out of memory reading %zu bytes", path,
					cap);
		}
	}
	rc = slurp(fd, path, data, len, &cap);
	close(fd);
	if (rc < 0) {
		free(*data);
		*data = NULL;
	}
	return rc;
}

int imp_map_file(const char *path, const uint8_t **data, size_t *len)
{
	struct stat st;
	void *m;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*data = NULL;
	*len = 0;
	if (fd < 0)
		return dp_error(errno == ENOENT ? DP_ENOENT : DP_EIO, "%s: cannot open: %s", path,
				strerror(errno));
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return dp_error(DP_EIO, "%s: not a regular file", path);
	}
	if (st.st_size == 0) {
		close(fd);
		return 0;
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return dp_error(DP_EIO, "%s: cannot map: %s", path, strerror(errno));
	madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
	*data = m;
	*len = (size_t)st.st_size;
	return 0;
}

void imp_unmap_file(const uint8_t *data, size_t len)
{
	void *m;

	if (!data)
		return;
	memcpy(&m, &data, sizeof(m)); /* munmap's prototype is not const */
	munmap(m, len);
}

int imp_contents(const struct dp_import_opts *o, char **data, size_t *len)
{
	if (!o->data)
		return imp_read_all(o->input, data, len);
	*data = malloc(o->len + 1);
	if (!*data)
		return dp_error(DP_ENOMEM, "%s: out of memory", o->input);
	if (o->len)
		memcpy(*data, o->data, o->len);
	(*data)[o->len] = 0;
	*len = o->len;
	return 0;
}

int imp_run_capture(const char *const argv[], const char *what, char **data, size_t *len)
{
	int fds[2], status = 0, rc;
	size_t cap = 0;
	pid_t pid;

	*data = NULL;
	*len = 0;
	if (pipe(fds) < 0)
		return dp_error(DP_EIO, "%s: pipe failed: %s", what, strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return dp_error(DP_EIO, "%s: fork failed: %s", what, strerror(errno));
	}
	if (pid == 0) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		char *const *av;

		memcpy(&av, &argv, sizeof(av)); /* execvp's prototype predates const */
		execvp(av[0], av);
		_exit(127);
	}
	close(fds[1]);
	rc = slurp(fds[0], what, data, len, &cap);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (rc == 0 && (!WIFEXITED(status) || WEXITSTATUS(status) != 0))
		rc = dp_error(DP_EIO, "%s failed (%s %d)%s", what,
			      WIFEXITED(status) ? "exit status" : "signal",
			      WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			      WIFEXITED(status) && WEXITSTATUS(status) == 127
				      ? ": cannot run it (not installed?)"
				      : "");
	if (rc < 0) {
		free(*data);
		*data = NULL;
	}
	return rc;
}

int dp_import_from_name(const char *s, enum dp_import_from *from)
{
	static const struct {
		const char *name;
		enum dp_import_from from;
	} names[] = {
		{"folded", DP_IMPORT_FOLDED}, {"uftrace", DP_IMPORT_UFTRACE},
		{"perf", DP_IMPORT_PERF},     {"perf-script", DP_IMPORT_PERF_SCRIPT},
		{"pprof", DP_IMPORT_PPROF},   {"auto", DP_IMPORT_AUTO},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strcmp(s, names[i].name) == 0) {
			*from = names[i].from;
			return 0;
		}
	}
	return dp_error(DP_EUSAGE,
			"unknown input format '%s' (folded, uftrace, perf, perf-script, pprof)", s);
}

/* Does the text at @s look like `perf script` output: a header line, then a line
 * starting with a tab (the first callchain frame)? */
static int looks_like_perf_script(const char *s, size_t n)
{
	const char *nl = memchr(s, '\n', n);

	return nl && nl + 1 < s + n && nl[1] == '\t' && s[0] != '\t';
}

int dp_import_guess(const char *path, enum dp_import_from *from)
{
	unsigned char head[4096];
	struct stat st;
	ssize_t n;
	int fd;

	if (stat(path, &st) < 0)
		return dp_error(errno == ENOENT ? DP_ENOENT : DP_EIO, "%s: cannot open: %s", path,
				strerror(errno));
	if (S_ISDIR(st.st_mode)) {
		*from = DP_IMPORT_UFTRACE;
		return 0;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return dp_error(DP_EIO, "%s: cannot open: %s", path, strerror(errno));
	n = read(fd, head, sizeof(head) - 1);
	close(fd);
	if (n < 0)
		return dp_error(DP_EIO, "%s: read failed: %s", path, strerror(errno));
	head[n] = 0;
	if (n >= 8 && memcmp(head, "PERFILE2", 8) == 0)
		*from = DP_IMPORT_PERF;
	else if (n >= 2 && head[0] == 0x1f && head[1] == 0x8b)
		*from = DP_IMPORT_PPROF;
	else if (n >= 1 && (head[0] == 0x0a || head[0] == 0x12) && memchr(head, 0, (size_t)n))
		*from = DP_IMPORT_PPROF; /* field 1 or 2, length-delimited, binary */
	else if (looks_like_perf_script((const char *)head, (size_t)n))
		*from = DP_IMPORT_PERF_SCRIPT;
	else
		*from = DP_IMPORT_FOLDED;
	return 0;
}

int dp_import(const struct dp_import_opts *o, struct dp_profile *out)
{
	struct dp_import_opts opts = *o;
	struct imp b;
	int rc;

	memset(out, 0, sizeof(*out));
	if (opts.from == DP_IMPORT_AUTO && (rc = dp_import_guess(opts.input, &opts.from)) < 0)
		return rc;
	if (opts.metric == 0)
		opts.metric = DP_CSD_SAMPLES;
	rc = imp_begin(&b, out);
	if (rc < 0)
		return rc;
	switch (opts.from) {
	case DP_IMPORT_FOLDED:
		rc = dp_imp_folded(&b, &opts);
		break;
	case DP_IMPORT_UFTRACE:
		rc = dp_imp_uftrace(&b, &opts);
		break;
	case DP_IMPORT_PERF:
	case DP_IMPORT_PERF_SCRIPT:
		rc = dp_imp_perf(&b, &opts);
		break;
	case DP_IMPORT_PPROF:
		rc = dp_imp_pprof(&b, &opts);
		break;
	default:
		rc = dp_error(DP_EUSAGE, "no input format given");
		imp_abort(&b);
	}
	return rc;
}
