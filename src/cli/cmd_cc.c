/*
 * cli/cmd_cc.c - `deepprof cc` / `deepprof c++`: the compiler wrapper. Runs the real
 * compiler ($DEEPPROF_CC / $DEEPPROF_CXX, default cc / c++) with the user's arguments plus
 * the instrumentation flags, and, when it links an executable, the runtime (libdeepprof.a,
 * whole archive) with its hooks exported. execs the compiler, so its exit status is ours.
 * Instruments after inlining by default: gcc through plugin/deepprof_gcc.so when it was
 * built for this gcc, clang with -finstrument-functions-after-inlining (and
 * plugin/deepprof_llvm.so, which keeps tail calls, when it was built for this clang).
 */
#define _GNU_SOURCE /* strdup, strtok_r */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd_common.h"
#include "commands.h"
#include "deepprof/exports.h"

/* What the user's arguments ask the compiler to do. */
struct dp_cc_scan {
	int no_link;	  /* -c, -S, -E, -M, -MM or -fsyntax-only: no link step */
	int shared;	  /* -shared or -r: a library; the executable provides the hooks */
	int stat;	  /* -static or -static-pie: libc.a defines the allocation functions */
	int pg;		  /* -pg: gprof's mcount calls too */
	int other_target; /* -m32, -mx32, -target, --target=: not the host's x86-64 */
	int n_inputs;
	const char *conftest; /* an input or output named as configure tests are, or NULL */
};

/* Symbols the executable must export so that instrumented shared libraries (and the C++
 * runtime's allocation calls) bind to the copy linked into the executable. */
static const char *const dp_exported[] = {DP_RT_EXPORTS(DP_RT_EXPORT_NAME)};

#define DP_N_EXPORTED (sizeof(dp_exported) / sizeof(dp_exported[0]))

/* The allocation functions, which a static link redirects to the runtime's __wrap_
 * versions (libc.a's malloc.o defines them too, so the runtime cannot). */
static const char *const dp_allocs[] = {DP_RT_ALLOCS(DP_RT_EXPORT_NAME)};

#define DP_N_ALLOCS (sizeof(dp_allocs) / sizeof(dp_allocs[0]))

/* Options whose argument is the next word (so that word is not an input file). */
static const char *const dp_opts_with_arg[] = {
	"-o",
	"-I",
	"-D",
	"-U",
	"-include",
	"-imacros",
	"-isystem",
	"-idirafter",
	"-iprefix",
	"-iwithprefix",
	"-iwithprefixbefore",
	"-iquote",
	"-isysroot",
	"-imultilib",
	"-x",
	"-L",
	"-l",
	"-MF",
	"-MT",
	"-MQ",
	"-Xlinker",
	"-Xassembler",
	"-Xpreprocessor",
	"-Xclang",
	"-u",
	"-T",
	"-z",
	"--param",
	"-aux-info",
	"-dumpbase",
	"-dumpdir",
	"-target",
	"--sysroot",
	"-arch",
};

#define DP_N_OPTS_WITH_ARG (sizeof(dp_opts_with_arg) / sizeof(dp_opts_with_arg[0]))

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "deepprof: out of memory\n");
		exit(1);
	}
	return p;
}

static int takes_arg(const char *opt)
{
	size_t i;

	for (i = 0; i < DP_N_OPTS_WITH_ARG; i++)
		if (strcmp(opt, dp_opts_with_arg[i]) == 0)
			return 1;
	return 0;
}

static int is_stop_before_link(const char *a)
{
	return strcmp(a, "-c") == 0 || strcmp(a, "-S") == 0 || strcmp(a, "-E") == 0 ||
	       strcmp(a, "-M") == 0 || strcmp(a, "-MM") == 0 || strcmp(a, "-fsyntax-only") == 0;
}

