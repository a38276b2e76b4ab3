#!/usr/bin/env python3
"""test_export.py - `deepprof export` checked by each format's real reader.

A program with known call counts (progs/ctx2.c: work()'s cost depends on the caller two
levels up) is built with `deepprof cc -O0`, run with `deepprof run`, exported, and the
export read back by the tool that format is for: callgrind_annotate, `go tool pprof`,
Graphviz `dot`, a folded-stacks parser written to flamegraph.pl's rules, speedscope in
headless Chromium (test_export_browser.py). Values are compared with exact counts
(calls, allocations, bytes) and with deepprof's own per-procedure sums from
`deepprof dump --format=json`.

usage: test_export.py --deepprof BIN --work DIR TEST
Exit status: 0 pass, 1 fail, 77 skip (a reader is not installed).
"""
import gzip
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from dpprofile import BaseCtx, CheckError, Profile, Skip, run_named_test  # noqa: E402

PROGS = os.path.join(HERE, "progs")
ITEST_PROGS = os.path.join(HERE, "..", "integration", "progs")

# ctx2.c's exact counts per context (root first), calls metric, and bytes
CTX_CALLS = {
    ("main",): 1, ("main", "top_a"): 1, ("main", "top_b"): 1, ("main", "fact"): 5,
    ("main", "top_a", "mid"): 3, ("main", "top_b", "mid"): 5,
    ("main", "top_a", "mid", "work"): 6, ("main", "top_b", "mid", "work"): 10,
    ("main", "top_a", "mid", "work", "leaf"): 18, ("main", "top_b", "mid", "work", "leaf"): 500,
}
CTX_BYTES = {("main", "top_a", "mid", "work"): 18, ("main", "top_b", "mid", "work"): 500}
PROC_CALLS = {"main": 1, "top_a": 1, "top_b": 1, "mid": 8, "work": 16, "leaf": 518, "fact": 5}


class Ctx(BaseCtx):
    def sh(self, argv, **kw):
        print("+ " + " ".join(argv), flush=True)
        return subprocess.run(argv, cwd=self.work, env=self.env, capture_output=True,
                              check=False, **kw)

    def must(self, argv):
        r = self.sh(argv)
        if r.returncode != 0:
            raise CheckError("%s failed (%d):\n%s%s" % (" ".join(argv), r.returncode,
                                                         r.stdout.decode(errors="replace"),
                                                         r.stderr.decode(errors="replace")))
        return r

    def profile(self, prog="ctx2", src=None, args=()):
        """Build PROG with deepprof cc -O0 and run it; the data file's path."""
        src = src or os.path.join(PROGS, prog + ".c")
        self.must([self.deepprof, "cc", "-O0", "-I", ITEST_PROGS, "-o", prog, src,
                   "-lpthread"])
        data = os.path.join(self.work, prog + ".data")
        self.must([self.deepprof, "run", "-o", data, "--", "./" + prog] + list(args))
        self.prof = Profile.load(self.deepprof, data)
        return data

    def export(self, data, fmt, *opts, query=None, out=None):
        """deepprof export --format=FMT OPTS DATA [QUERY] -o OUT; the output's path."""
        out = os.path.join(self.work, out or "out." + fmt)
        argv = [self.deepprof, "export", "--format=" + fmt] + list(opts) + [data]
        if query is not None:
            argv.append(query)
        self.must(argv + ["-o", out])
        return out


def need(tool):
    if not shutil.which(tool):
        raise Skip(tool)


def function_csds(prof):
    """The CSDs calling functions (not the artificial program and thread roots, which
    the merged view's exports leave out)."""
    return [c for c in prof.csd if prof.ps[prof.pd[c["callee"]]["ps"]]["kind"] == "function"]


def proc_own(prof, counter="calls"):
    """deepprof's own cost per procedure: the CSDs calling its PDs, summed."""
    out = {}
    for c in function_csds(prof):
        name = prof.pd_name(c["callee"])
        out[name] = out.get(name, 0) + c[counter]
    return out


