/*
 * cli/cmd_run.c - `deepprof run [-o FILE] [--hz N] [--per-process] [--] PROG [ARGS...]`:
 * runs a program built with `deepprof cc` with DEEPPROF_OUTPUT/DEEPPROF_HZ set, keeps its
 * exit status, gathers the profiles of every process of the run (run_tree.c: symbolized,
 * merged into FILE or kept one per process) and prints a short summary on stderr (never
 * on stdout, which belongs to the program).
 */
#define _GNU_SOURCE /* pipe2, strsignal, setenv */

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../core/err.h"
#include "../format/profile.h"
#include "../format/reader.h"
#include "../symbol/symbol.h"
#include "cmd_common.h"
#include "commands.h"
#include "deepprof/format.h"
#include "run_tree.h"

#define DP_RUN_TOP 10

struct dp_run_opts {
	char output[PATH_MAX]; /* absolute path of the data file */
	const char *hz;	       /* NULL: leave DEEPPROF_HZ alone */
	char **prog_argv;      /* NULL-terminated */
	char *preload;	       /* libdeepprof.so when PROG has no runtime, else NULL */
	const char *pattern;   /* DEEPPROF_OUTPUT of the run (run_tree.h) */
	int per_process;       /* --per-process */
};

#define DP_RUN_USAGE "usage: deepprof run [-o FILE] [--hz N] [--per-process] [--] PROG [ARGS...]\n"

static int run_usage(FILE *f)
{
	if (f != stdout) {
		fprintf(f, DP_RUN_USAGE "('deepprof run --help' tells more)\n");
		return 2;
	}
	fprintf(f, DP_RUN_USAGE
		"\n"
		"Runs PROG (built with deepprof cc) with its profile going to FILE (default\n"
		"./Deep.data), symbolized so that it is self-contained, and prints a summary on\n"
		"stderr: run time, samples, nodes, the top functions by self time and by calls.\n"
		"Every process of the run built with deepprof (forked or executed, at any\n"
		"depth: a shell script, make check) writes its profile into a private temporary\n"
		"directory; FILE gets them merged (the same program context by context, others\n"
		"each under a node of their own). The exit status is PROG's (128+N if killed by\n"
		"signal N).\n\n"
		"  -o, --output FILE  where the profile goes (default ./Deep.data)\n"
		"  --hz N             CPU-time samples per second and thread (0 = off;\n"
		"                     default $DEEPPROF_HZ or 1000)\n"
		"  --per-process      one file per process instead: PROG's in FILE, the others'\n"
		"                     in FILE with .PID before .data\n"
		"  -h, --help         this text\n");
	return 0;
}

static int bad_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int bad_usage(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "deepprof run: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	return run_usage(stderr);
}

/* Make @path absolute (relative to the current directory) into @out. */
static int absolute_path(const char *path, char *out, size_t len)
{
	char cwd[PATH_MAX];
	int n;

	if (path[0] == '/') {
		n = snprintf(out, len, "%s", path);
	} else {
		if (!getcwd(cwd, sizeof(cwd)))
			return -1;
		n = snprintf(out, len, "%s/%s", cwd, path);
	}
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static int valid_hz(const char *s)
{
	char *end;
	unsigned long v;

	if (!*s || *s == '-' || *s == '+')
		return 0;
	errno = 0;
	v = strtoul(s, &end, 10);
	return !*end && !errno && v <= 1000000;
}

/* The program writes its profile next to @path (a temporary file, then renamed): the
 * directory must exist and be writable, or the run would be for nothing. */
static int check_output_dir(const char *path)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", path);
	*strrchr(dir, '/') = '\0';
	if (access(dir[0] ? dir : "/", W_OK) == 0)
		return 0;
	fprintf(stderr, "deepprof run: cannot write the profile in %s: %s\n", dir[0] ? dir : "/",
		strerror(errno));
	return -1;
}