/* Classify one word; returns 1 if the next word is this option's argument. */
static int scan_word(const char *a, struct dp_cc_scan *s)
{
	if (a[0] != '-' || a[1] == '\0') {
		s->n_inputs++; /* a source, object or archive; "-" is stdin */
		return 0;
	}
	if (is_stop_before_link(a))
		s->no_link = 1;
	else if (strcmp(a, "-shared") == 0 || strcmp(a, "-r") == 0)
		s->shared = 1;
	else if (strcmp(a, "-static") == 0 || strcmp(a, "-static-pie") == 0)
		s->stat = 1;
	else if (strcmp(a, "-pg") == 0)
		s->pg = 1;
	else if (strcmp(a, "-m32") == 0 || strcmp(a, "-mx32") == 0 || strcmp(a, "-m16") == 0 ||
		 strcmp(a, "-target") == 0 || strncmp(a, "--target=", 9) == 0)
		s->other_target = 1;
	return takes_arg(a);
}

/*
 * Scan the words of a response file (@FILE, as CMake and libtool write them): split at
 * white space, honouring simple quotes and backslashes. Response files inside response
 * files are not followed. An unreadable file is left to the compiler to complain about.
 */
static void scan_response_file(const char *path, struct dp_cc_scan *s)
{
	FILE *f = fopen(path, "r");
	char word[4096];
	size_t len = 0;
	int c, quote = 0, skip = 0, in_word = 0;

	if (!f)
		return;
	while ((c = getc(f)) != EOF || in_word) {
		if (c != EOF && quote && c == quote) {
			quote = 0;
		} else if (c != EOF && !quote && (c == '\'' || c == '"')) {
			quote = c;
			in_word = 1;
		} else if (c != EOF && c == '\\' && (c = getc(f)) != EOF) {
			if (len < sizeof(word) - 1)
				word[len++] = (char)c;
			in_word = 1;
		} else if (c != EOF && (quote || (c != ' ' && c != '\t' && c != '\n'))) {
			if (len < sizeof(word) - 1)
				word[len++] = (char)c;
			in_word = 1;
		} else if (in_word) {
			word[len] = '\0';
			if (skip)
				skip = 0;
			else if (word[0] != '@')
				skip = scan_word(word, s);
			len = 0;
			in_word = 0;
		}
		if (c == EOF)
			break;
	}
	fclose(f);
}

/*
 * Whether @path (a file name, or with @dir the working directory) is one of the
 * programs build systems compile and run to learn about the system: autoconf's
 * conftest.c / conftest / conftest.o (and libtool's conftest*), CMake's try_compile and
 * try_run projects (CMakeFiles/CMakeScratch/TryCompile-*, CMakeFiles/CMakeTmp, targets
 * cmTC_*), meson's meson-private/tmp* checks.
 */
static int is_conftest(const char *path, int dir)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (strstr(path, "CMakeFiles/CMakeScratch/") || strstr(path, "CMakeFiles/CMakeTmp/") ||
	    strstr(path, "meson-private/tmp"))
		return 1;
	if (dir)
		return strcmp(base, "CMakeTmp") == 0 && strstr(path, "CMakeFiles/CMakeTmp");
	return strncmp(base, "conftest", 8) == 0 || strncmp(base, "cmTC_", 5) == 0;
}

static void scan_args(int argc, char **argv, struct dp_cc_scan *s)
{
	const char *name;
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < argc; i++) {
		if (argv[i][0] == '@') {
			scan_response_file(argv[i] + 1, s);
			continue;
		}
		name = argv[i][0] != '-'			      ? argv[i]
		       : strncmp(argv[i], "-o", 2) == 0 && argv[i][2] ? argv[i] + 2
		       : strcmp(argv[i], "-o") == 0 && i + 1 < argc   ? argv[i + 1]
								      : NULL;
		if (name && !s->conftest && is_conftest(name, 0))
			s->conftest = name;
		if (scan_word(argv[i], s) && i + 1 < argc)
			i++;
	}
}

/* The reason the command compiles a configure-time test program (a name of it), or
 * NULL: by its files' names or by the working directory. DEEPPROF_CONFTEST=instrument
 * instruments them anyway. */
static const char *conftest_reason(const struct dp_cc_scan *s, char *cwd, size_t len)
{
	const char *mode = getenv("DEEPPROF_CONFTEST");

	if (mode && strcmp(mode, "instrument") == 0)
		return NULL;
	if (s->conftest)
		return s->conftest;
	if (getcwd(cwd, len) && is_conftest(cwd, 1))
		return cwd;
	return NULL;
}

