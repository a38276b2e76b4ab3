#!/usr/bin/env python3
"""test_import.py - `deepprof import` end to end: each test makes or takes another tool's
data, imports it, and checks the profile (`deepprof dump --format=json`) for exact call
counts, cost in the right calling context, threads kept, and `deepprof check` passing;
bad inputs must fail with a message naming the file and position, and write nothing.

usage: test_import.py --deepprof BIN --work DIR TEST
Exit status: 0 pass, 1 fail, 77 skip (a tool missing or not permitted here).
"""
import argparse
import gzip
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77


class Fail(Exception):
    pass


class Skip(Exception):
    pass


def run(argv, cwd, ok=True):
    print("+ " + " ".join(argv), flush=True)
    r = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
    if ok and r.returncode != 0:
        raise Fail("%s failed (%d):\n%s%s" % (" ".join(argv), r.returncode, r.stdout, r.stderr))
    return r


class Ctx:
    def __init__(self, args):
        self.dp = args.deepprof
        self.work = args.work
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)

    def path(self, name):
        return os.path.join(self.work, name)

    def imp(self, inp, out, *opts):
        run([self.dp, "import", *opts, inp, "-o", out], self.work)
        run([self.dp, "check", out], self.work)
        return Profile(json.loads(run([self.dp, "dump", "--format=json", out],
                                      self.work).stdout))

    def bad(self, inp, want, *opts):
        """Import INP must fail (exit 2) with WANT in the message, writing nothing."""
        out = self.path("bad.data")
        if os.path.exists(out):
            os.unlink(out)
        r = run([self.dp, "import", *opts, inp, "-o", out], self.work, ok=False)
        if r.returncode != 2 or want not in r.stderr:
            raise Fail("import of %s: want exit 2 and %r, got %d: %s" %
                       (inp, want, r.returncode, r.stderr))
        if os.path.exists(out) or any(f.startswith("bad.data.tmp") for f in
                                      os.listdir(self.work)):
            raise Fail("a failed import left a file behind")
        print("ok: " + r.stderr.strip())

    def cc(self, out, *flags):
        cc = shutil.which("gcc") or shutil.which("cc")
        if not cc:
            raise Skip("no C compiler")
        run([cc, *flags, "-o", out, os.path.join(HERE, "ctxcost.c"), "-lpthread"], self.work)
        return out


class Profile:
    """Per-context sums of a dump: contexts are paths of names from the thread root,
    keyed (thread index or 0 for all, path tuple)."""

    def __init__(self, j):
        self.j = j
        self.ps = {p["id"]: p for p in j["ps"]}
        pd = {p["id"]: p for p in j["pd"]}
        self.path = {j["root_pd"]: ()}
        self.csds = j["csd"]
        # a PD's path: its creating CSD (the first whose callee it is and is not an
        # ancestor); CSD ids are in creation order
        for d in self.csds:
            if d["callee"] not in self.path:
                name = self.name(pd[d["callee"]]["ps"])
                self.path[d["callee"]] = self.path[d["caller"]] + (name,)
        self.pd = pd

    def name(self, ps):
        p = self.ps[ps]
        return {"root": "<program>", "thread": "<thread>"}.get(p["kind"], p["name"])

    def ctx(self, field, suffix, thread=None):
        """Sum of FIELD over CSDs whose callee context path ends with SUFFIX (names
        after the thread root)."""
        n = len(suffix)
        tot = 0
        for d in self.csds:
            p = self.path[d["callee"]]
            if p[-n:] == tuple(suffix) and (thread is None or
                                           self.pd[d["callee"]]["thread"] == thread):
                tot += d[field]
        return tot

    def total(self, field):
        return sum(d[field] for d in self.csds)


def expect(what, got, want):
    if got != want:
        raise Fail("%s: got %r, want %r" % (what, got, want))
    print("ok: %s = %r" % (what, got))


def expect_ratio(what, a, b, lo, hi=float("inf")):
    """A / B within [LO, HI]; B may be 0 (a few samples) when A is not and HI is inf."""
    r = a / b if b else (float("inf") if a else 0.0)
    if not lo <= r <= hi:
        raise Fail("%s: ratio %.2f (%d / %d) not within [%g, %g]" % (what, r, a, b, lo, hi))
    print("ok: %s ratio %.2f" % (what, r))


