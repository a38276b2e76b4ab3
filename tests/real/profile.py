#!/usr/bin/env python3
"""profile.py - what the real-program tests read from a profile, as tab-separated lines.

usage: profile.py DEEPPROF FILE functions     NAME CALLS SELF_SAMPLES FILE:LINE, by calls
       profile.py DEEPPROF FILE callers NAME  CALLER CALLS, every caller of function NAME
       profile.py DEEPPROF FILE threads       one line: the number of threads with calls
       profile.py DEEPPROF FILE main-calls NAME  one line: calls of NAME in the main thread
       profile.py DEEPPROF FILE leaves        LEAF CALLER SAMPLES, every library leaf
                                              (time outside instrumented code), by samples
The profile is read through `deepprof dump --format=json` (tests/integration/dpprofile.py).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                                "integration"))
from dpprofile import CheckError, Profile  # noqa: E402


def main():
    if len(sys.argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    try:
        p = Profile.load(sys.argv[1], sys.argv[2])
    except CheckError as e:
        sys.stderr.write("profile.py: %s\n" % e)
        return 1
    what = sys.argv[3]
    if what == "functions":
        acc = {}
        for c in p.csd:
            ps = p.pd[c["callee"]]["ps"]
            if p.ps[ps]["kind"] != "function":
                continue
            a = acc.setdefault(ps, [0, 0])
            a[0] += c["calls"]
            a[1] += c["samples"]
        for ps, (calls, samples) in sorted(acc.items(), key=lambda kv: (-kv[1][0], kv[0])):
            f = p.ps[ps]
            print("%s\t%d\t%d\t%s:%d" % (p.ps_name(ps), calls, samples,
                                         os.path.basename(f.get("file") or "-"),
                                         f.get("line") or 0))
    elif what == "callers" and len(sys.argv) == 5:
        for (a, b), v in sorted(p.edges().items()):
            if b == sys.argv[4] and v["calls"]:
                print("%s\t%d" % (a, v["calls"]))
    elif what == "leaves":
        libs = {x["name"] for x in p.ps.values() if x["kind"] == "library"}
        rows = [(a, b, v["samples"]) for (a, b), v in p.edges().items() if b in libs]
        for a, b, n in sorted(rows, key=lambda r: (-r[2], r[1], r[0])):
            print("%s\t%s\t%d" % (b, a, n))
    elif what == "threads":
        print(len({p.pd[c["callee"]]["thread"] for c in p.csd if c["calls"]}))
    elif what == "main-calls" and len(sys.argv) == 5:
        main = {t["index"] for t in p.threads if t["flags"] & 2}  # DP_THREAD_MAIN
        print(sum(c["calls"] for c in p.csd if p.pd[c["callee"]]["thread"] in main
                  and p.pd_name(c["callee"]) == sys.argv[4]))
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