def read_folded(path):
    """flamegraph.pl's reading: 'frames VALUE' per line, identical stacks summed."""
    stacks = {}
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            m = re.match(r"^(.*)\s+?(\d+(?:\.\d*)?)$", line.rstrip("\n"))
            if not m:
                raise CheckError("%s:%d: not a folded line: %r" % (path, n, line))
            key = tuple(m.group(1).split(";"))
            stacks[key] = stacks.get(key, 0) + int(m.group(2))
    return stacks


def check_contexts(ck, what, got, want):
    for stack, v in want.items():
        ck.eq("%s %s" % (what, ";".join(stack)), got.get(stack, 0), v)


def t_folded(ctx, ck):
    data = ctx.profile()
    calls = read_folded(ctx.export(data, "folded", "--metric=calls"))
    check_contexts(ck, "folded calls", calls, CTX_CALLS)
    ck.eq("folded: no other stacks", sorted(calls), sorted(CTX_CALLS))
    per_fn = {}
    for stack, v in calls.items():
        per_fn[stack[-1]] = per_fn.get(stack[-1], 0) + v
    ck.eq("folded per function = deepprof's own calls", per_fn,
          {k: v for k, v in proc_own(ctx.prof).items() if v and k in PROC_CALLS})
    ck.eq("folded per function (exact)", per_fn, PROC_CALLS)
    r = ctx.must([ctx.deepprof, "export", "--format=folded", "--metric=calls", data, "-o", "-"])
    with open(os.path.join(ctx.work, "out.folded"), "rb") as f:
        ck.eq("-o - writes the same to standard output", r.stdout, f.read())
    by = read_folded(ctx.export(data, "folded", "--metric=bytes", out="bytes.folded"))
    check_contexts(ck, "folded bytes", by, CTX_BYTES)
    # the query restricts to a procedure's subtree, stacks starting at it
    sub = read_folded(ctx.export(data, "folded", "--metric=calls", query="page=proc&name=mid",
                                 out="mid.folded"))
    ck.eq("folded page=proc&name=mid", sub,
          {("mid",): 8, ("mid", "work"): 16, ("mid", "work", "leaf"): 518})


def callgrind_annotate(path, *opts):
    """callgrind_annotate's summary: (events, totals, {function: [costs]})."""
    need("callgrind_annotate")
    r = subprocess.run(["callgrind_annotate", "--threshold=100"] + list(opts) + [path],
                       capture_output=True, text=True, check=False)
    if r.returncode != 0:
        raise CheckError("callgrind_annotate failed: %s" % r.stderr)
    if "WARNING" in r.stderr or "malformed" in r.stderr:
        raise CheckError("callgrind_annotate warns: %s" % r.stderr)
    events = re.search(r"^Events shown:\s+(.*)$", r.stdout, re.M).group(1).split()
    totals, fns = None, {}
    callgrind_annotate.by_file = {}
    for line in r.stdout.splitlines():
        nums = re.findall(r"(?:^|\s)([\d,]+|\.)(?: \([\d. ]+%\))?(?=\s)", line + " ")
        if "PROGRAM TOTALS" in line:
            totals = [int(x.replace(",", "")) for x in nums[:len(events)]]
        m = re.search(r"\s(\S+):(\S+)\s*$", line)
        if m and len(nums) >= len(events) and "PROGRAM TOTALS" not in line:
            fns[m.group(2)] = [0 if x == "." else int(x.replace(",", ""))
                               for x in nums[:len(events)]]
            callgrind_annotate.by_file[(m.group(1), m.group(2))] = fns[m.group(2)]
    return events, totals, fns


