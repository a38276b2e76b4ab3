/*
 * tests/unit/test_symbol.c - the symbolizer on real binaries: fixture programs built
 * with gcc and clang at -O0 and -O2 (tests/unit/symbol/) report their own addresses; the
 * test symbolizes a profile of those addresses and checks exact names, files, lines
 * (found by grepping the fixture source for markers), linkage, call-site kinds and
 * callees, call sites never taken, idempotence, build-id checks and missing objects.
 */
#define _POSIX_C_SOURCE 200809L
#include "test_symbol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/err.h"
#include "deepprof/format.h"
#include "format/reader.h"
#include "format/writer.h"
#include "harness.h"
#include "symbol/symbol.h"

#define SRC_C	DP_FIX_SRC "/fix_c.c"
#define SRC_CPP DP_FIX_SRC "/fix_cpp.cc"

static const char *const variants[] = {"gcc_O0", "gcc_O2", "clang_O0", "clang_O2"};
/* the C fixture also comes as a position-dependent executable */
static const char *const c_variants[] = {"gcc_O0",	   "gcc_O2",	   "clang_O0",
					 "clang_O2",	   "gcc_O2_nopie", "gcc_O2_dwarf4",
					 "clang_O2_dwarf4"};

static int load(const char *lang, const char *variant, struct dp_profile *p, char *exe, size_t len)
{
	snprintf(exe, len, "%s/fix_%s_%s", DP_FIX_DIR, lang, variant);
	if (access(exe, X_OK) != 0) {
		fprintf(stderr, "skip %s (fixture not built)\n", exe);
		return -1;
	}
	if (dp_fix_profile(exe, p) < 0) {
		CHECK(0 && "fixture ran");
		return -1;
	}
	return 0;
}

static void check_ps(const struct dp_profile *p, const char *name, const char *src,
		     const char *marker, uint32_t linkage)
{
	uint32_t id = dp_fix_ps(p, name);

	if (!id) {
		fprintf(stderr, "no PS named %s\n", name);
		CHECK(id != 0);
		return;
	}
	CHECK(dp_fix_ends_with(dp_profile_str(p, p->ps[id].file), strrchr(src, '/')));
	CHECK_EQ(p->ps[id].line, dp_fix_line(src, marker));
	CHECK_EQ(p->ps[id].linkage, linkage);
	CHECK_EQ(p->ps[id].object, 1);
}

/* Checks the CSS of caller @caller at the line of @marker: its kind and callee. */
static void check_css(const struct dp_profile *p, uint32_t caller, const char *src,
		      const char *marker, uint32_t kind, uint32_t callee, int taken)
{
	uint32_t line = dp_fix_line(src, marker);
	uint32_t id = dp_fix_css(p, caller, line);

	if (!id) {
		fprintf(stderr, "%s: no CSS at line %u (%s)\n", src, line, marker);
		CHECK(id != 0);
		return;
	}
	CHECK_EQ(p->css[id].kind, kind);
	CHECK_EQ(p->css[id].callee_ps, callee);
	CHECK_EQ(dp_fix_css_taken(p, id), taken);
	CHECK(dp_fix_ends_with(dp_profile_str(p, p->css[id].file), strrchr(src, '/')));
}

