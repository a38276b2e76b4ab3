/*
 * symbol/session.c - the libdwfl session of one symbolization: maps runtime addresses to
 * the profile's objects through their PT_LOAD segments, reports the objects that hold
 * functions to an offline Dwfl at their load bias, checks build-ids, and small helpers
 * (string interning, C++ demangling, growable arrays) shared by the module.
 */
#define _POSIX_C_SOURCE 200809L
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/err.h"
#include "../core/vec.h"
#include "deepprof/exports.h"
#include "deepprof/format.h"
#include "symbol_int.h"

/*
 * The C++ ABI demangler, __cxa_demangle from libstdc++, looked up with dlopen() the first
 * time a mangled name is met rather than linked: linking libstdc++ costs every deepprof
 * command about 0.7 ms of dynamic relocation at start, while only C++ profiles need it
 * (and a C++ program's machine has libstdc++). Without it names stay mangled.
 */
typedef char *(*dp_demangle_fn)(const char *mangled, char *buf, size_t *len, int *status);

static dp_demangle_fn demangle_fn;
static pthread_once_t demangle_once = PTHREAD_ONCE_INIT;

static void demangle_init(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
	void *sym = h ? dlsym(h, "__cxa_demangle") : NULL;

	if (sym) /* object to function pointer, as POSIX allows */
		memcpy(&demangle_fn, &sym, sizeof(demangle_fn));
}

/* The demangler, loaded once per process (sessions may symbolize from several threads). */
static dp_demangle_fn demangler(void)
{
	pthread_once(&demangle_once, demangle_init);
	return demangle_fn;
}

static char *debuginfo_path;

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

/* dp_sym_grow - make room for element @n of the malloc'd array *@arr (@cap elements of
 * @elem bytes), with core's dp_vec_grow(); returns 0 or -DP_ENOMEM (the array is
 * unchanged then). */
int dp_sym_grow(void **arr, uint32_t *cap, uint32_t n, size_t elem)
{
	if (n < *cap)
		return 0;
	if (n >= UINT32_MAX / 2)
		return dp_error(DP_ENOMEM, "symbol tables too large");
	if (dp_vec_grow(arr, cap, n + 1, elem) < 0)
		return dp_error(DP_ENOMEM, "out of memory symbolizing");
	return 0;
}

/* dp_sym_sort - qsort() that accepts an empty (possibly NULL) array. */
void dp_sym_sort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

/* dp_sym_intern - intern @s (NULL = "") into the profile's strings; *@id gets its id. */
int dp_sym_intern(struct dp_sym_ctx *c, const char *s, uint32_t *id)
{
	int64_t r = dp_strtab_intern_cstr(&c->p->strs, s ? s : "");

	if (r < 0)
		return (int)r;
	*id = (uint32_t)r;
	return 0;
}

/* dp_sym_demangle - intern the demangled form of @mangled (itself when it is not a C++
 * mangled name or does not demangle). */
int dp_sym_demangle(struct dp_sym_ctx *c, const char *mangled, uint32_t *id)
{
	dp_demangle_fn dm;
	char *d = NULL;
	int status = -1, r;

	if (strncmp(mangled, "_Z", 2) == 0 && (dm = demangler()) != NULL)
		d = dm(mangled, NULL, NULL, &status);
	r = dp_sym_intern(c, status == 0 && d ? d : mangled, id);
	free(d);
	return r;
}

char *dp_demangle(const char *mangled)
{
	dp_demangle_fn dm;
	int status = -1;
	char *d;

	if (strncmp(mangled, "_Z", 2) != 0 || (dm = demangler()) == NULL)
		return NULL;
	d = dm(mangled, NULL, NULL, &status);
	if (status != 0) {
		free(d);
		return NULL;
	}
	return d;
}

/* dp_sym_is_runtime_name - whether @name is provided by libdeepprof itself (the hooks,
 * the allocation wrappers, the API): calls to these are never profiled call sites. */
int dp_sym_is_runtime_name(const char *name)
{
	static const char *const rt[] = {DP_RT_EXPORTS(DP_RT_EXPORT_NAME)};

	for (size_t i = 0; i < sizeof(rt) / sizeof(rt[0]); i++)
		if (strcmp(name, rt[i]) == 0)
			return 1;
	return 0;
}

