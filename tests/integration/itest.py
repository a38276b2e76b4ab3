#!/usr/bin/env python3
"""itest.py - one end-to-end integration test: build a program of progs/ with
`deepprof cc`/`deepprof c++` (gcc or clang, -O0 or -O2), run it with `deepprof run`, read
the profile with `deepprof dump --format=json` and check exact counts computed from the
program's parameters (or from the counts the program prints about itself).

usage: itest.py --deepprof BIN --cc gcc|clang --opt O0|O2 --work DIR TEST
Exit status: 0 pass, 1 fail, 77 skip (compiler missing).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dpprofile import BaseCtx, CheckError, Checker, Profile, Skip  # noqa: E402

PROGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "progs")
COMPILERS = {"gcc": ("gcc", "g++"), "clang": ("clang", "clang++")}


class Ctx(BaseCtx):
    def __init__(self, args):
        super().__init__(args)
        self.family = args.cc
        self.opt = "-" + args.opt
        self.env["DEEPPROF_CC"], self.env["DEEPPROF_CXX"] = COMPILERS[args.cc]

    def sh(self, argv, **kw):
        """Run ARGV in the work dir; return the CompletedProcess (text)."""
        print("+ " + " ".join(argv), flush=True)
        return subprocess.run(argv, cwd=self.work, env=self.env, capture_output=True,
                              text=True, check=False, **kw)

    def must(self, argv):
        r = self.sh(argv)
        if r.returncode != 0:
            raise CheckError("%s failed (%d):\n%s%s" % (" ".join(argv), r.returncode,
                                                         r.stdout, r.stderr))
        return r

    def build(self, out, sources, cxx=False, extra=(), env=None):
        """Build OUT with deepprof cc/c++ and note how it instrumented (self.after: after
        inlining, through gcc's plugin or clang's flag; read from DEEPPROF_VERBOSE)."""
        drv = "c++" if cxx else "cc"
        srcs = [os.path.join(PROGS, s) for s in sources]
        saved = self.env
        self.env = dict(saved, DEEPPROF_VERBOSE="1", **(env or {}))
        try:
            r = self.must([self.deepprof, drv, self.opt, "-Wall", "-I", PROGS, "-o", out]
                          + srcs + list(extra))
        finally:
            self.env = saved
        self.after = ("-fplugin=" in r.stderr
                      or "-finstrument-functions-after-inlining" in r.stderr)
        return os.path.join(self.work, out)

    def plugin_built(self):
        """Whether this build tree has the GCC plugin (then gcc must use it)."""
        return os.path.exists(os.path.join(os.path.dirname(self.deepprof), "..", "lib",
                                           "deepprof", "deepprof_gcc.so"))

    def run(self, exe, *args, output="Deep.data", opts=()):
        """deepprof run EXE ARGS; returns (stdout of the program, profile). The summary
        deepprof printed on stderr is kept in self.summary."""
        r = self.sh([self.deepprof, "run", "-o", output] + list(opts) + ["--", exe]
                    + [str(a) for a in args])
        sys.stdout.write(r.stderr)
        self.summary = r.stderr
        if r.returncode != 0:
            raise CheckError("deepprof run %s exited %d" % (exe, r.returncode))
        prof = Profile.load(self.deepprof, os.path.join(self.work, output))
        # every page of every test profile renders, and the analysis invariants hold
        chk = self.sh([self.deepprof, "check", "--max", "40", os.path.join(self.work, output)])
        if chk.returncode != 0:
            raise CheckError("deepprof check %s failed (%d):\n%s%s"
                             % (output, chk.returncode, chk.stdout[-4000:], chk.stderr[-2000:]))
        exe_path = os.path.realpath(os.path.join(self.work, exe))
        first = prof.objects.get(1, {}).get("path")
        if prof.doc.get("program") != exe_path or first != exe_path:
            raise CheckError("program %r and first object %r should both be %r"
                             % (prof.doc.get("program"), first, exe_path))
        return r.stdout, prof


def kv(text, key):
    """The integer after KEY= in the program's output."""
    m = re.search(r"(?:^|\s)%s=(-?\d+)" % re.escape(key), text)
    if not m:
        raise CheckError("program output has no %s=: %r" % (key, text))
    return int(m.group(1))


