#!/usr/bin/env python3
"""test_browser_compare.py - `deepprof serve --base BASE NEW` in headless Chromium (Debian
chromium + chromium-driver + python3-selenium), on progs/loops.c and its -DGROW=4 variant
(test_compare.py): the compare note and columns on the menu, top, procedure and clique
pages (grows: 100k -> 400k callseqs, +300k, +300.0%), the differential flame graph drawn
with grows red and the steady loops grey as the browser computes their fill, a click on
grows' rect opening its clique with the compare view, the flame graph of time, no console
error (CSP violations included); a screenshot of every step into the artifacts directory.

usage: test_browser_compare.py --deepprof BIN --work DIR [--artifacts DIR]
Exit status: 0 pass, 1 fail, 77 skip (chromium, chromedriver, selenium or gcc missing).
"""
import argparse
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from test_browser import CHROMIUM, DRIVER, Browser, find, import_selenium  # noqa: E402
from dpprofile import CheckError, Checker  # noqa: E402
from test_compare import STEADY, Ctx  # noqa: E402
from test_serve import Skip  # noqa: E402


def rect_fill(d, name):
    """The fill the browser computed for the differential flame graph's rect of @name."""
    return d.execute_script(
        "for (const g of document.querySelectorAll('svg.flame-diff g')) {"
        "  const t = g.querySelector('title');"
        "  if (t && t.textContent.split('\\n')[0] === arguments[0])"
        "    return getComputedStyle(g.querySelector('rect')).fill; }"
        "return null;", name)


def cells(d, name):
    """The cells of the first table row whose name cell is @name (texts)."""
    return d.execute_script(
        "for (const tr of document.querySelectorAll('table.cost tbody tr')) {"
        "  const a = tr.querySelector('td a');"
        "  if (a && a.textContent === arguments[0])"
        "    return Array.from(tr.querySelectorAll('td')).map(td => td.textContent); }"
        "return null;", name)


def browse(ctx, ck, b, url):
    from selenium.webdriver.common.by import By
    d = b.d
    d.get(url)
    ck.true("menu: the compare note names the base (%r)" % d.title,
            "Compared with" in d.page_source and "base.data" in d.page_source)
    b.step("menu")
    d.get(url + "?page=top&metric=callseqs")
    head = " ".join(th.text for th in d.find_elements(By.CSS_SELECTOR, "table.cost thead th"))
    ck.true("top: the compare columns (%r)" % head,
            "vs base: callseqs self" in head and "Base" in head and "Rel." in head)
    row = cells(d, "grows") or []
    ck.eq("top: grows' Base, New, Change, Rel.", row[-5:-1], ["100k", "400k", "+300k", "+300.0%"])
    for f in STEADY:
        ck.eq("top: %s's change" % f, (cells(d, f) or [])[-3:-1], ["0", "0%"])
    b.step("top-callseqs")
    d.find_element(By.LINK_TEXT, "grows").click()
    ck.true("procedure: grows' page (%r)" % d.title, "grows" in d.title)
    ck.true("procedure: compared", "Compared with" in d.page_source)
    b.step("procedure-grows")
    d.get(url + "?page=flame&metric=callseqs&min=0")
    ck.eq("flame: one differential graph",
          len(d.find_elements(By.CSS_SELECTOR, "svg.flame-diff")), 1)
    ck.eq("flame: grows drawn red", rect_fill(d, "grows"), "rgb(255, 38, 38)")
    for f in STEADY:
        ck.eq("flame: %s drawn grey" % f, rect_fill(d, f), "rgb(238, 238, 238)")
    ck.true("flame: the legend", "Differential flame graph against" in d.page_source)
    b.step("flame-diff-callseqs")
    links = [a for a in d.find_elements(By.CSS_SELECTOR, "svg.flame-diff a")
             if d.execute_script("return arguments[0].textContent", a).startswith("grows")]
    ck.true("flame: grows' rect is a link", links != [])
    if links:
        d.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', "
                         "{bubbles: true, cancelable: true, view: window}))", links[0])
        ck.true("clique: grows' clique (%r)" % d.title, "Clique" in d.title and
                "grows" in d.title)
        ck.true("clique: compared", "Compared with" in d.page_source)
        b.step("clique-grows")
    d.get(url + "?page=flame")
    fill = rect_fill(d, "grows") or ""
    ck.true("flame (time): grows' share grew: red (%r)" % fill, fill.startswith("rgb(255, "))
    b.step("flame-diff-time")
    d.get(url + "?page=flame&metric=callseqs&format=text")
    b.step("flame-diff-text")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deepprof", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--artifacts", default=None)
    args = ap.parse_args()
    webdriver = import_selenium()
    chromium, driver = find(CHROMIUM), find(DRIVER)
    if not webdriver or not chromium or not driver:
        print("SKIP: %s not installed" % ("python3-selenium" if not webdriver else
                                          "chromium" if not chromium else "chromedriver"))
        return 77
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    shots = os.path.abspath(args.artifacts or os.path.join(args.work, "screenshots"))
    shutil.rmtree(shots, ignore_errors=True)
    os.makedirs(shots)
    ctx = Ctx(args)
    ck = Checker("browser_compare")
    b = None
    try:
        base, new = ctx.pair()
        os.environ.setdefault("HOME", args.work)
        with ctx.serve([new], args=["--base", base]) as srv:
            b = Browser(webdriver, chromium, driver, shots)
            browse(ctx, ck, b, srv.url)
            ck.eq("browser console: no errors", b.errors, [])
            ck.eq("server: exit status after SIGINT", srv.stop()[0], 0)
    except Skip as e:
        print("SKIP: %s not installed" % e)
        return 77
    except CheckError as e:
        ck.failures.append(str(e))
    except Exception as e:  # selenium's errors: report them as failures, with the page
        ck.failures.append("%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e)
                                       else ""))
        if b:
            try:
                b.step("failure")
            except Exception:
                pass
    finally:
        if b:
            b.close()
    print("screenshots in %s" % shots)
    return ck.finish()


if __name__ == "__main__":
    sys.exit(main())
