#!/usr/bin/env python3
"""test_export_browser.py - speedscope (the npm package, installed into the build tree
by the export_speedscope_setup test) loads deepprof's speedscope JSON and folded exports
in headless Chromium (Debian chromium + chromium-driver + python3-selenium): no error in
the console, the profile names shown, and speedscope's own "Sandwich" table gives each
function the self and total call counts deepprof counted, context included (top_b's
total holds the 500 leaf calls made under it, top_a's only 18). Screenshots go to the
work directory.

usage: DP_SPEEDSCOPE_DIR=DIR test_export_browser.py --deepprof BIN --work DIR TEST
Exit status: 0 pass, 1 fail, 77 skip (chromium, chromedriver, selenium or speedscope
missing).
"""
import functools
import http.server
import os
import re
import shutil
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SYSTEM_PYTHON = "/usr/bin/python3"


def import_selenium():
    """Selenium from Debian lives in the system Python: re-run under it if needed."""
    try:
        import selenium.webdriver  # noqa: F401
        return sys.modules["selenium.webdriver"]
    except ImportError:
        if os.path.exists(SYSTEM_PYTHON) and os.path.realpath(sys.executable) != \
                os.path.realpath(SYSTEM_PYTHON) and not os.environ.get("DP_BROWSER_REEXEC"):
            os.environ["DP_BROWSER_REEXEC"] = "1"
            os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv)
        return None


sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "integration"))
from dpprofile import CheckError, Skip, run_named_test  # noqa: E402
from test_export import ITEST_PROGS, PROC_CALLS  # noqa: E402
from test_export import Ctx as ExportCtx  # noqa: E402

# speedscope's totals per function (calls): the subtree of each function's contexts
TOTAL_CALLS = {"main": 550, "top_a": 28, "top_b": 516, "mid": 542, "work": 534, "leaf": 518,
               "fact": 5}


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


class Ctx(ExportCtx):
    def __init__(self, args):
        super().__init__(args)
        self.app = os.path.join(os.environ.get("DP_SPEEDSCOPE_DIR", ""), "node_modules", "speedscope", "dist", "release")


def sandwich(d, by):
    """speedscope's Sandwich table: {name: (total, self)}."""
    for el in d.find_elements(by.XPATH, "//*[text()='Sandwich']"):
        el.click()
        break
    time.sleep(1)
    lines = d.find_element(by.TAG_NAME, "body").text.splitlines()
    out = {}
    for k in range(len(lines) - 2):
        a, b = re.match(r"^(\d+) \(", lines[k]), re.match(r"^(\d+) \(", lines[k + 1])
        if a and b and not re.match(r"^\d+ \(", lines[k + 2]):
            out[lines[k + 2]] = (int(a.group(1)), int(b.group(1)))
    return out


def open_in_speedscope(ctx, ck, files):
    """Serve the work dir (speedscope linked in as app/), load each file of @files in
    speedscope, call files[name](driver, by, body text) after it loaded."""
    webdriver = import_selenium()
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if not webdriver or not chromium or not driver:
        raise Skip("chromium, chromedriver or python3-selenium")
    if not os.path.exists(os.path.join(ctx.app, "index.html")):
        raise Skip("speedscope (npm; export_speedscope_setup installs it)")
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    os.symlink(ctx.app, os.path.join(ctx.work, "app"))
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                          functools.partial(Quiet, directory=ctx.work))
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d/" % srv.server_address[1]
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
              "--window-size=1280,900", "--no-first-run", "--disable-extensions"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    d = webdriver.Chrome(service=Service(driver), options=opts)
    try:
        for name, check in files.items():
            d.get("about:blank")  # a new document: a hash change alone loads nothing new
            d.get(base + "app/index.html#profileURL=" + base + name)
            body = ""
            for _ in range(60):
                time.sleep(0.5)
                body = d.find_element(By.TAG_NAME, "body").text
                if "Sandwich" in body:
                    break
            logs = d.get_log("browser")
            ck.true("%s: speedscope imported it" % name,
                    any("Importing as" in e.get("message", "") for e in logs))
            for e in logs:
                ck.true("%s: no console error (%s)" % (name, e.get("message")),
                        e.get("level") != "SEVERE")
            check(d, By, body)
            d.save_screenshot(os.path.join(ctx.work, name + ".png"))
    finally:
        d.quit()
        srv.shutdown()


def t_speedscope(ctx, ck):
    data = ctx.profile()
    ctx.export(data, "speedscope", out="ctx2.speedscope.json")
    ctx.export(data, "folded", "--metric=calls", out="ctx2.folded")

    def calls_profile(what):
        def check(d, by, body):
            got = sandwich(d, by)
            ck.eq("%s: speedscope self calls per function" % what,
                  {k: v[1] for k, v in got.items()}, PROC_CALLS)
            ck.eq("%s: speedscope total calls per function (contexts kept)" % what,
                  {k: v[0] for k, v in got.items()}, TOTAL_CALLS)
        return check

    def json_check(d, by, body):
        ck.true("speedscope JSON: 4 profiles, calls first (%r)" % body[:200],
                "calls (1/4)" in body)
        calls_profile("speedscope JSON")(d, by, body)

    def folded_check(d, by, body):
        ck.true("folded: speedscope shows the file's name (%r)" % body[:200],
                "ctx2.folded" in body)
        calls_profile("folded")(d, by, body)

    open_in_speedscope(ctx, ck, {"ctx2.speedscope.json": json_check,
                                 "ctx2.folded": folded_check})


def t_speedscope_threads(ctx, ck):
    data = ctx.profile("threads", src=os.path.join(ITEST_PROGS, "threads.c"), args=["10"])
    ctx.export(data, "speedscope", "--metric=calls", query="view=threads",
               out="threads.speedscope.json")
    workers = sorted((t for t in ctx.prof.threads if t["name"].startswith("worker-")),
                     key=lambda t: t["index"])

    def check(d, by, body):
        n = len(ctx.prof.threads)
        first = ctx.prof.threads[0]
        name = "thread %d (%s)" % (first["tid"], first["name"]) if first["name"] else \
            "thread %d" % first["tid"]
        ck.true("one profile per thread, the first %r (%r)" % (name, body[:200]),
                "%s (1/%d)" % (name, n) in body)
        ck.eq("workers", len(workers), 8)
        got = sandwich(d, by)
        ck.true("first thread's functions shown: %r" % sorted(got), "main" in got)

    open_in_speedscope(ctx, ck, {"threads.speedscope.json": check})


TESTS = {"speedscope": t_speedscope, "speedscope_threads": t_speedscope_threads}

if __name__ == "__main__":
    import_selenium()  # before anything runs: it may re-run this script
    sys.exit(run_named_test(TESTS, Ctx, "export_"))
