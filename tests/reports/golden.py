#!/usr/bin/env python3
"""golden.py - golden and exact-count tests of deepprof's reports.

For one program of progs/ (built with `deepprof cc` by gcc at -O0 and run with sampling
off, so every number is deterministic): render the program's queries with
`deepprof report` in text at widths 100 and 80 (no line may be longer) and in JSON,
normalise the paths, and compare with golden/PROG.NAME.txt|w80.txt|json; then check
exact counts in the JSON that follow from the
program's structure (independently of the golden files, so regenerating them cannot hide
a wrong number); then `deepprof check` the profile.

usage: golden.py --deepprof BIN --work DIR [--update] PROG
Exit status: 0 pass, 1 fail, 77 skip (gcc missing).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PROGS = os.path.join(HERE, "progs")
GOLDEN = os.path.join(HERE, "golden")
FIELDS = "&fields=psab"  # ports, callseqs, allocs, bytes: deterministic with DEEPPROF_HZ=0

# program -> (sources, [(name, query)])
PROGRAMS = {
    "mutual": (["mutual.c"], [
        ("tree", "page=flame&metric=calls&min=0"),
        ("proc_is_even", "page=proc&name=is_even" + FIELDS),
        ("clique_is_even", "page=CLIQUE_OF:is_even" + FIELDS),
        ("callers_leaf", "page=callers&proc=PS:leaf&group=proc" + FIELDS),
        ("proc_is_odd", "page=proc&name=is_odd" + FIELDS),
        ("top_total", "page=top&metric=callseqs&scope=total"),
        ("search", "page=search&q=is_"),
    ]),
    "context": (["context.c"], [
        ("tree", "page=flame&metric=bytes&min=0"),
        ("proc_compute", "page=proc&name=compute" + FIELDS),
        ("callers_compute", "page=callers&proc=PS:compute&group=site" + FIELDS),
        ("top_calls", "page=top&metric=calls&limit=1-10" + FIELDS),
        ("menu", "page=menu"),
        ("top_name", "page=top&metric=calls&limit=1-10&sort=name:desc"),
    ]),
    "indirect": (["indirect.c"], [
        ("proc_apply", "page=proc&name=apply" + FIELDS),
        ("clique_apply", "page=CLIQUE_OF:apply" + FIELDS),
        ("clique_apply_sum", "page=CLIQUE_OF:apply&sum=1" + FIELDS),
    ]),
    "threads": (["threads.c"], [
        ("tree_merged", "page=flame&metric=calls&min=0"),
        ("tree_threads", "page=flame&metric=calls&min=0&view=threads"),
        ("proc_worker", "page=proc&name=worker" + FIELDS),
        ("clique_worker", "page=CLIQUE_OF:worker" + FIELDS),
        ("threads", "page=threads&view=threads"),
    ]),
    "contour": (["contour_app.c", "contour_lib.c"], [
        ("callers_plain", "page=callers&proc=PS:tree_search&group=proc" + FIELDS),
        ("callers_contour", "page=callers&proc=PS:tree_search&group=proc&contour=1" + FIELDS),
        ("modules", "page=modules" + FIELDS),
    ]),
}


class Fail(Exception):
    pass


class Run:
    def __init__(self, args):
        self.deepprof = os.path.abspath(args.deepprof)
        # The program runs in a directory whose path always has the same length, so that
        # text columns holding paths (the executable's, in the objects table) come out the
        # same wherever the build tree is; it is named <work> in the outputs.
        self.work = tempfile.mkdtemp(prefix="deepprof-golden-", dir="/tmp")
        self.keep = os.path.abspath(args.work)  # failures' outputs are copied here
        self.update = args.update
        self.env = dict(os.environ, DEEPPROF_CC="gcc", DEEPPROF_HZ="0", COLUMNS="100")
        self.errors = []

    def sh(self, argv, ok=(0,)):
        r = subprocess.run(argv, cwd=self.work, env=self.env, capture_output=True, text=True,
                           check=False)
        if r.returncode not in ok:
            raise Fail("%s: exit %d\n%s%s" % (" ".join(argv), r.returncode, r.stdout,
                                                r.stderr))
        return r

    def report(self, query, fmt="text", width=100):
        return self.sh([self.deepprof, "report", "--format=" + fmt, "--width", str(width),
                        "prog.data", query]).stdout

    def json(self, query):
        return json.loads(self.report(query, "json"))

    def check(self, what, got, want):
        if got != want:
            self.errors.append("%s: got %r, want %r" % (what, got, want))


# Facts that change from run to run (thread ids, process ids, clocks): their values are
# replaced, in text (the rest of the label's line, or the line under it) and in JSON.
VOLATILE_TEXT = re.compile(r"^( *(?:thread \d+ (?:tid|start \(ns\)|end \(ns\))|process id|"
                           r"parent process id|start time[^\n]*?|end time[^\n]*?|"
                           r"duration[^\n]*?|run time)(?: +|\n +))[0-9.]+( s)?$",
                           re.M)
VOLATILE_JSON = re.compile(r'("key":"(?:thread_\d+_(?:tid|start_ns|end_ns)|pid|ppid|start_ns|'
                           r'end_ns|duration_ns|run_seconds)",[^}]*"value":)[0-9.e+-]+')


def normalise(text, run):
    text = text.replace(run.work, "<work>").replace(PROGS, "<progs>")
    text = VOLATILE_TEXT.sub(lambda m: m.group(1) + "<n>" + (m.group(2) or ""), text)
    return VOLATILE_JSON.sub(lambda m: m.group(1) + "0", text)


def resolve(run, query):
    """PS:name -> the procedure's id; page=CLIQUE_OF:name -> page=clique&id=<the clique
    of name's first PD in the merged view> (via the proc page's JSON)."""
    while "PS:" in query:
        head, rest = query.split("PS:", 1)
        name, tail = (rest.split("&", 1) + [""])[:2]
        ps = run.json("page=proc&name=" + name)["subject"]["id"]
        query = "%s%d%s" % (head, ps, "&" + tail if tail else "")
    if "page=CLIQUE_OF:" in query:
        head, rest = query.split("page=CLIQUE_OF:", 1)
        name, tail = (rest.split("&", 1) + [""])[:2]
        view = "&view=threads" if "view=threads" in tail else ""
        tree = run.json("page=flame&metric=calls&min=0" + view)
        ids = [r["clique"] for s in tree["sections"] for r in s["rows"] if r["name"] == name]
        if not ids:
            raise Fail("no clique of %s in the flame graph" % name)
        query = "%spage=clique&id=%d%s" % (head, ids[0], "&" + tail if tail else "")
    return query


def compare_golden(run, prog, name, query):
    """The text at widths 100 and 80 (no line longer) and the JSON, against the golden
    files."""
    for fmt, ext, width in (("text", "txt", 100), ("text", "w80.txt", 80), ("json", "json", 100)):
        got = normalise(run.report(query, fmt, width), run)
        if fmt == "text":
            for no, line in enumerate(run.report(query, fmt, width).splitlines(), 1):
                if len(line) > width:
                    run.errors.append("%s at width %d: line %d has %d columns: %r"
                                      % (query, width, no, len(line), line))
        path = os.path.join(GOLDEN, "%s.%s.%s" % (prog, name, ext))
        if run.update:
            with open(path, "w") as f:
                f.write(got)
            continue
        if not os.path.exists(path):
            run.errors.append("missing golden file %s (run with --update)" % path)
            continue
        with open(path) as f:
            want = f.read()
        if got != want:
            with open(os.path.join(run.keep, os.path.basename(path)), "w") as f:
                f.write(got)
            run.errors.append("%s differs from %s (got: %s)" % (
                query, path, os.path.join(run.keep, os.path.basename(path))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deepprof", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("prog", choices=sorted(PROGRAMS))
    args = ap.parse_args()
    if not shutil.which("gcc"):
        print("gcc not found: skipped")
        return 77
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    run = Run(args)
    sources, queries = PROGRAMS[args.prog]
    try:
        for s in sources:
            shutil.copy(os.path.join(PROGS, s), run.work)
        if args.prog == "contour":
            shutil.copy(os.path.join(PROGS, "contour.contour"),
                        os.path.join(run.work, "prog.contour"))
        # source paths relative to the work dir, so that the outputs do not depend on
        # where the build tree is (text output shortens long paths from the left)
        run.sh([run.deepprof, "cc", "-O0", "-pthread", "-fdebug-prefix-map=%s=." % run.work,
                "-o", "prog"] + sources)
        run.sh([run.deepprof, "run", "-o", "prog.data", "./prog"])
        for name, query in queries:
            compare_golden(run, args.prog, name, resolve(run, query))
        import golden_checks  # noqa: E402  (exact counts, per program)
        getattr(golden_checks, "check_" + args.prog)(run)
        r = run.sh([run.deepprof, "check", "prog.data"], ok=(0, 1))
        if r.returncode != 0:
            run.errors.append("deepprof check failed:\n" + r.stdout[-3000:] + r.stderr)
    except Fail as e:
        run.errors.append(str(e))
    finally:
        shutil.rmtree(run.work, ignore_errors=True)
    for e in run.errors:
        print("FAIL: " + e)
    print("%s: %s" % (args.prog, "FAIL" if run.errors else "ok"))
    return 1 if run.errors else 0


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    sys.exit(main())
