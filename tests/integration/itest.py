#!/usr/bin/env python3
"""itest.py - one end-to-end integration test: build a program of progs/ with
`deepprof cc`/`deepprof c++` (gcc or clang, -O0 or -O2), run it with `deepprof run`, read
the profile with `deepprof dump --format=json` and check exact counts computed from the
program's parameters (or from the counts the program prints about itself).

usage: itest.py --deepprof BIN --cc gcc|clang --opt O0|O2 [--instrument MODE] --work DIR TEST
(--instrument: DEEPPROF_INSTRUMENT for every build of the test; the default method else).
Exit status: 0 pass, 1 fail, 77 skip (compiler missing).
"""
import argparse
import json
import os
import platform
import re
import resource
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
        if args.instrument:
            self.env["DEEPPROF_INSTRUMENT"] = args.instrument
        else:
            self.env.pop("DEEPPROF_INSTRUMENT", None)

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
        inlining, through gcc's plugin or clang's flag; self.stubs: with the stubs, gcc's
        plugin in its stubs mode or clang's fentry call; read from DEEPPROF_VERBOSE)."""
        drv = "c++" if cxx else "cc"
        srcs = [os.path.join(PROGS, s) for s in sources]
        saved = self.env
        self.env = dict(saved, DEEPPROF_VERBOSE="1", **(env or {}))
        try:
            r = self.must([self.deepprof, drv, self.opt, "-Wall", "-I", PROGS, "-o", out]
                          + srcs + list(extra))
        finally:
            self.env = saved
        self.stubs = ("-fplugin-arg-deepprof_gcc-stubs" in r.stderr
                      or "-Xclang -mfentry" in r.stderr)
        self.after = ("-fplugin=" in r.stderr
                      or "-finstrument-functions-after-inlining" in r.stderr or self.stubs)
        # calls in tail position stay jumps: gcc's plugin, or clang's pass plugin
        self.tails = "-fplugin=" in r.stderr or "-fpass-plugin=" in r.stderr
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
        if "processes merged)" in r.stderr:  # merged: objects numbered canonically
            first = exe_path if any(o.get("path") == exe_path
                                    for o in prof.objects.values()) else first
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
    if ctx.tails and ctx.opt == "-O2":
        # tail calls kept: each function entered from main's context, through a tail site
        ck.edge(p, "main", "is_even", calls=1 + m // 2)
        ck.eq("main -> is_odd through a tail site", tail_edges(p, "main", "is_odd"), m // 2)
        ck.eq("PDs of is_even (called, tail-called)", len(p.pds_of("is_even")), 2)
    else:
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
    if ctx.tails and ctx.opt == "-O2":
        # the plugin keeps f's tail call: f leaves first, g runs from f's caller's context
        ck.eq("main -> g through a tail site", tail_edges(p, "main", "g"), n)
        ck.edge(p, "main", "g", calls=n, exits=n, unwinds=0)
    else:
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
    if ctx.tails and ctx.opt == "-O2":
        # the plugin keeps f's tail call: f leaves first, g runs from f's caller's context
        ck.eq("main -> g through a tail site", tail_edges(p, "main", "g"), n)
        ck.edge(p, "main", "g", calls=n, exits=n, unwinds=0)
    else:
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
    if ctx.tails and ctx.opt == "-O2":
        # the plugin keeps f's tail call: f leaves first, g runs from f's caller's context
        ck.eq("main -> g through a tail site", tail_edges(p, "main", "g"), n)
        ck.edge(p, "main", "g", calls=n, exits=n, unwinds=0)
    else:
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
    # its directory removed under deepprof run (the runtime writes into deepprof run's
    # private directory): the profile goes to $TMPDIR instead, and nothing else stays
    start = os.path.join(ctx.work, "a")
    tmp = os.path.join(ctx.work, "tmp")
    os.makedirs(start)
    os.makedirs(tmp)
    r = direct([ctx.deepprof, "run", "--", exe, "5", "../b", "rm"], start, TMPDIR=tmp)
    ck.eq("exit status with the directory removed", r.returncode, 0)
    ck.true("deepprof run says where it went", "profile written to %s/Deep.data instead" % tmp
            in r.stderr)
    ck.edge(Profile.load(ctx.deepprof, os.path.join(tmp, "Deep.data")), "main", "work",
            calls=5, exits=5)
    ck.eq("files left in $TMPDIR", os.listdir(tmp), ["Deep.data"])
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
    if ctx.tails and ctx.opt == "-O2":
        # ~Err tail-calls dtor_leaf: entered from the catching function through a tail
        # site, as often as that function destroys an Err
        got = {a: tail_edges(p, a, "dtor_leaf(long)") for a in want}
        ck.eq("dtor_leaf tail-called from each catching function", got, want)
    else:
        ck.edge(p, dtor, "dtor_leaf(long)", calls=6 * n, exits=6 * n)
    ck.edge(p, "catch_val(long)", "Err::Err(Err const&)", calls=n, exits=n)
    ck.edge(p, "catch_val(long)", "in_handler(long)", calls=n, exits=n)
    ck.edge(p, "catch_outer(long)", "rethrow(long)", calls=n)
    ck.edge(p, "dive(long, long)", "Err::Err(long)", calls=5 * n, exits=5 * n)
    ck.edge(p, "dive(long, long)", "dive(long, long)", calls=19 * n)
    ck.balanced(p)


def t_builtins(ctx, ck):
    """Functions ending in a gcc builtin that gcc marks as a tail call and expands inline
    (an atomic store, memcpy): they build and link (no reference to __atomic_store_4),
    and their calls and exits are counted once each."""
    exe = ctx.build("builtins", ["builtins.c"])
    n = 1000
    out, p = ctx.run(exe, n)
    ck.eq("program output", out, "on=1 b=0123456789abcde\n")
    for fn in ("raise_flag", "copy16"):
        ck.edge(p, "main", fn, calls=n, exits=n, unwinds=0)
    ck.balanced(p)


def t_libtime(ctx, ck):
    """Samples outside instrumented code are library leaves under the current function,
    named "SYMBOL [OBJECT]": a plainly built shared library's function (in C, in
    assembly without a symbol size), a function of the program excluded from
    instrumentation, the C library's memchr; the instrumented own() and the PLT stubs
    keep their samples. libs=fold gives them back to their callers, in reports, top,
    exports and a profile symbolized later the same way."""
    plain = COMPILERS[ctx.family][0]
    ctx.must([plain, ctx.opt, "-shared", "-fPIC", "-o", "libdplt.so",
              os.path.join(PROGS, "libtime_lib.c")])
    exe = ctx.build("libtime", ["libtime.c"],
                    extra=["-L", ctx.work, "-ldplt", "-Wl,-rpath," + ctx.work])
    n = 150000000 if ctx.opt == "-O2" else 50000000
    out, p = ctx.run(exe, n)
    ck.eq("program output", re.sub(r"work=\d+", "work=W", out),
          "work=W scan=0 ping=0 count=1\n")
    lib, mine = "lt_spin [libdplt.so]", "busy [libtime]"
    for name in (lib, mine):
        kinds = [x["kind"] for x in p.ps.values() if x["name"] == name]
        ck.eq("procedures named %s" % name, kinds, ["library"])
    e = p.edges()
    total = sum(v["samples"] for (a, _), v in e.items() if a == "work") + \
        e.get(("main", "work"), {"samples": 0})["samples"]
    ck.true("work ran long enough to be sampled (%d samples)" % total, total >= 30)
    for name in (lib, mine, "own"):
        got = e.get(("work", name), {"samples": 0, "calls": -1})
        ck.true("%s under work: %d of %d samples, a share near a third"
                % (name, got["samples"], total), got["samples"] >= total * 0.12)
        ck.eq("%s under work: calls" % name, got["calls"], 1 if name == "own" else 0)
    self_work = e[("main", "work")]["samples"]
    ck.true("work's own samples: %d of %d" % (self_work, total),
            self_work <= max(3, total * 0.06))
    ck.eq("leaves under own (an instrumented loop)",
          [b for (a, b) in e if a == "own"], [])
    libc = {b: v["samples"] for (a, b), v in e.items()
            if a == "scan" and b.endswith("[libc.so.6]")}
    scan_self = e[("main", "scan")]["samples"]
    ck.true("memchr under scan as a C library leaf (%r, scan's own %d)" % (libc, scan_self),
            len(libc) == 1 and sum(libc.values()) > scan_self)
    # the PLT stubs ping runs through are its own code (no "_init [libtime]": _init has
    # no size and ends where .init does); count's time is in lt_count, which has none
    ck.true("a leaf lt_next under ping (%r)" % e.get(("ping", "lt_next [libdplt.so]")),
            ("ping", "lt_next [libdplt.so]") in e)
    ck.eq("leaves named _init", [b for (a, b) in e if b.startswith("_init ")], [])
    cnt = e.get(("count", "lt_count [libdplt.so]"), {"samples": 0})["samples"]
    ck.true("lt_count (no symbol size) under count: %d samples, count's own %d"
            % (cnt, e[("main", "count")]["samples"]), cnt > e[("main", "count")]["samples"])
    ck.eq("every sample still charged once", sum(c["samples"] for c in p.csd),
          p.doc["samples_outside"])
    ck.eq("sampled PCs dropped once symbolized", p.doc.get("pcs"), [])
    data = os.path.join(ctx.work, "Deep.data")

    def own_samples(query):
        r = ctx.must([ctx.deepprof, "report", "--format=json", data, query])
        return json.loads(r.stdout)["subject"]["own"]["samples"]
    ck.eq("page=proc work: its own samples", own_samples("page=proc&name=work"), self_work)
    ck.eq("libs=fold: work's own samples take its leaves'",
          own_samples("page=proc&name=work&libs=fold"),
          self_work + e[("work", lib)]["samples"] + e[("work", mine)]["samples"])
    ck.eq("libs=fold&view=threads: the same",
          own_samples("page=proc&name=work&libs=fold&view=threads"),
          self_work + e[("work", lib)]["samples"] + e[("work", mine)]["samples"])
    top = ctx.must([ctx.deepprof, "top", data]).stdout
    folded = ctx.must([ctx.deepprof, "top", "--fold-libs", data]).stdout
    ck.true("top lists the library leaf", lib in top)
    ck.true("top --fold-libs does not", lib not in folded and "[libc.so.6]" not in folded)
    for q, want in (("", True), ("libs=fold", False)):
        r = ctx.must([ctx.deepprof, "export", "--format=folded", data, q, "-o", "-"])
        ck.eq("export folded %r has the leaf" % q, ("work;" + lib) in r.stdout, want)
    # written by the program itself, symbolized later (in memory by report, on disk by
    # symbolize, twice: the same file)
    raw = os.path.join(ctx.work, "raw.data")
    r = subprocess.run([exe, str(n // 4)], cwd=ctx.work, capture_output=True, text=True,
                       env=dict(ctx.env, DEEPPROF_OUTPUT=raw), check=False)
    ck.eq("plain run", r.returncode, 0)
    rp = Profile.load(ctx.deepprof, raw)
    ck.true("an unsymbolized file has sampled PCs", len(rp.doc.get("pcs", [])) > 0)
    rep = ctx.must([ctx.deepprof, "report", raw, "page=proc&name=work"]).stdout
    ck.true("report of it names the leaves", lib in rep)
    ctx.must([ctx.deepprof, "symbolize", raw])
    once = ctx.must([ctx.deepprof, "dump", "--format=json", raw]).stdout
    ctx.must([ctx.deepprof, "symbolize", raw])
    ck.true("symbolizing again changes nothing",
            once == ctx.must([ctx.deepprof, "dump", "--format=json", raw]).stdout)
    ck.true("symbolized: the leaf", lib in once)
    # two runs merged: one leaf per context and symbol, its samples summed
    merged = os.path.join(ctx.work, "m.data")
    ctx.must([ctx.deepprof, "merge", "-o", merged, data, raw])
    m = Profile.load(ctx.deepprof, merged)
    rs = Profile.load(ctx.deepprof, raw).edge("work", lib)["samples"]
    ck.eq("merged: procedures named %s" % lib,
          [x["kind"] for x in m.ps.values() if x["name"] == lib], ["library"])
    ck.eq("merged: its samples under work", m.edge("work", lib)["samples"],
          e[("work", lib)]["samples"] + rs)


def t_fork(ctx, ck):
    """A forked child: merged into the parent's profile by default; with --per-process in
    a file of its own (.PID before .data), the parent's in the -o file."""
    exe = ctx.build("fork", ["fork.c"])
    b, c, par = 10, 20, 30
    out, p = ctx.run(exe, b, c, par)
    pid = kv(out, "child_pid")
    ck.edge(p, "main", "before", calls=b)
    ck.edge(p, "main", "in_parent", calls=par)
    ck.edge(p, "main", "in_child", calls=c, exits=c)
    ck.edge(p, "<thread>", "main", calls=2)
    ck.eq("threads (the child's matched with the parent's)", len(p.threads), 1)
    ck.true("the summary says 2 processes were merged",
            "profile written to %s/Deep.data (2 processes merged)" % ctx.work in ctx.summary)
    ck.eq("files left in the directory",
          sorted(f for f in os.listdir(ctx.work) if f.endswith(".data")), ["Deep.data"])
    ck.balanced(p)
    out, p = ctx.run(exe, b, c, par, output="each.data", opts=["--per-process"])
    pid = kv(out, "child_pid")
    ck.edge(p, "main", "before", calls=b)
    ck.edge(p, "main", "in_parent", calls=par)
    ck.edge(p, "main", "in_child", calls=0)
    child = os.path.join(ctx.work, "each.%d.data" % pid)
    ck.true("the child's file %s exists" % child, os.path.exists(child))
    ck.true("deepprof run lists the child's file",
            "process %d: profile written to %s" % (pid, child) in ctx.summary)
    q = Profile.load(ctx.deepprof, child)
    ck.edge(q, "main", "in_child", calls=c, exits=c)
    ck.edge(q, "main", "before", calls=0)
    ck.edge(q, "main", "in_parent", calls=0)
    ck.edge(q, "<thread>", "main", calls=1)
    ck.true("the child's file is symbolized", q.function("in_child")["file"] != "")
    ck.balanced(p)
    ck.balanced(q)


def t_ptree(ctx, ck):
    """deepprof run of a shell script: recursion run twice, fork (parent and forked
    child) and a program not built with deepprof: one file with the sums, each program
    under its own node, the plain program ignored, nothing left behind; --per-process
    gives one file per process."""
    rec = ctx.build("recursion", ["recursion.c"])
    fk = ctx.build("fork", ["fork.c"])
    plain = os.path.join(ctx.work, "plain")
    with open(plain + ".c", "w") as f:
        f.write("int main(void) { return 0; }\n")
    ctx.must([COMPILERS[ctx.family][0], "-o", plain, plain + ".c"])
    script = os.path.join(ctx.work, "run.sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\n./recursion 10 100 && ./recursion 12 60 && ./fork 3 4 5 && "
                "./plain && echo done\n")
    os.chmod(script, 0o755)
    tmp = os.path.join(ctx.work, "tmp")
    os.makedirs(tmp)
    before = set(os.listdir(ctx.work))

    def run(*opts):
        argv = [ctx.deepprof, "run"] + list(opts) + ["--", "./run.sh"]
        print("+ " + " ".join(argv), flush=True)
        r = subprocess.run(argv, cwd=ctx.work, env=dict(ctx.env, TMPDIR=tmp),
                           capture_output=True, text=True, check=False)
        sys.stdout.write(r.stdout + r.stderr)
        ck.eq("exit status of deepprof run", r.returncode, 0)
        ck.true("the script ran to its end", r.stdout.endswith("done\n"))
        ck.eq("files left in $TMPDIR", os.listdir(tmp), [])
        return r

    r = run("-o", "tree.data")
    ck.true("the summary says 4 processes were merged",
            "profile written to %s/tree.data (4 processes merged)" % ctx.work in r.stderr)
    ck.eq("new files in the directory", set(os.listdir(ctx.work)) - before, {"tree.data"})
    m = Profile.load(ctx.deepprof, os.path.join(ctx.work, "tree.data"))
    root = m.doc["root_pd"]
    kids = sorted((m.ps[m.pd[c["callee"]]["ps"]]["name"], c["calls"])
                  for c in m.csd if c["caller"] == root)
    ck.eq("program nodes under the root (processes of each)", kids, [(fk, 2), (rec, 2)])
    ck.edge(m, "fib", "fib", calls=fib_calls(10) - 1 + fib_calls(12) - 1)
    ck.edge(m, "main", "fib", calls=2, exits=2)
    ck.edge(m, "main", "before", calls=3, exits=3)
    ck.edge(m, "main", "in_child", calls=4, exits=4)
    ck.edge(m, "main", "in_parent", calls=5, exits=5)
    ck.balanced(m, allow_active=(rec, fk))
    chk = ctx.sh([ctx.deepprof, "check", "--max", "40", os.path.join(ctx.work, "tree.data")])
    ck.eq("deepprof check of the merged file", chk.returncode, 0)
    # one file per process: each.PID.data (the script itself is not profiled)
    before = set(os.listdir(ctx.work))
    run("--per-process", "-o", "each.data")
    new = set(os.listdir(ctx.work)) - before
    ck.eq("one file per process", len(new), 4)
    ck.true("named each.PID.data", all(re.fullmatch(r"each\.[1-9][0-9]*\.data", f)
                                       for f in new))
    fibs, forks = [], []
    for f in new:
        q = Profile.load(ctx.deepprof, os.path.join(ctx.work, f))
        if q.doc["program"] == rec:
            fibs.append(q.edge("fib", "fib")["calls"])
        else:
            ck.eq("program of %s" % f, q.doc["program"], fk)
            forks.append((q.edge("main", "in_child")["calls"],
                          q.edge("main", "in_parent")["calls"]))
    ck.eq("fib -> fib per recursion process", sorted(fibs),
          [fib_calls(10) - 1, fib_calls(12) - 1])
    ck.eq("in_child, in_parent per fork process", sorted(forks), [(0, 5), (4, 0)])


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
    if ctx.tails and ctx.opt == "-O2":
        # run's call of down_a is a tail call, kept: down_a runs from run's caller, the
        # thread's root (whose sites are all of kind entry)
        ck.edge(p, "<thread>", "down_a", calls=1, exits=1)
        ck.edge(p, "run", "down_a", calls=0)
    else:
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
    dyn = ctx.must(["readelf", "--dyn-syms", "-W", so]).stdout
    if ctx.stubs:
        # the stubs the module calls are weak do-nothing ones of its own, which the
        # preloaded runtime's come before in the lookup order
        stub = "__fentry__" if ctx.family == "clang" else "__deepprof_fentry"
        ck.true("the module has a weak %s of its own" % stub,
                re.search(r"WEAK\s+DEFAULT\s+\d+ %s$" % stub, dyn, re.M) is not None)
    else:
        # the module's hooks are the usual references to glibc's no-op ones, which the
        # preloaded runtime (no symbol versions) satisfies first
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


def merged_sums(profiles):
    """{(caller, callee): counters} summed over PROFILES, and the INFO totals summed."""
    edges, info = {}, {}
    for p in profiles:
        for key, v in p.edges().items():
            acc = edges.setdefault(key, dict.fromkeys(v, 0))
            for k in v:
                acc[k] += v[k]
        for k in ("samples_inside", "samples_outside", "total_callseqs"):
            info[k] = info.get(k, 0) + p.doc[k]
    return edges, info


def t_merge(ctx, ck):
    """deepprof merge: N runs of recursion summed exactly (every counter of every edge,
    INFO totals, run time), merge order and grouping give the same bytes, threads
    matched by name, two programs each under its own node, bad input named."""
    exe = ctx.build("recursion", ["recursion.c"])
    runs = []
    for i, (n, m) in enumerate([(12, 100), (15, 60), (17, 1000)]):
        runs.append(ctx.run(exe, n, m, output="r%d.data" % i)[1])
    ctx.must([ctx.deepprof, "merge", "-o", "all.data", "r0.data", "r1.data", "r2.data"])
    ctx.must([ctx.deepprof, "merge", "-o", "r21.data", "r2.data", "r1.data"])
    ctx.must([ctx.deepprof, "merge", "-o", "other.data", "r21.data", "r0.data"])
    with open(os.path.join(ctx.work, "all.data"), "rb") as a, \
            open(os.path.join(ctx.work, "other.data"), "rb") as b:
        ck.true("merge(r0, r1, r2) and merge(merge(r2, r1), r0) are the same bytes",
                a.read() == b.read())
    # a directory: its *.data files, the same result
    os.makedirs(os.path.join(ctx.work, "runs"))
    for i in range(3):
        shutil.copy(os.path.join(ctx.work, "r%d.data" % i), os.path.join(ctx.work, "runs"))
    ctx.must([ctx.deepprof, "merge", "-o", "dir.data", "runs"])
    with open(os.path.join(ctx.work, "all.data"), "rb") as a, \
            open(os.path.join(ctx.work, "dir.data"), "rb") as b:
        ck.true("merging the directory gives the same bytes", a.read() == b.read())
    m = Profile.load(ctx.deepprof, os.path.join(ctx.work, "all.data"))
    edges, info = merged_sums(runs)
    ck.eq("edges of the merged profile", sorted(m.edges()), sorted(edges))
    for key, want in edges.items():
        for k, v in want.items():
            ck.eq("%s -> %s %s" % (key[0], key[1], k), m.edge(*key)[k], v)
    for k, v in info.items():
        ck.eq("INFO " + k, m.doc[k], v)
    ck.eq("run time", m.doc["end_ns"] - m.doc["start_ns"],
          sum(p.doc["end_ns"] - p.doc["start_ns"] for p in runs))
    ck.edge(m, "fib", "fib", calls=sum(fib_calls(n) - 1 for n in (12, 15, 17)))
    if ctx.tails and ctx.opt == "-O2":  # is_even's call of is_odd is a kept tail call
        ck.eq("main -> is_odd through a tail site", tail_edges(m, "main", "is_odd"),
              50 + 30 + 500)
    else:
        ck.edge(m, "is_even", "is_odd", calls=50 + 30 + 500)
    ck.eq("PDs of fib (recursion folded)", len(m.pds_of("fib")), 1)
    ck.eq("threads", len(m.threads), 1)
    chk = ctx.sh([ctx.deepprof, "check", "--max", "40", os.path.join(ctx.work, "all.data")])
    ck.eq("deepprof check of the merged file", chk.returncode, 0)
    # threads: each worker matched with the worker of the same name
    texe = ctx.build("threads", ["threads.c"], extra=["-pthread"])
    t1 = ctx.run(texe, 1000, output="t1.data")[1]
    ctx.run(texe, 300, output="t2.data")
    ctx.must([ctx.deepprof, "merge", "-o", "tt.data", "t1.data", "t2.data"])
    tt = Profile.load(ctx.deepprof, os.path.join(ctx.work, "tt.data"))
    ck.eq("threads after merging", len(tt.threads), len(t1.threads))
    for i in range(8):
        t = tt.thread_named("worker-%d" % i)
        ck.edge(tt, "work", "leaf", thread=t, calls=(i + 1) * 1300)
    # two programs: one node each under the root, named by the program
    ctx.must([ctx.deepprof, "merge", "-o", "two.data", "all.data", "tt.data"])
    two = Profile.load(ctx.deepprof, os.path.join(ctx.work, "two.data"))
    root = two.doc["root_pd"]
    kids = sorted((two.ps[two.pd[c["callee"]]["ps"]]["name"], c["calls"])
                  for c in two.csd if c["caller"] == root)
    ck.eq("program nodes under the root", kids, [(exe, 3), (texe, 2)])
    ck.edge(two, "fib", "fib", calls=sum(fib_calls(n) - 1 for n in (12, 15, 17)))
    ck.edge(two, "work", "leaf", calls=36 * 1300)
    chk = ctx.sh([ctx.deepprof, "check", "--max", "40", os.path.join(ctx.work, "two.data")])
    ck.eq("deepprof check of the two-program file", chk.returncode, 0)
    # --force: a rebuild with a function added above fib matches by name and position
    src = os.path.join(ctx.work, "recursion.c")
    with open(os.path.join(PROGS, "recursion.c")) as f:
        text = f.read()
    with open(src, "w") as f:
        f.write(text)
    ctx.must([ctx.deepprof, "cc", ctx.opt, "-I", PROGS, "-o", "rb", src])
    ctx.run("./rb", 12, 100, output="v1.data")
    with open(src, "w") as f:
        f.write(text.replace("NOINLINE static long fib(long n)\n{",
                             "NOINLINE long extra(long n)\n{\n\treturn n + 1;\n}\n\n"
                             "NOINLINE static long fib(long n)\n{", 1)
                .replace("is_even(m));", "is_even(m) + (int)extra(n));"))
    ctx.must([ctx.deepprof, "cc", ctx.opt, "-I", PROGS, "-o", "rb", src])
    ctx.run("./rb", 13, 100, output="v2.data")
    r = ctx.must([ctx.deepprof, "merge", "--force", "-o", "f.data", "v1.data", "v2.data"])
    f = Profile.load(ctx.deepprof, os.path.join(ctx.work, "f.data"))
    ck.edge(f, "fib", "fib", calls=fib_calls(12) - 1 + fib_calls(13) - 1)
    ck.eq("functions named fib after --force", len(f.pds_of("fib")), 1)
    ck.true("--force reports the new function", "v2.data: 1 of 5 functions matched none"
            in r.stderr and "extra (" in r.stderr)
    r = ctx.must([ctx.deepprof, "merge", "-o", "nf.data", "v1.data", "v2.data"])
    nf = Profile.load(ctx.deepprof, os.path.join(ctx.work, "nf.data"))
    ck.eq("two builds without --force: two program nodes",
          sum(1 for p in nf.ps.values() if p["kind"] == "program"), 2)
    # bad input: named, non-zero exit, the output untouched
    with open(os.path.join(ctx.work, "r0.data"), "rb") as f:
        data = f.read()
    with open(os.path.join(ctx.work, "cut.data"), "wb") as f:
        f.write(data[:len(data) // 2])
    r = ctx.sh([ctx.deepprof, "merge", "-o", "all.data", "r1.data", "cut.data"])
    ck.eq("exit status on a truncated input", r.returncode, 2)
    ck.true("the message names the file", "cut.data" in r.stderr)
    with open(os.path.join(ctx.work, "all.data"), "rb") as a, \
            open(os.path.join(ctx.work, "other.data"), "rb") as b:
        ck.true("the output is untouched after a failure", a.read() == b.read())


def t_diff(ctx, ck):
    """deepprof diff: a variant of loops.c whose grows() loop runs 4 times longer lists
    grows first (time and callseqs, text and JSON), with exact callseqs changes and the
    function only the variant has marked; a profile against itself is all zero."""
    n = 1000000  # a few hundred samples, 85 % of them in the loops themselves
    base = ctx.build("loops", ["loops.c"])
    ctx.run(base, n, output="base.data")
    var = ctx.build("loops4", ["loops.c"], extra=["-DGROW=4"])
    ctx.run(var, n, output="new.data")

    def diff(*args):
        r = ctx.must([ctx.deepprof, "diff", "--format=json"] + list(args))
        return json.loads(r.stdout)["procedures"]

    rows = diff("base.data", "new.data")
    ck.eq("first procedure by change in time share", rows[0]["name"], "grows")
    ck.true("grows' share grew (by 32 points when no sample is lost)", rows[0]["change"] > 0.1)
    rows = diff("--metric=callseqs", "base.data", "new.data")
    ck.eq("first procedure by change in callseqs", rows[0]["name"], "grows")
    r = ctx.must([ctx.deepprof, "diff", "--format=json", "--metric=callseqs", "base.data",
                  "new.data"])
    ctxs = json.loads(r.stdout)["contexts"]
    ck.eq("first context by change in callseqs", (ctxs[0]["path"], ctxs[0]["change"]),
          ("main > grows", 3 * n))
    ck.eq("contexts of the steady loops unchanged",
          sorted(c["path"] for c in ctxs if c["change"] == 0 and "steady" in c["path"]),
          ["main > steady_a", "main > steady_b", "main > steady_c"])
    by = {r["name"]: r for r in rows}
    ck.eq("grows' callseqs change", by["grows"]["change"], 3 * n)
    ck.eq("grows' relative change", by["grows"]["relative"], 3.0)
    for f in ("steady_a", "steady_b", "steady_c"):
        ck.eq("%s's callseqs change" % f, by[f]["change"], 0)
    rows = diff("--metric=calls", "base.data", "new.data")
    by = {r["name"]: r for r in rows}
    ck.eq("added() is only in the variant", (by["added"]["side"], by["added"]["new_raw"]),
          ("new", 1))
    ck.eq("tick's calls change", by["tick"]["change"], 3 * n)
    for metric in ("time", "callseqs", "calls", "allocs", "bytes"):
        doc = json.loads(ctx.must([ctx.deepprof, "diff", "--format=json", "--metric=" + metric,
                                   "new.data", "new.data"]).stdout)
        changes = [r["change"] for r in doc["procedures"] + doc["contexts"]]
        ck.eq("changes of a profile against itself (%s)" % metric, changes,
              [0] * len(changes))
    text = ctx.must([ctx.deepprof, "diff", "--metric=callseqs", "base.data", "new.data"]).stdout
    lines = text.splitlines()
    first = lines[lines.index(next(line for line in lines if line.endswith(" procedure"))) + 1]
    ck.true("text output lists grows first", "grows" in first and "+%d" % (3 * n) in first)
    text = ctx.must([ctx.deepprof, "diff", "--metric=calls", "base.data", "new.data"]).stdout
    ck.true("text output marks added()", any("added" in line and "[only in new]" in line
                                             for line in text.splitlines()))
    r = ctx.sh([ctx.deepprof, "diff", "base.data", "missing.data"])
    ck.eq("exit status for a missing file", r.returncode, 2)
    ck.true("the message names it", "missing.data" in r.stderr)


def report_flags(ctx, data, query):
    """{row name: set of flags} over every row of the JSON report QUERY of DATA."""
    r = ctx.must([ctx.deepprof, "report", "--format=json", data, query])
    out = {}

    def walk(o):
        if isinstance(o, dict):
            if "flags" in o and "name" in o:
                out.setdefault(o["name"], set()).update(o["flags"])
            for v in o.values():
                walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)
    walk(json.loads(r.stdout))
    return out


def report_marks(ctx, ck, data, name, flag, query):
    """NAME's rows carry FLAG in the JSON, text and HTML forms of the report QUERY and in
    `deepprof tree` (text marker "(FLAG"; HTML: the marker's title)."""
    ck.true("%s: JSON row %s has flag %s" % (query, name, flag),
            flag in report_flags(ctx, data, query).get(name, set()))
    tree = ctx.must([ctx.deepprof, "tree", "--min", "0", data]).stdout
    ck.true("tree: %s (%s" % (name, flag), re.search(r"\b%s \(%s" % (re.escape(name), flag),
                                                     tree))
    html = ctx.must([ctx.deepprof, "report", "--format=html", data, query]).stdout
    title = {"tail": "entered through a tail call", "region": "a region the program marked"}
    ck.true("%s: HTML marks %s" % (query, flag), title[flag] in html)


def clique_of(ctx, p, name):
    """The clique id of function NAME (one context), from the JSON proc page."""
    r = ctx.must([ctx.deepprof, "report", "--format=json", p.path, "page=proc&name=" + name])
    subject = json.loads(r.stdout).get("subject") or {}
    if not subject.get("clique"):
        raise CheckError("no clique for %s" % name)
    return subject["clique"]


def tail_edges(p, caller, callee):
    """Summed calls of CALLER -> CALLEE through call sites of kind tail."""
    return sum(c["calls"] for c in p.csds_to(caller, callee)
               if p.css[c["css"]]["kind"] == "tail")


def t_tailcall(ctx, ck):
    """A state machine written with tail calls runs in constant stack under deepprof run
    (8 MiB stack, 10^8 steps at -O2): same output as built plainly, each function counted
    exactly, the time on the two functions. gcc (through its plugin) and clang (through
    its pass plugin) keep the sibling calls and mark their sites tail; with clang, the
    same with musttail, which clang keeps by itself (unmarked without the pass plugin)."""
    check_tailcall(ctx, ck, [])
    if ctx.family == "clang":
        check_tailcall(ctx, ck, ["-DDPT_MUSTTAIL"])


def check_tailcall(ctx, ck, extra):
    steps = 100000000 if ctx.opt == "-O2" else 20000  # no sibling calls at -O0
    exe = ctx.build("tailcall", ["tailcall.c"], extra=extra)
    # sibling calls at -O2; musttail ones at -O0 too, which the stubs mark as well
    marked = ctx.tails and (ctx.opt == "-O2" or (ctx.stubs and bool(extra)))
    kept = marked or bool(extra)
    if ctx.opt == "-O2" and not kept:
        llvm = os.path.join(os.path.dirname(ctx.deepprof), "..", "lib", "deepprof",
                            "deepprof_llvm.so")
        ck.true("deepprof cc passes the pass plugin it built to clang",
                not os.path.exists(llvm))
        print("clang without deepprof's pass plugin: plain tail calls are not kept")
        return
    what = " ".join(extra) or "tail calls"
    cc = COMPILERS[ctx.family][0]
    ctx.must([cc, ctx.opt, "-I", PROGS, "-o", "plain", os.path.join(PROGS, "tailcall.c")]
             + extra)

    def small_stack():
        resource.setrlimit(resource.RLIMIT_STACK, (8 << 20, 8 << 20))

    plain = subprocess.run([os.path.join(ctx.work, "plain"), str(steps)], cwd=ctx.work,
                           capture_output=True, text=True, check=False,
                           preexec_fn=small_stack)
    ck.eq("%s: plain run's status" % what, plain.returncode, 0)
    saved = subprocess.run
    try:  # deepprof run and the program under the 8 MiB stack
        subprocess.run = lambda *a, **kw: saved(*a, preexec_fn=small_stack, **kw)
        out, p = ctx.run(exe, steps)
    finally:
        subprocess.run = saved
    ck.eq("%s: output as built plainly" % what, out, plain.stdout)
    half = steps // 2
    ck.eq("%s: calls of st_a" % what, p.into("st_a")["calls"], half)
    ck.eq("%s: calls of st_b" % what, p.into("st_b")["calls"], half)
    ck.edge(p, "main", "st_a", calls=half if kept else 1)
    ck.balanced(p)
    if not kept:
        return
    ck.edge(p, "main", "st_b", calls=half, exits=half)
    ck.eq("%s: st_b's contexts" % what, len(p.pds_of("st_b")), 1)
    # called directly and tail-called (through another site), unless unmarked
    ck.eq("%s: st_a's contexts" % what, len(p.pds_of("st_a")), 2 if marked else 1)
    if marked:
        report_marks(ctx, ck, p.path, "st_b", "tail", "page=clique&id=%d"
                     % clique_of(ctx, p, "main"))
        ck.eq("main -> st_b through a tail site", tail_edges(p, "main", "st_b"), half)
        ck.eq("main -> st_a through a tail site", tail_edges(p, "main", "st_a"), half - 1)
    if ctx.opt == "-O2":
        on_two = p.into("st_a")["samples"] + p.into("st_b")["samples"]
        ck.true("st_a and st_b have >= 80 %% of the program's samples (%d of %d)"
                % (on_two, p.doc["samples_outside"]), on_two >= 0.8 * p.doc["samples_outside"])
        ck.true("and >= 60 %% of all, the hooks' included (%d of %d)"
                % (on_two, p.doc["samples_outside"] + p.doc["samples_inside"]),
                on_two >= 0.6 * (p.doc["samples_outside"] + p.doc["samples_inside"]))


def t_splits(ctx, ck):
    """Functions gcc splits at -O2 (split_part.part.0 by partial inlining, split_cold.cold,
    split_cp.constprop.0, split_isra.isra.0) are counted exactly in both instrumentation
    modes: DEEPPROF_INSTRUMENT=inlined runs split_part's enter hook in its caller's frame
    (the inlined head) and its exit hook in split_part.part.0's frame, which the runtime
    matches; after inlining (the hooks or the stubs), split_part's procedure is its
    outlined part, called for the quarter of the calls that the head does not answer."""
    n = 1000
    for mode in ("inlined", "after-inlining", "stubs"):
        exe = ctx.build("splits_" + mode, ["splits.c"], env={"DEEPPROF_INSTRUMENT": mode})
        syms = ctx.must(["nm", exe]).stdout
        split = ctx.family == "gcc" and ctx.opt == "-O2"
        if split:
            for suffix in ("part", "cold", "constprop", "isra"):
                if mode == "inlined" and suffix in ("constprop", "isra"):
                    continue  # the hooks keep gcc from cloning them
                ck.true("%s: gcc made a .%s split" % (mode, suffix),
                        re.search(r" split_\w+\.%s(\.\d+)?$" % suffix, syms, re.M))
        out, p = ctx.run(exe, n)
        ck.eq("%s: output" % mode, kv(out, "n"), n)
        reach = n // 4 if split and ctx.after else n  # i % 4 == 0 reach the part
        ck.eq("%s: calls of split_part" % mode, p.into("split_part")["calls"], reach)
        ck.eq("%s: exits of split_part" % mode, p.into("split_part")["exits"], reach)
        for f in ("split_cold", "split_cp", "split_isra"):
            ck.edge(p, "main", f, calls=n, exits=n, unwinds=0)
        ck.edge(p, "split_cold", "complain", calls=n // 2, exits=n // 2, unwinds=0)
        ck.eq("%s: no unwinds" % mode, sum(c["unwinds"] for c in p.csd), 0)
        ck.eq("%s: callseqs (every call made from a counted activation)" % mode,
              sum(c["callseqs"] for c in p.csd), sum(c["calls"] for c in p.csd) - 1)
        ck.balanced(p)


def t_regions(ctx, ck):
    """User regions (deepprof_enter/leave): nesting, recursion folding, a reused name
    buffer, threads, regions left open by return, longjmp and a C++ exception, and a
    mismatched leave, which `deepprof check` reports."""
    exe = ctx.build("regions", ["regions.c"], extra=["-pthread"])
    n = 40
    out, p = ctx.run(exe, n, 0)
    ck.eq("output", kv(out, "n"), n)
    regions = {q["name"] for q in p.ps.values() if q["kind"] == "region"}
    ck.eq("regions", regions, {"outer", "inner", "rec", "name0", "name1", "name2", "leak",
                               "jump", "a", "thr"})
    ck.edge(p, "main", "outer", calls=1, exits=1, unwinds=0)
    ck.edge(p, "outer", "inner", calls=n, exits=n, unwinds=0)
    ck.edge(p, "inner", "work", calls=n, exits=n)
    # rec -> region rec -> rec ...: one PD each, recursion folded
    ck.eq("PDs of rec (function and region)", len(p.pds_of("rec")), 2)
    ck.eq("calls of rec, both", p.into("rec")["calls"], 2 * (n + 1))
    ck.eq("exits of rec, both", p.into("rec")["exits"], 2 * (n + 1))
    for k in range(3):  # names written into one buffer, compared by content
        ck.edge(p, "main", "name%d" % k, calls=n, exits=n)
        ck.eq("PDs of name%d" % k, len(p.pds_of("name%d" % k)), 1)
        ck.edge(p, "name%d" % k, "work", calls=n, exits=n)
    ck.edge(p, "leaky", "leak", calls=n, exits=0, unwinds=n)
    ck.edge(p, "jumper", "jump", calls=n, exits=0, unwinds=n)
    ck.edge(p, "jump", "jump_out", calls=n, exits=0, unwinds=n)
    ck.edge(p, "main", "a", calls=1, exits=1)
    ck.eq("threads' region thr", p.into("thr")["calls"], 3 * n)
    ck.edge(p, "thr", "work", calls=3 * n, exits=3 * n)
    ck.eq("no mismatched leaves", sum(q.get("mismatched", 0) for q in p.ps.values()), 0)
    ck.balanced(p, allow_active=("leak", "jump", "jump_out", "jumper"))
    # two mismatched leaves of b: counted, and deepprof check fails on them
    r = ctx.sh([exe, str(n), "2"])
    ck.eq("mismatched run's status", r.returncode, 0)
    data = os.path.join(ctx.work, "Deep.data")
    ctx.must([ctx.deepprof, "symbolize", data])
    p = Profile.load(ctx.deepprof, data)
    b = [q for q in p.ps.values() if q["kind"] == "region" and q["name"] == "b"]
    ck.eq("region b's mismatched leaves", [q.get("mismatched") for q in b], [2])
    chk = ctx.sh([ctx.deepprof, "check", "--max", "5", data])
    ck.eq("deepprof check's status", chk.returncode, 1)
    ck.true("deepprof check names region b",
            "region b: 2 mismatched leaves" in chk.stdout)
    # an exception leaves region exc open: closed when the next call finds its frame gone
    exe = ctx.build("regions_cxx", ["regions_cxx.cpp"], cxx=True)
    m = 30
    _, p = ctx.run(exe, m)
    ck.edge(p, "thrower(long)", "exc", calls=m, exits=0, unwinds=m)
    ck.edge(p, "exc", "work(long)", calls=m, exits=m)
    ck.edge(p, "main", "work(long)", calls=m, exits=m)
    ck.balanced(p, allow_active=("exc", "thrower(long)"))


def t_bytecode(ctx, ck):
    """examples/bytecode.c: the interpreter's guest functions are regions, so the profile
    shows the guest program's calls: main -> sum, main -> fib, fib's recursion folded
    into one PD, the host helper each guest function calls counted under it."""
    exe = ctx.build("bytecode", [os.path.join("..", "..", "..", "examples", "bytecode.c")])
    n = 15
    out, p = ctx.run(exe, n)
    fib = [0, 1]
    for _ in range(n):
        fib.append(fib[-1] + fib[-2])
    ck.eq("output", out.split(), [str((1000 + n) * (1001 + n) // 2), str(fib[n])])
    kinds = {q["name"]: q["kind"] for q in p.ps.values() if q["kind"] == "region"}
    ck.eq("guest functions as regions", kinds,
          {"main": "region", "sum": "region", "fib": "region"})
    calls = fib_calls(n)
    ck.eq("guest fib's calls", p.into("fib")["calls"], calls)
    ck.eq("guest fib's PDs (recursion folded)", len(p.pds_of("fib")), 1)
    ck.edge(p, "fib", "fib", calls=calls - 1, exits=calls - 1)
    ck.edge(p, "sum", "vm_checked_add", calls=1000 + n, exits=1000 + n)
    ck.edge(p, "fib", "vm_checked_add", calls=(calls - 1) // 2, exits=(calls - 1) // 2)
    ck.eq("guest main's PDs (the C main's and the region's)", len(p.pds_of("main")), 2)
    report_marks(ctx, ck, p.path, "fib", "region", "page=top&metric=callseqs")
    ck.balanced(p)


def stubs_available(ctx):
    """Whether `deepprof cc` uses the stubs with this compiler by default: x86-64, and
    deepprof's plugin for it built (the GCC plugin, or clang's pass plugin)."""
    lib = os.path.join(os.path.dirname(ctx.deepprof), "..", "lib", "deepprof")
    plugin = "deepprof_gcc.so" if ctx.family == "gcc" else "deepprof_llvm.so"
    return (platform.machine() in ("x86_64", "AMD64")
            and os.path.exists(os.path.join(lib, plugin)))


def t_stubs(ctx, ck):
    """The default method: the compiled code calls the stubs and no hook; the registers
    the compiler keeps across them survive (regs.c: floating-point arguments through the
    slow path, the full path of a thread's first call, a variadic function's %al, long
    double and double results through the exit's slow path, a shadow stack that grows):
    the output is the plain build's, bit for bit, and the counts exact. A function's
    entry is found from the stub call's return address whatever the call's form: -fno-pie
    (5 bytes), -fcf-protection (an endbr64 first), PIC (6 bytes; test shlib)."""
    if "DEEPPROF_INSTRUMENT" in ctx.env or not stubs_available(ctx):
        raise Skip("no stubs with %s here, or another method asked for" % ctx.family)
    inc = os.path.join(os.path.dirname(ctx.deepprof), "..", "include")
    exe = ctx.build("regs", ["regs.c"], extra=["-lm", "-pthread"])
    ck.true("default: built with the stubs", ctx.stubs)
    ctx.must([ctx.deepprof, "cc", ctx.opt, "-I", PROGS, "-c", os.path.join(PROGS, "regs.c"),
              "-o", "regs.o"])
    undef = re.findall(r"^\s+U (\S+)$", ctx.must(["nm", "regs.o"]).stdout, re.M)
    entry = "__deepprof_fentry" if ctx.family == "gcc" else "__fentry__"
    leave = "__return__" if ctx.family == "gcc" else "__deepprof_exit"
    ck.true("the object calls %s and %s (%r)" % (entry, leave, undef),
            entry in undef and leave in undef)
    ck.true("and no hook", not [u for u in undef if u.startswith("__cyg_profile")])
    cc = COMPILERS[ctx.family][0]
    ctx.must([cc, ctx.opt, "-I", PROGS, "-I", inc, "-o", "plain", os.path.join(PROGS, "regs.c"),
              "-lm", "-pthread"])
    n = 50
    plain = ctx.must([os.path.join(ctx.work, "plain"), str(n)]).stdout
    out, p = ctx.run(exe, n)
    ck.eq("regs: output as built plainly", out, plain)
    quarter = [sum(1 for i in range(k) if i % 4 == j) for k in (20, n) for j in range(4)]
    ck.eq("calls of mix", p.into("mix")["calls"], 1 + sum(quarter[0:2]) + sum(quarter[4:6]))
    ck.eq("calls of vsum", p.into("vsum")["calls"], 1 + quarter[2] + quarter[6])
    ck.eq("calls of ldiv3", p.into("ldiv3")["calls"], 1 + quarter[3] + quarter[7])
    ck.edge(p, "deep", "deep", calls=3000, exits=3000, unwinds=0)
    ck.eq("the open regions, closed by their function's exit",
          p.into("regs open region")["unwinds"], 2 * (quarter[3] + quarter[7]) + 1)
    ck.balanced(p)
    for flags in (["-fno-pie", "-no-pie"], ["-fcf-protection"]):
        what = " ".join(flags)
        exe = ctx.build("recursion", ["recursion.c"], extra=flags)
        _, p = ctx.run(exe, 12, 10)
        ck.eq("%s: calls of fib" % what, p.into("fib")["calls"], fib_calls(12))
        sym = re.search(r"^([0-9a-f]+) [Tt] fib$", ctx.must(["nm", exe]).stdout, re.M)
        ps = p.function("fib")
        ck.eq("%s: fib's address is its entry" % what,
              int(ps["addr"], 16) - int(p.objects[ps["object"]]["bias"], 16),
              int(sym.group(1), 16) if sym else None)


TESTS = {name[2:]: fn for name, fn in globals().items() if name.startswith("t_")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deepprof", required=True)
    ap.add_argument("--cc", choices=sorted(COMPILERS), required=True)
    ap.add_argument("--opt", choices=("O0", "O2"), required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--instrument", choices=("stubs", "after-inlining", "inlined"))
    ap.add_argument("test", choices=sorted(TESTS))
    args = ap.parse_args()
    for tool in COMPILERS[args.cc]:
        if not shutil.which(tool):
            print("SKIP: %s not installed" % tool)
            return 77
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    ctx = Ctx(args)
    ck = Checker("%s %s %s%s" % (args.test, args.cc, args.opt,
                                 " " + args.instrument if args.instrument else ""))
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