# ---------------------------------------------------------------------------- folded

def t_folded(c):
    f = c.path("in.folded")
    with open(f, "w") as o:
        o.write("# a comment\nmain;light;shared_step;work 3\n"
                "main;heavy;shared_step;work 27\nmain;heavy;shared_step;work 9\n"
                "main;rec;rec;rec 4\r\n\nmain;heavy 1.6\n")
    p = c.imp(f, c.path("f.data"), "--from=folded", "--period=1000")
    expect("work under light", p.ctx("samples", ["light", "shared_step", "work"]), 3)
    expect("work under heavy", p.ctx("samples", ["heavy", "shared_step", "work"]), 36)
    expect("heavy self (1.6 rounded)", p.ctx("samples", ["main", "heavy"]), 2)
    expect("recursion folded: one rec context", p.ctx("samples", ["main", "rec"]), 4)
    expect("no nested rec context", p.ctx("samples", ["rec", "rec"]), 0)
    expect("total", p.total("samples"), 45)
    expect("period", p.j["sample_period_ns"], 1000)
    expect("origin", (p.j["origin"], p.j["metrics"]), ("folded", 8))
    menu = run([c.dp, "report", c.path("f.data")], c.work).stdout
    if not re.search(r"imported from\s+folded\n", menu) or f not in menu:
        raise Fail("the menu does not say where the profile came from:\n" + menu)
    # lines sharing leading frames with the line before reuse its walk: the order of the
    # lines must not matter (recursion, repeats, a line that is a prefix of the last)
    lines = ["a;b;a;b 1", "a;b;a 2", "a;b;a;b;c 3", "a;b 4", "a;b;a;b 5", "a;b;a;b 6",
             "a;c;a 7", "a 8", "a;b;c;b 9", "a;b;c 10"]
    got = []
    for order in (lines, sorted(lines), list(reversed(lines))):
        f2 = c.path("order.folded")
        with open(f2, "w") as o:
            o.write("\n".join(order) + "\n")
        p = c.imp(f2, c.path("order.data"))
        sums = {}
        for d in p.csds:
            k = p.path[d["callee"]]
            sums[k] = sums.get(k, 0) + d["samples"]
        got.append(sums)
    expect("the same contexts whatever the order", got[1] == got[0] and got[2] == got[0], True)
    expect("a;b;a;b and a;b;c;b folded onto a;b", got[0][("<thread>", "a", "b")],
           4 + 1 + 5 + 6 + 9)
    expect("a;b;c;b: b folded, c under b", got[0][("<thread>", "a", "b", "c")], 3 + 10)
    expect("a;b;a and a;c;a folded onto a", got[0][("<thread>", "a")], 2 + 7 + 8)
    # calls as the metric: calls == exits
    p = c.imp(f, c.path("fc.data"), "--from=folded", "--metric=calls")
    expect("calls metric", p.ctx("calls", ["heavy", "shared_step", "work"]), 36)
    expect("no samples with calls metric", p.total("samples"), 0)


