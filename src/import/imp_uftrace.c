/*
 * import/imp_uftrace.c - a `uftrace record` directory (uftrace 0.8 and later, file
 * version 4): `info` (header and exename), `task.txt` (sessions and tasks),
 * `sid-SID.map` (the session's memory map), `NAME.sym` (each object's symbols, relative
 * to its load address) and one `TID.dat` per thread: 16-byte records
 *   u64 time (ns); u64 bits: type 0-1 (entry, exit, lost, event), more 2, magic 3-5
 *   (= 5), depth 6-15, address 16-63 (the function's address).
 * Entries and exits move the thread's context stack: exact calls, exits, callseqs, and
 * the time between two records charged to the activation on top (ns, as samples of 1 ns).
 * An exit pops to the innermost activation of its function; those above it count as
 * unwinds (longjmp, lost records). Records with arguments (`more`) are refused.
 */
#define _POSIX_C_SOURCE 200809L /* strndup */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/err.h"
#include "../core/vec.h"
#include "../symbol/symbol.h"
#include "deepprof/format.h"
#include "imp_int.h"
#include "import.h"

#define UFT_SYM_REL_ADDR (1u << 5)
#define UFT_RECORD_MAGIC 5u

struct uft_sym {
	uint64_t addr; /* relative to the object's load address */
	const char *name;
};

struct uft_obj {       /* one `NAME.sym` file */
	char *base;    /* basename of the object's path */
	uint32_t path; /* string id of its path: the module of its functions */
	struct uft_sym *sym;
	size_t n;
	char *text; /* the file, names point into it */
	int loaded;
};

struct uft_map {
	uint64_t start, end;
	uint32_t obj; /* index into objs */
};

/* A session (a program started or exec'd): its memory map. */
struct uft_sess {
	uint64_t ts, pid; /* start time (ns) */
	struct uft_map *maps;
	size_t n_maps, cap_maps;
};

/* task.txt's FORK and TASK lines. */
struct uft_fork {
	uint64_t ts, pid, ppid;
};

struct uft_task {
	uint64_t tid, pid;
};

struct uft {
	struct imp *b;
	const struct dp_import_opts *o;
	char *dir;
	uint64_t feat;
	struct uft_obj *objs;
	size_t n_objs, cap_objs;
	struct uft_sess *sess;
	size_t n_sess, cap_sess;
	uint32_t cur; /* the session the records being walked belong to */
	struct uft_fork *forks;
	size_t n_forks, cap_forks;
	struct uft_task *tasks;
	size_t n_tasks, cap_tasks;
	struct dp_map3 addr_ps; /* (record address, session, 0) -> PS */
	uint64_t lost, strays;
};

static int bad_at(const char *file, uint64_t at, const char *what)
{
	return dp_error(DP_EFORMAT, "%s: %s at byte %" PRIu64, file, what, at);
}