def t_callgrind(ctx, ck):
    data = ctx.profile()
    out = ctx.export(data, "callgrind")
    events, totals, fns = callgrind_annotate(out)
    ck.eq("callgrind events", events, ["Time", "Calls", "Callseqs", "Allocs", "Bytes"])
    own = {k: v for k, v in proc_own(ctx.prof).items() if k in PROC_CALLS}
    ck.eq("callgrind_annotate self Calls per function = deepprof's",
          {k: v[1] for k, v in fns.items()}, own)
    ck.eq("callgrind_annotate self Calls (exact)", {k: v[1] for k, v in fns.items()}, PROC_CALLS)
    bytes_own = {k: v for k, v in proc_own(ctx.prof, "alloc_bytes").items() if k in PROC_CALLS}
    ck.eq("callgrind_annotate self Bytes = deepprof's", {k: v[4] for k, v in fns.items()},
          bytes_own)
    fc = function_csds(ctx.prof)
    ck.eq("callgrind_annotate totals (but Time) = deepprof's", totals[1:],
          [sum(PROC_CALLS.values()), sum(c["callseqs"] for c in fc),
           sum(c["allocs"] for c in fc), sum(c["alloc_bytes"] for c in fc)])
    # inclusive: main's subtree holds everything
    _, _, incl = callgrind_annotate(out, "--inclusive=yes")
    ck.eq("callgrind inclusive Calls of main", incl.get("main", [0, 0])[1], sum(PROC_CALLS.values()))
    ck.eq("callgrind inclusive Bytes of top_b", incl.get("top_b", [0] * 5)[4], 500)
    # --context=2 keeps work()'s cost apart by the caller two levels up
    out2 = ctx.export(data, "callgrind", "--context=2", out="ctx.callgrind")
    _, totals2, fns2 = callgrind_annotate(out2)
    ck.eq("context=2 totals = plain totals", totals2, totals)
    ck.eq("context=2 work'mid'top_a Calls, Bytes", fns2.get("work'mid'top_a", [0] * 5)[1::3],
          [6, 18])
    ck.eq("context=2 work'mid'top_b Calls, Bytes", fns2.get("work'mid'top_b", [0] * 5)[1::3],
          [10, 500])
    ck.eq("context=2 leaf'work'mid Calls", fns2.get("leaf'work'mid", [0] * 5)[1], 518)
    ck.eq("no context: work Calls, Bytes", fns.get("work", [0] * 5)[1::3], [16, 518])


def go_pprof(path, *opts):
    need("go")
    env = dict(os.environ, HOME=os.path.dirname(path), GOCACHE=os.path.dirname(path) + "/gocache")
    r = subprocess.run(["go", "tool", "pprof"] + list(opts) + [path], capture_output=True,
                       text=True, check=False, env=env)
    if r.returncode != 0:
        raise CheckError("go tool pprof %s failed: %s" % (" ".join(opts), r.stderr))
    return r.stdout


def unit_opt(index):
    """Bytes shown as plain bytes (not scaled to kB)."""
    return ["-unit=byte"] if index == "bytes" else []


def pprof_top(path, index):
    """{function: flat} from go tool pprof -top."""
    out = go_pprof(path, "-sample_index=" + index, *unit_opt(index), "-top",
                   "-nodecount=1000")
    flat = {}
    for line in out.splitlines():
        m = re.match(r"^\s*(\d+)B?\s+[\d.]+%\s+[\d.]+%\s+(\d+)B?\s+[\d.]+%\s+(\S+)$", line)
        if m:
            if int(m.group(1)):
                flat[m.group(3)] = int(m.group(1))
    return flat


def pprof_traces(path, index):
    """{stack root first: value} from go tool pprof -traces (identical stacks summed)."""
    out = go_pprof(path, "-sample_index=" + index, *unit_opt(index), "-traces")
    stacks, cur, val = {}, [], None
    for line in out.splitlines():
        if line.startswith("-----------+"):
            if val is not None:
                key = tuple(reversed(cur))
                stacks[key] = stacks.get(key, 0) + val
            cur, val = [], None
            continue
        m = re.match(r"^\s*(\d+)B?\s+(\S+)$", line)
        if m and val is None:
            val, cur = int(m.group(1)), [m.group(2)]
        elif val is not None and line.strip():
            cur.append(line.split()[-1])
    if val is not None:
        key = tuple(reversed(cur))
        stacks[key] = stacks.get(key, 0) + val
    return stacks