/* Parse the options; returns -1 to go on, or the exit status to return now. */
static int parse_run_args(int argc, char **argv, struct dp_run_opts *o)
{
	const char *out = "Deep.data";
	int i;

	o->hz = NULL;
	o->per_process = 0;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (a[0] != '-')
			break;
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
			return run_usage(stdout);
		if (strcmp(a, "--per-process") == 0) {
			o->per_process = 1;
			continue;
		}
		if (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0 || strcmp(a, "--hz") == 0) {
			if (i + 1 >= argc)
				return bad_usage("option '%s' needs an argument", a);
			if (strcmp(a, "--hz") == 0)
				o->hz = argv[++i];
			else
				out = argv[++i];
		} else if (strncmp(a, "--output=", 9) == 0) {
			out = a + 9;
		} else if (strncmp(a, "-o", 2) == 0) {
			out = a + 2;
		} else if (strncmp(a, "--hz=", 5) == 0) {
			o->hz = a + 5;
		} else {
			return bad_usage("unknown option '%s'", a);
		}
	}
	if (i >= argc)
		return bad_usage("no program to run");
	if (o->hz && !valid_hz(o->hz))
		return bad_usage("--hz wants a number from 0 to 1000000, not '%s'", o->hz);
	if (!*out || strchr(out, '%'))
		return bad_usage("bad output file name '%s' (%%p and %%e are not expanded here)",
				 out);
	if (absolute_path(out, o->output, sizeof(o->output))) {
		fprintf(stderr, "deepprof run: output path too long or no working directory\n");
		return 2;
	}
	if (check_output_dir(o->output))
		return 2;
	o->prog_argv = argv + i;
	return -1;
}

/* ------------------------------------------------ programs without the runtime --- */

/* Where execvp() finds @prog: @prog itself if it has a '/', else the first regular,
 * executable file of that name in $PATH. Into @out; 0, or -1 if none. */
static int find_program(const char *prog, char *out, size_t len)
{
	const char *path = getenv("PATH"), *p, *end;
	struct stat st;

	if (strchr(prog, '/'))
		return snprintf(out, len, "%s", prog) < (int)len ? 0 : -1;
	for (p = path && *path ? path : "/usr/local/bin:/usr/bin:/bin"; *p; p = end) {
		int n;

		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		n = snprintf(out, len, "%.*s%s%s", (int)(end - p), p, end > p ? "/" : "", prog);
		if (*end)
			end++;
		if (n > 0 && (size_t)n < len && stat(out, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(out, X_OK) == 0)
			return 0;
	}
	return -1;
}

static int read_at(int fd, void *buf, size_t n, uint64_t off)
{
	return pread(fd, buf, n, (off_t)off) == (ssize_t)n ? 0 : -1;
}

/* Whether the ELF symbol table section @sh of @fd defines deepprof_write. */
static int defines_runtime(int fd, const Elf64_Shdr *sh, const Elf64_Shdr *strtab)
{
	static const char want[] = "deepprof_write";
	char name[sizeof(want)];
	Elf64_Sym sym;

	if (sh->sh_entsize != sizeof(sym))
		return 0;
	for (uint64_t off = 0; off + sizeof(sym) <= sh->sh_size; off += sizeof(sym)) {
		if (read_at(fd, &sym, sizeof(sym), sh->sh_offset + off) != 0)
			return 0;
		if (sym.st_shndx == SHN_UNDEF || sym.st_name >= strtab->sh_size ||
		    strtab->sh_size - sym.st_name < sizeof(want))
			continue;
		if (read_at(fd, name, sizeof(name), strtab->sh_offset + sym.st_name) == 0 &&
		    memcmp(name, want, sizeof(want)) == 0)
			return 1;
	}
	return 0;
}

/*
 * Whether @path is a 64-bit ELF file with the runtime linked in (built by deepprof cc:
 * its symbol tables define deepprof_write). Scripts and other programs have none: their
 * deepprof-built shared objects need libdeepprof.so preloaded.
 */
static int has_runtime(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), found = 0;
	Elf64_Ehdr eh;

	if (fd < 0)
		return 0;
	if (read_at(fd, &eh, sizeof(eh), 0) == 0 && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
	    eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_shentsize == sizeof(Elf64_Shdr)) {
		for (unsigned i = 0; i < eh.e_shnum && !found; i++) {
			Elf64_Shdr sh, str;

			if (read_at(fd, &sh, sizeof(sh), eh.e_shoff + (uint64_t)i * sizeof(sh)) ||
			    (sh.sh_type != SHT_DYNSYM && sh.sh_type != SHT_SYMTAB) ||
			    sh.sh_link >= eh.e_shnum ||
			    read_at(fd, &str, sizeof(str), eh.e_shoff + sh.sh_link * sizeof(str)))
				continue;
			found = defines_runtime(fd, &sh, &str);
		}
	}
	close(fd);
	return found;
}