def t_report_unmeasured(c):
    """Reports of a profile without call counts: no Calls column (text, HTML), JSON
    lists the counters measured, and rows with samples but no calls are shown."""
    f = c.path("in.folded")
    with open(f, "w") as o:
        o.write("main;light;shared_step;work 3\nmain;heavy;shared_step;work 27\n"
                "main;heavy 2\n")
    c.imp(f, c.path("f.data"), "--from=folded", "--period=1000000")

    def report(q, fmt="text", data="f.data"):
        return run([c.dp, "report", "--format=" + fmt, c.path(data), q], c.work).stdout

    for q in ("page=top", "page=modules", "page=module&id=1", "page=proc&id=4",
              "page=clique&id=3", "page=root"):
        for fmt in ("text", "html"):
            out = report(q + "&fields=pqTSAB", fmt)
            heads = (re.findall(r'<th[^>]*>(?:<a[^>]*>)?(\w+)', out) if fmt == "html"
                     else " ".join(ln for ln in out.splitlines()
                                   if not re.search(r"\d", ln)).split())
            if {"Calls", "Exits", "ports", "callseqs", "allocs", "bytes"} & set(heads):
                raise Fail("%s (%s): a column of an unmeasured counter:\n%s" % (q, fmt, out))
            if "inactive rows hidden" in out:
                raise Fail("%s (%s): rows without calls hidden:\n%s" % (q, fmt, out))
    mods = report("page=module&id=1")
    for name in ("heavy", "light", "shared_step", "work"):
        if "  %s " % name not in mods:
            raise Fail("page=module: %s not shown without inactive=:\n%s" % (name, mods))
    j = json.loads(report("page=top", "json"))
    expect("JSON: the counters measured", j["measured"], ["samples"])
    expect("JSON: both procedures with samples", sorted(r["name"] for r in
                                                        j["sections"][0]["rows"]),
           ["heavy", "work"])
    # calls as the folded metric: the ports are shown, time is not
    c.imp(f, c.path("fc.data"), "--from=folded", "--metric=calls")
    out = report("page=module&id=1", data="fc.data")
    if "Calls" not in out or "time" in out:
        raise Fail("calls-only import: want Calls and no time columns:\n" + out)
    expect("JSON: calls-only import", json.loads(report("page=top", "json", "fc.data"))
           ["measured"], ["calls", "exits"])


def t_folded_errors(c):
    cases = [("x;y\n", "line 1: no weight"),
             ("a;b 3\na;;b 4\n", "line 2: empty frame name"),
             ("a;b 3\n\na;b 3x\n", "line 3: the weight at the end of the line is not a number"),
             ("# only a comment\n", "line 1: no stacks in the input"),
             ("a;b 99999999999999999999999\n", "line 1: weight too large"),
             ("a;b 1\n\0\n", "line 2: NUL byte")]
    for i, (text, want) in enumerate(cases):
        f = c.path("bad%d.folded" % i)
        with open(f, "w") as o:
            o.write(text)
        c.bad(f, f + ": " + want, "--from=folded")
    c.bad(c.path("missing.folded"), "cannot open", "--from=folded")


# --------------------------------------------------------------------------- uftrace

def uftrace_record(c, threads, scale=200000, name="rec"):
    if not shutil.which("uftrace"):
        raise Skip("uftrace not installed (scripts/install-deps installs it)")
    exe = c.cc(c.path("ctx_pg"), "-pg", "-g", "-O0")
    d = c.path("%s%d" % (name, threads))
    shutil.rmtree(d, ignore_errors=True)
    run(["uftrace", "record", "--no-pager", "-d", d, exe, str(scale), str(threads)], c.work)
    return d


def check_ctxcost_calls(p, threads):
    expect("light calls", p.ctx("calls", ["main", "light"]), 3)
    expect("heavy calls from main", p.ctx("calls", ["main", "heavy"]), 2)
    expect("shared_step under light", p.ctx("calls", ["light", "shared_step"]), 3)
    expect("work under heavy (all threads)", p.ctx("calls", ["heavy", "shared_step", "work"]),
           2 + threads)
    expect("exits == calls for work", p.ctx("exits", ["shared_step", "work"]), 5 + threads)
    expect("rec: 1 call from main", p.ctx("calls", ["main", "rec"]), 11)
    rec = [d for d in p.csds if p.path[d["callee"]][-2:] == ("main", "rec")]
    expect("rec: folded into two CSDs (main->rec 1, rec->rec 10)",
           sorted(d["calls"] for d in rec), [1, 10])
    expect("worker threads", len([t for t in p.j["threads"]]), 1 + threads)
    for t in range(2, 2 + threads):
        expect("thread %d: heavy calls" % t, p.ctx("calls", ["worker", "heavy"], thread=t), 1)