def t_pprof(ctx, ck):
    data = ctx.profile()
    out = ctx.export(data, "pprof", out="ctx2.pb.gz")
    with open(out, "rb") as f:
        ck.eq("pprof file is gzip", f.read(2), b"\x1f\x8b")
    gzip.open(out).read()  # the whole stream decompresses
    ck.eq("pprof -top calls per function = deepprof's", pprof_top(out, "calls"),
          {k: v for k, v in proc_own(ctx.prof).items() if k in PROC_CALLS})
    ck.eq("pprof -top bytes", {k: v for k, v in pprof_top(out, "bytes").items()},
          {"work": 518})
    tr = pprof_traces(out, "calls")
    check_contexts(ck, "pprof -traces calls", tr, CTX_CALLS)
    ck.eq("pprof -traces: no other stacks", sorted(tr), sorted(CTX_CALLS))
    check_contexts(ck, "pprof -traces bytes", pprof_traces(out, "bytes"), CTX_BYTES)
    # lines: a caller frame is at its call site's line (-lines shows file:line)
    lines = go_pprof(out, "-sample_index=calls", "-traces", "-lines")
    ck.true("pprof -lines shows ctx2.c call-site lines", re.search(r"top_b .*ctx2\.c:\d+", lines))
    sub = pprof_traces(ctx.export(data, "pprof", query="page=proc&name=work", out="w.pb.gz"),
                       "calls")
    ck.eq("pprof page=proc&name=work", sub, {("work",): 16, ("work", "leaf"): 518})


def t_threads(ctx, ck):
    """view=threads: per-thread stacks (folded: a thread frame first; pprof: a label)."""
    data = ctx.profile("threads", src=os.path.join(ITEST_PROGS, "threads.c"), args=["10"])
    merged = read_folded(ctx.export(data, "folded", "--metric=calls"))
    ck.eq("merged view: workers merged", merged.get(("worker", "work", "leaf"), 0),
          10 * sum(range(1, 9)))
    per = read_folded(ctx.export(data, "folded", "--metric=calls", query="view=threads",
                                 out="threads.folded"))
    leafs = {s[0]: v for s, v in per.items() if s[1:] == ("worker", "work", "leaf")}
    ck.eq("per-thread leaf calls", sorted(leafs.values()), [10 * i for i in range(1, 9)])
    for th in ctx.prof.threads:
        if th["name"].startswith("worker-"):
            i = int(th["name"][7:])
            name = "thread %d (%s)" % (th["tid"], th["name"])
            ck.eq("folded %s leaf" % name, leafs.get(name), 10 * (i + 1))
    # Callgrind: the per-thread view has the same functions' self costs, thread roots
    # as functions of their own
    _, _, merged_cg = callgrind_annotate(ctx.export(data, "callgrind"))
    _, _, thr_cg = callgrind_annotate(ctx.export(data, "callgrind", query="view=threads",
                                                 out="threads.callgrind"))
    ck.eq("callgrind leaf Calls, merged and per thread", (merged_cg.get("leaf", [0, 0])[1],
                                                          thr_cg.get("leaf", [0, 0])[1]),
          (360, 360))
    with open(os.path.join(ctx.work, "threads.callgrind"), encoding="utf-8") as f:
        text = f.read()
    ck.eq("callgrind per-thread: a function per worker thread",
          len(re.findall(r"^c?fn=\(\d+\) thread \d+ \(worker-\d\)$", text, re.M)), 8)
    out = ctx.export(data, "pprof", query="view=threads", out="threads.pb.gz")
    text = go_pprof(out, "-sample_index=calls", "-tags")
    ck.true("pprof thread label present", "thread:" in text and "worker-7" in text)
    one = go_pprof(out, "-sample_index=calls", "-tagfocus=thread=worker-3", "-top")
    ck.true("pprof -tagfocus=thread=worker-3: leaf has 40 calls",
            re.search(r"^\s*40\s.*\sleaf$", one, re.M))


def t_json(ctx, ck):
    data = ctx.profile()
    out = ctx.export(data, "json")
    dump = ctx.must([ctx.deepprof, "dump", "--format=json", data]).stdout
    with open(out, "rb") as f:
        ck.eq("json export = deepprof dump --format=json", f.read(), dump)