static void check_c_sites(const struct dp_profile *p, int opt)
{
	uint32_t main_ps = dp_fix_ps(p, "main"), cmp = dp_fix_ps(p, "cmp_int");
	uint32_t direct = opt ? DP_CSS_DIRECT : DP_CSS_UNKNOWN;
	uint32_t indirect = opt ? DP_CSS_INDIRECT : DP_CSS_UNKNOWN;
	uint32_t n_callback = 0, n_entry = 0;

	check_css(p, main_ps, SRC_C, "call:direct", direct, opt ? dp_fix_ps(p, "g_mul") : 0, 1);
	check_css(p, main_ps, SRC_C, "call:indirect", indirect, 0, 1);
	check_css(p, main_ps, SRC_C, "call:weak", direct, opt ? dp_fix_ps(p, "w_fn") : 0, 1);
	check_css(p, main_ps, SRC_C, "call:inlined", DP_CSS_INLINED, dp_fix_ps(p, "inl_fn"), 1);
	/* call sites never taken: only where DWARF has call-site entries (-O2) */
	if (opt)
		check_css(p, main_ps, SRC_C, "call:rare", DP_CSS_DIRECT, 0, 0);
	else
		CHECK_EQ(dp_fix_css(p, main_ps, dp_fix_line(SRC_C, "call:rare")), 0);
	/* puts is defined in no open object: never listed */
	CHECK_EQ(dp_fix_css(p, main_ps, dp_fix_line(SRC_C, "call:puts")), 0);
	for (uint32_t i = 1; i <= p->n_css; i++) {
		const struct dp_css *s = &p->css[i];

		if (s->kind == DP_CSS_CALLBACK) {
			n_callback++;
			CHECK_EQ(s->ps, main_ps);
			CHECK_EQ(s->line, 0); /* inside libc, which is not opened */
			for (uint32_t d = 1; d <= p->n_csd; d++)
				if (p->csd[d].css == i)
					CHECK_EQ(p->pd[p->csd[d].callee].ps, cmp);
		}
		if (s->kind == DP_CSS_ENTRY) {
			n_entry++;
			CHECK_EQ(s->ps, 2);
		}
	}
	CHECK_EQ(n_callback, 1);
	CHECK_EQ(n_entry, 1);
	CHECK(cmp != 0);
}

/* Every symbolized field of PS and CSS, to compare two symbolizations. */
static int same_symbols(const struct dp_profile *a, const struct dp_profile *b)
{
	if (a->n_ps != b->n_ps || a->n_css != b->n_css)
		return 0;
	for (uint32_t i = 1; i <= a->n_ps; i++) {
		const struct dp_ps *x = &a->ps[i], *y = &b->ps[i];

		if (strcmp(dp_profile_str(a, x->name), dp_profile_str(b, y->name)) ||
		    strcmp(dp_profile_str(a, x->linkage_name),
			   dp_profile_str(b, y->linkage_name)) ||
		    strcmp(dp_profile_str(a, x->file), dp_profile_str(b, y->file)) ||
		    x->line != y->line || x->linkage != y->linkage || x->object != y->object)
			return 0;
	}
	for (uint32_t i = 1; i <= a->n_css; i++) {
		const struct dp_css *x = &a->css[i], *y = &b->css[i];

		if (x->ps != y->ps || x->addr != y->addr || x->kind != y->kind ||
		    strcmp(dp_profile_str(a, x->file), dp_profile_str(b, y->file)) ||
		    x->line != y->line || x->callee_ps != y->callee_ps)
			return 0;
	}
	return 1;
}

static void snapshot(const struct dp_profile *p, struct dp_profile *copy)
{
	dp_profile_init(copy);
	copy->n_ps = p->n_ps;
	copy->n_css = p->n_css;
	copy->ps = dp_arena_array(&copy->arena, p->n_ps + 1, sizeof(*p->ps));
	copy->css = dp_arena_array(&copy->arena, p->n_css + 1, sizeof(*p->css));
	memcpy(copy->ps, p->ps, (p->n_ps + 1) * sizeof(*p->ps));
	memcpy(copy->css, p->css, (p->n_css + 1) * sizeof(*p->css));
	for (uint32_t i = 1; i < p->strs.n; i++)
		dp_strtab_intern_cstr(&copy->strs, dp_profile_str(p, i));
}

static void check_idempotent(struct dp_profile *p)
{
	struct dp_profile before;
	struct dp_symbolize_opts o = {0};

	snapshot(p, &before);
	CHECK_EQ(dp_symbolize(p, &o), 0);
	CHECK(same_symbols(&before, p));
	dp_profile_release(&before);
}