def t_uftrace(c):
    d = uftrace_record(c, 0)
    p = c.imp(d, c.path("u.data"), "--from=uftrace")
    check_ctxcost_calls(p, 0)
    expect("origin", p.j["origin"], "uftrace")
    expect("work's module: the executable",
           [q["file"] for q in p.j["ps"] if q["name"] == "work"], [c.path("ctx_pg")])
    p = c.imp(d, c.path("u2.data"))  # guessed from the directory
    expect("guessed format", p.j["origin"], "uftrace")
    # uftrace's times are wall-clock: a preemption on a loaded machine can land in
    # light's few ms, so the time check gets three recordings to see the 6x it expects
    for attempt in range(3):
        p = c.imp(uftrace_record(c, 0, 2000000, "time"), c.path("ut.data"))
        try:
            expect_ratio("work time heavy/light per context",
                         p.ctx("samples", ["heavy", "shared_step", "work"]),
                         p.ctx("samples", ["light", "shared_step", "work"]), 2)
            break
        except Fail:
            if attempt == 2:
                raise


def t_uftrace_threads(c):
    d = uftrace_record(c, 3)
    p = c.imp(d, c.path("ut.data"), "--from=uftrace")
    check_ctxcost_calls(p, 3)


def t_uftrace_exec(c):
    """A forked child that execs another program: its records before the exec resolve
    through the parent's session, after it through its own (sid-*.map of ctxcost)."""
    d = uftrace_record(c, 0)  # builds ctx_pg
    exe = c.path("forkexec")
    run([shutil.which("gcc") or "cc", "-pg", "-g", "-O0", "-o", exe,
         os.path.join(HERE, "forkexec.c")], c.work)
    d = c.path("fe")
    run(["uftrace", "record", "--no-pager", "-d", d, exe, c.path("ctx_pg")], c.work)
    p = c.imp(d, c.path("fe.data"))
    expect("threads", len(p.j["threads"]), 2)
    expect("parent: parentwork", p.ctx("calls", ["main", "parentwork"], thread=1), 1)
    expect("child before exec: parentwork", p.ctx("calls", ["<thread>", "parentwork"],
                                                   thread=2), 1)
    expect("child after exec: ctxcost's light", p.ctx("calls", ["main", "light"], thread=2), 3)
    expect("child after exec: ctxcost's heavy", p.ctx("calls", ["main", "heavy"], thread=2), 2)
    expect("execl never returned: an unwind", p.ctx("unwinds", ["<thread>", "execl"],
                                                    thread=2), 1)


def t_uftrace_cxx(c):
    """C++ names: uftrace's symbol files hold them mangled; the import demangles them
    and keeps the mangled form as the linkage name."""
    if not shutil.which("uftrace") or not shutil.which("g++"):
        raise Skip("uftrace or g++ not installed")
    exe = c.path("cxx")
    run(["g++", "-pg", "-g", "-O0", "-o", exe, os.path.join(HERE, "cxx.cpp")], c.work)
    d = c.path("cxxrec")
    run(["uftrace", "record", "--no-pager", "-d", d, exe], c.work)
    p = c.imp(d, c.path("cxx.data"))
    area = [q for q in p.j["ps"] if q["name"] == "ns::W::area(int) const"]
    expect("demangled, with its linkage name", [q["linkage_name"] for q in area],
           ["_ZNK2ns1W4areaEi"])
    expect("calls", p.ctx("calls", ["main", "ns::W::area(int) const"]), 10)


def t_uftrace_corrupt(c):
    d = uftrace_record(c, 0)
    dat = [f for f in os.listdir(d) if f.endswith(".dat") and f[0].isdigit()][0]
    with open(os.path.join(d, dat), "rb") as f:
        good = f.read()
    shutil.copytree(d, c.path("trunc"))
    with open(os.path.join(c.path("trunc"), dat), "wb") as f:
        f.write(good[:len(good) - 5])
    c.bad(c.path("trunc"), "%s: truncated record" % os.path.join(c.path("trunc"), dat))
    shutil.copytree(d, c.path("magic"))
    with open(os.path.join(c.path("magic"), dat), "wb") as f:
        f.write(good[:40] + bytes([good[40] ^ 0x38]) + good[41:])
    c.bad(c.path("magic"), "bad record magic (corrupt trace?) at byte 40")
    shutil.copytree(d, c.path("noinfo"))
    with open(os.path.join(c.path("noinfo"), "info"), "wb") as f:
        f.write(b"not a uftrace file at all, no magic here............")
    c.bad(c.path("noinfo"), "not a uftrace info file (bad magic) at byte 0")
    os.makedirs(c.path("empty"))
    c.bad(c.path("empty"), "cannot open", "--from=uftrace")


