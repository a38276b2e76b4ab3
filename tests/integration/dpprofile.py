"""dpprofile.py - the integration tests' view of a `deepprof dump --format=json` profile.

Loads the JSON (schema: docs/FORMAT.md, "deepprof dump --format=json") and sums the CSD
counters per (caller function, callee function), optionally restricted to one thread, so
that checks can state exact expected counts by function name.
"""
import argparse
import json
import os
import shutil
import subprocess

COUNTERS = ("calls", "exits", "unwinds", "samples", "callseqs", "allocs", "alloc_bytes")


class CheckError(Exception):
    """A failed expectation; the message says what was expected and what was found."""


class Skip(Exception):
    """Something the test needs is not installed (the message names it): exit 77."""


class Profile:
    def __init__(self, doc, path):
        self.doc = doc
        self.path = path
        self.ps = {p["id"]: p for p in doc["ps"]}
        self.css = {c["id"]: c for c in doc["css"]}
        self.pd = {d["id"]: d for d in doc["pd"]}
        self.csd = doc["csd"]
        self.threads = doc.get("threads", [])
        self.objects = {o["index"]: o for o in doc.get("objects", [])}

    @classmethod
    def load(cls, deepprof, path):
        """Run `deepprof dump --format=json PATH` and parse it."""
        r = subprocess.run([deepprof, "dump", "--format=json", path],
                           capture_output=True, text=True, check=False)
        if r.returncode != 0:
            raise CheckError("deepprof dump %s failed (%d): %s"
                             % (path, r.returncode, r.stderr.strip()))
        try:
            doc = json.loads(r.stdout)
        except json.JSONDecodeError as e:
            raise CheckError("deepprof dump produced invalid JSON: %s" % e) from e
        return cls(doc, path)

    def ps_name(self, ps_id):
        """The function's name; "<program>" / "<thread>" for the artificial kinds."""
        if ps_id == 0 or ps_id not in self.ps:
            return "<none>"
        p = self.ps[ps_id]
        if p["kind"] == "root":
            return "<program>"
        if p["kind"] == "thread":
            return "<thread>"
        return p["name"] or p["addr"]

    def pd_name(self, pd_id):
        if pd_id == 0 or pd_id not in self.pd:
            return "<none>"
        return self.ps_name(self.pd[pd_id]["ps"])

    def pds_of(self, name, thread=None):
        """The PD ids of function NAME (in thread index THREAD if given)."""
        return [d["id"] for d in self.pd.values()
                if self.ps_name(d["ps"]) == name and (thread is None or d["thread"] == thread)]

    def edges(self, thread=None):
        """{(caller name, callee name): {counter: sum}} over the CSDs (of THREAD)."""
        out = {}
        for c in self.csd:
            if thread is not None and self.pd[c["callee"]]["thread"] != thread:
                continue
            key = (self.pd_name(c["caller"]), self.pd_name(c["callee"]))
            acc = out.setdefault(key, dict.fromkeys(COUNTERS, 0))
            for k in COUNTERS:
                acc[k] += c[k]
        return out

    def edge(self, caller, callee, thread=None):
        """Summed counters of the calls from CALLER to CALLEE (all zero if none)."""
        return self.edges(thread).get((caller, callee), dict.fromkeys(COUNTERS, 0))

    def into(self, callee, thread=None):
        """Summed counters of every call to CALLEE, whoever the caller."""
        acc = dict.fromkeys(COUNTERS, 0)
        for (_, e), v in self.edges(thread).items():
            if e == callee:
                for k in COUNTERS:
                    acc[k] += v[k]
        return acc

    def csds_to(self, caller, callee):
        return [c for c in self.csd
                if self.pd_name(c["caller"]) == caller and self.pd_name(c["callee"]) == callee]

    def thread_named(self, name):
        for t in self.threads:
            if t["name"] == name:
                return t["index"]
        raise CheckError("no thread named %r (threads: %r)"
                         % (name, [t["name"] for t in self.threads]))

    def function(self, name):
        """The PS record of function NAME (exactly one must exist)."""
        found = [p for p in self.ps.values() if p["kind"] == "function" and p["name"] == name]
        if len(found) != 1:
            raise CheckError("expected one function %r, found %d" % (name, len(found)))
        return found[0]


class BaseCtx:
    """What every integration script's context holds: the deepprof binary and the work
    directory from the command line, and an environment without DEEPPROF_OUTPUT (so the
    programs write where the tests expect)."""

    def __init__(self, args):
        self.deepprof = os.path.abspath(args.deepprof)
        self.work = os.path.abspath(args.work)
        self.env = dict(os.environ)
        self.env.pop("DEEPPROF_OUTPUT", None)


class Checker:
    """Collects failed expectations so one run reports all of them."""

    def __init__(self, label):
        self.label = label
        self.failures = []
        self.passed = 0

    def finish(self):
        """Print every failure and the summary line; return the exit status (0 or 1)."""
        for f in self.failures:
            print("FAIL: " + f)
        print("%s: %d checks passed, %d failed" % (self.label, self.passed, len(self.failures)))
        return 1 if self.failures else 0

    def eq(self, what, got, want):
        if got == want:
            self.passed += 1
        else:
            self.failures.append("%s: got %r, want %r" % (what, got, want))

    def true(self, what, cond):
        if cond:
            self.passed += 1
        else:
            self.failures.append("%s: not true" % what)

    def edge(self, prof, caller, callee, thread=None, **want):
        got = prof.edge(caller, callee, thread)
        for k, v in want.items():
            self.eq("%s -> %s %s%s" % (caller, callee, k,
                                       "" if thread is None else " (thread %d)" % thread),
                    got[k], v)

    def balanced(self, prof, allow_active=()):
        """calls == exits + unwinds for every CSD whose callee is not still running."""
        for c in prof.csd:
            name = prof.pd_name(c["callee"])
            if name in allow_active or name == "<thread>":
                continue
            self.eq("CSD %d (%s -> %s) calls == exits + unwinds"
                    % (c["id"], prof.pd_name(c["caller"]), name),
                    c["calls"], c["exits"] + c["unwinds"])


def run_named_test(tests, make_ctx, label=""):
    """The main() of a script of named tests: --deepprof BIN --work DIR TEST, where TEST
    is a key of @tests (functions taking (ctx, checker)); the work dir is made afresh and
    @make_ctx(args) builds the context. Returns the exit status: 0 pass, 1 fail,
    77 skip."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--deepprof", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("test", choices=sorted(tests))
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    ctx = make_ctx(args)
    ck = Checker(label + args.test)
    try:
        tests[args.test](ctx, ck)
    except Skip as e:
        print("SKIP: %s not installed" % e)
        return 77
    except CheckError as e:
        ck.failures.append(str(e))
    except (OSError, subprocess.SubprocessError) as e:
        ck.failures.append("%s: %s" % (type(e).__name__, e))
    return ck.finish()