TEST(c_fixtures)
{
	for (size_t v = 0; v < sizeof(c_variants) / sizeof(c_variants[0]); v++) {
		struct dp_symbolize_opts o = {0};
		struct dp_profile p;
		char exe[4096];
		int opt = strstr(c_variants[v], "O2") != NULL;
		uint32_t n_css;

		if (load("c", c_variants[v], &p, exe, sizeof(exe)) < 0)
			continue;
		fprintf(stderr, "fixture %s\n", exe);
		n_css = p.n_css;
		CHECK_EQ(dp_symbolize(&p, &o), 0);
		CHECK(p.features & DP_FEAT_SYMBOLIZED);
		check_ps(&p, "main", SRC_C, "def:main", DP_LINK_GLOBAL);
		check_ps(&p, "s_add", SRC_C, "def:s_add", DP_LINK_STATIC);
		check_ps(&p, "g_mul", SRC_C, "def:g_mul", DP_LINK_GLOBAL);
		check_ps(&p, "w_fn", SRC_C, "def:w_fn", DP_LINK_WEAK);
		check_ps(&p, "cmp_int", SRC_C, "def:cmp_int", DP_LINK_STATIC);
		check_ps(&p, "inl_fn", SRC_C, "def:inl_fn", DP_LINK_STATIC);
		CHECK_EQ(o.n_functions, 6);
		CHECK_EQ(o.unresolved, 0);
		check_c_sites(&p, opt);
		CHECK_EQ(o.n_sites, p.n_css);
		/* exactly one site added at -O2 (rare_fn), none without call-site DWARF */
		CHECK_EQ(p.n_css - n_css, opt ? 1 : 0);
		CHECK_EQ(o.n_untaken, opt ? 1 : 0);
		check_idempotent(&p);
		dp_profile_release(&p);
	}
}

static void check_cpp_names(const struct dp_profile *p)
{
	uint32_t area = dp_fix_ps(p, "ns::Widget::area() const");

	check_ps(p, "ns::Widget::area() const", SRC_CPP, "def:area", DP_LINK_GLOBAL);
	check_ps(p, "ns::Widget::scale(int)", SRC_CPP, "def:scale_i", DP_LINK_GLOBAL);
	check_ps(p, "ns::Widget::scale(double)", SRC_CPP, "def:scale_d", DP_LINK_GLOBAL);
	check_ps(p, "int ns::twice<int>(int)", SRC_CPP, "def:twice", DP_LINK_WEAK);
	check_ps(p, "main", SRC_CPP, "def:main", DP_LINK_GLOBAL);
	if (area) {
		CHECK_STR(dp_profile_str(p, p->ps[area].linkage_name), "_ZNK2ns6Widget4areaEv");
	}
	CHECK_EQ(p->ps[dp_fix_ps(p, "main")].linkage_name, 0);
}

TEST(cpp_fixtures)
{
	for (size_t v = 0; v < sizeof(variants) / sizeof(variants[0]); v++) {
		struct dp_symbolize_opts o = {0};
		struct dp_profile p;
		char exe[4096];
		int opt = strstr(variants[v], "O2") != NULL;
		uint32_t main_ps, k = opt ? DP_CSS_DIRECT : DP_CSS_UNKNOWN;

		if (load("cpp", variants[v], &p, exe, sizeof(exe)) < 0)
			continue;
		fprintf(stderr, "fixture %s\n", exe);
		CHECK_EQ(dp_symbolize(&p, &o), 0);
		check_cpp_names(&p);
		main_ps = dp_fix_ps(&p, "main");
		check_css(&p, main_ps, SRC_CPP, "call:scale_i", k,
			  opt ? dp_fix_ps(&p, "ns::Widget::scale(int)") : 0, 1);
		check_css(&p, main_ps, SRC_CPP, "call:scale_d", k,
			  opt ? dp_fix_ps(&p, "ns::Widget::scale(double)") : 0, 1);
		check_idempotent(&p);
		dp_profile_release(&p);
	}
}

TEST(build_id_mismatch)
{
	struct dp_symbolize_opts o = {0};
	struct dp_profile p;
	char exe[4096], msg[4200];

	if (load("c", "gcc_O2", &p, exe, sizeof(exe)) < 0)
		return;
	CHECK(p.objects[1].build_id_len >= 8);
	p.objects[1].build_id[0] ^= 0xff;
	CHECK_EQ(dp_symbolize(&p, &o), -DP_ESYMBOL);
	snprintf(msg, sizeof(msg), "build-id mismatch for object %s", exe);
	CHECK(strstr(dp_errmsg(), msg) != NULL);
	CHECK_EQ(p.ps[3].name, 0);
	CHECK(!(p.features & DP_FEAT_SYMBOLIZED));
	o.force = 1;
	CHECK_EQ(dp_symbolize(&p, &o), 0);
	CHECK(dp_fix_ps(&p, "main") != 0);
	dp_profile_release(&p);
}