static char *path_in(const struct uft *u, const char *name)
{
	size_t n = strlen(u->dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s/%s", u->dir, name);
	return p;
}

/* Reads DIR/NAME whole into *@data; a missing file is -DP_ENOENT (message set). */
static int read_in(const struct uft *u, const char *name, char **data, size_t *len)
{
	char *p = path_in(u, name);
	int rc;

	if (!p)
		return dp_error(DP_ENOMEM, "out of memory");
	rc = imp_read_all(p, data, len);
	free(p);
	return rc;
}

/* The value of "KEY:" lines in the info text, NULL if absent (a copy to free). */
static char *info_value(const char *text, size_t len, const char *key)
{
	size_t kl = strlen(key);

	for (const char *s = text, *e = text + len; s < e;) {
		const char *nl = memchr(s, '\n', (size_t)(e - s));
		size_t l = (size_t)((nl ? nl : e) - s);

		if (l > kl && memcmp(s, key, kl) == 0 && s[kl] == ':')
			return strndup(s + kl + 1, l - kl - 1);
		s = nl ? nl + 1 : e;
	}
	return NULL;
}

static int read_info(struct uft *u)
{
	struct dp_profile *p = u->b->p;
	char *d, *exe, *st, info_name[] = "info";
	size_t len;
	int rc = read_in(u, info_name, &d, &len);
	uint16_t hsize;

	if (rc < 0)
		return rc;
	if (len < 40 || memcmp(d, "Ftrace!", 8) != 0) {
		char *p2 = path_in(u, "info");

		rc = bad_at(p2 ? p2 : "info", 0, "not a uftrace info file (bad magic)");
		free(p2);
		free(d);
		return rc;
	}
	hsize = (uint16_t)((uint8_t)d[12] | (uint8_t)d[13] << 8);
	if (dp_fmt_get_u32((const uint8_t *)d + 8) < 4 || d[14] != 1 || hsize < 40 || hsize > len) {
		char *p2 = path_in(u, "info");

		rc = bad_at(p2 ? p2 : "info", 8,
			    "unsupported uftrace file (version below 4, big-endian or bad header "
			    "size)");
		free(p2);
		free(d);
		return rc;
	}
	u->feat = dp_fmt_get_u64((const uint8_t *)d + 16);
	exe = info_value(d + hsize, len - hsize, "exename");
	st = info_value(d + hsize, len - hsize, "exit_status");
	if (exe) {
		int64_t id = imp_str(u->b, exe, strlen(exe));

		p->program = id > 0 ? (uint32_t)id : 0;
		p->argv = dp_arena_array(&p->arena, 1, sizeof(*p->argv));
		if (p->argv && id > 0) {
			p->argv[0] = (uint32_t)id;
			p->argc = 1;
		}
	}
	if (st && (strtoul(st, NULL, 10) & 0x7f) == 0)
		p->exit_status = ((strtoul(st, NULL, 10) >> 8) & 0xff) + 1; /* a wait status */
	free(exe);
	free(st);
	free(d);
	return 0;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct uft_sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Loads NAME.sym: "ADDR [SIZE] TYPE NAME" lines, '#' comments. A missing file leaves the
 * object without symbols (addresses are then named 0x...). */
static int load_syms(struct uft *u, struct uft_obj *ob)
{
	char *name = malloc(strlen(ob->base) + 8);
	size_t len, cap = 0;
	int rc;

	ob->loaded = 1;
	if (!name)
		return dp_error(DP_ENOMEM, "out of memory");
	snprintf(name, strlen(ob->base) + 8, "%s.sym", ob->base);
	rc = read_in(u, name, &ob->text, &len);
	free(name);
	if (rc == -DP_ENOENT)
		return 0;
	if (rc < 0)
		return rc;
	for (char *s = ob->text, *e = ob->text + len; s < e;) {
		char *nl = memchr(s, '\n', (size_t)(e - s)), *q, *t;
		uint64_t a;

		if (nl)
			*nl = 0;
		a = strtoull(s, &q, 16);
		t = q + strspn(q, " \t");
		if (s[0] != '#' && q > s && t[0] && t[1] && t[1] != ' ') { /* "ADDR SIZE ..." */
			strtoull(t, &q, 16);
			t = q + strspn(q, " \t");
		}
		q = t[0] && t[1] == ' ' ? t + 2 + strspn(t + 2, " \t") : NULL; /* the name */
		if (s[0] != '#' && q && *q) {
			if (DP_VEC_GROWZ(ob->sym, cap, ob->n + 1) < 0)
				return dp_error(DP_ENOMEM, "out of memory");
			ob->sym[ob->n].addr = a;
			ob->sym[ob->n++].name = q;
		}
		s = nl ? nl + 1 : e;
	}
	if (ob->n)
		qsort(ob->sym, ob->n, sizeof(*ob->sym), cmp_sym);
	return 0;
}

static int cmp_map(const void *a, const void *b)
{
	const struct uft_map *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/* Loads sid-SID.map into session @sess: "START-END PERMS OFFSET DEV INODE PATH
 * [build-id:...]". */
static int load_map(struct uft *u, struct uft_sess *sess, const char *sid)
{
	char name[128], *d;
	int64_t id;
	size_t len;
	int rc;

	snprintf(name, sizeof(name), "sid-%s.map", sid);
	rc = read_in(u, name, &d, &len);
	if (rc < 0)
		return rc;
	for (char *s = d, *e = d + len; s < e;) {
		char *nl = memchr(s, '\n', (size_t)(e - s)), path[4096], *base;
		unsigned long long st, en;
		size_t i;

		if (nl)
			*nl = 0;
		if (sscanf(s, "%llx-%llx %*s %*s %*s %*s %4095s", &st, &en, path) == 3 &&
		    path[0] == '/') {
			struct uft_obj *no;

			base = strrchr(path, '/') + 1;
			for (i = 0; i < u->n_objs && strcmp(u->objs[i].base, base) != 0; i++)
				;
			if (DP_VEC_GROWZ(sess->maps, sess->cap_maps, sess->n_maps + 1) < 0) {
				free(d);
				return dp_error(DP_ENOMEM, "out of memory");
			}
			if (i == u->n_objs) {
				if (DP_VEC_GROWZ(u->objs, u->cap_objs, i + 1) < 0) {
					free(d);
					return dp_error(DP_ENOMEM, "out of memory");
				}
				no = u->objs;
				memset(&no[i], 0, sizeof(*no));
				no[i].base = strdup(base);
				id = imp_str(u->b, path, strlen(path));
				no[i].path = id > 0 ? (uint32_t)id : 0;
				u->n_objs++;
				if (!no[i].base) {
					free(d);
					return dp_error(DP_ENOMEM, "out of memory");
				}
			}
			sess->maps[sess->n_maps++] = (struct uft_map){st, en, (uint32_t)i};
		}
		s = nl ? nl + 1 : e;
	}
	free(d);
	if (sess->n_maps)
		qsort(sess->maps, sess->n_maps, sizeof(*sess->maps), cmp_map);
	return 0;
}

/* The PS of the function at runtime address @addr in the current session (cached). */
static int64_t proc_at(struct uft *u, uint64_t addr)
{
	uint32_t ps = dp_map3_get(&u->addr_ps, addr, u->cur, 0);
	const struct uft_sess *se = &u->sess[u->cur];
	size_t lo = 0, hi = se->n_maps;
	char hex[32];
	int64_t id;
	int rc;

	if (ps != DP_MAP32_NONE)
		return ps;
	while (lo < hi) { /* the last map starting at or below addr */
		size_t mid = (lo + hi) / 2;

		if (se->maps[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	id = 0;
	if (lo > 0 && addr < se->maps[lo - 1].end) {
		const struct uft_map *m = &se->maps[lo - 1];
		struct uft_obj *ob = &u->objs[m->obj];
		uint64_t rel = (u->feat & UFT_SYM_REL_ADDR) ? addr - m->start : addr;
		size_t a = 0, z;

		if (!ob->loaded && (rc = load_syms(u, ob)) < 0)
			return rc;
		for (z = ob->n; a < z;) {
			size_t mid = (a + z) / 2;

			if (ob->sym[mid].addr <= rel)
				a = mid + 1;
			else
				z = mid;
		}
		if (a > 0) {
			const struct uft_sym *s = &ob->sym[a - 1];
			uint64_t entry =
				(u->feat & UFT_SYM_REL_ADDR) ? s->addr + m->start : s->addr;

			char *dm = dp_demangle(s->name); /* the .sym files hold C++ names mangled */

			id = imp_proc(u->b, dm ? dm : s->name, strlen(dm ? dm : s->name), entry,
				      entry);
			if (id > 0) /* no source file: the object is the module */
				u->b->ps[id].file = ob->path;
			if (id > 0 && dm) {
				int64_t ln = imp_str(u->b, s->name, strlen(s->name));

				u->b->ps[id].linkage_name = ln > 0 ? (uint32_t)ln : 0;
			}
			free(dm);
		}
	}
	if (id == 0) {
		snprintf(hex, sizeof(hex), "0x%" PRIx64, addr);
		id = imp_proc(u->b, hex, strlen(hex), addr, addr);
	}
	if (id > 0 && dp_map3_intern(&u->addr_ps, addr, u->cur, 0, (uint32_t)id) == DP_MAP32_NONE)
		return dp_error(DP_ENOMEM, "out of memory importing (hash map)");
	return id;
}

/* A little-endian u64 (the records are; we read only little-endian traces), as one
 * load on a little-endian host. */
static inline uint64_t le64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	v = __builtin_bswap64(v);
#endif
	return v;
}

/* The time since the previous record goes to the activation on top. */
static void charge(struct imp *b, const struct imp_stack *s, uint64_t *last, uint64_t t)
{
	if (*last && t > *last)
		b->csd[s->f[s->n - 1].csd].samples += t - *last;
	*last = t;
}

/* Pops to the innermost activation with @key: exits for it, unwinds above it. An exit
 * with no matching activation (its entry was not recorded) is counted and ignored. */
static void leave(struct uft *u, struct imp_stack *s, uint64_t key)
{
	uint32_t i = s->n - 1;

	while (i >= 1 && s->f[i].key != key)
		i--;
	if (i == 0) {
		u->strays++;
		return;
	}
	u->b->csd[s->f[i].csd].exits++;
	while (--s->n > i)
		u->b->csd[s->f[s->n].csd].unwinds++;
}

/* One TID.dat file: the records of thread @thread. */
/* The sessions task @t's records belong to: *@init before the first of @sw's @n_sw
 * (the task's own sessions, by time); for a forked task, its parent's session then. */
static void task_sessions(const struct uft *u, const struct uft_task *t, uint32_t *init,
			  uint32_t *sw, size_t *n_sw)
{
	uint64_t parent = 0, fork_ts = UINT64_MAX;

	*n_sw = 0;
	*init = 0;
	for (size_t i = 0; i < u->n_forks; i++) {
		if (u->forks[i].pid == t->pid) {
			parent = u->forks[i].ppid;
			fork_ts = u->forks[i].ts;
		}
	}
	for (size_t i = 0; i < u->n_sess; i++) {
		if (u->sess[i].pid == t->pid)
			sw[(*n_sw)++] = (uint32_t)i;
		else if (parent && u->sess[i].pid == parent && u->sess[i].ts <= fork_ts)
			*init = (uint32_t)i;
	}
	if (!parent && *n_sw)
		*init = sw[0];
}

/* The records [@d, @d + @len) of one TID.dat, named @file, on stack @s; the session
 * changes to sw[i] at its start time (exec). */
static int walk_records(struct uft *u, struct imp_stack *s, const char *file, const uint8_t *d,
			size_t len, const uint32_t *sw, size_t n_sw)
{
	struct imp *b = u->b;
	uint64_t last = 0;
	size_t next = 0;
	int rc;

	if (len % 16)
		return bad_at(file, len - len % 16,
			      "truncated record (the file size is not a "
			      "multiple of 16)");
	for (size_t at = 0; at < len; at += 16) {
		uint64_t t = le64(d + at), w = le64(d + at + 8);
		uint32_t type = (uint32_t)(w & 3), more = (uint32_t)(w >> 2 & 1);
		uint64_t addr = w >> 16;
		struct imp_frame *top;
		struct imp_pdc *c;
		uint64_t ckey;
		int64_t ps, csd;

		if ((w >> 3 & 7) != UFT_RECORD_MAGIC)
			return bad_at(file, at + 8, "bad record magic (corrupt trace?)");
		if (more)
			return bad_at(file, at + 8,
				      "record with arguments, return values or event data "
				      "(recorded with -A, -R, -a or -E): not supported");
		if (t < last)
			return bad_at(file, at, "timestamp goes backwards");
		if (type == 2) { /* lost records: the stack stays, the exits will tell */
			u->lost += addr;
			continue;
		}
		if (type == 3)
			continue; /* an event (no data): nothing to count */
		while (next < n_sw && t >= u->sess[sw[next]].ts)
			u->cur = sw[next++]; /* the task exec'd: a new program and map */
		charge(b, s, &last, t);
		if (type == 1) {
			leave(u, s, addr);
			continue;
		}
		/* an entry at depth D has D activations below it: ours above that were left
		 * unseen (an exec, lost records); a depth of 1023 may be saturated */
		for (uint32_t depth = (uint32_t)(w >> 6 & 0x3FF); depth < 1023 && s->n - 1 > depth;)
			b->csd[s->f[--s->n].csd].unwinds++;
		top = &s->f[s->n - 1];
		b->csd[top->csd].callseqs++;
		c = &b->pdc[top->pd];
		ckey = addr | (uint64_t)u->cur << 48; /* the same address, another program */
		if (c->csd && c->key == ckey) {	      /* the same call as last time from this PD */
			csd = c->csd;
			if ((rc = imp_reenter(b, s, (uint32_t)csd, addr)) < 0)
				return rc;
		} else {
			uint32_t pd = top->pd;

			if ((ps = proc_at(u, addr)) < 0)
				return (int)ps;
			if ((csd = imp_enter(b, s, (uint32_t)ps, 0, addr)) < 0)
				return (int)csd;
			b->pdc[pd] = (struct imp_pdc){ckey, (uint32_t)csd};
		}
		b->csd[csd].calls++;
	}
	return 0;
}

/* "timestamp=SEC.NSEC" in @l as ns, 0 if absent. */
static uint64_t line_ts(const char *l)
{
	const char *f = strstr(l, "timestamp=");
	uint64_t ns = 0;
	char *p;
	int digits = 0;

	if (!f)
		return 0;
	ns = strtoull(f + 10, &p, 10) * 1000000000u;
	if (*p == '.') {
		uint64_t frac = 0;

		for (p++; *p >= '0' && *p <= '9' && digits < 9; p++, digits++)
			frac = frac * 10 + (uint64_t)(*p - '0');
		for (; digits < 9; digits++)
			frac *= 10;
		ns += frac;
	}
	return ns;
}

static uint64_t line_num(const char *l, const char *key)
{
	const char *f = strstr(l, key);

	return f ? strtoull(f + strlen(key), NULL, 10) : 0;
}

/* @rc of a growth for task.txt's lines, with the message said here. */
static int tasks_room(int rc)
{
	return rc < 0 ? dp_error(DP_ENOMEM, "out of memory reading task.txt") : 0;
}

/* task.txt: "SESS timestamp=T pid=P sid=S exename=...", "FORK timestamp=T pid=P
 * ppid=Q", "TASK timestamp=T tid=T pid=P" lines (others, such as DLOP, are ignored). */
static int read_tasks(struct uft *u)
{
	char *d, tn[] = "task.txt";
	size_t len;
	int rc = read_in(u, tn, &d, &len);

	if (rc == -DP_ENOENT)
		return dp_error(DP_EFORMAT,
				"%s: no task.txt (not a uftrace record directory, "
				"or one older than uftrace 0.8)",
				u->o->input);
	for (char *l = d, *e = d + len; rc == 0 && l < e;) {
		char *nl = memchr(l, '\n', (size_t)(e - l)), *f;

		if (nl)
			*nl = 0;
		if (strncmp(l, "SESS ", 5) == 0 && (f = strstr(l, " sid=")) &&
		    (rc = tasks_room(DP_VEC_GROWZ(u->sess, u->cap_sess, u->n_sess + 1))) == 0) {
			char sid[64];
			struct uft_sess *se = &u->sess[u->n_sess++];

			memset(se, 0, sizeof(*se));
			se->ts = line_ts(l);
			se->pid = line_num(l, " pid=");
			snprintf(sid, sizeof(sid), "%.*s", (int)strcspn(f + 5, " "), f + 5);
			rc = load_map(u, se, sid);
		} else if (strncmp(l, "FORK ", 5) == 0 &&
			   (rc = tasks_room(
				    DP_VEC_GROWZ(u->forks, u->cap_forks, u->n_forks + 1))) == 0) {
			u->forks[u->n_forks++] = (struct uft_fork){line_ts(l), line_num(l, " pid="),
								   line_num(l, " ppid=")};
		} else if (strncmp(l, "TASK ", 5) == 0 && strstr(l, " tid=") &&
			   (rc = tasks_room(
				    DP_VEC_GROWZ(u->tasks, u->cap_tasks, u->n_tasks + 1))) == 0) {
			u->tasks[u->n_tasks++] =
				(struct uft_task){line_num(l, " tid="), line_num(l, " pid=")};
		}
		l = nl ? nl + 1 : e;
	}
	free(d);
	if (rc == 0 && u->n_sess == 0)
		rc = dp_error(DP_EFORMAT, "%s: task.txt has no session (SESS line)", u->o->input);
	return rc;
}

/* Each task's TID.dat, in task.txt's order, as a thread. */
static int walk_tasks(struct uft *u)
{
	struct imp_stack s = {0};
	uint32_t *sw = NULL;
	int rc = read_tasks(u);

	if (rc == 0 && !(sw = malloc((u->n_sess + 1) * sizeof(*sw))))
		rc = dp_error(DP_ENOMEM, "out of memory");
	for (size_t i = 0; rc == 0 && i < u->n_tasks; i++) {
		const struct uft_task *t = &u->tasks[i];
		const uint8_t *data;
		char dat[32], *path;
		size_t dl, n_sw;
		int64_t th;

		snprintf(dat, sizeof(dat), "%" PRIu64 ".dat", t->tid);
		if (!(path = path_in(u, dat))) {
			rc = dp_error(DP_ENOMEM, "out of memory");
			break;
		}
		rc = imp_map_file(path, &data, &dl);
		if (rc == -DP_ENOENT) {
			rc = 0; /* a task that recorded nothing */
		} else if (rc == 0) {
			th = imp_thread(u->b, t->tid, NULL);
			task_sessions(u, t, &u->cur, sw, &n_sw);
			rc = th < 0 ? (int)th : imp_stack_start(u->b, &s, (uint32_t)th);
			if (rc == 0)
				rc = walk_records(u, &s, path, data, dl, sw, n_sw);
			if (th > 0 && t->tid == u->sess[0].pid)
				u->b->th[th].flags |= DP_THREAD_MAIN;
			imp_unmap_file(data, dl);
		}
		free(path);
	}
	free(sw);
	imp_stack_release(&s);
	if (rc == 0 && u->b->n_th == 0)
		rc = dp_error(DP_EFORMAT, "%s: no task with records in task.txt", u->o->input);
	return rc;
}

static void uft_release(struct uft *u)
{
	for (size_t i = 0; i < u->n_objs; i++) {
		free(u->objs[i].base);
		free(u->objs[i].sym);
		free(u->objs[i].text);
	}
	free(u->objs);
	for (size_t i = 0; i < u->n_sess; i++)
		free(u->sess[i].maps);
	free(u->sess);
	free(u->forks);
	free(u->tasks);
	free(u->dir);
	dp_map3_free(&u->addr_ps);
}

/* dp_imp_uftrace - imp_int.h: fill @b from @o->input and finish it, or abort it and return
 * the error. */
int dp_imp_uftrace(struct imp *b, const struct dp_import_opts *o)
{
	struct uft u = {.b = b, .o = o, .dir = strdup(o->input)};
	char note[200];
	int rc = u.dir ? read_info(&u) : dp_error(DP_ENOMEM, "out of memory");

	if (rc == 0)
		rc = walk_tasks(&u);
	if (rc < 0) {
		uft_release(&u);
		imp_abort(b);
		return rc;
	}
	b->p->sample_period_ns = 1;
	b->p->hz = 1000000000;
	snprintf(note, sizeof(note),
		 "uftrace record: exact calls; time in ns (1 sample = 1 ns); %" PRIu64
		 " records lost, %" PRIu64 " exits without their entry",
		 u.lost, u.strays);
	uft_release(&u);
	return imp_finish(b, "uftrace", o->input,
			  DP_CSD_CALLS | DP_CSD_EXITS | DP_CSD_UNWINDS | DP_CSD_SAMPLES |
				  DP_CSD_CALLSEQS,
			  note);
}