def fib_calls(n):
    a, b = 1, 1  # calls(0), calls(1)
    for _ in range(n - 1):
        a, b = b, a + b + 1
    return b if n >= 1 else a


# ------------------------------------------------------------------------ the tests ---

def t_recursion(ctx, ck):
    exe = ctx.build("recursion", ["recursion.c"])
    n, m = 20, 1000
    _, p = ctx.run(exe, n, m)
    ck.edge(p, "main", "fib", calls=1, exits=1)
    ck.edge(p, "fib", "fib", calls=fib_calls(n) - 1, exits=fib_calls(n) - 1, unwinds=0)
    ck.eq("PDs of fib (recursion folded)", len(p.pds_of("fib")), 1)
    ck.edge(p, "main", "is_even", calls=1)
    ck.edge(p, "is_even", "is_odd", calls=m // 2)
    ck.edge(p, "is_odd", "is_even", calls=m // 2)
    ck.eq("PDs of is_even", len(p.pds_of("is_even")), 1)
    ck.eq("PDs of is_odd", len(p.pds_of("is_odd")), 1)
    ck.eq("callseqs of fib's activations", p.into("fib")["callseqs"], fib_calls(n) - 1)
    ck.balanced(p)
    # deepprof run's summary: where the file is, and fib first by calls
    ck.true("summary names the file", "profile written to %s/Deep.data" % ctx.work
            in ctx.summary)
    top = ctx.summary.split("top functions by calls:\n", 1)[-1].splitlines()[0].split()
    ck.eq("summary: first function by calls", top[:1] + top[2:3], [str(fib_calls(n)), "fib"])


def t_run_options(ctx, ck):
    """deepprof run: -o relative to the current directory, --hz 0, --hz N, stale files."""
    exe = ctx.build("recursion", ["recursion.c"])
    os.makedirs(os.path.join(ctx.work, "rel"))
    _, p = ctx.run(exe, 10, 10, output="rel/out.data", opts=["--hz", "0"])
    ck.eq("--hz 0: sample period", p.doc["sample_period_ns"], 0)
    ck.eq("--hz 0: samples", sum(c["samples"] for c in p.csd), 0)
    ck.eq("--hz 0: requested rate", p.doc["hz"], 0)
    ck.true("--hz 0: the summary says sampling was off (%r)" % ctx.summary[-600:],
            "deepprof: no samples (sampling was off), " in ctx.summary
            and "samples every" not in ctx.summary)
    # the summary's function count is the symbolizer's (no root or thread entries)
    sym = re.search(r": (\d+) functions, \d+ call sites \(\d+ never taken\) symbolized",
                    ctx.summary)
    tot = re.search(r" calls; (\d+) functions, ", ctx.summary)
    ck.true("both counts printed", sym is not None and tot is not None)
    ck.eq("functions symbolized and in the summary", sym and sym.group(1),
          tot and tot.group(1))
    ck.eq("functions in the summary", tot and int(tot.group(1)),
          sum(1 for x in p.ps.values() if x["kind"] == "function"))
    # -pg: gprof takes SIGPROF first, sampling is off and the file and summary say so
    pg = ctx.build("recursion-pg", ["recursion.c"], extra=["-pg"])
    _, p = ctx.run(pg, 10, 10, output="pg.data")
    ck.eq("-pg: sample period and rate", (p.doc["sample_period_ns"], p.doc["hz"]), (0, 0))
    ck.true("-pg: the summary says sampling was off",
            "no samples (sampling was off)" in ctx.summary)
    ck.eq("-pg: fib(10) calls", p.into("fib")["calls"], fib_calls(10))
    _, p = ctx.run(exe, 32, 10, opts=["--hz=500"])
    ck.eq("--hz=500: requested rate", p.doc["hz"], 500)
    ck.true("--hz=500: period about 2 ms (%d ns)" % p.doc["sample_period_ns"],
            1900000 <= p.doc["sample_period_ns"] <= 2100000)
    # most of fib's time is in the hooks: those samples count as inside the runtime
    ck.true("fib(32) was sampled", p.doc["samples_inside"] + p.doc["samples_outside"] > 0)
    ck.eq("samples_outside is the sum of the CSDs' samples", p.doc["samples_outside"],
          sum(c["samples"] for c in p.csd))
    ck.eq("fib(32) calls", p.into("fib")["calls"], fib_calls(32))
    stale = os.path.join(ctx.work, "stale.data")
    with open(stale, "w") as f:
        f.write("old")
    r = ctx.sh([ctx.deepprof, "run", "-o", "stale.data", "true"])
    ck.eq("uninstrumented program: status", r.returncode, 0)
    ck.true("uninstrumented program: stale file removed", not os.path.exists(stale))
    ck.true("uninstrumented program: says so", "wrote no profile" in r.stderr)


def t_inlined(ctx, ck):
    """The hooks of inlined copies (DEEPPROF_INSTRUMENT=inlined: gcc's and clang's
    -finstrument-functions); after inlining (the default, when the compiler can), sq is
    only there at -O0."""
    n = 100
    for mode in ("inlined", "after-inlining"):
        exe = ctx.build("inlined", ["inlined.c"], env={"DEEPPROF_INSTRUMENT": mode})
        _, p = ctx.run(exe, n)
        ck.edge(p, "<thread>", "main", calls=1, exits=1, unwinds=0)
        if not ctx.after or ctx.opt == "-O0":  # (gcc without the plugin: not after)
            ck.edge(p, "main", "sq", calls=1, exits=1, unwinds=0)
            ck.edge(p, "outer", "sq", calls=n, exits=n, unwinds=0)
        else:
            ck.eq("%s: PDs of the inlined sq" % mode, len(p.pds_of("sq")), 0)
        ck.edge(p, "main", "outer", calls=1, exits=1)
        ck.edge(p, "main", "after", calls=1, exits=1)
        ck.balanced(p)


def t_after_inline(ctx, ck):
    """Instrumenting after inlining (deepprof cc's default): no hooks for an inlined
    function, exact counts for the rest, a tail call keeps its caller's exit, a clone is
    named after its function; DEEPPROF_INSTRUMENT=inlined brings the inlined one back."""
    n = 137
    exe = ctx.build("after_inline", ["after_inline.c"])
    if ctx.family == "clang" or ctx.plugin_built():
        ck.true("default instruments after inlining", ctx.after)
    _, p = ctx.run(exe, n)
    ck.edge(p, "main", "work", calls=n, exits=n, unwinds=0)
    ck.edge(p, "main", "f", calls=n, exits=n, unwinds=0)
    ck.edge(p, "f", "g", calls=n, exits=n, unwinds=0)
    ck.edge(p, "main", "scaled", calls=n, exits=n, unwinds=0)
    ck.eq("PDs of scaled (its clone under its name)", len(p.pds_of("scaled")), 1)
    clone = re.search(r"^([0-9a-f]+) t scaled\.constprop\.\d+$",
                      ctx.must(["nm", exe]).stdout, re.M)
    if clone and ctx.after:  # gcc cloned it: the procedure named scaled is the clone
        ps = p.function("scaled")
        ck.eq("scaled's address is its clone's", int(ps["addr"], 16)
              - int(p.objects[ps["object"]]["bias"], 16), int(clone.group(1), 16))
    twice = 0 if ctx.after and ctx.opt == "-O2" else 1
    ck.eq("PDs of twice (inlined at -O2)", len(p.pds_of("twice")), twice)
    if twice:
        ck.edge(p, "work", "twice", calls=n, exits=n, unwinds=0)
    # the root and <thread> -> main, then four or five calls per iteration
    ck.eq("calls in all", sum(c["calls"] for c in p.csd), 2 + n * (4 + twice))
    ck.balanced(p)
    exe = ctx.build("after_inline", ["after_inline.c"], env={"DEEPPROF_INSTRUMENT": "inlined"})
    ck.true("DEEPPROF_INSTRUMENT=inlined: -finstrument-functions", not ctx.after)
    _, p = ctx.run(exe, n)
    ck.edge(p, "work", "twice", calls=n, exits=n, unwinds=0)
    ck.edge(p, "f", "g", calls=n, exits=n, unwinds=0)
    ck.balanced(p)
    if ctx.family != "gcc":
        return  # clang has no -finstrument-functions-exclude-*
    # gcc's exclusion lists, matched on substrings of the name, honoured after inlining too
    exe = ctx.build("after_inline", ["after_inline.c"],
                    extra=["-finstrument-functions-exclude-function-list=no_such,cale"])
    _, p = ctx.run(exe, n)
    ck.eq("excluded by name: PDs of scaled", len(p.pds_of("scaled")), 0)
    ck.edge(p, "main", "f", calls=n, exits=n, unwinds=0)
    ck.edge(p, "f", "g", calls=n, exits=n, unwinds=0)
    ck.eq("excluded by name: calls in all", sum(c["calls"] for c in p.csd), 2 + n * (3 + twice))
    ck.balanced(p)


def t_fnptr(ctx, ck):
    exe = ctx.build("fnptr", ["fnptr.c"])
    n = 1000
    _, p = ctx.run(exe, n)
    ck.edge(p, "main", "apply_all", calls=1)
    ck.edge(p, "apply_all", "add", calls=(n + 2) // 3)
    ck.edge(p, "apply_all", "sub", calls=(n + 1) // 3)
    ck.edge(p, "apply_all", "mul", calls=n // 3)
    ck.edge(p, "main", "add", calls=1)
    sites = {c["css"] for name in ("add", "sub", "mul") for c in p.csds_to("apply_all", name)}
    ck.eq("call sites in apply_all reaching add/sub/mul", len(sites), 1)
    ck.eq("PDs of add (two contexts)", len(p.pds_of("add")), 2)
    ck.balanced(p)


def t_qsort(ctx, ck):
    exe = ctx.build("qsort", ["qsort.c"])
    out, p = ctx.run(exe, 5000)
    k = kv(out, "cmp_calls")
    ck.true("qsort made comparisons", k > 5000)
    ck.edge(p, "main", "cmp", calls=k, exits=k)
    ck.edge(p, "cmp", "key", calls=2 * k)
    kinds = {p.css[c["css"]]["kind"] for c in p.csds_to("main", "cmp")}
    ck.eq("kind of the qsort callback site", kinds, {"callback"})
    ck.balanced(p)


def t_threads(ctx, ck):
    exe = ctx.build("threads", ["threads.c"], extra=["-pthread"])
    k = 1000
    _, p = ctx.run(exe, k)
    ck.eq("threads in the profile", len(p.threads), 9)
    for i in range(8):
        t = p.thread_named("worker-%d" % i)
        ck.edge(p, "<thread>", "worker", thread=t, calls=1, exits=1)
        ck.edge(p, "worker", "work", thread=t, calls=1, exits=1)
        ck.edge(p, "work", "leaf", thread=t, calls=(i + 1) * k, exits=(i + 1) * k)
        ck.eq("callseqs of worker-%d's work()" % i,
              p.edge("worker", "work", thread=t)["callseqs"], (i + 1) * k)
    ck.edge(p, "work", "leaf", calls=36 * k)
    ck.balanced(p)


def t_longjmp(ctx, ck):
    exe = ctx.build("longjmp", ["longjmp.c"])
    n = 100
    out, p = ctx.run(exe, n)
    jumps = (n + 1) // 2
    ck.eq("jumps the program counted", kv(out, "jumps"), jumps)
    for caller, callee in (("main", "a"), ("a", "b"), ("b", "c")):
        ck.edge(p, caller, callee, calls=n, exits=n - jumps, unwinds=jumps)
    ck.edge(p, "main", "after", calls=n, exits=n, unwinds=0)
    ck.eq("calls to after() from anywhere", p.into("after")["calls"], n)
    ck.balanced(p)


def t_exceptions(ctx, ck):
    exe = ctx.build("exceptions", ["exceptions.cpp"], cxx=True)
    n = 99
    out, p = ctx.run(exe, n)
    t = kv(out, "throws")
    ck.eq("throws the program counted", t, (n + 2) // 3)
    f1, f2, f3 = ("ns::Thrower::f%d(long)" % i for i in (1, 2, 3))
    # g++'s -finstrument-functions runs the exit hooks while unwinding; clang++ and the
    # GCC plugin (after inlining) do not: the runtime counts those activations as unwinds
    # when it notices their frames are gone.
    unw = 0 if ctx.family == "gcc" and not ctx.after else t
    for caller, callee in (("main", f1), (f1, f2), (f2, f3)):
        ck.edge(p, caller, callee, calls=n, exits=n - unw, unwinds=unw)
    ck.edge(p, "main", "after_catch(ns::Thrower&, long)", calls=n, exits=n)
    ck.balanced(p)


def t_chdir(ctx, ck):
    exe = ctx.build("chdir", ["chdir.c"])
    env = {k: v for k, v in ctx.env.items() if k != "DEEPPROF_OUTPUT"}

    def direct(argv, cwd, **extra):
        print("+ (in %s) %s" % (cwd, " ".join(argv)), flush=True)
        r = subprocess.run(argv, cwd=cwd, env=dict(env, **extra), capture_output=True,
                           text=True, check=False)
        sys.stdout.write(r.stderr)
        return r

    def profile(path):
        ctx.must([ctx.deepprof, "symbolize", path])
        return Profile.load(ctx.deepprof, path)

    # the output path is fixed when the program starts, not where it ends
    r = direct([exe, "7", "sub"], ctx.work)
    ck.eq("exit status", r.returncode, 0)
    ck.true("no Deep.data in the directory it ended in",
            not os.path.exists(os.path.join(ctx.work, "sub", "Deep.data")))
    ck.edge(profile(os.path.join(ctx.work, "Deep.data")), "main", "work", calls=7, exits=7)
    # %e expanded at start, relative directory too
    os.makedirs(os.path.join(ctx.work, "out"))
    direct([exe, "3", "sub2"], ctx.work, DEEPPROF_OUTPUT="out/%e-x.data")
    ck.edge(profile(os.path.join(ctx.work, "out", "chdir-x.data")), "main", "work", calls=3)
    # its directory removed: the profile goes to $TMPDIR, and both say where
    start = os.path.join(ctx.work, "a")
    tmp = os.path.join(ctx.work, "tmp")
    os.makedirs(start)
    os.makedirs(tmp)
    r = direct([ctx.deepprof, "run", "--", exe, "5", "../b", "rm"], start, TMPDIR=tmp)
    ck.eq("exit status with the directory removed", r.returncode, 0)
    ck.true("the runtime says where the profile went",
            "deepprof: cannot write %s/Deep.data: No such file or directory; the profile "
            "went to %s/Deep.data\n" % (start, tmp) in r.stderr)
    ck.true("deepprof run finds it", "profile written to %s/Deep.data instead" % tmp
            in r.stderr)
    ck.edge(Profile.load(ctx.deepprof, os.path.join(tmp, "Deep.data")), "main", "work",
            calls=5, exits=5)
    # nowhere to write: one line names both paths
    os.makedirs(start)
    none = os.path.join(ctx.work, "none")
    r = direct([exe, "5", "../c", "rm"], start, TMPDIR=none)
    ck.eq("exit status with the profile lost", r.returncode, 0)
    lost = [ln for ln in r.stderr.splitlines() if "profile lost" in ln]
    ck.eq("lost-profile lines", lost,
          ["deepprof: profile lost: cannot write %s/Deep.data: No such file or directory, "
           "nor %s/Deep.data: No such file or directory; profiling stopped" % (start, none)])


def t_catch(ctx, ck):
    """A caught exception's destructor (run by __cxa_end_catch) and a handler's calls
    belong to the catching function, by reference, by value, rethrown and nested."""
    exe = ctx.build("catch", ["catch.cpp"], cxx=True)
    n = 30
    out, p = ctx.run(exe, n)
    ck.eq("rounds", kv(out, "rounds"), n)
    dtor = "Err::~Err()"
    want = {"catch_ref(long)": n, "catch_val(long)": 2 * n, "catch_outer(long)": n,
            "catch_nested(long)": 2 * n}
    got = {a: v["calls"] for (a, b), v in p.edges().items() if b == dtor}
    ck.eq("callers of %s and their calls" % dtor, got, want)
    ck.edge(p, dtor, "dtor_leaf(long)", calls=6 * n, exits=6 * n)
    ck.edge(p, "catch_val(long)", "Err::Err(Err const&)", calls=n, exits=n)
    ck.edge(p, "catch_val(long)", "in_handler(long)", calls=n, exits=n)
    ck.edge(p, "catch_outer(long)", "rethrow(long)", calls=n)
    ck.edge(p, "dive(long, long)", "Err::Err(long)", calls=5 * n, exits=5 * n)
    ck.edge(p, "dive(long, long)", "dive(long, long)", calls=19 * n)
    ck.balanced(p)


def t_fork(ctx, ck):
    exe = ctx.build("fork", ["fork.c"])
    b, c, par = 10, 20, 30
    out, p = ctx.run(exe, b, c, par)
    pid = kv(out, "child_pid")
    ck.edge(p, "main", "before", calls=b)
    ck.edge(p, "main", "in_parent", calls=par)
    ck.edge(p, "main", "in_child", calls=0)
    child = os.path.join(ctx.work, "Deep.%d.data" % pid)
    ck.true("the child's file %s exists" % child, os.path.exists(child))
    ck.true("deepprof run lists the child's file", "a forked child wrote %s" % child
            in ctx.summary)
    q = Profile.load(ctx.deepprof, child)
    ck.edge(q, "main", "in_child", calls=c, exits=c)
    ck.edge(q, "main", "before", calls=0)
    ck.edge(q, "main", "in_parent", calls=0)
    ck.edge(q, "<thread>", "main", calls=1)
    ck.true("the child's file is symbolized", q.function("in_child")["file"] != "")
    ck.balanced(p)
    ck.balanced(q)


def check_alloc(ctx, ck, extra=()):
    """alloc.c: exact allocation counts and bytes per caller."""
    exe = ctx.build("alloc", ["alloc.c"], extra=extra)
    r = 5
    _, p = ctx.run(exe, r)
    ck.edge(p, "main", "alloc_a", allocs=8, alloc_bytes=3 * 100 + 200 + 300 + 128 + 256 + 8)
    ck.edge(p, "one", "alloc_b", calls=r, allocs=r, alloc_bytes=r * 1000)
    ck.edge(p, "two", "alloc_b", calls=r, allocs=r, alloc_bytes=r * 24)
    ck.edge(p, "main", "one", allocs=0)
    ck.balanced(p)
    return exe


def check_alloc_cxx(ctx, ck, extra=()):
    """alloc_cxx.cpp: operator new goes through malloc, counted per caller."""
    exe = ctx.build("alloc_cxx", ["alloc_cxx.cpp"], cxx=True, extra=extra)
    r = 7
    out, p = ctx.run(exe, r)
    ck.eq("sizeof(Obj)", kv(out, "sizeof(Obj)"), 24)
    ck.edge(p, "main", "make()", calls=r, allocs=2 * r, alloc_bytes=r * (40 + 24))
    ck.balanced(p)


def t_alloc(ctx, ck):
    check_alloc(ctx, ck)


def t_alloc_cxx(ctx, ck):
    check_alloc_cxx(ctx, ck)


def t_static(ctx, ck):
    """deepprof cc -static: the runtime's static-link archive, the allocation functions
    wrapped (libc.a defines them too): the same exact calls and allocations as t_alloc,
    and C++ new through libstdc++.a."""
    exe = check_alloc(ctx, ck, extra=["-static"])
    ck.true("linked statically (no program interpreter)",
            "INTERP" not in ctx.must(["readelf", "-lW", exe]).stdout)
    check_alloc_cxx(ctx, ck, extra=["-static"])


def t_deep(ctx, ck):
    exe = ctx.build("deep", ["deep.c"], extra=["-pthread"])
    d = 100000
    out, p = ctx.run(exe, d)
    ck.eq("depth", kv(out, "depth"), d + 1)
    ck.edge(p, "run", "down_a", calls=1, exits=1)
    ck.edge(p, "down_a", "down_b", calls=(d + 1) // 2, exits=(d + 1) // 2)
    ck.edge(p, "down_b", "down_a", calls=d // 2, exits=d // 2)
    ck.eq("PDs of down_a", len(p.pds_of("down_a")), 1)
    ck.eq("PDs of down_b", len(p.pds_of("down_b")), 1)
    ck.true("a handful of CSDs (%d)" % len(p.csd), len(p.csd) < 16)
    ck.balanced(p)


def t_shlib(ctx, ck):
    ctx.build("libshape.so", ["libshape.c"], extra=["-shared", "-fPIC"])
    exe = ctx.build("shmain", ["shmain.c"], extra=["-L.", "-lshape", "-Wl,-rpath,$ORIGIN"])
    n = 50
    _, p = ctx.run(exe, n)
    ck.edge(p, "main", "lib_entry", calls=1, exits=1)
    ck.edge(p, "lib_entry", "lib_helper", calls=n, exits=n)
    ck.edge(p, "lib_entry", "from_lib", calls=1, exits=1)
    obj = p.objects.get(p.function("lib_helper")["object"], {})
    ck.true("lib_helper's object is libshape.so (%r)" % obj.get("path"),
            obj.get("path", "").endswith("/libshape.so"))
    ck.balanced(p)
    # run through a shell: deepprof run preloads libdeepprof.so into it, and the
    # instrumented program it execs inherits LD_PRELOAD; the program's own runtime takes
    # everything, the preloaded copy stays idle
    r = ctx.sh([ctx.deepprof, "run", "-o", "sh.data", "--hz", "100000", "--", "/bin/sh", "-c",
                'exec "$0" "$1"', exe, str(n)])
    sys.stdout.write(r.stderr)
    ck.eq("through sh: exit status", r.returncode, 0)
    ck.true("through sh: the runtime preloaded into sh", "preloading" in r.stderr)
    ck.true("through sh: no second runtime's messages (%r)" % r.stderr[:300],
            "SIGPROF" not in r.stderr)
    p = Profile.load(ctx.deepprof, os.path.join(ctx.work, "sh.data"))
    ck.eq("through sh: the profile is the program's", p.doc.get("program"),
          os.path.realpath(exe))
    ck.true("through sh: sampled by the program's runtime", p.doc["sample_period_ns"] > 0)
    ck.edge(p, "lib_entry", "lib_helper", calls=n, exits=n)


def t_pymod(ctx, ck):
    """A Python C extension built with deepprof cc -shared, loaded by the plain
    interpreter running this test: deepprof run preloads the runtime, and the module's
    hooks reach it instead of glibc's no-op ones; the interpreter's own helpers (none
    here) would write no file."""
    import sysconfig
    inc = sysconfig.get_paths()["include"]
    if not os.path.exists(os.path.join(inc, "Python.h")):
        raise Skip("Python.h not found in %s (python3-dev)" % inc)
    ext = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    ctx.build("dpspam" + ext, ["pymod.c"], extra=["-shared", "-fPIC", "-I", inc])
    so = os.path.join(ctx.work, "dpspam" + ext)
    # the module's hooks are the usual references to glibc's no-op ones, which the
    # preloaded runtime (no symbol versions) satisfies first
    dyn = ctx.must(["readelf", "--dyn-syms", "-W", so]).stdout
    ck.true("the module references __cyg_profile_func_enter@GLIBC_*",
            re.search(r"UND __cyg_profile_func_enter@GLIBC_", dyn) is not None)
    n, k, m = 12, 3, 5
    script = ("import dpspam\nfor _ in range(%d): dpspam.fib(%d)\n"
              "for _ in range(%d): dpspam.leaf()\nprint('ok')\n" % (k, n, m))
    # without the runtime the module works as before and nothing is written
    r = ctx.sh([sys.executable, "-c", script])
    ck.eq("plain run", (r.returncode, r.stdout), (0, "ok\n"))
    ck.true("no profile without the runtime", not os.path.exists(
        os.path.join(ctx.work, "Deep.data")))
    r = ctx.sh([ctx.deepprof, "run", "--", sys.executable, "-c", script])
    sys.stdout.write(r.stderr)
    ck.eq("profiled run", (r.returncode, r.stdout), (0, "ok\n"))
    ck.true("deepprof run says it preloads the runtime",
            "is not built with deepprof cc: preloading " in r.stderr)
    p = Profile.load(ctx.deepprof, os.path.join(ctx.work, "Deep.data"))
    ck.eq("calls into PyInit_dpspam", p.into("PyInit_dpspam")["calls"], 1)
    ck.eq("calls into dpspam_fib", p.into("dpspam_fib")["calls"], k)
    ck.eq("calls into dpspam_leaf", p.into("dpspam_leaf")["calls"], m)
    ck.edge(p, "dpspam_fib", "fib", calls=k, exits=k)
    ck.edge(p, "fib", "fib", calls=k * (fib_calls(n) - 1), exits=k * (fib_calls(n) - 1))
    ck.edge(p, "dpspam_leaf", "leaf", calls=m, exits=m)
    obj = p.objects.get(p.function("fib")["object"], {})
    ck.true("fib's object is the module (%r)" % obj.get("path"),
            obj.get("path", "") == os.path.realpath(so))
    ck.balanced(p)
    # a process in which no instrumented code runs writes nothing
    os.unlink(os.path.join(ctx.work, "Deep.data"))
    r = ctx.sh([ctx.deepprof, "run", "--", sys.executable, "-c", "print('plain')"])
    ck.eq("run without the module", (r.returncode, r.stdout), (0, "plain\n"))
    ck.true("no profile from it", not os.path.exists(os.path.join(ctx.work, "Deep.data")))
    ck.true("deepprof run says why (%r)" % r.stderr[-300:],
            "wrote no profile: no instrumented code ran in it" in r.stderr)


def t_multifile(ctx, ck):
    objs = []
    for s in ("mf_main.c", "mf_util.c", "mf_more.c"):
        o = s.replace(".c", ".o")
        ctx.must([ctx.deepprof, "cc", ctx.opt, "-I", PROGS, "-c", os.path.join(PROGS, s),
                  "-o", o])
        objs.append(o)
    ctx.must([ctx.deepprof, "cc", "-o", "mf"] + objs)
    n = 40
    _, p = ctx.run(os.path.join(ctx.work, "mf"), n)
    ck.edge(p, "main", "util_twice", calls=n)
    ck.edge(p, "util_twice", "more_leaf", calls=2 * n)
    for fn, src in (("main", "mf_main.c"), ("util_twice", "mf_util.c"),
                    ("more_leaf", "mf_more.c")):
        f = p.function(fn)["file"]
        ck.true("%s defined in %s (%r)" % (fn, src, f), f.endswith("/" + src) or f == src)
    ck.balanced(p)
    if ctx.family != "gcc":
        return  # clang has no -finstrument-functions-exclude-*
    # gcc's file exclusion list (a substring of the file's name), after inlining too
    for s in ("mf_main.c", "mf_util.c", "mf_more.c"):
        ctx.must([ctx.deepprof, "cc", ctx.opt, "-I", PROGS, "-c", os.path.join(PROGS, s),
                  "-finstrument-functions-exclude-file-list=nothing,f_mor", "-o",
                  s.replace(".c", ".o")])
    ctx.must([ctx.deepprof, "cc", "-o", "mf"] + objs)
    _, p = ctx.run(os.path.join(ctx.work, "mf"), n)
    ck.edge(p, "main", "util_twice", calls=n, exits=n)
    ck.eq("excluded by file: PDs of more_leaf", len(p.pds_of("more_leaf")), 0)
    ck.balanced(p)


TESTS = {name[2:]: fn for name, fn in globals().items() if name.startswith("t_")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deepprof", required=True)
    ap.add_argument("--cc", choices=sorted(COMPILERS), required=True)
    ap.add_argument("--opt", choices=("O0", "O2"), required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("test", choices=sorted(TESTS))
    args = ap.parse_args()
    for tool in COMPILERS[args.cc]:
        if not shutil.which(tool):
            print("SKIP: %s not installed" % tool)
            return 77
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    ctx = Ctx(args)
    ck = Checker("%s %s %s" % (args.test, args.cc, args.opt))
    try:
        TESTS[args.test](ctx, ck)
    except Skip as e:
        print("SKIP: %s" % e)
        return 77
    except CheckError as e:
        ck.failures.append(str(e))
    return ck.finish()


if __name__ == "__main__":
    sys.exit(main())