# ------------------------------------------------------------------------------ perf

FIXTURE = os.path.join(HERE, "data", "ctxcost.perf-script.txt")


def t_perf_script(c):
    """The committed `perf script` text of `perf record -e cpu-clock -c 1000000 -g
    ctxcost 3000000 1` (116 samples of 1 ms): every count is known."""
    p = c.imp(FIXTURE, c.path("ps.data"), "--from=perf-script")
    expect("samples", p.total("samples"), 116)
    expect("period", p.j["sample_period_ns"], 1000000)
    expect("work under main;heavy", p.ctx("samples", ["main", "heavy", "shared_step", "work"]),
           70)
    expect("work under main;light", p.ctx("samples", ["main", "light", "shared_step", "work"]),
           12)
    expect("work under worker;heavy",
           p.ctx("samples", ["worker", "heavy", "shared_step", "work"]), 34)
    heavy_ps = [q["id"] for q in p.j["ps"] if q["name"] == "heavy"]
    expect("call site of heavy -> shared_step: its return address",
           sorted(s["addr"] for s in p.j["css"] if s["ps"] in heavy_ps), ["0x11f3"])
    expect("threads", [t["name"] for t in p.j["threads"]], ["ctxcost", "ctxcost"])
    expect("no call counts", (p.total("calls") - len(p.j["threads"]), p.j["metrics"]), (0, 8))
    expect("guessed format", c.imp(FIXTURE, c.path("ps2.data")).j["origin"], "perf")
    # the DSOs are the modules: a contour names them
    work = [q for q in p.j["ps"] if q["name"] == "work"]
    expect("work's module: its object", [q["file"] for q in work], ["/build/ctxcost"])
    with open(c.path("Deep.contour"), "w") as o:
        o.write("all libc.so.6\n")
    r = run([c.dp, "report", "--contour", c.path("Deep.contour"), c.path("ps.data"),
             "page=modules&inactive=sss"], c.work)
    if "libc.so.6" not in r.stdout or r.stderr:
        raise Fail("modules page / contour on a perf import:\n%s%s" % (r.stdout, r.stderr))
    # the same sample in other field layouts: [CPU], PID/TID, no time, no period
    for hdr in ("prog 12 [001] 5.000001: 250000 cpu-clock:u:",
                "prog  11/12 [000]  5.5: 250000 cpu-clock:u:",
                "my prog 12 250000 cpu-clock:u:", "prog 12 cpu-clock:u:"):
        f = c.path("one.txt")
        with open(f, "w") as o:
            o.write("%s\n\t  1a work+0x4 (/x/prog)\n\t  2b main+0x9 (/x/prog)\n\n" % hdr)
        p = c.imp(f, c.path("one.data"), "--from=perf-script")
        expect("layout %r: thread 12 main;work" % hdr,
               (p.j["threads"][0]["tid"], p.ctx("samples", ["main", "work"])), (12, 1))


def perf_record(c, threads, dwarf=False):
    if not shutil.which("perf"):
        raise Skip("perf not installed")
    if dwarf:  # no frame pointers: the call chains come from DWARF unwinding
        exe = c.cc(c.path("ctx_dw"), "-g", "-O1", "-fomit-frame-pointer")
    else:
        exe = c.cc(c.path("ctx_fp"), "-g", "-O0", "-fno-omit-frame-pointer")
    out = c.path("perf%d%s.data" % (threads, "dw" if dwarf else ""))
    r = run(["perf", "record", "-e", "cpu-clock",
             *(["--call-graph=dwarf"] if dwarf else ["-g"]), "-o", out, exe,
             "20000000", str(threads)], c.work, ok=False)
    if r.returncode != 0:
        raise Skip("perf record is not permitted here: %s" % r.stderr.strip()[-300:])
    return out