/*
 * Decide whether PROG needs libdeepprof.so preloaded (o->preload): when it is not built
 * with deepprof cc (an interpreter, a plain program loading deepprof-built plugins or
 * modules). Returns 0, or -1 after a message when the library is missing.
 */
static int choose_preload(struct dp_run_opts *o)
{
	char path[PATH_MAX];

	o->preload = NULL;
	if (find_program(o->prog_argv[0], path, sizeof(path)) != 0 || has_runtime(path))
		return 0; /* not found: exec says so */
	o->preload = dp_cli_runtime_file("libdeepprof.so");
	if (!o->preload)
		return -1;
	fprintf(stderr,
		"deepprof: %s is not built with deepprof cc: preloading %s for the "
		"deepprof-built shared objects it loads\n",
		o->prog_argv[0], o->preload);
	return 0;
}

/* LD_PRELOAD with @lib first (the runtime must come before anything else preloaded). */
static int set_preload(const char *lib)
{
	const char *old = getenv("LD_PRELOAD");
	size_t n;
	char *v;
	int r;

	if (!old || !*old)
		return setenv("LD_PRELOAD", lib, 1);
	n = strlen(lib) + strlen(old) + 2;
	v = malloc(n);
	if (!v)
		return -1;
	snprintf(v, n, "%s %s", lib, old);
	r = setenv("LD_PRELOAD", v, 1);
	free(v);
	return r;
}

/* The child: environment, the signal dispositions deepprof was started with, exec; an
 * exec failure is reported through @errfd (close-on-exec: a successful exec closes it). */