TEST(missing_objects)
{
	struct dp_symbolize_opts o = {0};
	struct dp_profile p;
	char exe[4096];
	uint32_t lib, fake;

	if (load("c", "clang_O2", &p, exe, sizeof(exe)) < 0)
		return;
	/* a library that is gone, holding one function */
	lib = p.n_objects; /* replace the last object (the dynamic linker) */
	p.objects[lib].path = (uint32_t)dp_strtab_intern_cstr(&p.strs, "/nonexistent/libgone.so");
	fake = p.n_ps + 1;
	p.ps[fake] = (struct dp_ps){.kind = DP_PS_FUNCTION,
				    .addr = p.segs[p.objects[lib].first_seg].start + 16};
	p.n_ps = fake;
	CHECK_EQ(dp_symbolize(&p, &o), 0);
	CHECK_EQ(o.unresolved, 1);
	CHECK_EQ(p.ps[fake].name, 0);
	CHECK_EQ(p.ps[fake].object, lib);
	CHECK(dp_fix_ps(&p, "main") != 0);
	dp_profile_release(&p);

	/* the executable recorded without a path (as the dynamic linker names it): the
	 * program's path is used */
	if (load("c", "clang_O2", &p, exe, sizeof(exe)) < 0)
		return;
	p.objects[1].path = 0;
	CHECK_EQ(dp_symbolize(&p, &o), 0);
	CHECK_EQ(o.unresolved, 0);
	check_ps(&p, "main", SRC_C, "def:main", DP_LINK_GLOBAL);
	dp_profile_release(&p);

	/* the program itself is gone */
	if (load("c", "clang_O2", &p, exe, sizeof(exe)) < 0)
		return;
	p.objects[1].path = (uint32_t)dp_strtab_intern_cstr(&p.strs, "/nonexistent/prog");
	p.program = p.objects[1].path;
	CHECK_EQ(dp_symbolize(&p, &o), -DP_ENOENT);
	CHECK_STR(dp_errmsg(), "cannot open object /nonexistent/prog: No such file or directory");
	dp_profile_release(&p);

	/* gone after the profile was symbolized: the symbols already there are kept */
	if (load("c", "clang_O2", &p, exe, sizeof(exe)) < 0)
		return;
	CHECK_EQ(dp_symbolize(&p, &o), 0);
	p.objects[1].path = (uint32_t)dp_strtab_intern_cstr(&p.strs, "/nonexistent/prog");
	p.program = p.objects[1].path;
	CHECK_EQ(dp_symbolize(&p, &o), 0);
	CHECK_EQ(o.unresolved, 6);
	check_ps(&p, "main", SRC_C, "def:main", DP_LINK_GLOBAL);
	check_ps(&p, "s_add", SRC_C, "def:s_add", DP_LINK_STATIC);
	dp_profile_release(&p);
}

TEST(symbolize_file)
{
	struct dp_symbolize_opts o = {0};
	struct dp_profile p, q;
	char exe[4096], path[256], summary[512], want[512];

	if (load("c", "gcc_O2", &p, exe, sizeof(exe)) < 0)
		return;
	snprintf(path, sizeof(path), "/tmp/dp_test_symbol.%d.data", (int)getpid());
	if (dp_write_file(&p, path) < 0) {
		fprintf(stderr, "dp_write_file: %s\n", dp_errmsg());
		CHECK(0 && "profile written");
		dp_profile_release(&p);
		return;
	}
	CHECK_EQ(dp_symbolize_file(path, &o, summary, sizeof(summary)), 0);
	snprintf(want, sizeof(want), "%s: 6 functions, %u call sites (1 never taken) symbolized",
		 path, p.n_css + 1);
	CHECK_STR(summary, want);
	CHECK_EQ(dp_read_file(path, &q), 0);
	CHECK(q.features & DP_FEAT_SYMBOLIZED);
	CHECK_EQ(dp_symbolize(&p, NULL), 0);
	CHECK(same_symbols(&p, &q));
	dp_profile_release(&q);
	/* a second pass over the file changes nothing */
	CHECK_EQ(dp_symbolize_file(path, &o, summary, sizeof(summary)), 0);
	CHECK_STR(summary, want);
	unlink(path);
	dp_profile_release(&p);
}