def t_perf(c):
    p = c.imp(perf_record(c, 0), c.path("p.data"), "--from=perf")
    heavy = p.ctx("samples", ["main", "heavy", "shared_step", "work"])
    light = p.ctx("samples", ["main", "light", "shared_step", "work"])
    expect_ratio("work samples heavy/light", heavy, light, 2)
    if heavy + light < p.total("samples") * 0.6:
        raise Fail("only %d of %d samples in work" % (heavy + light, p.total("samples")))
    expect("origin", p.j["origin"], "perf")


def t_perf_dwarf(c):
    p = c.imp(perf_record(c, 0, dwarf=True), c.path("pd.data"), "--from=perf")
    expect_ratio("work samples heavy/light (DWARF call chains)",
                 p.ctx("samples", ["main", "heavy", "shared_step", "work"]),
                 p.ctx("samples", ["main", "light", "shared_step", "work"]), 2)


def t_perf_threads(c):
    p = c.imp(perf_record(c, 3), c.path("pt.data"))
    expect("threads", len(p.j["threads"]), 4)
    for t in range(2, 5):
        n = p.ctx("samples", ["worker", "heavy", "shared_step", "work"], thread=t)
        if n < 20:
            raise Fail("thread %d: only %d samples in worker;heavy;shared_step;work" % (t, n))
    expect("no worker samples in the main thread",
           p.ctx("samples", ["worker", "heavy"], thread=1), 0)


def t_perf_errors(c):
    cases = [("prog 12 5.0: 1 cpu-clock:\n", "line 1: sample without a call chain"),
             ("\t 1a work+0x4 (/x)\n", "line 1: call chain line before any sample header"),
             ("prog 5.0: 1\n\t 1a w (/x)\n", "line 1: sample header without an event name"),
             ("prog x 5.0: 1 cpu-clock:\n\t 1a w (/x)\n",
              "line 1: sample header without a thread id"),
             ("prog 1 5.0: 1 c:\n\tzz w (/x)\n", "line 2: call chain line without a hex"),
             ("# only a header comment\n", "line 1: no samples in the input")]
    for i, (text, want) in enumerate(cases):
        f = c.path("bad%d.txt" % i)
        with open(f, "w") as o:
            o.write(text)
        c.bad(f, f + ": " + want, "--from=perf-script")
    if shutil.which("perf"):
        f = c.path("trunc.perf.data")
        with open(FIXTURE, "rb") as i, open(f, "wb") as o:
            o.write(b"PERFILE2" + i.read(100))
        c.bad(f, "perf script failed", "--from=perf")


# ----------------------------------------------------------------------------- pprof

def pb_varint(v):
    out = bytearray()
    v &= (1 << 64) - 1
    while True:
        out.append((v & 0x7F) | (0x80 if v > 0x7F else 0))
        v >>= 7
        if not v:
            return bytes(out)


def pb_field(num, v):
    """Field NUM: an int (varint), bytes/str (length-delimited), or a list of ints
    (packed)."""
    if isinstance(v, int):
        return pb_varint(num << 3) + pb_varint(v)
    if isinstance(v, list):
        v = b"".join(pb_varint(x) for x in v)
    if isinstance(v, str):
        v = v.encode()
    return pb_varint(num << 3 | 2) + pb_varint(len(v)) + v


class Pprof:
    """A profile.proto writer for the tests (our own minimal encoder)."""

    def __init__(self):
        self.strings = [""]
        self.body = b""

    def s(self, text):
        if text not in self.strings:
            self.strings.append(text)
        return self.strings.index(text)

    def add(self, num, v):
        self.body += pb_field(num, v)

    def sample_type(self, t, u, num=1):
        self.add(num, pb_field(1, self.s(t)) + pb_field(2, self.s(u)))

    def function(self, fid, name, file="prog.c", line=1):
        self.add(5, pb_field(1, fid) + pb_field(2, self.s(name)) + pb_field(4, self.s(file)) +
                 pb_field(5, line))

    def location(self, lid, addr, *fids):
        """FIDS innermost first (inlined frames)."""
        self.add(4, pb_field(1, lid) + pb_field(3, addr) +
                 b"".join(pb_field(4, pb_field(1, f) + pb_field(2, 10)) for f in fids))

    def sample(self, locs, values, packed=True):
        if packed:
            self.add(2, pb_field(1, locs) + pb_field(2, values))
        else:
            self.add(2, b"".join(pb_field(1, x) for x in locs) +
                     b"".join(pb_field(2, x) for x in values))

    def data(self):
        return self.body + b"".join(pb_field(6, x) for x in self.strings)


