#!/usr/bin/env python3
"""test_compare.py - the compare view: `deepprof report --base`, `deepprof tree --base`,
`deepprof diff --format=html` and `deepprof serve --base BASE NEW` on progs/loops.c (base) and its variant built with
-DGROW=4 (new: grows() runs 4 times the iterations, added() is called once), whose call
sequence counts are exact: every page kind answers with the base beside it, grows' row
has base N, new 4N, change +3N, +300%; the steady loops change by 0; added() has no
counterpart; identical profiles compare to zero everywhere; the differential flame graph
colours grows red (heat 1) and the rest grey; time compared as shares (grows' share
grew, the steady loops' shrank) or in seconds (--absolute).

usage: test_compare.py --deepprof BIN --work DIR TEST
Exit status: 0 pass, 1 fail, 77 skip (gcc missing).
"""
import json
import os
import re
import subprocess
import sys
import xml.dom.minidom

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dpprofile import run_named_test  # noqa: E402
from test_serve import Ctx as ServeCtx  # noqa: E402

N = 100000  # iterations of each loop in the base: callseqs are exact
STEADY = ("steady_a", "steady_b", "steady_c")
SVG_NS = "http://www.w3.org/2000/svg"


class Ctx(ServeCtx):
    def pair(self):
        """The base and new profiles (loops, loops -DGROW=4), built once."""
        if not hasattr(self, "files"):
            base = self.build_run("base", [])
            new = self.build_run("new", ["-DGROW=4"])
            self.files = (base, new)
        return self.files

    def build_run(self, name, defs):
        exe = os.path.join(self.work, name)
        self.must([self.deepprof, "cc", "-O0", "-I", os.path.join(HERE, "progs")] + defs +
                  [os.path.join(HERE, "progs", "loops.c"), "-o", exe])
        data = os.path.join(self.work, name + ".data")
        self.must([self.deepprof, "run", "-o", data, exe, str(N)])
        return data

    def report(self, *args, fmt="json"):
        r = self.must([self.deepprof, "report", "--format=" + fmt] + list(args))
        return json.loads(r.stdout) if fmt == "json" else r.stdout


HERE = os.path.dirname(os.path.abspath(__file__))


def rows(doc):
    """Every row of a JSON report: the subject, then the sections' rows."""
    out = [doc["subject"]] if doc.get("subject") else []
    for s in doc["sections"]:
        out.extend(s["rows"])
    return out


def by_name(doc):
    return {r["name"]: r for r in rows(doc)}


def flame_nodes(html):
    """{name: (data-heat, fill)} of the differential flame graph's nodes in @html."""
    svg = re.search(r"<svg class=\"flame-diff\".*?</svg>", html, re.S)
    if not svg:
        return None
    out = {}
    for g in xml.dom.minidom.parseString(svg.group(0)).getElementsByTagNameNS(SVG_NS, "g"):
        name = g.getElementsByTagNameNS(SVG_NS, "title")[0].firstChild.data.split("\n")[0]
        rect = g.getElementsByTagNameNS(SVG_NS, "rect")[0]
        out[name] = (float(g.getAttribute("data-heat")), rect.getAttribute("fill"))
    return out


