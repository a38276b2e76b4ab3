"""golden_checks.py - exact counts that follow from each program's structure (see the
comment at the top of each program in progs/), checked in `deepprof report`'s JSON.
These do not depend on the golden files: regenerating those cannot hide a wrong number."""
import json
import os


def total(row, metric):
    """own + inherited for bytes/callseqs/allocs; calls are own only."""
    if metric == "calls":
        return row["own"]["calls"]
    return row["own"][metric] + row["desc"][metric]


def paths(report):
    """(path of names from the top, row) for each row of a flame report's tree, in order
    (its other sections, the members of cliques and the path above a zoom, are no
    calls)."""
    out, stack = [], []
    for sec in report["sections"]:
        if sec["id"] not in ("tree", "callers", "callees"):
            continue
        for row in sec["rows"]:
            del stack[row["depth"]:]
            stack.append(row["name"])
            out.append((tuple(stack), row))
    return out


def ending(report, *suffix):
    """The rows whose path ends with @suffix."""
    return [r for p, r in paths(report) if p[-len(suffix):] == suffix]


def rows(report, section):
    for sec in report["sections"]:
        if sec["id"] == section:
            return sec["rows"]
    raise KeyError("no section %r in %s" % (section, [s["id"] for s in report["sections"]]))


def bare(name):
    """A procedure name without the module qualification ("file.c: f" -> "f")."""
    return name.rsplit(": ", 1)[-1]