def t_errors(ctx, ck):
    data = ctx.profile()
    cases = [
        (["--format=xml", data], "unknown format 'xml'"),
        (["--format=folded", "--metric=speed", data], "--metric takes"),
        (["--format=callgrind", "--context=9", data], "--context takes"),
        (["--format=folded", "--context=2", data], "--context applies to the callgrind"),
        (["--format=pprof", "--metric=calls", data], "--metric applies to"),
        (["--format=folded", data, "page=top"], "export takes page=clique"),
        (["--format=folded", data, "page=clique&id=999999"], "no clique 999999"),
        (["--format=folded", data, "page=proc&name=nosuch"], "no procedure named 'nosuch'"),
        (["--format=folded", data, "page=proc"], "page=proc needs id=N or name=F"),
        (["--format=folded", data, "bogus=1"], "bogus"),
        (["--format=json", data, "page=proc&name=work"], "takes no query"),
        (["--format=folded", os.path.join(ctx.work, "missing.data")], "missing.data"),
        (["--format=folded", data], "missing -o OUT"),
    ]
    with open(os.path.join(ctx.work, "bad.data"), "wb") as f:
        f.write(open(data, "rb").read()[:100])
    cases.append((["--format=folded", os.path.join(ctx.work, "bad.data")], "bad.data"))
    for argv, msg in cases:
        out = os.path.join(ctx.work, "err.out")
        full = [ctx.deepprof, "export"] + argv + ([] if msg.startswith("missing -o") else
                                                  ["-o", out])
        r = ctx.sh(full)
        err = r.stderr.decode(errors="replace")
        ck.eq("exit status of %s" % " ".join(argv), r.returncode, 2)
        ck.true("message of %s has %r (got %r)" % (" ".join(argv), msg, err), msg in err)
        ck.true("nothing written for %s" % " ".join(argv),
                not os.path.exists(out) and not os.path.exists(out + ".tmp"))
    r = ctx.sh([ctx.deepprof, "export", "--format=folded", data, "-o", "/nonexistent/dir/x"])
    ck.eq("unwritable output: exit 1", r.returncode, 1)


def dot_svg(ctx, path):
    """Render @path with dot -Tsvg; {node title: label text} of the SVG, and its edges."""
    need("dot")
    svg = path + ".svg"
    ctx.must(["dot", "-Tsvg", path, "-o", svg])
    import xml.etree.ElementTree as ET
    ns = {"s": "http://www.w3.org/2000/svg"}
    nodes, edges, clusters = {}, {}, {}
    for g in ET.parse(svg).getroot().iter("{http://www.w3.org/2000/svg}g"):
        title = g.find("s:title", ns)
        texts = [t.text for t in g.findall(".//s:text", ns)]
        if g.get("class") == "node":
            nodes[texts[0]] = texts[1:]
        elif g.get("class") == "edge":
            edges[title.text.replace("&#45;&gt;", "->")] = texts
        elif g.get("class") == "cluster":
            clusters[title.text] = texts
    return nodes, edges, clusters


def t_dot(ctx, ck):
    data = ctx.profile()
    nodes, edges, _ = dot_svg(ctx, ctx.export(data, "dot", "--metric=calls", "--min=0"))
    ck.eq("dot nodes", sorted(nodes), sorted(PROC_CALLS))
    ck.eq("dot leaf label", nodes.get("leaf", [])[1:], ["self 518 (94.18%)", "total 518 (94.18%)"])
    ck.eq("dot top_b total (context kept)", nodes.get("top_b", [""] * 3)[2], "total 516 (93.82%)")
    ck.eq("dot edges", len(edges), 8)
    ck.true("dot edge mid -> work: 16 calls (%r)" % list(edges.values()),
            any(e[:1] == ["16 calls"] for e in edges.values()))
    # --min leaves out what is under the threshold: fact (0.91%) and top_a (5.09%) at 6%
    nodes6, _, _ = dot_svg(ctx, ctx.export(data, "dot", "--metric=calls", "--min=6",
                                           out="min.dot"))
    ck.eq("dot --min=6 nodes", sorted(nodes6), ["leaf", "main", "mid", "top_b", "work"])
    # a recursive clique is drawn as a cluster around its procedures
    mdata = ctx.profile("mutual", src=os.path.join(HERE, "..", "reports", "progs", "mutual.c"))
    mn, me, mc = dot_svg(ctx, ctx.export(mdata, "dot", "--metric=calls", out="mutual.dot"))
    ck.eq("mutual: one cluster", len(mc), 1)
    ck.eq("mutual: is_even + is_odd self calls", [mn.get("is_even", ["", ""])[1],
                                                  mn.get("is_odd", ["", ""])[1]],
          ["self 33 (25.98%)", "self 30 (23.62%)"])
    ck.true("mutual: the recursive arc is drawn", len(me) == 5)