def t_report(ctx, ck):
    """deepprof report/tree --base: exact callseqs per procedure and context, text and
    JSON; added() new; identical profiles all zero."""
    base, new = ctx.pair()
    doc = ctx.report("--base", base, new, "page=top&metric=callseqs&limit=1-20")
    c = doc["compare"]
    ck.eq("compare: base, found, metric, scope, unit",
          (c["base"], c["found"], c["metric"], c["scope"], c["unit"]),
          (base, True, "callseqs", "self", "count"))
    top = by_name(doc)
    ck.eq("grows: base and new callseqs", (top["grows"]["base"]["own"]["callseqs"],
                                            top["grows"]["own"]["callseqs"]), (N, 4 * N))
    for f in STEADY:
        ck.eq("%s: base callseqs = new" % f, top[f]["base"]["own"]["callseqs"],
              top[f]["own"]["callseqs"])
        ck.eq("%s: callseqs" % f, top[f]["own"]["callseqs"], N)
    text = ctx.report("--base", base, new, "page=top&metric=callseqs&limit=1-20", fmt="text")
    line = next((ln for ln in text.splitlines() if re.match(r"^p\d+\s", ln) and "+" in ln), "")
    ck.true("text: the first row (grows) says 100k -> 400k, +300k, +300.0%% (%r)" % line,
            line.split()[1:2] == ["grows"] and
            re.search(r"\b100k\s+400k\s+\+300k\s+\+300\.0%\s+loops\.c:\d+$", line))
    ck.true("text: the compare heading", "vs base: callseqs self" in text)
    # the calls of added(): one in the new profile, none in the base
    doc = ctx.report("--base", base, new, "page=top&metric=calls&limit=1-20")
    top = by_name(doc)
    ck.eq("added: not in the base", (top["added"]["base"], top["added"]["own"]["calls"]),
          (None, 1))
    ck.eq("tick: calls 4N + 3N against 4N", (top["tick"]["base"]["own"]["calls"],
                                              top["tick"]["own"]["calls"]), (4 * N, 7 * N))
    doc = ctx.report("--base", base, new, "page=proc&name=added")
    ck.eq("added's page: no counterpart", (doc["compare"]["found"], doc["subject"]["base"]),
          (False, None))
    text = ctx.report("--base", base, new, "page=proc&name=added", fmt="text")
    ck.true("added's page says so", "no counterpart" in text)
    # contexts: main -> grows in the clique page of main
    doc = ctx.report("--base", base, new, "page=proc&name=main&sort=cost:callseqs:total")
    ck.eq("main's page compares total callseqs", (doc["compare"]["metric"],
                                                   doc["compare"]["scope"]), ("callseqs", "total"))
    calls = {r["name"]: r for r in rows(doc) if r["kind"] == "css"}
    ck.eq("main's call site of grows: base and new total callseqs",
          (calls["grows"]["base"]["own"]["callseqs"] + calls["grows"]["base"]["desc"]["callseqs"],
           calls["grows"]["own"]["callseqs"] + calls["grows"]["desc"]["callseqs"]),
          (N, 4 * N))
    # identical profiles: every row found, the same costs, every change 0
    for q in ("page=top&metric=callseqs", "page=root", "page=flame&min=0",
              "page=proc&name=grows", "page=callers&name=tick", "page=modules"):
        doc = ctx.report("--base", new, new, q)
        rs = rows(doc)
        ck.true("%s: new against itself, every row found, same costs" % q,
                rs and all(r["base"] and r["base"]["own"] == r["own"] and
                           r["base"]["desc"] == r["desc"] for r in rs))
    text = ctx.report("--base", new, new, "page=top&metric=callseqs", fmt="text")
    changes = re.findall(r"\s(\S+)\s+(\S+)\s+loops\.c:\d+$",
                         "\n".join(ln for ln in text.splitlines() if re.match(r"^p\d+\s", ln)),
                         re.M)
    ck.true("text against itself: every Change 0 and Rel. 0%% (%r)" % changes,
            changes and all(c == ("0", "0%") for c in changes))
    tree = ctx.must([ctx.deepprof, "tree", "--base", base, "--metric", "callseqs", "--min",
                     "0", new]).stdout
    ck.true("tree: a Change column, grows +300k",
            "Change" in tree and re.search(r"\+300k\s+.*grows", tree))