def ctx_pprof(time_only=False):
    """ctxcost's shape: main -> light|heavy -> shared_step -> work, work inlined into
    shared_step at location 4; samples of 1000 ns."""
    p = Pprof()
    if time_only:
        p.sample_type("time", "nanoseconds")
    else:
        p.sample_type("samples", "count")
        p.sample_type("cpu", "nanoseconds")
    p.sample_type("calls", "count")
    p.sample_type("alloc_space", "bytes")
    p.sample_type("inuse_space", "bytes")
    p.add(11, pb_field(1, p.s("cpu")) + pb_field(2, p.s("nanoseconds")))
    p.add(12, 1000)
    for fid, name in enumerate(["main", "light", "heavy", "shared_step", "work"], 1):
        p.function(fid, name)
    p.location(1, 0x1010, 1)      # in main, calling light
    p.location(2, 0x1020, 1)      # in main, calling heavy
    p.location(3, 0x2010, 2)      # in light
    p.location(5, 0x3010, 3)      # in heavy
    p.location(4, 0x4010, 5, 4)   # work inlined into shared_step
    v = (lambda n, c, b: [n * 1000, c, b, 7]) if time_only else \
        (lambda n, c, b: [n, n * 1000, c, b, 7])
    p.sample([4, 3, 1], v(3, 3, 0))
    p.sample([4, 5, 2], v(20, 2, 64), packed=False)
    p.sample([4, 5, 2], v(7, 0, 0))
    p.sample([2], v(1, 0, 0))
    return p.data()


def t_pprof(c):
    for name, data in (("plain.pb", ctx_pprof()), ("z.pb.gz", gzip.compress(ctx_pprof())),
                       ("t.pb.gz", gzip.compress(ctx_pprof(True)))):
        f = c.path(name)
        with open(f, "wb") as o:
            o.write(data)
        p = c.imp(f, c.path(name + ".data"), "--from=pprof")
        expect(name + ": work under heavy", p.ctx("samples", ["heavy", "shared_step", "work"]),
               27)
        expect(name + ": work under light", p.ctx("samples", ["light", "shared_step", "work"]),
               3)
        expect(name + ": main self", p.ctx("samples", ["<thread>", "main"]), 1)
        expect(name + ": period", p.j["sample_period_ns"], 1000)
        expect(name + ": calls", p.ctx("calls", ["heavy", "shared_step", "work"]), 2)
        expect(name + ": bytes", p.ctx("alloc_bytes", ["heavy", "shared_step", "work"]), 64)
        expect(name + ": metrics", p.j["metrics"], 1 | 8 | 64)
        heavy = [q["id"] for q in p.j["ps"] if q["name"] == "heavy"]
        shared = [q["id"] for q in p.j["ps"] if q["name"] == "shared_step"]
        expect(name + ": call site of heavy", sorted(s["addr"] for s in p.j["css"]
                                                     if s["ps"] in heavy), ["0x3010"])
        expect(name + ": inlined work has no site", sorted(s["addr"] for s in p.j["css"]
                                                          if s["ps"] in shared), ["0x0"])
    expect("guessed", c.imp(c.path("z.pb.gz"), c.path("g.data")).j["origin"], "pprof")