def check_mutual(run):
    n, r = 20, 3
    even, odd = r * (n // 2 + 1), r * (n // 2)
    p = run.json("page=proc&name=is_even")
    run.check("is_even calls", p["subject"]["own"]["calls"], even)
    p = run.json("page=proc&name=is_odd")
    run.check("is_odd calls", p["subject"]["own"]["calls"], odd)
    tree = run.json("page=flame&metric=bytes&min=0")
    clq = ending(tree, "main", "is_even")
    run.check("one clique node for the mutual recursion", len(clq), 1)
    if clq:
        run.check("clique inherited bytes, counted once", total(clq[0], "bytes"),
                  16 * (even + odd))
    run.check("no node of is_odd below the clique (folded)",
              len(ending(tree, "is_even", "is_odd")), 0)
    c = run.json("page=callers&proc=%d&group=proc"
                 % run.json("page=proc&name=leaf")["subject"]["id"])
    got = {bare(x["name"]): x["own"]["calls"] for x in rows(c, "callers")}
    run.check("leaf's callers", got, {"is_even": even, "is_odd": odd})
    # one total of a procedure on every page: is_odd is inside the recursion (not its
    # entry), so its total is the recursion's, the bytes of every leaf call below it
    clique_bytes = 16 * (even + odd)
    p = run.json("page=proc&name=is_odd")
    ps, mod = p["subject"]["id"], p["subject"]["module"]
    got = {"proc": p["subject"]["total"]["bytes"],
           "proc (all callers)": rows(p, "callers")[0]["total"]["bytes"]}
    got["callers"] = run.json("page=callers&proc=%d" % ps)["subject"]["total"]["bytes"]
    got["flame_callers"] = run.json("page=flame_callers&proc=%d" % ps)["subject"]["total"]["bytes"]
    for page, query, sec in (
            ("top", "page=top&metric=bytes&scope=total", "procs"),
            ("module", "page=module&id=%d" % mod, "procs"),
            ("search", "page=search&q=is_odd", "procs")):
        got[page] = [x["total"]["bytes"] for x in rows(run.json(query), sec) if x["id"] == ps]
        got[page] = got[page][0] if got[page] else None
    run.check("is_odd's total on every page", got, {k: clique_bytes for k in got})
    text = run.report("page=top&metric=bytes&scope=total&fields=pb&limit=3", "text", 100)
    run.check("is_odd in top by total (text)", "is_odd" in text, True)


def check_context(run):
    tree = run.json("page=flame&metric=bytes&min=0")
    for level in (("via_heavy",), ("via_heavy", "heavy"), ("via_heavy", "heavy", "compute")):
        rs = ending(tree, *level)
        run.check("bytes under %s" % "/".join(level), [total(x, "bytes") for x in rs],
                  [100000])
    for level in (("via_light",), ("via_light", "light"), ("via_light", "light", "compute")):
        rs = ending(tree, *level)
        run.check("bytes under %s" % "/".join(level), [total(x, "bytes") for x in rs], [100])
    calls = run.json("page=flame&metric=calls&min=0")
    run.check("step calls under heavy",
              [x["own"]["calls"] for x in ending(calls, "heavy", "compute", "step")], [100000])
    run.check("step calls under light",
              [x["own"]["calls"] for x in ending(calls, "light", "compute", "step")], [100])
    ps = run.json("page=proc&name=compute")["subject"]["id"]
    c = run.json("page=callers&proc=%d&group=proc" % ps)
    got = {bare(x["name"]): (x["own"]["calls"], x["own"]["bytes"]) for x in rows(c, "callers")}
    run.check("compute's callers: calls and bytes", got,
              {"light": (10, 100), "heavy": (1, 100000)})
    check_cli(run)


def check_indirect(run):
    p = run.json("page=proc&name=apply")
    sites = rows(p, "sites")
    multi = [r for r in sites if "multi" in r["flags"]]
    run.check("one site with several callees", len(multi), 1)
    if multi:
        run.check("its calls", multi[0]["own"]["calls"], 30)
        subs = {bare(r["name"]): r["own"]["calls"] for r in sites if r["depth"] == 1}
        run.check("its callees", subs, {"add": 10, "sub": 10, "mul": 10})
    mul = run.json("page=proc&name=mul")["subject"]
    run.check("mul's bytes", (mul["own"]["allocs"], mul["own"]["bytes"]), (10, 80))


def check_threads(run):
    merged = run.json("page=flame&metric=calls&min=0")
    w = ending(merged, "worker")
    run.check("merged view: one worker node with 4 calls", [x["own"]["calls"] for x in w], [4])
    run.check("merged view: chunk under worker",
              [x["own"]["calls"] for x in ending(merged, "worker", "chunk")], [200])
    per = run.json("page=flame&metric=calls&min=0&view=threads")
    run.check("per-thread view: four worker nodes",
              [x["own"]["calls"] for x in ending(per, "worker")], [1, 1, 1, 1])
    run.check("per-thread view: chunk under each worker",
              [x["own"]["calls"] for x in ending(per, "worker", "chunk")], [50] * 4)
    for q in ("page=proc&name=chunk", "page=proc&name=chunk&view=threads"):
        run.check(q + ": calls over all contexts",
                  run.json(q)["subject"]["own"]["calls"], 201)


def check_contour(run):
    ps = run.json("page=proc&name=tree_search")["subject"]["id"]
    plain = run.json("page=callers&proc=%d&group=proc" % ps)
    run.check("callers without contour",
              {bare(x["name"]): x["own"]["calls"] for x in rows(plain, "callers")}, {"map_find": 35})
    cont = run.json("page=callers&proc=%d&group=proc&contour=1" % ps)
    run.check("callers with contour exclusion",
              {bare(x["name"]): x["own"]["calls"] for x in rows(cont, "callers")},
              {"find_user": 30, "find_group": 5})


def check_cli(run):
    """The command line around the reports: bad queries, shorthands, bad files."""
    def dp(*args):
        return run.sh([run.deepprof] + list(args), ok=(0, 1, 2))

    r = dp("report", "prog.data", "page=nosuch")
    run.check("unknown page: exit 2", r.returncode, 2)
    run.check("unknown page: the valid pages are listed",
              all(p in r.stderr for p in ("menu", "clique", "callers", "flame")), True)
    run.check("unknown page: no server-control page listed", "quit" in r.stderr, False)
    for args in (["prog.data", "page=nosuch&format=json"], ["--format=json", "prog.data",
                 "page=nosuch"], ["prog.data", "format=json&page=clique&id=999999"]):
        r = dp("report", *args)
        try:
            err = json.loads(r.stderr)
        except ValueError:
            err = {}
        run.check("%s: exit 2" % args, r.returncode, 2)
        run.check("%s: the JSON error shape" % args, sorted(err), ["error", "status"])
        run.check("%s: its status" % args, err.get("status"),
                  404 if "999999" in args[-1] else 400)
    r = dp("report", "--format=json", "prog.data", "page=nosuch&format=text")
    run.check("format=text over --format=json: a text error, one line",
              (r.stderr.startswith("deepprof: unknown page 'nosuch'"),
               len(r.stderr.splitlines())), (True, 1))
    r = dp("report", "prog.data", "page=tpo")
    run.check("unknown page: did you mean", "did you mean 'top'?" in r.stderr, True)
    r = dp("reprot", "prog.data")
    run.check("unknown command: one line, did you mean, the commands",
              (r.returncode, len(r.stderr.splitlines()), "did you mean 'report'?" in r.stderr,
               "tree" in r.stderr), (2, 1, True, True))
    r = dp("report", "prog.data", "page=proc&name=computee")
    run.check("unknown name: did you mean", "did you mean 'compute'?" in r.stderr, True)
    run.check("a bare page name is the page",
              dp("report", "prog.data", "top").stdout,
              dp("report", "prog.data", "page=top").stdout)
    r = dp("find", "prog.data", "via_")
    run.check("find: the procedures matching", (r.returncode, "via_heavy" in r.stdout,
                                                "via_light" in r.stdout, "compute" in r.stdout),
              (0, True, True, False))
    os.symlink("prog.data", os.path.join(run.work, "Deep.data"))
    run.check("FILE defaults to ./Deep.data", dp("top").stdout, dp("top", "prog.data").stdout)
    run.check("report QUERY reads ./Deep.data", dp("report", "page=modules").stdout,
              dp("report", "prog.data", "page=modules").stdout)
    os.unlink(os.path.join(run.work, "Deep.data"))
    r = dp("top")
    run.check("no ./Deep.data: said in one line", (r.returncode, len(r.stderr.splitlines()),
                                                  "Deep.data" in r.stderr), (2, 1, True))
    for w in (80, 100, 120):
        for args in (["top"], ["tree"], ["report"], ["report", "top"], ["find", "e"]):
            out = dp(args[0], "--width", str(w), "prog.data", *args[1:]).stdout
            run.check("%s --width %d: no line longer" % (" ".join(args), w),
                      [x for x in out.splitlines() if len(x) > w], [])
    r = dp("report", "prog.data", "page=clique&id=999999")
    run.check("unknown clique: exit 2", r.returncode, 2)
    run.check("unknown clique: the valid range", "1.." in r.stderr, True)
    r = dp("report", "prog.data", "page=top&limit=abc")
    run.check("malformed limit: exit 2", r.returncode, 2)
    r = dp("report", "--format=json", "prog.data", "page=proc&id=0")
    run.check("id=0: exit 2", r.returncode, 2)
    r = dp("report", "prog.data", "page=menu", "extra")
    run.check("extra operand: exit 2", r.returncode, 2)
    r = dp("report", "missing.data")
    run.check("missing file: exit 2", r.returncode, 2)
    run.check("missing file: named", "missing.data" in r.stderr, True)
    with open(os.path.join(run.work, "prog.data"), "rb") as f:
        data = f.read()
    with open(os.path.join(run.work, "cut.data"), "wb") as f:
        f.write(data[:len(data) // 2])
    r = dp("report", "cut.data")
    run.check("truncated file: exit 2", r.returncode, 2)
    run.check("truncated file: position", "at byte" in r.stderr, True)
    r = dp("top", "--format=json", "--limit", "3", "prog.data")
    run.check("top --format=json: exit 0", r.returncode, 0)
    tops = json.loads(r.stdout)
    run.check("top: step first by calls",
              [x["name"] for x in tops[-1]["sections"][0]["rows"]][:1], ["step"])
    r = dp("tree", "--min", "0", "--metric", "calls", "prog.data")
    run.check("tree: titled as a tree", r.stdout.splitlines()[0], "Call tree")
    run.check("tree: compute under heavy, indented", [
        ln.split("-- ", 1)[1].split()[0] for ln in r.stdout.splitlines() if "-- " in ln][:4],
        ["main", "main", "via_heavy", "heavy"])  # the thread named by its entry
    r = dp("report", "--format=html", "prog.data", "page=proc&name=compute")
    run.check("html: a page", r.stdout.lstrip().lower().startswith("<!doctype html>"), True)
    r = dp("check", "--max", "3", "prog.data")
    run.check("check --max 3: exit 0", r.returncode, 0)
