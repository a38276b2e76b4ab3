/*
 * cgi/cgi_dir.c - the protocol directory of deepprof-cgi and the files in it: the data
 * file's mangled name, the lock (O_CREAT|O_EXCL, with recovery from dead holders), the
 * want files, the pair of named pipes and the reply files. Every operation goes through
 * the directory's descriptor (the *at() calls) so a renamed or replaced path cannot
 * redirect it. When each is called, and why, is docs/internals/cgi.md.
 */
#define _POSIX_C_SOURCE 200809L /* openat, mkfifoat, fdopendir, O_CLOEXEC, nanosleep */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../core/err.h"
#include "cgi_int.h"

/* dp_cgi_now_ms: see cgi_int.h. */
int64_t dp_cgi_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* dp_cgi_log: see cgi_int.h. */
void dp_cgi_log(int fd, const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	int n, m;

	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "deepprof-cgi[%ld]: ", (long)getpid());
	va_start(ap, fmt);
	m = vsnprintf(line + n, sizeof(line) - (size_t)n - 1, fmt, ap);
	va_end(ap);
	if (m < 0)
		return;
	n = n + m < (int)sizeof(line) - 1 ? n + m : (int)sizeof(line) - 2;
	line[n++] = '\n';
	if (write(fd, line, (size_t)n) < 0)
		return; /* diagnostics are best effort */
}

/* dp_cgi_pid_alive: see cgi_int.h. */
bool dp_cgi_pid_alive(pid_t pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3u;
	return h;
}

/* dp_cgi_mangle: see cgi_int.h. */
void dp_cgi_mangle(const char *path, char *out, size_t len)
{
	char full[2 * DP_CGI_PATH_MAX + 1];
	size_t o = 0;

	for (const char *p = path; *p && o + 2 < sizeof(full); p++) {
		if (*p == '/' || *p == ':') {
			full[o++] = ':';
			full[o++] = *p == '/' ? '.' : ':';
		} else {
			full[o++] = *p;
		}
	}
	full[o] = '\0';
	if (o <= DP_CGI_MANGLE_MAX) {
		snprintf(out, len, "%s", full);
		return;
	}
	/* Too long for a file name: keep the distinctive end, and a hash of the path. A
	 * collision is still caught: every request carries the path, servers check it. */
	snprintf(out, len, "%s~%016llx", full + o - (DP_CGI_MANGLE_MAX - 20),
		 (unsigned long long)fnv1a(path));
}

/* dp_cgi_dir_open: see cgi_int.h. */
int dp_cgi_dir_open(struct dp_cgi_dir *d, const struct dp_cgi_conf *c, const char *path)
{
	struct stat st;

	memset(d, 0, sizeof(*d));
	d->log_fd = c->log_fd;
	if (mkdir(c->dir, 0700) < 0 && errno != EEXIST)
		return dp_error(DP_EIO, "%s: cannot create: %s", c->dir, strerror(errno));
	d->fd = open(c->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->fd < 0)
		return dp_error(DP_EIO, "%s: cannot open: %s", c->dir, strerror(errno));
	if (fstat(d->fd, &st) < 0 || st.st_uid != geteuid() || (st.st_mode & 077) != 0) {
		close(d->fd);
		d->fd = -1;
		return dp_error(DP_EUSAGE,
				"%s: refusing a directory that is not ours alone "
				"(owner %lu, mode %04o; want owner %lu, mode 0700)",
				c->dir, (unsigned long)st.st_uid, (unsigned)(st.st_mode & 07777),
				(unsigned long)geteuid());
	}
	dp_cgi_mangle(path, d->mangled, sizeof(d->mangled));
	snprintf(d->lock, sizeof(d->lock), "lock-%s", d->mangled);
	snprintf(d->brk, sizeof(d->brk), "lock-%s.break", d->mangled);
	snprintf(d->to, sizeof(d->to), "to-%s", d->mangled);
	snprintf(d->from, sizeof(d->from), "from-%s", d->mangled);
	snprintf(d->want_prefix, sizeof(d->want_prefix), "want-%s.", d->mangled);
	snprintf(d->reply_prefix, sizeof(d->reply_prefix), "reply-%s.", d->mangled);
	return 0;
}