static void run_child(const struct dp_run_opts *o, int errfd, const struct sigaction *old_int,
		      const struct sigaction *old_quit)
{
	int err;

	sigaction(SIGINT, old_int, NULL);
	sigaction(SIGQUIT, old_quit, NULL);
	if (setenv("DEEPPROF_OUTPUT", o->pattern, 1) ||
	    (o->hz && setenv("DEEPPROF_HZ", o->hz, 1)) || (o->preload && set_preload(o->preload))) {
		err = errno;
	} else {
		execvp(o->prog_argv[0], o->prog_argv);
		err = errno;
	}
	if (write(errfd, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

/*
 * Run the program and wait for it. Returns its exit status (128+N if killed by signal N,
 * 127 if it could not be started). *@started is 0 if it could not be started, N if it
 * was killed by signal N, else -1; *@top its pid.
 */
static int run_program(const struct dp_run_opts *o, int *started, pid_t *top)
{
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
	int fds[2], status = 0, err = 0;
	ssize_t n;
	pid_t pid;

	*started = 0;
	if (pipe2(fds, O_CLOEXEC)) {
		fprintf(stderr, "deepprof run: pipe: %s\n", strerror(errno));
		return 127;
	}
	sigaction(SIGINT, &ign, &old_int); /* like system(): ^C goes to the program */
	sigaction(SIGQUIT, &ign, &old_quit);
	pid = fork();
	*top = pid;
	if (pid == 0)
		run_child(o, fds[1], &old_int, &old_quit);
	close(fds[1]);
	if (pid < 0) {
		fprintf(stderr, "deepprof run: fork: %s\n", strerror(errno));
		close(fds[0]);
		status = 127;
		goto out;
	}
	do
		n = read(fds[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (n == (ssize_t)sizeof(err)) {
		fprintf(stderr, "deepprof run: cannot run %s: %s\n", o->prog_argv[0],
			strerror(err));
		status = 127;
		goto out;
	}
	*started = -1;
	if (WIFSIGNALED(status)) {
		*started = WTERMSIG(status);
		status = 128 + WTERMSIG(status);
	} else {
		status = WEXITSTATUS(status);
	}
out:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	return status;
}

/* ------------------------------------------------------------------ the summary --- */

struct dp_run_rank {
	uint32_t ps;
	uint64_t value;
};

static int rank_cmp(const void *a, const void *b)
{
	const struct dp_run_rank *x = a, *y = b;

	if (x->value != y->value)
		return x->value < y->value ? 1 : -1;
	return x->ps < y->ps ? -1 : x->ps > y->ps;
}

/* Where PS @ps is defined, "file:line" or "" into @buf. */
static const char *ps_where(const struct dp_profile *p, uint32_t ps, char *buf, size_t len)
{
	const char *file = dp_profile_str(p, p->ps[ps].file);
	const char *slash = strrchr(file, '/');

	if (!*file || p->ps[ps].kind == DP_PS_LIBRARY) /* named with its object already */
		return "";
	snprintf(buf, len, "%s:%" PRIu32, slash ? slash + 1 : file, p->ps[ps].line);
	return buf;
}

static void print_top(const struct dp_profile *p, struct dp_run_rank *r, const char *what,
		      int seconds)
{
	char lbuf[64], wbuf[PATH_MAX];
	uint64_t total = 0;
	uint32_t i, n = 0;

	for (i = 1; i <= p->n_ps; i++)
		total += r[i - 1].value;
	qsort(r, p->n_ps, sizeof(*r), rank_cmp);
	fprintf(stderr, "top functions by %s:\n", what);
	for (i = 0; i < p->n_ps && n < DP_RUN_TOP; i++) {
		uint32_t ps = r[i].ps;
		double pct;

		if (r[i].value == 0 ||
		    (p->ps[ps].kind != DP_PS_FUNCTION && p->ps[ps].kind != DP_PS_LIBRARY))
			continue;
		n++;
		pct = 100.0 * (double)r[i].value / (double)(total ? total : 1);
		if (seconds)
			fprintf(stderr, "  %10" PRIu64 " %9.3fs %5.1f%%  %s  %s\n", r[i].value,
				(double)r[i].value * (double)p->sample_period_ns / 1e9, pct,
				dp_profile_ps_label(p, ps, lbuf, sizeof(lbuf)),
				ps_where(p, ps, wbuf, sizeof(wbuf)));
		else
			fprintf(stderr, "  %10" PRIu64 " %5.1f%%  %s  %s\n", r[i].value, pct,
				dp_profile_ps_label(p, ps, lbuf, sizeof(lbuf)),
				ps_where(p, ps, wbuf, sizeof(wbuf)));
	}
	if (n == 0)
		fprintf(stderr, "  (none)\n");
}

/* Print the node counts and the top functions of the data file @path. */
static int print_summary(const char *path)
{
	struct dp_run_rank *self, *calls;
	struct dp_profile p;
	uint64_t n_calls = 0;
	uint32_t i, n_functions = 0;

	memset(&p, 0, sizeof(p));
	if (dp_read_file(path, &p) < 0) {
		fprintf(stderr, "deepprof: %s\n", dp_errmsg());
		return -1;
	}
	self = calloc((size_t)p.n_ps + 1, sizeof(*self));
	calls = calloc((size_t)p.n_ps + 1, sizeof(*calls));
	if (!self || !calls) {
		fprintf(stderr, "deepprof: out of memory\n");
		free(self);
		free(calls);
		dp_profile_release(&p);
		return -1;
	}
	for (i = 0; i < p.n_ps; i++) {
		self[i].ps = calls[i].ps = i + 1;
		n_functions += p.ps[i + 1].kind == DP_PS_FUNCTION;
	}
	for (i = 1; i <= p.n_csd; i++) {
		uint32_t ps = p.pd[p.csd[i].callee].ps;

		self[ps - 1].value += p.csd[i].samples;
		calls[ps - 1].value += p.csd[i].calls;
		if (p.ps[ps].kind == DP_PS_FUNCTION)
			n_calls += p.csd[i].calls;
	}
	if (p.sample_period_ns)
		fprintf(stderr, "deepprof: %" PRIu64 " samples every %.3f ms (%.3f s of CPU), ",
			p.samples_outside + p.samples_inside, (double)p.sample_period_ns / 1e6,
			(double)(p.samples_outside + p.samples_inside) *
				(double)p.sample_period_ns / 1e9);
	else
		fprintf(stderr, "deepprof: no samples (sampling was off), ");
	fprintf(stderr,
		"%" PRIu64 " calls; %" PRIu32 " functions, %" PRIu32 " call sites, %" PRIu32
		" PDs, %" PRIu32 " CSDs, %" PRIu32 " threads\n",
		n_calls, n_functions, p.n_css, p.n_pd, p.n_csd, p.n_threads);
	if (p.lost_calls || p.lost_samples || p.lost_allocs)
		fprintf(stderr,
			"deepprof: collection stopped early (%s): lost %" PRIu64 " calls, %" PRIu64
			" samples, %" PRIu64 " allocations\n",
			dp_profile_str(&p, p.stop_reason), p.lost_calls, p.lost_samples,
			p.lost_allocs);
	print_top(&p, self, "self time (samples)", 1);
	print_top(&p, calls, "calls", 0);
	free(self);
	free(calls);
	dp_profile_release(&p);
	return 0;
}

/*
 * dp_cmd_run - `deepprof run [-o FILE] [--hz N] [--per-process] [--] PROG [ARGS...]`.
 * Returns PROG's exit status (128+N if killed by signal N; 127 if it could not be run), 2
 * on bad usage.
 */
int dp_cmd_run(int argc, char **argv)
{
	struct dp_run_tree tree;
	struct timespec t0, t1;
	char written[PATH_MAX];
	struct dp_run_opts o;
	int status, started, rc, n;
	pid_t top;
	double secs;

	rc = parse_run_args(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (choose_preload(&o) != 0)
		return 2;
	if (unlink(o.output) && errno != ENOENT) {
		fprintf(stderr, "deepprof run: cannot remove the old %s: %s\n", o.output,
			strerror(errno));
		free(o.preload);
		return 2;
	}
	if (dp_run_tree_open(&tree) != 0) {
		free(o.preload);
		return 2;
	}
	o.pattern = tree.pattern;
	fflush(NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	status = run_program(&o, &started, &top);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!started) {
		dp_run_tree_close(&tree);
		free(o.preload);
		return status;
	}
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (started > 0)
		fprintf(stderr, "deepprof: %s killed by signal %d (%s) after %.3f s\n",
			o.prog_argv[0], started, strsignal(started), secs);
	else
		fprintf(stderr, "deepprof: %s exited with status %d after %.3f s\n", o.prog_argv[0],
			status, secs);
	n = dp_run_tree_gather(&tree, o.output, top, o.per_process, written);
	dp_run_tree_close(&tree);
	if (written[0])
		print_summary(written);
	if (n != 0) {
		/* written, or gather said why not */
	} else if (started > 0) {
		fprintf(stderr,
			"deepprof: %s was killed before writing its profile (see "
			"DEEPPROF_SIGNAL and DEEPPROF_INTERVAL to write one while it runs)\n",
			o.prog_argv[0]);
	} else if (o.preload) {
		fprintf(stderr,
			"deepprof: %s wrote no profile: no instrumented code ran in it (are the "
			"shared objects it loads built with deepprof cc -shared?)\n",
			o.prog_argv[0]);
	} else {
		fprintf(stderr, "deepprof: %s wrote no profile (was it built with deepprof cc?)\n",
			o.prog_argv[0]);
	}
	free(o.preload);
	return status;
}