static char *xstrcat3(const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
	char *r = xmalloc(la + lb + lc + 1);

	memcpy(r, a, la);
	memcpy(r + la, b, lb);
	memcpy(r + la + lb, c, lc + 1);
	return r;
}

static char *xstrdup(const char *a)
{
	return xstrcat3(a, "", "");
}

/* Split the compiler command ("ccache gcc") at spaces into @out; returns the count. */
static int split_compiler(char *cmd, char **out, int max)
{
	int n = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(cmd, " \t", &save); tok && n < max; tok = strtok_r(NULL, " \t", &save))
		out[n++] = tok;
	return n;
}

static void print_command(char **args)
{
	int i;

	fprintf(stderr, "deepprof:");
	for (i = 0; args[i]; i++)
		fprintf(stderr, " %s", args[i]);
	fprintf(stderr, "\n");
}

static int cc_usage(const char *name)
{
	printf("usage: deepprof %s [COMPILER ARGS...]\n\n"
	       "Runs the compiler ($DEEPPROF_%s, default %s) with the given arguments plus\n"
	       "  INSTRUMENT -g -fno-omit-frame-pointer -DDEEPPROF=1 -IPREFIX/include\n"
	       "and, when linking an executable, the deepprof runtime (PREFIX/lib/libdeepprof.a).\n"
	       "INSTRUMENT instruments functions after inlining, so inlined functions cost\n"
	       "nothing and do not appear. DEEPPROF_INSTRUMENT chooses how:\n"
	       "  stubs (default)  every function calls the runtime's stubs at entry and exit,\n"
	       "                   without arguments and without clobbering a register (x86-64):\n"
	       "                   -fplugin=PREFIX/lib/deepprof/deepprof_gcc.so\n"
	       "                   -fplugin-arg-deepprof_gcc-stubs with the gcc the plugin was\n"
	       "                   built for; -Xclang -pg -Xclang -mfentry\n"
	       "                   -fpass-plugin=PREFIX/lib/deepprof/deepprof_llvm.so with the\n"
	       "                   clang the pass plugin was built for; else as after-inlining\n"
	       "  after-inlining   the -finstrument-functions hooks, after inlining: the gcc\n"
	       "                   plugin, or clang's -finstrument-functions-after-inlining (and\n"
	       "                   the pass plugin, which keeps tail calls); else, and with -pg,\n"
	       "                   -finstrument-functions\n"
	       "  inlined          -finstrument-functions (inlined copies call the hooks too,\n"
	       "                   and show up)\n"
	       "-c, -S, -E, -M, -MM and -fsyntax-only do not link; -shared instruments but links\n"
	       "no runtime: the program provides it (built with deepprof cc, or run with\n"
	       "deepprof run, which preloads libdeepprof.so into other programs), only\n"
	       "weak no-op stand-ins for the runtime's own entry points (libdeepprof_stubs.a),\n"
	       "so that the library also loads where no runtime is;\n"
	       "-static links libdeepprof_static.a and\n"
	       "wraps the allocation functions (-Wl,--wrap=malloc...). Configure-time test\n"
	       "programs (autoconf's conftest*, CMake's try_compile and try_run, meson's\n"
	       "checks) are compiled as they are, with no instrumentation and no runtime, so\n"
	       "that configure learns what a plain build would and they write no profiles\n"
	       "(DEEPPROF_CONFTEST=instrument instruments them too). Without input files the\n"
	       "arguments are passed through unchanged. Use it as CC=\"deepprof cc\" and\n"
	       "CXX=\"deepprof c++\".\n"
	       "DEEPPROF_VERBOSE=1 prints the compiler command line on stderr.\n",
	       name, strcmp(name, "c++") == 0 ? "CXX" : "CC",
	       strcmp(name, "c++") == 0 ? "c++" : "cc");
	return 0;
}

/* Which gcc the plugin was built for: its cc1, by path, size and modification time. */
struct dp_cc_gcc {
	char cc1[4096];
	long long size, mtime;
};