def html_table(html, table_id):
    """The rows of table @table_id of a diff page: lists of cell texts, unescaped."""
    m = re.search(r'<table class="diff" id="%s">.*?<tbody>(.*?)</tbody>' % table_id, html, re.S)
    out = []
    for tr in re.findall(r"<tr>(.*?)</tr>", m.group(1) if m else "", re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        out.append([c.replace("&gt;", ">").replace("&lt;", "<").replace("&amp;", "&")
                    for c in cells])
    return out


def t_diff_html(ctx, ck):
    """deepprof diff --format=html: the procedures and contexts, grows first with its
    exact callseqs, added() only in the new profile, the change tinted."""
    base, new = ctx.pair()
    html = ctx.must([ctx.deepprof, "diff", "--format=html", "--metric=callseqs", base,
                     new]).stdout
    ck.true("a page with the heading", html.startswith("<!DOCTYPE html>") and
            "<h1>Differences in callseqs, by change in self cost</h1>" in html)
    procs = html_table(html, "procedures")
    ck.eq("procedures: grows first, base, new, change, relative",
          procs[0][:4] + [procs[0][4].split(" (")[0]] if procs else None,
          [str(N), str(4 * N), "+%d" % (3 * N), "+300.0%", "grows"])
    ck.true("grows' change tinted red", re.search(r'<td style="background:#ff[0-9a-f]{4}">\+%d<'
                                                  % (3 * N), html))
    ctxs = html_table(html, "contexts")
    ck.eq("contexts: main > grows first", ctxs[0][4] if ctxs else None, "main > grows")
    html = ctx.must([ctx.deepprof, "diff", "--format=html", "--metric=calls", base,
                     new]).stdout
    added = [r for r in html_table(html, "procedures") if r[4].startswith("added")]
    ck.eq("added: only in new, one call", [(r[0], r[1], r[5]) for r in added],
          [("0", "1", "new")])


def t_serve(ctx, ck):
    """deepprof serve --base: every page kind with the compare view in JSON, text and
    HTML; the differential flame graph; --absolute; the command line's errors."""
    base, new = ctx.pair()
    with ctx.serve([new], args=["--base", base]) as srv:
        ck.true("the start line names the base (%r)" % srv.files,
                srv.files == "%s compared with %s" % (new, base))
        st, _, body = srv.get("/?page=top&metric=callseqs&format=json")
        top = by_name(json.loads(body))
        ids = {"proc": top["grows"]["ps"], "main": top["main"]["ps"]}
        clique = top["grows"]["clique"]  # grows has one context: its clique
        st, _, body = srv.get("/?page=proc&id=%d&format=json" % ids["main"])
        site = next(r["css"] for r in rows(json.loads(body)) if r.get("css"))
        pages = ["page=menu", "page=root", "page=action", "page=modules", "page=module&id=1",
                 "page=threads", "page=top", "page=flame", "page=flame&view=threads",
                 "page=clique&id=%d" % clique, "page=proc&id=%d" % ids["proc"],
                 "page=callers&proc=%d" % ids["proc"], "page=site&id=%d" % site,
                 "page=flame_callers&proc=%d" % ids["proc"], "page=dump_ps&id=%d" % ids["proc"],
                 "page=dump_clique&id=%d" % clique, "page=top&view=threads"]
        for q in pages:
            st, hdr, body = srv.get("/?" + q + "&format=json")
            ck.eq("%s: status" % q, st, 200)
            doc = json.loads(body) if st == 200 else {"sections": []}
            ck.true("%s: compared, found (%r)" % (q, doc.get("compare")),
                    doc.get("compare", {}).get("found"))
            # rows missing from the base: added() and the executable (base, new)
            missing = sorted(set(r["name"] if r["kind"] != "object" else "(object)"
                                 for r in rows(doc) if r.get("base", 0) is None))
            ck.true("%s: rows not in the base: %r" % (q, missing),
                    set(missing) <= {"added", "(object)"})
            ck.true("%s: rows_found counts them" % q, doc.get("compare") and
                    doc["compare"]["rows_found"] == sum(1 for s in doc["sections"]
                                                        for r in s["rows"] if r["base"]))
            st, _, html = srv.get("/?" + q)
            ck.true("%s: HTML page with the compare note" % q,
                    st == 200 and 'Compared with ' in html)
        st, _, html = srv.get("/?page=top&metric=callseqs")
        ck.true("HTML table: the compare columns",
                re.search(r"vs base: callseqs self.*Base.*New.*Change.*Rel\.", html, re.S))
        # the differential flame graph: width from new, colour from the change of self
        st, _, html = srv.get("/?page=flame&metric=callseqs&min=0")
        nodes = flame_nodes(html) or {}
        ck.eq("flame: grows is the hottest, red", nodes.get("grows"), (1.0, "#ff2626"))
        for f in STEADY:
            ck.eq("flame: %s unchanged, grey" % f, nodes.get(f), (0.0, "#eeeeee"))
        st, _, html = srv.get("/?page=flame")  # time, as shares of each run
        nodes = flame_nodes(html) or {}
        ck.true("flame (time): grows' share grew (%r)" % (nodes.get("grows"),),
                nodes.get("grows", (0,))[0] > 0.5)
        ck.true("flame (time): the steady loops' shares shrank (%r)" % nodes,
                all(nodes.get(f, (0,))[0] < 0 for f in STEADY))
        st, _, text = srv.get("/?page=flame&metric=callseqs&format=text")
        ck.true("flame as text: the Change column", re.search(r"\+300k\s+.*grows", text))
        ck.eq("stop", srv.stop()[0], 0)
    with ctx.serve([new], args=["--base", base, "--absolute"]) as srv:
        st, _, body = srv.get("/?page=top&format=json")
        ck.eq("--absolute: time in ns", json.loads(body)["compare"]["unit"], "ns")
    for argv, msg in (([ctx.deepprof, "serve", "--base", "missing.data", new], "missing.data"),
                      ([ctx.deepprof, "serve", "--absolute", new], "--absolute needs --base"),
                      ([ctx.deepprof, "report", "--base", "missing.data", new], "missing.data")):
        r = subprocess.run(argv, cwd=ctx.work, capture_output=True, text=True, check=False,
                           timeout=60)
        ck.eq("%s: exit status" % " ".join(argv[1:3]), r.returncode, 2)
        ck.true("%s: says %r" % (" ".join(argv[1:3]), msg), msg in r.stderr)


def t_report_all(ctx, ck):
    t_report(ctx, ck)
    t_diff_html(ctx, ck)


TESTS = {"report": t_report_all, "serve": t_serve}

if __name__ == "__main__":
    sys.exit(run_named_test(TESTS, Ctx, "compare_"))