static int seg_cmp(const void *a, const void *b)
{
	const struct dp_sym_seg *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int build_segs(struct dp_sym_ctx *c)
{
	const struct dp_profile *p = c->p;

	c->segs = calloc(p->n_segs + 1, sizeof(*c->segs));
	if (!c->segs)
		return dp_error(DP_ENOMEM, "out of memory symbolizing");
	for (uint32_t o = 1; o <= p->n_objects; o++) {
		const struct dp_object *ob = &p->objects[o];

		for (uint32_t s = 0; s < ob->n_segs; s++) {
			const struct dp_segment *sg;

			if (ob->first_seg + s >= p->n_segs)
				break;
			sg = &p->segs[ob->first_seg + s];
			c->segs[c->n_segs++] = (struct dp_sym_seg){
				.start = sg->start, .end = sg->start + sg->size, .obj = o};
		}
	}
	dp_sym_sort(c->segs, c->n_segs, sizeof(*c->segs), seg_cmp);
	return 0;
}

/* dp_sym_obj_of - the 1-based object whose PT_LOAD segments hold @addr, 0 if none. */
uint32_t dp_sym_obj_of(const struct dp_sym_ctx *c, uint64_t addr)
{
	uint32_t lo = 0, hi = c->n_segs;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (c->segs[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr >= c->segs[lo - 1].end)
		return 0;
	return c->segs[lo - 1].obj;
}

/* dp_sym_mod_of - the open module of object @obj, NULL if it is not open. */
struct dp_sym_mod *dp_sym_mod_of(const struct dp_sym_ctx *c, uint32_t obj)
{
	if (obj == 0 || obj > c->p->n_objects || c->mods[obj].state != DP_SYM_MOD_OPEN)
		return NULL;
	return &c->mods[obj];
}

static void hex(char *out, size_t len, const uint8_t *b, size_t n)
{
	size_t i;

	if (n == 0) {
		snprintf(out, len, "(none)");
		return;
	}
	for (i = 0; i < n && 2 * i + 2 < len; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
	out[2 * i] = 0;
}

/* dp_sym_obj_path - the file of object @o: its recorded path, or the program's path
 * for the object without one (the dynamic linker names the executable ""). */
const char *dp_sym_obj_path(const struct dp_profile *p, uint32_t o)
{
	const char *path = dp_profile_str(p, p->objects[o].path);

	return path[0] ? path : dp_profile_str(p, p->program);
}

static int check_build_id(struct dp_sym_ctx *c, uint32_t o, const char *path)
{
	const struct dp_object *ob = &c->p->objects[o];
	const unsigned char *bits = NULL;
	GElf_Addr vaddr;
	char want[2 * DP_BUILD_ID_MAX + 1], have[2 * DP_BUILD_ID_MAX + 1];
	int n;

	if (ob->build_id_len == 0 || (c->opts && c->opts->force))
		return 0;
	n = dwfl_module_build_id(c->mods[o].mod, &bits, &vaddr);
	if (n == (int)ob->build_id_len && memcmp(bits, ob->build_id, ob->build_id_len) == 0)
		return 0;
	hex(want, sizeof(want), ob->build_id, ob->build_id_len);
	hex(have, sizeof(have), bits, n > 0 ? (size_t)n : 0);
	return dp_error(DP_ESYMBOL,
			"build-id mismatch for object %s: the profile has %s, the file has %s "
			"(rebuilt since the run? --force symbolizes anyway)",
			path, want, have);
}

/* Report object @o to the session; a missing file marks it missing (or fails for the
 * program itself in a profile never symbolized). */
static int open_object(struct dp_sym_ctx *c, uint32_t o, uint32_t *n_fn)
{
	struct dp_profile *p = c->p;
	const char *path = dp_sym_obj_path(p, o);
	int program = strcmp(path, dp_profile_str(p, p->program)) == 0;
	int fd = path[0] ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	Dwfl_Module *mod;

	if (fd < 0) {
		if (program && !(p->features & DP_FEAT_SYMBOLIZED))
			return dp_error(DP_ENOENT, "cannot open object %s: %s", path,
					path[0] ? strerror(errno) : "no path recorded");
		c->mods[o].state = DP_SYM_MOD_MISSING;
		if (c->opts)
			c->opts->unresolved += n_fn[o];
		return 0;
	}
	mod = dwfl_report_elf(c->dwfl, path, path, fd, p->objects[o].bias, true);
	if (!mod) {
		close(fd);
		return dp_error(DP_ESYMBOL, "cannot read object %s: %s", path, dwfl_errmsg(-1));
	}
	c->mods[o].mod = mod;
	c->mods[o].state = DP_SYM_MOD_OPEN;
	return 0;
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The entry addresses of each object's function PS, sorted (the DWARF walk descends only
 * into the functions the profile holds). */
static int collect_entries(struct dp_sym_ctx *c, const uint32_t *n_fn)
{
	const struct dp_profile *p = c->p;

	for (uint32_t o = 1; o <= p->n_objects; o++) {
		if (!n_fn[o])
			continue;
		c->mods[o].ps_entries = malloc(n_fn[o] * sizeof(*c->mods[o].ps_entries));
		if (!c->mods[o].ps_entries)
			return dp_error(DP_ENOMEM, "out of memory starting the symbol session");
	}
	for (uint32_t i = 1; i <= p->n_ps; i++) {
		struct dp_sym_mod *m = &c->mods[c->ps_obj[i]];

		if (p->ps[i].kind == DP_PS_FUNCTION && c->ps_obj[i])
			m->ps_entries[m->n_ps_entries++] = p->ps[i].addr;
	}
	for (uint32_t o = 1; o <= p->n_objects; o++)
		dp_sym_sort(c->mods[o].ps_entries, c->mods[o].n_ps_entries, sizeof(uint64_t),
			    u64_cmp);
	return 0;
}

/* dp_sym_open - start the session: index segments, find each function PS's object,
 * open the objects holding functions, check their build-ids, get their DWARF. */
int dp_sym_open(struct dp_sym_ctx *c)
{
	struct dp_profile *p = c->p;
	uint32_t *n_fn;
	int r = 0;

	c->mods = calloc(p->n_objects + 1, sizeof(*c->mods));
	c->ps_obj = calloc(p->n_ps + 1, sizeof(*c->ps_obj));
	c->ps_fn = calloc(p->n_ps + 1, sizeof(*c->ps_fn));
	n_fn = calloc(p->n_objects + 1, sizeof(*n_fn));
	c->dwfl = dwfl_begin(&offline_callbacks);
	if (!c->mods || !c->ps_obj || !c->ps_fn || !n_fn || !c->dwfl) {
		r = dp_error(DP_ENOMEM, "out of memory starting the symbol session");
		goto out;
	}
	r = build_segs(c);
	if (r < 0)
		goto out;
	for (uint32_t i = 1; i <= p->n_ps; i++) {
		if (p->ps[i].kind != DP_PS_FUNCTION)
			continue;
		c->ps_obj[i] = dp_sym_obj_of(c, p->ps[i].addr);
		n_fn[c->ps_obj[i]]++;
	}
	r = collect_entries(c, n_fn);
	if (r < 0)
		goto out;
	dwfl_report_begin(c->dwfl);
	for (uint32_t o = 1; o <= p->n_objects && r == 0; o++)
		if (n_fn[o])
			r = open_object(c, o, n_fn);
	if (dwfl_report_end(c->dwfl, NULL, NULL) != 0 && r == 0)
		r = dp_error(DP_ESYMBOL, "cannot load objects: %s", dwfl_errmsg(-1));
	for (uint32_t o = 1; o <= p->n_objects && r == 0; o++) {
		const char *path = dp_sym_obj_path(p, o);

		if (c->mods[o].state != DP_SYM_MOD_OPEN)
			continue;
		r = check_build_id(c, o, path);
		c->mods[o].dw = dwfl_module_getdwarf(c->mods[o].mod, &c->mods[o].bias);
	}
out:
	free(n_fn);
	return r;
}

/*
 * dp_sym_open_symbols - open, for their symbol tables only, the objects marked in @want
 * ([1..n_objects]) that are not open yet (library leaves: the objects sampled PCs fell
 * in). Opened last, so that nothing else (call-site lines, DWARF indexes) looks into them.
 * A file that is missing, unreadable or of another build stays closed (its PCs are named
 * by the object alone). Return: 0 or -DP_ENOMEM.
 */
int dp_sym_open_symbols(struct dp_sym_ctx *c, const uint8_t *want)
{
	struct dp_profile *p = c->p;
	const unsigned char *bits;
	GElf_Addr vaddr;

	dwfl_report_begin_add(c->dwfl);
	for (uint32_t o = 1; o <= p->n_objects; o++) {
		const char *path = dp_sym_obj_path(p, o);
		int fd;

		if (!want[o] || c->mods[o].state != DP_SYM_MOD_UNUSED)
			continue;
		c->mods[o].state = DP_SYM_MOD_MISSING;
		fd = path[0] ? open(path, O_RDONLY | O_CLOEXEC) : -1;
		if (fd < 0)
			continue;
		c->mods[o].mod = dwfl_report_elf(c->dwfl, path, path, fd, p->objects[o].bias, true);
		if (!c->mods[o].mod) {
			close(fd);
			continue;
		}
		bits = NULL;
		if (p->objects[o].build_id_len == 0 ||
		    (dwfl_module_build_id(c->mods[o].mod, &bits, &vaddr) ==
			     (int)p->objects[o].build_id_len &&
		     memcmp(bits, p->objects[o].build_id, p->objects[o].build_id_len) == 0))
			c->mods[o].state = DP_SYM_MOD_OPEN;
	}
	dwfl_report_end(c->dwfl, NULL, NULL);
	return 0;
}

/* dp_sym_close - end the session and free everything the context holds. */
void dp_sym_close(struct dp_sym_ctx *c)
{
	if (c->mods)
		for (uint32_t o = 1; o <= c->p->n_objects; o++)
			dp_sym_mod_release(&c->mods[o]);
	if (c->dwfl)
		dwfl_end(c->dwfl);
	free(c->mods);
	free(c->segs);
	free(c->ps_obj);
	free(c->ps_fn);
	free(c->by_addr);
	free(c->keys);
	free(c->names);
	memset(c, 0, sizeof(*c));
}