/* dp_cgi_dir_close: see cgi_int.h. */
void dp_cgi_dir_close(struct dp_cgi_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

/* Create @name exclusively, holding our pid. Return: 0, 1 if it exists, or -DP_EIO. */
static int create_excl(struct dp_cgi_dir *d, const char *name)
{
	char pid[24];
	int fd = openat(d->fd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	int n;

	if (fd < 0)
		return errno == EEXIST ? 1 : dp_error(DP_EIO, "%s: %s", name, strerror(errno));
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (write(fd, pid, (size_t)n) != n) {
		close(fd);
		unlinkat(d->fd, name, 0);
		return dp_error(DP_EIO, "%s: cannot write", name);
	}
	close(fd);
	return 0;
}

/*
 * Remove @name (the lock or the break file) if the process written in it has died, or it
 * has stayed empty for DP_CGI_STALE_MS (its creator died between creating and writing
 * it); with @old_too, only if it is also that old. The pid is read through a descriptor,
 * and the name is removed only if it still names that same file: a lock released and
 * taken again meanwhile is a new file, which must not be removed on the old holder's
 * death. With its holder dead, no one but another breaker (kept out by the break file)
 * could remove or replace the file between the check and the unlink, and the open
 * descriptor keeps its inode number from being reused. Return: whether it was removed.
 */
static bool remove_if_stale(struct dp_cgi_dir *d, const char *name, bool old_too)
{
	char buf[24];
	struct stat st, now_st;
	struct timespec now;
	int64_t age;
	long pid;
	bool stale, removed = false;
	ssize_t n;
	int fd = openat(d->fd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0 || fstat(fd, &st) < 0)
		goto out;
	buf[n] = '\0';
	pid = strtol(buf, NULL, 10);
	clock_gettime(CLOCK_REALTIME, &now);
	age = ((int64_t)now.tv_sec - st.st_mtim.tv_sec) * 1000 +
	      (now.tv_nsec - st.st_mtim.tv_nsec) / 1000000;
	stale = pid > 0 ? !dp_cgi_pid_alive((pid_t)pid) : age > DP_CGI_STALE_MS;
	if (old_too && age <= DP_CGI_STALE_MS)
		stale = false;
	if (stale && fstatat(d->fd, name, &now_st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    now_st.st_ino == st.st_ino && now_st.st_dev == st.st_dev) {
		dp_cgi_log(d->log_fd, "breaking %s of dead process %ld", name, pid);
		removed = unlinkat(d->fd, name, 0) == 0;
	}
out:
	close(fd);
	return removed;
}

/* Remove the lock if its holder has died. Only one process at a time decides: the one
 * holding the break file (O_EXCL too); a break file left by a dead breaker is removed
 * once it is old. */
static void break_stale(struct dp_cgi_dir *d)
{
	if (create_excl(d, d->brk) != 0) {
		remove_if_stale(d, d->brk, true);
		return;
	}
	remove_if_stale(d, d->lock, false);
	unlinkat(d->fd, d->brk, 0);
}

/* dp_cgi_lock: see cgi_int.h. */
int dp_cgi_lock(struct dp_cgi_dir *d, int wait_ms)
{
	int64_t start = dp_cgi_now_ms(), now;
	int64_t next_check = 500;
	long sleep_us = 200;

	for (;;) {
		int rc = create_excl(d, d->lock);

		if (rc <= 0)
			return rc;
		now = dp_cgi_now_ms();
		if (now - start >= wait_ms)
			return 1;
		if (now - start >= next_check) { /* rare: a holder killed while holding it */
			break_stale(d);
			next_check = now - start + 250;
		}
		struct timespec ts = {0, sleep_us * 1000};

		nanosleep(&ts, NULL);
		sleep_us = sleep_us * 2 > 10000 ? 10000 : sleep_us * 2;
	}
}

/* dp_cgi_unlock: see cgi_int.h. */
void dp_cgi_unlock(struct dp_cgi_dir *d)
{
	unlinkat(d->fd, d->lock, 0);
}

/* dp_cgi_want_create: see cgi_int.h. */
int dp_cgi_want_create(struct dp_cgi_dir *d, pid_t pid)
{
	char name[DP_CGI_NAME_MAX + 24];
	int fd;

	snprintf(name, sizeof(name), "%s%ld", d->want_prefix, (long)pid);
	fd = openat(d->fd, name, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return dp_error(DP_EIO, "%s: %s", name, strerror(errno));
	close(fd);
	return 0;
}

/* dp_cgi_want_remove: see cgi_int.h. */
void dp_cgi_want_remove(struct dp_cgi_dir *d, pid_t pid)
{
	char name[DP_CGI_NAME_MAX + 24];

	snprintf(name, sizeof(name), "%s%ld", d->want_prefix, (long)pid);
	unlinkat(d->fd, name, 0);
}

/*
 * Visit the files PREFIX<pid> of the directory: those of dead processes are removed;
 * return whether one of a live process (other than us) exists. PREFIX ends in '.' and the
 * rest must be all digits, so no other data file's names can match (see dp_cgi_mangle).
 */
static bool sweep(struct dp_cgi_dir *d, const char *prefix, bool stop_at_live)
{
	size_t n = strlen(prefix);
	int fd = openat(d->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	bool live = false;

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return true; /* cannot tell: assume someone wants the server */
	}
	while (!(live && stop_at_live) && (e = readdir(dir)) != NULL) {
		const char *s = e->d_name + n;
		char *end;
		long pid;

		if (strncmp(e->d_name, prefix, n) != 0 || *s < '0' || *s > '9')
			continue;
		pid = strtol(s, &end, 10);
		if (*end)
			continue;
		if (pid != (long)getpid() && dp_cgi_pid_alive((pid_t)pid))
			live = true;
		else if (pid != (long)getpid())
			unlinkat(d->fd, e->d_name, 0);
	}
	closedir(dir);
	return live;
}

/* dp_cgi_want_any: see cgi_int.h. */
bool dp_cgi_want_any(struct dp_cgi_dir *d)
{
	return sweep(d, d->want_prefix, true);
}

/* dp_cgi_sweep_replies: see cgi_int.h. */
void dp_cgi_sweep_replies(struct dp_cgi_dir *d)
{
	sweep(d, d->reply_prefix, false);
}

static bool is_fifo(struct dp_cgi_dir *d, const char *name)
{
	struct stat st;

	return fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISFIFO(st.st_mode);
}

/* dp_cgi_pipes_exist: see cgi_int.h. */
bool dp_cgi_pipes_exist(struct dp_cgi_dir *d)
{
	if (is_fifo(d, d->to) && is_fifo(d, d->from))
		return true;
	dp_cgi_pipes_remove(d); /* half a pair: what a crash between two unlinks leaves */
	return false;
}

/* dp_cgi_pipes_create: see cgi_int.h. */
int dp_cgi_pipes_create(struct dp_cgi_dir *d)
{
	dp_cgi_pipes_remove(d);
	if (mkfifoat(d->fd, d->to, 0600) < 0 || mkfifoat(d->fd, d->from, 0600) < 0) {
		int e = errno;

		dp_cgi_pipes_remove(d);
		return dp_error(DP_EIO, "cannot create the pipes %s, %s: %s", d->to, d->from,
				strerror(e));
	}
	return 0;
}

/* dp_cgi_pipes_remove: see cgi_int.h. */
void dp_cgi_pipes_remove(struct dp_cgi_dir *d)
{
	unlinkat(d->fd, d->to, 0);
	unlinkat(d->fd, d->from, 0);
}
