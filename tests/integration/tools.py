#!/usr/bin/env python3
"""tools.py - integration tests of the command line around the profile: the compiler
wrapper (`deepprof cc` behaves like the compiler), `deepprof dump` on truncated and
corrupted files, and CC="deepprof cc" driving make, CMake and autoconf projects.

usage: tools.py --deepprof BIN --work DIR TEST
Exit status: 0 pass, 1 fail, 77 skip (a tool is missing).
"""
import os
import platform
import re
import shutil
import stat
import subprocess
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dpprofile import BaseCtx, CheckError, Checker, Profile, Skip, run_named_test  # noqa: E402

PROGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "progs")



class Ctx(BaseCtx):
    def sh(self, argv, env=None, stdin=None, cwd=None):
        print("+ " + " ".join(argv), flush=True)
        e = dict(self.env)
        e.update(env or {})
        return subprocess.run(argv, cwd=cwd or self.work, env=e, capture_output=True,
                              text=True, input=stdin, check=False)

    def must(self, argv, **kw):
        r = self.sh(argv, **kw)
        if r.returncode != 0:
            raise CheckError("%s failed (%d):\n%s%s" % (" ".join(argv), r.returncode,
                                                         r.stdout[-3000:], r.stderr[-3000:]))
        return r

    def write(self, name, text):
        path = os.path.join(self.work, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
        return path

    def nm(self, path, dynamic=False):
        argv = ["nm", "-D", "--defined-only", path] if dynamic else ["nm", path]
        return self.must(argv).stdout


HELLO = """\
    #include <stdio.h>
    static int twice(int x) { return 2 * x; }
    int main(void) { printf("%d\\n", twice(21)); return 0; }
    """


# The entry hook or stub an instrumented object calls: __cyg_profile_func_enter (the
# hooks), __deepprof_fentry (gcc's plugin, stubs) or __fentry__ (clang, stubs).
ENTRY_RE = r"__cyg_profile_func_enter|__deepprof_fentry|__fentry__"


def wrapper(ctx, ck, family):
    cc = {"gcc": "gcc", "clang": "clang"}[family]
    if not shutil.which(cc):
        raise Skip(cc)
    dp = [ctx.deepprof, "cc"]
    env = {"DEEPPROF_CC": cc}
    ctx.write("x.c", HELLO)
    ctx.write("bad.c", "int main(void) { return undeclared; }\n")
    for flag in ("--version", "-dumpversion", "-print-prog-name=ld"):
        a, b = ctx.sh(dp + [flag], env=env), ctx.sh([cc, flag])
        ck.eq("%s passes through (status)" % flag, a.returncode, b.returncode)
        ck.eq("%s passes through (output)" % flag, a.stdout, b.stdout)
    ctx.must(dp + ["-c", "x.c", "-o", "x.o"], env=env)
    ck.true("-c: x.o calls the enter hook", re.search(r"U (%s)" % ENTRY_RE,
                                                       ctx.nm("x.o")) is not None)
    ck.true("-c: no runtime linked into x.o", "deepprof_write" not in ctx.nm("x.o"))
    src = "#if DEEPPROF == 1\nDP_DEFINED\n#endif\n#include <deepprof/deepprof.h>\n"
    r = ctx.must(dp + ["-E", "-x", "c", "-"], env=env, stdin=src)
    ck.true("-E: DEEPPROF=1 defined", "DP_DEFINED" in r.stdout)
    ck.true("-E: <deepprof/deepprof.h> found", "deepprof_write" in r.stdout)
    r = ctx.must(dp + ["-M", "x.c"], env=env)
    ck.true("-M: make rule for x.o (%r)" % r.stdout[:60], r.stdout.startswith("x.o: x.c"))
    r = ctx.must(dp + ["-MM", "x.c"], env=env)
    ck.eq("-MM: user dependencies only", r.stdout.split(), ["x.o:", "x.c"])
    ctx.must(dp + ["-MD", "-c", "x.c", "-o", "md.o"], env=env)
    ck.true("-MD -c: md.d written", os.path.exists(os.path.join(ctx.work, "md.d")))
    ctx.must(dp + ["-MD", "-MF", "prog.dep", "x.c", "-o", "prog"], env=env)
    ck.true("-MD link: prog.dep written", os.path.exists(os.path.join(ctx.work, "prog.dep")))
    r = ctx.must([os.path.join(ctx.work, "prog")], env={"DEEPPROF_OUTPUT": "md.data"})
    ck.eq("-MD link: program output", r.stdout, "42\n")
    ck.true("-MD link: the program wrote a profile",
            os.path.exists(os.path.join(ctx.work, "md.data")))
    dyn = ctx.nm(os.path.join(ctx.work, "prog"), dynamic=True)
    for sym in ("__cyg_profile_func_enter", "__cyg_profile_func_exit", "__deepprof_fentry",
                "__fentry__", "__return__", "__deepprof_exit", "__deepprof_tail",
                "deepprof_write", "malloc", "calloc", "realloc"):
        ck.true("executable exports %s" % sym, re.search(r" T %s$" % sym, dyn, re.M))
    ctx.must(dp + ["-S", "x.c", "-o", "x.s"], env=env)
    with open(os.path.join(ctx.work, "x.s")) as f:
        ck.true("-S: assembly calls the hook", re.search(ENTRY_RE, f.read()))
    r = ctx.must(dp + ["-fsyntax-only", "x.c"], env=env)
    ck.eq("-fsyntax-only: silent", r.stdout + r.stderr, "")
    a, b = ctx.sh(dp + ["bad.c", "-o", "bad"], env=env), ctx.sh([cc, "bad.c", "-o", "bad"])
    ck.true("failing compile fails", a.returncode != 0)
    ck.eq("failing compile: the compiler's exit status", a.returncode, b.returncode)
    ck.true("failing compile: the compiler's message", "undeclared" in a.stderr)
    ctx.write("lib.c", "int lib_f(int x) { return x + 1; }\n")
    ctx.must(dp + ["-shared", "-fPIC", "lib.c", "-o", "libf.so"], env=env)
    dyn = ctx.nm(os.path.join(ctx.work, "libf.so"), dynamic=True)
    ck.true("-shared: no runtime in the library", "deepprof_write" not in dyn)
    ck.true("-shared: instrumented", re.search(ENTRY_RE, ctx.nm(
        os.path.join(ctx.work, "libf.so"))))
    ctx.write("args.rsp", "-c x.c -o rsp.o\n")
    ctx.must(dp + ["@args.rsp"], env=env)
    ck.true("@response file with -c: compiles without linking",
            os.path.exists(os.path.join(ctx.work, "rsp.o")))
    r = ctx.sh(dp + ["-c"], env=env)
    ck.true("no input files: the compiler's own error", r.returncode != 0)
    r = ctx.sh([ctx.deepprof, "cc", "x.c"], env={"DEEPPROF_CC": "/nonexistent/cc"})
    ck.eq("missing compiler: exit status", r.returncode, 1)
    ck.true("missing compiler: message", "/nonexistent/cc" in r.stderr)


def t_cc_wrapper_gcc(ctx, ck):
    wrapper(ctx, ck, "gcc")


def t_cc_wrapper_clang(ctx, ck):
    wrapper(ctx, ck, "clang")


def cc_flag(ctx, compiler, env=None):
    """The instrumentation flags `deepprof cc` passes to COMPILER (DEEPPROF_VERBOSE): the
    -fplugin*, -fpass-plugin, -finstrument* and -Xclang words and -Xclang's arguments;
    and the run's result."""
    e = dict({"DEEPPROF_INSTRUMENT": ""}, DEEPPROF_CC=compiler, DEEPPROF_VERBOSE="1")
    e.update(env or {})
    r = ctx.sh([ctx.deepprof, "cc", "-O2", "-c", "x.c", "-o", "x.o"], env=e)
    words = r.stderr.split("\n")[0].split()
    flags = [w for i, w in enumerate(words)
             if w.startswith(("-fplugin", "-finstrument", "-fpass-plugin", "-Xclang"))
             or (i and words[i - 1] == "-Xclang")]
    return flags, r


def asm_of(ctx, compiler, mode):
    """The assembly `deepprof cc -O2 -S` makes of x.c with COMPILER under
    DEEPPROF_INSTRUMENT=MODE."""
    ctx.must([ctx.deepprof, "cc", "-O2", "-S", "x.c", "-o", "x.s"],
             env={"DEEPPROF_CC": compiler, "DEEPPROF_INSTRUMENT": mode})
    with open(os.path.join(ctx.work, "x.s")) as f:
        return f.read()


def t_instrument(ctx, ck):
    """How `deepprof cc` instruments: by default the stubs (gcc's plugin in its stubs
    mode, clang's fentry call and the pass plugin's exit stubs), which the code calls
    instead of the hooks; the plugin only with the gcc it was built for (else
    -finstrument-functions); DEEPPROF_INSTRUMENT=after-inlining the hooks after inlining,
    =inlined the old way; a wrong value is refused. Inlined functions get no hooks after
    inlining."""
    lib = os.path.join(os.path.dirname(os.path.dirname(ctx.deepprof)), "lib", "deepprof")
    plugin = os.path.join(lib, "deepprof_gcc.so")
    llvm = os.path.join(lib, "deepprof_llvm.so")
    stubs = platform.machine() in ("x86_64", "AMD64")
    ctx.write("x.c", HELLO)
    if shutil.which("gcc"):
        flags, _ = cc_flag(ctx, "gcc")
        want = ["-fplugin=" + os.path.realpath(plugin)] if os.path.exists(plugin) else [
            "-finstrument-functions"]
        if os.path.exists(plugin) and stubs:
            want.append("-fplugin-arg-deepprof_gcc-stubs")
        ck.eq("gcc: flag", ["-fplugin=" + os.path.realpath(f[9:])
                            if f.startswith("-fplugin=") else f for f in flags], want)
        flags, _ = cc_flag(ctx, "gcc", {"DEEPPROF_INSTRUMENT": "inlined"})
        ck.eq("gcc, DEEPPROF_INSTRUMENT=inlined: flag", flags, ["-finstrument-functions"])
        flags, _ = cc_flag(ctx, "gcc", {"DEEPPROF_INSTRUMENT": "after-inlining"})
        ck.eq("gcc, DEEPPROF_INSTRUMENT=after-inlining: the plugin without the stubs",
              [f.split("=")[0] for f in flags], [want[0].split("=")[0]])
        # a gcc whose cc1 is another file (another version or build) gets no plugin; one
        # that reaches the same cc1 by another path does
        real = ctx.must(["gcc", "-print-prog-name=cc1"]).stdout.strip()
        other = ctx.write("other/cc1", "not the cc1 the plugin was built for\n")
        same = [f.split("=")[0] for f in want]
        for name, cc1, want in (("another", other, ["-finstrument-functions"]),
                                ("a relative", "cc1", ["-finstrument-functions"]),
                                ("the same", os.path.join(os.path.dirname(real), ".",
                                                          os.path.basename(real)), same)):
            fake = ctx.write("fakegcc", """\
                #!/bin/sh
                case "$1" in -print-prog-name=cc1) echo %s; exit 0;; esac
                exec gcc "$@"
                """ % cc1)
            os.chmod(fake, 0o755)
            flags, r = cc_flag(ctx, fake)
            ck.eq("gcc with %s cc1: flag" % name, [f.split("=")[0] for f in flags], want)
            ck.eq("gcc with %s cc1: compiles" % name, r.returncode, 0)
        if os.path.exists(plugin):
            asm = asm_of(ctx, "gcc", "after-inlining")
            ck.true("plugin, after-inlining: main calls the hooks",
                    "__cyg_profile_func_enter" in asm)
            ck.true("plugin: the inlined twice() is gone",
                    not re.search(r"^twice:|call\s+twice", asm, re.M))
        if os.path.exists(plugin) and stubs:
            asm = asm_of(ctx, "gcc", "")
            ck.true("plugin, stubs: main calls the entry stub first",
                    re.search(r"^main:\n(\s*\..*\n)*1:\s*call\s+\*?__deepprof_fentry", asm,
                              re.M))
            ck.true("plugin, stubs: and the exit stub before its ret",
                    re.search(r"call\s+__return__\n\s*ret", asm))
            ck.true("plugin, stubs: no hook", "__cyg_profile" not in asm)
            ck.true("plugin, stubs: the inlined twice() is gone",
                    not re.search(r"^twice:|call\s+twice", asm, re.M))
        r = ctx.sh([ctx.deepprof, "cc", "-c", "x.c"],
                   env={"DEEPPROF_CC": "gcc", "DEEPPROF_INSTRUMENT": "sometimes"})
        ck.eq("bad DEEPPROF_INSTRUMENT: status", r.returncode, 1)
        ck.true("bad DEEPPROF_INSTRUMENT: says so (%r)" % r.stderr,
                "DEEPPROF_INSTRUMENT" in r.stderr and "sometimes" in r.stderr)
    if shutil.which("clang"):
        flags, _ = cc_flag(ctx, "clang")
        pass_flag = ["-fpass-plugin=" + llvm] if os.path.exists(llvm) else []
        want = (["-Xclang", "-pg", "-Xclang", "-mfentry"] if pass_flag and stubs
                else ["-finstrument-functions-after-inlining"]) + pass_flag
        ck.eq("clang: flag", [f.split("=")[0] + "=" + os.path.realpath(f.split("=")[1])
                              if f.startswith("-fpass-plugin=") else f for f in flags],
              [f.split("=")[0] + "=" + os.path.realpath(f.split("=")[1])
               if f.startswith("-fpass-plugin=") else f for f in want])
        flags, _ = cc_flag(ctx, "clang", {"DEEPPROF_INSTRUMENT": "after-inlining"})
        ck.eq("clang, DEEPPROF_INSTRUMENT=after-inlining: flag", [f.split("=")[0] for f in flags],
              ["-finstrument-functions-after-inlining"] + ["-fpass-plugin"] * len(pass_flag))
        flags, _ = cc_flag(ctx, "clang", {"DEEPPROF_INSTRUMENT": "inlined"})
        ck.eq("clang, DEEPPROF_INSTRUMENT=inlined: flag", flags, ["-finstrument-functions"])
        if pass_flag and stubs:
            asm = asm_of(ctx, "clang", "")
            ck.true("clang, stubs: main calls the entry stub first",
                    re.search(r"^main:.*\n(\s*[.#].*\n)*\s*callq?\s+__fentry__", asm, re.M))
            ck.true("clang, stubs: and the exit stub",
                    re.search(r"callq?\s+\*?__deepprof_exit", asm))
            ck.true("clang, stubs: no hook", "__cyg_profile" not in asm)


ERR_RE = re.compile(r"^deepprof: .+: .+ at byte \d+$")


def t_dump_corrupt(ctx, ck):
    exe = os.path.join(ctx.work, "rec")
    ctx.must([ctx.deepprof, "cc", "-O0", "-I", PROGS, os.path.join(PROGS, "recursion.c"),
              "-o", exe])
    ctx.must([ctx.deepprof, "run", "-o", "good.data", exe, "10", "10"])
    good = os.path.join(ctx.work, "good.data")
    Profile.load(ctx.deepprof, good)
    with open(good, "rb") as f:
        data = f.read()
    size = len(data)
    cases = [("trunc%d" % n, data[:n]) for n in sorted({0, 1, 8, 31, 32, 33, size // 2,
                                                        size - 33, size - 32, size - 1})]
    for off in sorted({0, 9, 16, 24, 40, size // 3, size // 2, size - 20, size - 1}):
        b = bytearray(data)
        b[off] ^= 0x41
        cases.append(("flip%d" % off, bytes(b)))
    cases.append(("appended", data + b"\0"))
    for name, blob in cases:
        path = os.path.join(ctx.work, name + ".data")
        with open(path, "wb") as f:
            f.write(blob)
        for fmt in ("text", "json"):
            r = ctx.sh([ctx.deepprof, "dump", "--format=" + fmt, path])
            ck.eq("%s (%s): exit status" % (name, fmt), r.returncode, 2)
            lines = r.stderr.strip().splitlines()
            ck.true("%s (%s): one line 'deepprof: FILE: ... at byte N' (%r)"
                    % (name, fmt, r.stderr.strip()),
                    len(lines) == 1 and ERR_RE.match(lines[0]) and path in lines[0])
    r = ctx.sh([ctx.deepprof, "dump", os.path.join(ctx.work, "missing.data")])
    ck.eq("missing file: exit status", r.returncode, 2)
    r = ctx.sh([ctx.deepprof, "dump", "--format=xml", good])
    ck.eq("bad --format: exit status", r.returncode, 2)


def t_make_project(ctx, ck):
    ctx.write("proj/main.c", """\
        int helper(int);
        int main(void) { int i, s = 0; for (i = 0; i < 7; i++) s += helper(i); return s != 21; }
        """)
    ctx.write("proj/helper.c", "int helper(int x) { return x; }\n")
    ctx.write("proj/Makefile", "prog: main.o helper.o\n\t$(CC) -o $@ main.o helper.o\n"
              "check: prog\n\t./prog\n\t./prog && ./prog\n")
    proj = os.path.join(ctx.work, "proj")
    ctx.must(["make", "CC=%s cc" % ctx.deepprof, "CFLAGS=-O2"], cwd=proj)
    ctx.must([ctx.deepprof, "run", "./prog"], cwd=proj)
    p = Profile.load(ctx.deepprof, os.path.join(proj, "Deep.data"))
    ck.edge(p, "main", "helper", calls=7, exits=7)
    # deepprof run -- make check: the three runs of the test program in one file
    before = set(os.listdir(proj))
    r = ctx.must([ctx.deepprof, "run", "-o", "check.data", "--", "make", "check"], cwd=proj)
    ck.true("3 processes merged", "check.data (3 processes merged)" in r.stderr)
    ck.eq("new files", set(os.listdir(proj)) - before, {"check.data"})
    p = Profile.load(ctx.deepprof, os.path.join(proj, "check.data"))
    ck.edge(p, "main", "helper", calls=21, exits=21)
    ck.edge(p, "<thread>", "main", calls=3)


def t_cmake_project(ctx, ck):
    if not shutil.which("cmake") or not shutil.which("make"):
        raise Skip("cmake")
    ctx.write("proj/CMakeLists.txt", """\
        cmake_minimum_required(VERSION 3.13)
        project(p C CXX)
        include(CheckCSourceRuns)
        check_c_source_runs("int main(void) { return 0; }" P_RUNS)
        if(NOT P_RUNS)
            message(FATAL_ERROR "try_run failed")
        endif()
        add_library(shapes STATIC shapes.cpp)
        add_executable(prog main.c)
        target_link_libraries(prog shapes)
        set_target_properties(prog PROPERTIES LINKER_LANGUAGE CXX)
        """)
    ctx.write("proj/shapes.cpp", """\
        namespace geo { struct Sq { int s; int area() const { return s * s; } }; }
        extern "C" __attribute__((noinline)) int sq_area(int s) { return geo::Sq{s}.area(); }
        """)
    ctx.write("proj/main.c", """\
        int sq_area(int);
        int main(void) { int i, t = 0; for (i = 0; i < 5; i++) t += sq_area(i); return t != 30; }
        """)
    proj = os.path.join(ctx.work, "proj")
    # try_compile and try_run programs are compiled plainly: no profile from them
    env = {"CC": "%s cc" % ctx.deepprof, "CXX": "%s c++" % ctx.deepprof,
           "DEEPPROF_OUTPUT": os.path.join(ctx.work, "try.%p.data")}
    ctx.must(["cmake", "-S", proj, "-B", os.path.join(proj, "b"), "-DCMAKE_BUILD_TYPE=Debug"],
             env=env)
    written = [f for f in os.listdir(ctx.work) if f.endswith(".data")]
    ck.eq("profiles written by CMake's test programs", written, [])
    ctx.must(["cmake", "--build", os.path.join(proj, "b")])
    ctx.must([ctx.deepprof, "run", "-o", "cm.data", os.path.join(proj, "b", "prog")])
    p = Profile.load(ctx.deepprof, os.path.join(ctx.work, "cm.data"))
    ck.edge(p, "main", "sq_area", calls=5, exits=5)
    ck.edge(p, "sq_area", "geo::Sq::area() const", calls=5, exits=5)


def t_autoconf_project(ctx, ck):
    """configure's test programs are compiled plainly: configure learns what it learns
    with the plain compiler (config.h identical) and they write no profiles."""
    if not shutil.which("autoconf") or not shutil.which("make"):
        raise Skip("autoconf")
    ctx.write("ac/configure.ac", """\
        AC_INIT([acp], [1.0])
        AC_CONFIG_HEADERS([config.h])
        AC_PROG_CC
        AC_CHECK_HEADERS([stdint.h sys/mman.h no/such.h])
        AC_CHECK_FUNCS([strdup mremap no_such_function])
        AC_CHECK_SIZEOF([long])
        AC_CHECK_LIB([m], [cos])
        AC_RUN_IFELSE([AC_LANG_PROGRAM([], [[return 0;]])], [], [AC_MSG_ERROR([cannot run])])
        AC_CONFIG_FILES([Makefile])
        AC_OUTPUT
        """)
    ctx.write("ac/Makefile.in", "CC = @CC@\nprog: prog.c\n\t$(CC) -o prog prog.c\n")
    ctx.write("ac/prog.c", HELLO)
    ac = os.path.join(ctx.work, "ac")
    ctx.must(["autoconf"], cwd=ac)
    ctx.must(["autoheader"], cwd=ac)
    shutil.copytree(ac, os.path.join(ctx.work, "ac-plain"))
    ctx.must(["./configure", "CC=cc"], cwd=os.path.join(ctx.work, "ac-plain"))
    # a profile written anywhere by a test program would land here
    stray = os.path.join(ctx.work, "conftest.%p.data")
    r = ctx.must(["./configure", "CC=%s cc" % ctx.deepprof],
                 cwd=ac, env={"DEEPPROF_OUTPUT": stray})
    ck.true("configure: compiler works", "checking whether the C compiler works... yes"
            in r.stdout)
    ck.true("configure: strdup found", "checking for strdup... yes" in r.stdout)
    with open(os.path.join(ac, "config.h")) as f, \
            open(os.path.join(ctx.work, "ac-plain", "config.h")) as g:
        ck.eq("config.h as with the plain compiler", f.read(), g.read())
    written = [os.path.join(d, f) for d, _, fs in os.walk(ctx.work) for f in fs
               if f.endswith(".data")]
    ck.eq("profiles written by configure's test programs", written, [])
    ctx.must(["make"], cwd=ac)
    r = ctx.must([ctx.deepprof, "run", "-o", "ac.data", "./prog"], cwd=ac)
    p = Profile.load(ctx.deepprof, os.path.join(ac, "ac.data"))
    ck.edge(p, "main", "twice", calls=1)


def t_cli_basics(ctx, ck):
    """Global options, help, usage errors and `deepprof run`'s exit statuses."""
    dp = ctx.deepprof
    r = ctx.sh([dp, "--version"])
    ck.eq("--version: status", r.returncode, 0)
    ck.true("--version: 'deepprof X.Y.Z' (%r)" % r.stdout,
            re.match(r"^deepprof \d+\.\d+\.\d+\n$", r.stdout))
    r = ctx.sh([dp, "--help"])
    ck.eq("--help: status", r.returncode, 0)
    for cmd in ("cc", "c++", "run", "dump", "symbolize", "report", "top", "tree", "check",
                "serve"):
        ck.true("--help lists %s" % cmd, re.search(r"^  %s " % re.escape(cmd), r.stdout, re.M))
        h = ctx.sh([dp, cmd, "--help"])
        ck.eq("%s --help: status" % cmd, h.returncode, 0)
        ck.true("%s --help: a usage line" % cmd, "usage: deepprof %s" % cmd in h.stdout)
        h2 = ctx.sh([dp, "help", cmd])
        ck.eq("help %s: same text as %s --help" % (cmd, cmd), h2.stdout, h.stdout)
    for argv, msg in (([], "usage: deepprof"), (["bogus"], "deepprof: unknown command 'bogus'"),
                      (["--bogus"], "deepprof: unknown option '--bogus'"),
                      (["run"], "deepprof run: no program to run"),
                      (["run", "--bogus", "true"], "deepprof run: unknown option '--bogus'"),
                      (["run", "--hz", "fast", "true"], "deepprof run: --hz"),
                      (["help", "bogus"], "deepprof: unknown command 'bogus'")):
        r = ctx.sh([dp] + argv)
        ck.eq("deepprof %s: status" % " ".join(argv), r.returncode, 2)
        ck.true("deepprof %s: first line %r (%r)" % (" ".join(argv), msg, r.stderr[:80]),
                r.stderr.startswith(msg))
        if "bogus" in argv and "--bogus" not in argv:  # an unknown command: one line
            ck.eq("deepprof %s: one line" % " ".join(argv), len(r.stderr.splitlines()), 1)
            ck.true("deepprof %s: the commands listed" % " ".join(argv),
                    "commands: cc, c++, run" in r.stderr)
        else:
            ck.true("deepprof %s: usage follows" % " ".join(argv),
                    "usage: deepprof" in r.stderr)
    r = ctx.sh([dp, "run", "/nonexistent/prog"])
    ck.eq("run missing program: status", r.returncode, 127)
    ck.true("run missing program: message", "cannot run /nonexistent/prog" in r.stderr)
    r = ctx.sh([dp, "run", "--", "sh", "-c", "echo out; exit 3"])
    ck.eq("run: the program's exit status", r.returncode, 3)
    ck.eq("run: stdout is the program's alone", r.stdout, "out\n")
    ck.true("run: says no profile was written", "wrote no profile" in r.stderr)
    r = ctx.sh([dp, "run", "sh", "-c", "kill -KILL $$"])
    ck.eq("run: killed by SIGKILL -> 137", r.returncode, 137)
    ck.true("run: reports the signal", "killed by signal 9" in r.stderr)
    r = ctx.sh([dp, "run", "-o", "%p.data", "true"])
    ck.eq("run -o with %: refused", r.returncode, 2)
    r = ctx.sh([dp, "run", "-o", "/nonexistent/dir/x.data", "true"])
    ck.eq("run -o in a missing directory: status", r.returncode, 2)
    ck.true("run -o in a missing directory: message (%r)" % r.stderr,
            r.stderr.startswith("deepprof run: cannot write the profile in /nonexistent/dir"))


def t_special_output(ctx, ck):
    """A profile sent to something that is not a regular file (a character device like
    /dev/null, a FIFO) is written into it or refused: never renamed over it."""
    src = os.path.join(ctx.work, "p.c")
    with open(src, "w") as f:
        f.write("int f(int x) { return x + 1; }\nint main(void) { return f(0) - 1; }\n")
    ctx.must([ctx.deepprof, "cc", "-O0", "-o", "p", "p.c"])
    if os.geteuid() == 0:  # mknod needs root; the same device as /dev/null
        dev = os.path.join(ctx.work, "null")
        os.mknod(dev, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        r = ctx.sh(["./p"], env={"DEEPPROF_OUTPUT": dev})
        ck.eq("device output: status", r.returncode, 0)
        ck.true("device output: still a character device",
                stat.S_ISCHR(os.lstat(dev).st_mode))
        # the commands that write files: run (moving the process's file into place),
        # export and import (through a temporary file)
        r = ctx.sh([ctx.deepprof, "run", "-o", dev, "./p"])
        ck.eq("run -o device: status", r.returncode, 0)
        ck.true("run -o device: still a character device",
                stat.S_ISCHR(os.lstat(dev).st_mode))
        ctx.must([ctx.deepprof, "run", "-o", "p.data", "./p"])
        for fmt in ("folded", "callgrind", "pprof"):
            r = ctx.sh([ctx.deepprof, "export", "--format=" + fmt, "p.data", "-o", dev])
            ck.eq("export %s -o device: status" % fmt, r.returncode, 0)
            ck.true("export %s -o device: still a character device" % fmt,
                    stat.S_ISCHR(os.lstat(dev).st_mode))
        ctx.must([ctx.deepprof, "export", "--format=folded", "p.data", "-o", "p.folded"])
        r = ctx.sh([ctx.deepprof, "import", "--from=folded", "p.folded", "-o", dev])
        ck.eq("import -o device: status", r.returncode, 0)
        ck.true("import -o device: still a character device",
                stat.S_ISCHR(os.lstat(dev).st_mode))
    fifo = os.path.join(ctx.work, "fifo")
    os.mkfifo(fifo)
    r = ctx.sh(["./p"], env={"DEEPPROF_OUTPUT": fifo})
    ck.eq("FIFO without a reader: the program's status is kept", r.returncode, 0)
    ck.true("FIFO without a reader: says it could not write", "cannot write" in r.stderr)
    ck.true("FIFO: still a FIFO", stat.S_ISFIFO(os.lstat(fifo).st_mode))
    ck.eq("no temporary files left", sorted(f for f in os.listdir(ctx.work) if ".tmp." in f),
          [])


def t_install(ctx, ck):
    """`make install PREFIX=DIR` layout: the installed deepprof finds its own runtime,
    header and man page, and profiles a program that calls deepprof_write()."""
    build = os.path.dirname(os.path.dirname(ctx.deepprof))
    prefix = os.path.join(ctx.work, "prefix")
    ctx.must(["cmake", "--install", build, "--prefix", prefix])
    bin_ = os.path.join(prefix, "bin", "deepprof")
    for rel in ("bin/deepprof", "bin/deepprof-cgi", "include/deepprof/deepprof.h",
                "include/deepprof/format.h", "share/man/man1/deepprof.1"):
        ck.true("installed " + rel, os.path.exists(os.path.join(prefix, rel)))
    libs = [os.path.join(d, f) for d, _, fs in os.walk(prefix) for f in fs
            if f.startswith("libdeepprof")]
    ck.eq("installed runtime libraries", sorted(os.path.basename(x) for x in libs),
          ["libdeepprof.a", "libdeepprof.so", "libdeepprof_static.a",
           "libdeepprof_stubs.a"])
    src = ctx.write("inst/w.c", """\
        #include <deepprof/deepprof.h>
        __attribute__((noinline)) static int twice(int x) { return 2 * x; }
        int main(void) {
            int s = 0;
            for (int i = 0; i < 5; i++) s += twice(i);
            if (deepprof_write() != 0) return 3;
            return s == 20 ? 0 : 1;
        }
        """)
    out = os.path.join(ctx.work, "inst", "w")
    r = ctx.must([bin_, "cc", "-O2", "-o", out, src],
                 env={"DEEPPROF_VERBOSE": "1", "DEEPPROF_CC": "gcc",
                      "DEEPPROF_INSTRUMENT": ""})
    ck.true("installed cc links the installed runtime (%r)" % r.stderr[-400:],
            prefix in r.stderr and build + "/lib" not in r.stderr)
    if os.path.exists(os.path.join(build, "lib", "deepprof", "deepprof_gcc.so")):
        plugins = [os.path.join(d, f) for d, _, fs in os.walk(prefix) for f in fs
                   if f.startswith("deepprof_gcc.")]
        ck.eq("installed plugin files", sorted(os.path.basename(x) for x in plugins),
              ["deepprof_gcc.cc1", "deepprof_gcc.so"])
        ck.true("installed cc uses the installed plugin (%r)" % r.stderr[:300],
                re.search(r"-fplugin=%s/\S+/deepprof_gcc\.so" % re.escape(prefix), r.stderr))
    data = os.path.join(ctx.work, "inst", "Deep.data")
    ctx.must([out], env={"DEEPPROF_OUTPUT": data})
    ctx.must([bin_, "symbolize", data])
    p = Profile.load(bin_, data)
    ck.edge(p, "main", "twice", calls=5, exits=5)
    # -static: the installed static-link runtime
    r = ctx.must([bin_, "cc", "-O2", "-static", "-o", out + "-static", src],
                 env={"DEEPPROF_VERBOSE": "1", "DEEPPROF_CC": "gcc"})
    ck.true("installed cc -static links the installed libdeepprof_static.a",
            os.path.join(prefix, "") in r.stderr and "libdeepprof_static.a" in r.stderr)
    ctx.must([out + "-static"], env={"DEEPPROF_OUTPUT": data})
    ctx.must([bin_, "symbolize", data])
    p = Profile.load(bin_, data)
    ck.edge(p, "main", "twice", calls=5, exits=5)


TESTS = {name[2:]: fn for name, fn in globals().items() if name.startswith("t_")}


def main():
    return run_named_test(TESTS, Ctx, "")


if __name__ == "__main__":
    sys.exit(main())