def t_generated(ctx, ck):
    """Time (samples x period) on a generated profile of 100,000 contexts and 4 threads:
    every format's total and per-function self time equal deepprof's."""
    gen = os.environ.get("DP_GENPROF")
    if not gen or not os.path.exists(gen):
        raise Skip("deepprof-genprof (DP_GENPROF)")
    data = os.path.join(ctx.work, "gen.data")
    ctx.must([gen, "100000", data])
    prof = Profile.load(ctx.deepprof, data)
    period = prof.doc["sample_period_ns"]
    self_ns = {}
    for c in function_csds(prof):
        ps = prof.ps[prof.pd[c["callee"]]["ps"]]
        key = (ps["file"], ps["name"])
        self_ns[key] = self_ns.get(key, 0) + c["samples"] * period
    total = sum(self_ns.values())
    ck.true("the generated profile has samples", total > 0)
    folded = read_folded(ctx.export(data, "folded"))
    ck.eq("folded (time) total", sum(folded.values()), total)
    _, totals, _ = callgrind_annotate(ctx.export(data, "callgrind"))
    ck.eq("callgrind_annotate Time total", totals[0], total)
    got = {k: v[0] for k, v in callgrind_annotate.by_file.items() if v[0]}
    ck.eq("callgrind_annotate self Time per function", got,
          {k: v for k, v in self_ns.items() if v})
    raw = go_pprof(ctx.export(data, "pprof", out="gen.pb.gz"), "-raw")
    sums = [0] * 5
    for line in raw.splitlines():
        m = re.match(r"^\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+): [\d ]+$", line)
        if m:
            sums = [a + int(b) for a, b in zip(sums, m.groups())]
    fc = function_csds(prof)
    ck.eq("pprof -raw totals (calls, time, callseqs, allocs, bytes)", sums,
          [sum(c["calls"] for c in fc), total, sum(c["callseqs"] for c in fc),
           sum(c["allocs"] for c in fc), sum(c["alloc_bytes"] for c in fc)])
    # dot: at most 300 procedures (the threshold raised, the graph saying so), rendered
    dnodes, _, _ = dot_svg(ctx, ctx.export(data, "dot", out="gen.dot"))
    ck.true("dot of the generated profile: 100 to 320 nodes (%d)" % len(dnodes),
            100 <= len(dnodes) <= 320)
    with open(os.path.join(ctx.work, "gen.dot"), encoding="utf-8") as f:
        ck.true("dot says what it left out", "procedures of largest total" in f.read())
    with open(ctx.export(data, "speedscope", out="gen.speedscope.json"),
              encoding="utf-8") as f:
        doc = json.load(f)
    prof_time = [p for p in doc["profiles"] if p["name"] == "time"]
    ck.eq("speedscope: one time profile", len(prof_time), 1)
    if prof_time:
        ck.eq("speedscope time weights", sum(prof_time[0]["weights"]), total)
        ck.eq("speedscope endValue", prof_time[0]["endValue"], total)
        ck.eq("speedscope samples = weights", len(prof_time[0]["samples"]),
              len(prof_time[0]["weights"]))


TESTS = {"folded": t_folded, "generated": t_generated, "dot": t_dot, "callgrind": t_callgrind, "pprof": t_pprof, "threads": t_threads,
         "json": t_json, "errors": t_errors}

if __name__ == "__main__":
    sys.exit(run_named_test(TESTS, Ctx, "export_"))