/*
 * The plugin, deepprof/deepprof_gcc.so in the first of the library directories that has
 * it with its record, and the gcc it was built for, read into @gcc from deepprof_gcc.cc1
 * beside it (one line "CC1 SIZE MTIME", plugin/record-gcc.cmake). NULL if there is none.
 */
static char *find_plugin(const char *prefix, struct dp_cc_gcc *gcc)
{
	char *so, *rec;
	FILE *f;
	int ok;

	for (int i = 0; i < DP_CLI_N_LIBDIRS; i++) {
		so = dp_cli_lib_file(prefix, i, "deepprof/deepprof_gcc.so");
		rec = dp_cli_lib_file(prefix, i, "deepprof/deepprof_gcc.cc1");
		f = access(so, R_OK) == 0 ? fopen(rec, "r") : NULL;
		free(rec);
		ok = f && fscanf(f, "%4095s %lld %lld", gcc->cc1, &gcc->size, &gcc->mtime) == 3 &&
		     gcc->cc1[0] == '/';
		if (f)
			fclose(f);
		if (ok)
			return so;
		free(so);
	}
	return NULL;
}

/*
 * Run the compiler words @cmd[0..n) plus @opt and put the first line of its standard
 * output into @out (empty on any failure). Standard error is discarded.
 */