TEST(shared_library)
{
	static const char *const fams[] = {"gcc", "clang"};

	for (size_t v = 0; v < 2; v++) {
		struct dp_symbolize_opts o = {0};
		struct dp_profile p;
		char exe[4096], suffix[64];
		uint32_t lib_obj = 0, main_ps, twice, helper;
		const char *src_lib = DP_FIX_SRC "/fix_so_lib.c";

		snprintf(suffix, sizeof(suffix), "%s_O2", fams[v]);
		if (load("so", suffix, &p, exe, sizeof(exe)) < 0)
			continue;
		snprintf(suffix, sizeof(suffix), "/libfixso_%s.so", fams[v]);
		for (uint32_t i = 1; i <= p.n_objects; i++)
			if (dp_fix_ends_with(dp_profile_str(&p, p.objects[i].path), suffix))
				lib_obj = i;
		CHECK(lib_obj > 1);
		CHECK_EQ(dp_symbolize(&p, &o), 0);
		main_ps = dp_fix_ps(&p, "main");
		twice = dp_fix_ps(&p, "lib_twice");
		helper = dp_fix_ps(&p, "lib_helper");
		CHECK(main_ps && twice && helper);
		if (!main_ps || !twice || !helper) {
			dp_profile_release(&p);
			continue;
		}
		CHECK_EQ(p.ps[main_ps].object, 1);
		CHECK_EQ(p.ps[twice].object, lib_obj);
		CHECK_EQ(p.ps[helper].object, lib_obj);
		CHECK_EQ(p.ps[twice].linkage, DP_LINK_GLOBAL);
		CHECK_EQ(p.ps[helper].linkage, DP_LINK_STATIC);
		CHECK_EQ(p.ps[twice].line, dp_fix_line(src_lib, "def:lib_twice"));
		CHECK_EQ(p.ps[helper].line, dp_fix_line(src_lib, "def:lib_helper"));
		/* a call into another object: the callee is a declaration, matched by name */
		check_css(&p, main_ps, DP_FIX_SRC "/fix_so_main.c", "call:lib_twice", DP_CSS_DIRECT,
			  twice, 1);
		check_css(&p, twice, src_lib, "call:lib_helper", DP_CSS_DIRECT, helper, 1);
		check_idempotent(&p);
		dp_profile_release(&p);
	}
}

TEST(debuginfo_variants)
{
	struct dp_symbolize_opts o = {0};
	struct dp_profile p;
	char exe[4096];
	uint32_t main_ps;

	/* debug info in a separate file found through .gnu_debuglink: as if it were inside */
	if (load("c", "gcc_O2.split", &p, exe, sizeof(exe)) == 0) {
		CHECK_EQ(dp_symbolize(&p, &o), 0);
		check_ps(&p, "s_add", SRC_C, "def:s_add", DP_LINK_STATIC);
		check_ps(&p, "main", SRC_C, "def:main", DP_LINK_GLOBAL);
		check_c_sites(&p, 1);
		dp_profile_release(&p);
	}
	/* no debug info: ELF symbol names and linkage only; kinds stay unknown */
	if (load("c", "gcc_O2.nodebug", &p, exe, sizeof(exe)) == 0) {
		uint32_t n_css = p.n_css;

		CHECK_EQ(dp_symbolize(&p, &o), 0);
		main_ps = dp_fix_ps(&p, "main");
		CHECK(main_ps != 0);
		CHECK_EQ(p.ps[main_ps].linkage, DP_LINK_GLOBAL);
		CHECK_EQ(p.ps[main_ps].line, 0);
		CHECK_EQ(p.ps[main_ps].file, 0);
		CHECK_EQ(p.ps[dp_fix_ps(&p, "s_add")].linkage, DP_LINK_STATIC);
		CHECK_EQ(p.ps[dp_fix_ps(&p, "w_fn")].linkage, DP_LINK_WEAK);
		CHECK_EQ(p.n_css, n_css);
		for (uint32_t i = 1; i <= p.n_css; i++) {
			CHECK_EQ(p.css[i].line, 0);
			CHECK(p.css[i].kind == DP_CSS_UNKNOWN || p.css[i].ps <= 2);
		}
		dp_profile_release(&p);
	}
}

DP_TEST_MAIN(test_c_fixtures, test_cpp_fixtures, test_build_id_mismatch, test_missing_objects,
	     test_symbolize_file, test_shared_library, test_debuginfo_variants)