def t_pprof_go(c):
    go = shutil.which("go")
    if not go:
        raise Skip("go not installed")
    env = dict(os.environ, HOME=c.work, GOCACHE=c.path("gocache"), GOPATH=c.path("gopath"),
               GOFLAGS="-mod=mod", GO111MODULE="off")
    prof = c.path("cpu.pprof")
    print("+ go run ctxcost.go", flush=True)
    r = subprocess.run([go, "run", os.path.join(HERE, "ctxcost.go"), prof], cwd=c.work,
                       env=env, capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise Fail("go run failed: %s" % r.stderr)
    p = c.imp(prof, c.path("go.data"))
    heavy = p.ctx("samples", ["main.heavy", "main.sharedStep", "main.work"])
    light = p.ctx("samples", ["main.light", "main.sharedStep", "main.work"])
    expect_ratio("Go work samples heavy/light", heavy, light, 2)
    expect("Go period", p.j["sample_period_ns"], 10000000)


def t_pprof_errors(c):
    good = ctx_pprof()
    p = Pprof()
    p.add(2, pb_field(1, [99]) + pb_field(2, [1]))
    nostr = Pprof()
    nostr.strings = ["x"]
    cases = [("trunc.pb", good[:-3], "at byte"),
             ("trunc.pb.gz", gzip.compress(good)[:-20], "gzip data truncated"),
             ("noloc.pb", p.data(), "Sample refers to a Location id that does not exist"),
             ("strs.pb", nostr.data(), "string table missing or its first entry is not empty"),
             ("wire.pb", b"\x0b\x00" + good, "unsupported wire type (groups are not used by profile.proto) at byte 0"),
             ("neg.pb", pb_field(2, pb_field(2, [-5])) + pb_field(6, ""),
              "negative sample value")]
    for name, data, want in cases:
        f = c.path(name)
        with open(f, "wb") as o:
            o.write(data)
        c.bad(f, f + ": ", "--from=pprof")
        c.bad(f, want, "--from=pprof")


# ------------------------------------------------------------------------ round trips

def contexts(p, field):
    """FIELD per context, the context a path of names without the artificial roots
    (exporters may or may not write <program> and <thread> frames)."""
    out = {}
    for d in p.csds:
        k = tuple(x for x in p.path[d["callee"]] if not x.startswith("<"))
        if k:
            out[k] = out.get(k, 0) + d[field]
    return {k: v for k, v in out.items() if v}


def same_shape(what, a, b):
    """A and B have the same contexts and values, or values in one constant ratio (an
    exporter that writes time in ns, an importer that reads it back as samples)."""
    if a == b:
        print("ok: %s: %d contexts equal" % (what, len(a)))
        return
    if set(a) != set(b):
        raise Fail("%s: contexts differ: only before %s, only after %s" %
                   (what, sorted(set(a) - set(b))[:5], sorted(set(b) - set(a))[:5]))
    k = next(iter(a))
    for c in a:
        if a[c] * b[k] != b[c] * a[k]:
            raise Fail("%s: %r: %d before, %d after (not in the ratio of %r)" %
                       (what, c, a[c], b[c], k))
    print("ok: %s: %d contexts in one ratio" % (what, len(a)))


def exporter(c):
    r = run([c.dp, "export", "--help"], c.work, ok=False)
    if r.returncode != 0:
        raise Skip("this deepprof has no export command")


def t_roundtrip_folded(c):
    """deepprof export --format=folded, then import: the same per-context samples."""
    exporter(c)
    src = c.imp(FIXTURE, c.path("src.data"), "--from=perf-script")
    run([c.dp, "export", "--format=folded", c.path("src.data"), "-o", c.path("rt.folded")],
        c.work)
    back = c.imp(c.path("rt.folded"), c.path("rt.data"), "--from=folded")
    same_shape("folded round trip, samples", contexts(src, "samples"),
               contexts(back, "samples"))


def t_roundtrip_pprof(c):
    """deepprof export --format=pprof, then import: the same per-context samples and
    calls."""
    exporter(c)
    d = uftrace_record(c, 1)
    src = c.imp(d, c.path("src.data"))
    run([c.dp, "export", "--format=pprof", c.path("src.data"), "-o", c.path("rt.pb.gz")],
        c.work)
    back = c.imp(c.path("rt.pb.gz"), c.path("rt.data"), "--from=pprof")
    same_shape("pprof round trip, samples", contexts(src, "samples"),
               contexts(back, "samples"))
    same_shape("pprof round trip, calls", contexts(src, "calls"), contexts(back, "calls"))


TESTS = {n[2:]: f for n, f in globals().items() if n.startswith("t_")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deepprof", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("test", choices=sorted(TESTS))
    args = ap.parse_args()
    try:
        TESTS[args.test](Ctx(args))
    except Skip as e:
        print("SKIP: %s" % e)
        return SKIP
    except Fail as e:
        print("FAIL: %s" % e)
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