static void probe_compiler(char **cmd, int n, char *opt, char *out, size_t size)
{
	char *argv[18];
	int fd[2], st, i;
	ssize_t got = 0, r;
	pid_t pid;

	out[0] = '\0';
	if (n > 16 || pipe(fd) != 0)
		return;
	for (i = 0; i < n; i++)
		argv[i] = cmd[i];
	argv[n] = opt;
	argv[n + 1] = NULL;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(fd[1], 1);
		if (null >= 0)
			dup2(null, 2);
		close(fd[0]);
		close(fd[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	while (pid > 0 && (size_t)got < size - 1 &&
	       (r = read(fd[0], out + got, size - 1 - (size_t)got)) > 0)
		got += r;
	close(fd[0]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		got = 0;
	out[got] = '\0';
	out[strcspn(out, "\n")] = '\0';
}

/* Whether the compiler (its last word: "ccache clang" is clang) is clang, by name. */
static int is_clang(char **cmd, int n)
{
	const char *slash = strrchr(cmd[n - 1], '/');

	return strstr(slash ? slash + 1 : cmd[n - 1], "clang") != NULL;
}

/* Whether the compiler @cmd[0..n) runs the cc1 of @gcc (a plugin loads only into the gcc
 * it was built for): one probe of `-print-prog-name=cc1`, then the file's size and time.
 * clang prints a bare "cc1". */
static int same_gcc(char **cmd, int n, const struct dp_cc_gcc *gcc)
{
	static char print_cc1[] = "-print-prog-name=cc1";
	char got[4096];
	struct stat st;

	probe_compiler(cmd, n, print_cc1, got, sizeof(got));
	return got[0] == '/' && stat(got, &st) == 0 && (long long)st.st_size == gcc->size &&
	       (long long)st.st_mtime == gcc->mtime;
}

/*
 * For clang instrumenting after inlining: -fpass-plugin= with deepprof/deepprof_llvm.so
 * (plugin/deepprof_llvm.cc: keeps tail calls) from the first library directory that has
 * it, if the LLVM major version recorded beside it (deepprof_llvm.ver) is the clang's
 * (`-dumpversion`); else NULL.
 */
static char *llvm_plugin_flag(char **cmd, int n, const char *prefix)
{
	static char dumpversion[] = "-dumpversion";
	char got[64], want[64] = "";
	char *so, *ver, *flag = NULL;
	FILE *f;

	for (int i = 0; i < DP_CLI_N_LIBDIRS && !flag; i++) {
		so = dp_cli_lib_file(prefix, i, "deepprof/deepprof_llvm.so");
		ver = dp_cli_lib_file(prefix, i, "deepprof/deepprof_llvm.ver");
		f = access(so, R_OK) == 0 ? fopen(ver, "r") : NULL;
		if (f && fscanf(f, "%63s", want) == 1) {
			probe_compiler(cmd, n, dumpversion, got, sizeof(got));
			got[strspn(got, "0123456789")] = '\0';
			if (got[0] && strcmp(got, want) == 0)
				flag = xstrcat3("-fpass-plugin=", so, "");
		}
		if (f)
			fclose(f);
		free(ver);
		free(so);
		if (want[0])
			break; /* the first plugin found decides */
	}
	return flag;
}

/* The instrumentation methods (DEEPPROF_INSTRUMENT). */
enum dp_cc_method {
	DP_CC_STUBS,	      /* "stubs", the default: register-preserving stubs */
	DP_CC_AFTER_INLINING, /* "after-inlining": the hooks, after inlining */
	DP_CC_INLINED,	      /* "inlined": -finstrument-functions */
};

/* Whether the stubs can be used on this host: they exist for x86-64 only. */
#if defined(__x86_64__)
#define DP_CC_HAVE_STUBS 1
#else
#define DP_CC_HAVE_STUBS 0
#endif

/*
 * Put the instrumentation flags for the compiler @cmd[0..n) into @out (at most 5);
 * returns how many, or -1 (with a message) for an unknown DEEPPROF_INSTRUMENT.
 * "stubs" (the default): gcc with deepprof's plugin in its stubs mode (the plugin falls
 * back to the hooks where the stubs cannot work), clang with its fentry call
 * (-Xclang -pg -Xclang -mfentry: cc1's -pg only, so that the driver links no gprof
 * start-up files) and the pass plugin, which adds the exit stubs; without the plugin,
 * for another target or with -pg (@s->pg: gprof's own mcount), "after-inlining": gcc's
 * plugin or clang's -finstrument-functions-after-inlining (with the pass plugin, which
 * keeps tail calls), else -finstrument-functions; with clang and -pg,
 * -finstrument-functions too (clang's -pg calls mcount through the same after-inlining
 * hook slot). "inlined": -finstrument-functions (inlined copies call the hooks too).
 */
static int instrument_flags(char **cmd, int n, const char *prefix, const struct dp_cc_scan *s,
			    char **out)
{
	const char *mode = getenv("DEEPPROF_INSTRUMENT");
	enum dp_cc_method m = DP_CC_STUBS;
	struct dp_cc_gcc gcc;
	char *so, *pass;
	int k = 0;

	if (mode && strcmp(mode, "inlined") == 0)
		m = DP_CC_INLINED;
	else if (mode && strcmp(mode, "after-inlining") == 0)
		m = DP_CC_AFTER_INLINING;
	else if (mode && *mode && strcmp(mode, "stubs") != 0) {
		fprintf(stderr,
			"deepprof: DEEPPROF_INSTRUMENT must be 'stubs', 'after-inlining' or "
			"'inlined', not '%s'\n",
			mode);
		return -1;
	}
	if (m == DP_CC_STUBS && (s->pg || s->other_target || !DP_CC_HAVE_STUBS))
		m = DP_CC_AFTER_INLINING;
	if (m == DP_CC_INLINED) {
		out[k++] = xstrdup("-finstrument-functions");
		return k;
	}
	if (is_clang(cmd, n)) {
		if (s->pg) {
			out[k++] = xstrdup("-finstrument-functions");
			return k;
		}
		pass = llvm_plugin_flag(cmd, n, prefix);
		if (m == DP_CC_STUBS && pass) {
			out[k++] = xstrdup("-Xclang");
			out[k++] = xstrdup("-pg");
			out[k++] = xstrdup("-Xclang");
			out[k++] = xstrdup("-mfentry");
		} else {
			out[k++] = xstrdup("-finstrument-functions-after-inlining");
		}
		if (pass)
			out[k++] = pass;
		return k;
	}
	so = find_plugin(prefix, &gcc);
	if (so && same_gcc(cmd, n, &gcc)) {
		out[k++] = xstrcat3("-fplugin=", so, "");
		if (m == DP_CC_STUBS)
			out[k++] = xstrdup("-fplugin-arg-deepprof_gcc-stubs");
	} else {
		out[k++] = xstrdup("-finstrument-functions");
	}
	free(so);
	return k;
}

/*
 * dp_cmd_cc - `deepprof cc|c++ ARGS...` (argv[0] is "cc" or "c++"). Builds the compiler
 * command line and execs it; returns only on failure (1), or 0 after --help.
 */
int dp_cmd_cc(int argc, char **argv)
{
	int cxx = strcmp(argv[0], "c++") == 0;
	const char *env = getenv(cxx ? "DEEPPROF_CXX" : "DEEPPROF_CC");
	const char *verbose = getenv("DEEPPROF_VERBOSE");
	const char *prefix = dp_cli_prefix();
	char *compiler, **args, *lib = NULL;
	struct dp_cc_scan scan;
	const char *why;
	char cwd[4096];
	int n = 0, i, link;
	size_t j;

	if (argc == 2 && strcmp(argv[1], "--help") == 0)
		return cc_usage(argv[0]);
	compiler = strdup(env && *env ? env : cxx ? "c++" : "cc");
	if (!compiler)
		return 1;
	scan_args(argc - 1, argv + 1, &scan);
	why = scan.n_inputs > 0 ? conftest_reason(&scan, cwd, sizeof(cwd)) : NULL;
	if (why) { /* the program as the build system means it: no hooks, no runtime */
		scan.n_inputs = 0;
		if (verbose && *verbose && strcmp(verbose, "0") != 0)
			fprintf(stderr, "deepprof: configure test (%s): not instrumented\n", why);
	}
	link = scan.n_inputs > 0 && !scan.no_link && !scan.shared;
	/* compiler words (<= 16) + 9 flags + user args + 4 runtime (or 1 stubs) + exports or
	 * wraps + NULL
	 * (the flags: instrumentation (<= 5), -g, frame pointers, -D, -I) */
	args = xmalloc(sizeof(*args) *
		       (size_t)(16 + 9 + argc + 4 + (int)(DP_N_EXPORTED + DP_N_ALLOCS) + 1));
	n = split_compiler(compiler, args, 16);
	if (n == 0) {
		fprintf(stderr, "deepprof: $DEEPPROF_%s is empty\n", cxx ? "CXX" : "CC");
		return 1;
	}
	if (scan.n_inputs > 0) {
		int k = instrument_flags(args, n, prefix, &scan, args + n);

		if (k < 0)
			return 1;
		n += k;
		args[n++] = xstrdup("-g");
		args[n++] = xstrdup("-fno-omit-frame-pointer");
		args[n++] = xstrdup("-DDEEPPROF=1");
		args[n++] = xstrcat3("-I", prefix, "/include");
	}
	for (i = 1; i < argc; i++)
		args[n++] = argv[i];
	if (link) {
		lib = dp_cli_runtime_file(scan.stat ? "libdeepprof_static.a" : "libdeepprof.a");
		if (!lib)
			return 1;
		args[n++] = xstrdup("-Wl,--whole-archive");
		args[n++] = lib;
		args[n++] = xstrdup("-Wl,--no-whole-archive");
		args[n++] = xstrdup("-pthread");
		for (j = 0; scan.stat && j < DP_N_ALLOCS; j++)
			args[n++] = xstrcat3("-Wl,--wrap=", dp_allocs[j], "");
		for (j = 0; !scan.stat && j < DP_N_EXPORTED; j++)
			args[n++] = xstrcat3("-Wl,--export-dynamic-symbol=", dp_exported[j], "");
	}
	if (scan.n_inputs > 0 && !scan.no_link && scan.shared) {
		/* a library: weak no-op tail-call hook and region API, for when it is loaded
		 * without the runtime (rt_stubs.c); the runtime's come first when it is there */
		lib = dp_cli_runtime_file("libdeepprof_stubs.a");
		if (!lib)
			return 1;
		args[n++] = lib;
	}
	args[n] = NULL;
	if (verbose && *verbose && strcmp(verbose, "0") != 0)
		print_command(args);
	execvp(args[0], args);
	fprintf(stderr, "deepprof: cannot run compiler '%s': %s\n", args[0], strerror(errno));
	return 1;
}
