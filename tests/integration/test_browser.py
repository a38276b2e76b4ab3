#!/usr/bin/env python3
"""test_browser.py - `deepprof serve` in headless Chromium (Debian chromium +
chromium-driver + python3-selenium): open the menu, follow links to the root, a clique,
its procedure, the procedure's callers and the flame graph (and a rect of it), check what
each page shows; click table headers twice (numbers and names, the top page included)
and check the rows follow them both ways; search from the search box and follow a
result; check that the browser console has no errors (CSP violations included), and
save a screenshot of every step into the artifacts directory.

usage: test_browser.py --deepprof BIN --work DIR [--artifacts DIR]
Exit status: 0 pass, 1 fail, 77 skip (chromium, chromedriver or selenium missing).
"""
import argparse
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SYSTEM_PYTHON = "/usr/bin/python3"


def import_selenium():
    """Selenium from Debian lives in the system Python: re-run under it if this
    interpreter (a pyenv or venv one) lacks it. Returns the module, or None."""
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
from dpprofile import CheckError, Checker  # noqa: E402
from test_serve import Ctx, Skip  # noqa: E402

CHROMIUM = ("chromium", "chromium-browser", "google-chrome")
DRIVER = ("chromedriver",)


def find(names):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return None


class Browser:
    def __init__(self, webdriver, chromium, driver, shots):
        from selenium.webdriver.chrome.service import Service
        opts = webdriver.ChromeOptions()
        opts.binary_location = chromium
        for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                  "--window-size=1280,900", "--no-first-run", "--disable-extensions"):
            opts.add_argument(a)
        opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.d = webdriver.Chrome(service=Service(driver), options=opts)
        self.d.set_page_load_timeout(60)
        self.shots = shots
        self.n = 0
        self.errors = []

    def close(self):
        self.d.quit()

    def step(self, name, expect=None):
        """Screenshot the current page and collect the console's errors (but the one
        containing @expect, the page's own status)."""
        self.n += 1
        path = os.path.join(self.shots, "%02d-%s.png" % (self.n, name))
        self.d.save_screenshot(path)
        print("screenshot: %s (%s)" % (path, self.d.current_url), flush=True)
        for e in self.d.get_log("browser"):
            if e.get("level") == "SEVERE" and not (expect and expect in e.get("message")):
                self.errors.append("%s: %s" % (name, e.get("message")))

    def click_link(self, ck, what, pred):
        """Click the first <a> whose href satisfies @pred; returns its href or None."""
        from selenium.webdriver.common.by import By
        for a in self.d.find_elements(By.CSS_SELECTOR, "a[href]"):
            href = a.get_attribute("href") or ""
            if pred(href) and a.is_displayed():
                a.click()
                return href
        ck.true("%s: a link to follow on %s" % (what, self.d.current_url), False)
        return None


def has(q, **kv):
    return lambda href: all(("%s=%s" % (k, v) if v is not None else "%s=" % k) in href
                            for k, v in kv.items())


def svg_link(d, text):
    """The href of the flame graph's link whose label is @text (SVG hrefs need JS)."""
    from selenium.webdriver.common.by import By
    for a in d.find_elements(By.CSS_SELECTOR, "svg a"):
        label = (d.execute_script("var t = arguments[0].querySelector('text');"
                                  "return t ? t.textContent : ''", a) or "").strip()
        # the name, maybe clipped ("ma.."); not a thread named by it ("main (thread 1)")
        if label == text or (label.endswith("..") and text.startswith(label[:-2])):
            return d.execute_script("return arguments[0].getAttribute('href')", a)
    return None


def browse(ctx, ck, b, url):
    from selenium.webdriver.common.by import By
    d = b.d
    d.get(url)
    ck.true("menu: title names the file (%r)" % d.title, "prog.data" in d.title)
    ck.true("menu: has the navigation", d.find_elements(By.CSS_SELECTOR, "nav a") != [])
    b.step("menu")
    b.click_link(ck, "menu -> root", has(None, page="root"))
    ck.true("root: a clique page (%r)" % d.title, "Clique" in d.title)
    b.step("root")
    b.click_link(ck, "root -> flame graph", lambda h: "page=flame" in h and "callers" not in h)
    rects = d.find_elements(By.CSS_SELECTOR, "svg rect")
    ck.true("flame: rects drawn (%d)" % len(rects), len(rects) >= 4)
    ck.true("flame: main and cmp in the graph", "main" in d.page_source and
            "cmp" in d.page_source)
    b.step("flame")
    href = svg_link(d, "main")
    ck.true("flame: main's rect is a link to a clique (%r)" % href,
            href is not None and "page=clique" in href)
    if href:
        d.find_element(By.XPATH, '//*[local-name()="a" and @href="%s"]' % href).click()
    ck.true("clique: main's clique (%r)" % d.title, "Clique" in d.title and "main" in d.title)
    ck.true("clique: a cost table", d.find_elements(By.CSS_SELECTOR, "table.cost td") != [])
    b.step("clique")
    b.click_link(ck, "clique -> procedure", lambda h: "page=proc&" in h)
    ck.true("procedure: main's page (%r)" % d.title, "main" in d.title)
    b.step("procedure")
    d.get(url + "?file=0&page=top&metric=calls")
    top = d.current_url
    ck.true("top: rows", len(d.find_elements(By.CSS_SELECTOR, "table.cost tbody tr")) >= 3)
    b.step("top")
    filt = d.find_elements(By.CSS_SELECTOR, "input.filter")
    if filt:
        filt[0].send_keys("zzzz_nothing")
        shown = [r for r in d.find_elements(By.CSS_SELECTOR, "table.cost tbody tr")
                 if r.is_displayed()]
        ck.eq("top: the filter hides every row for a string nothing has", len(shown), 0)
        d.get(top)
    cmp = d.find_elements(By.LINK_TEXT, "cmp")
    ck.true("top: cmp is a link", cmp != [])
    if cmp:
        cmp[0].click()
    ck.true("procedure: cmp's page (%r)" % d.title, "cmp" in d.title)
    b.click_link(ck, "procedure -> callers", lambda h: "page=callers&" in h)
    ck.true("callers: title (%r)" % d.title, "aller" in d.title)
    ck.true("callers: cmp's caller qsort_r or main shown",
            "main" in d.page_source or "qsort" in d.page_source)
    b.step("callers")
    b.click_link(ck, "callers -> flame of callers", lambda h: "page=flame_callers" in h)
    ck.true("flame_callers: an SVG with rects",
            len(d.find_elements(By.CSS_SELECTOR, "svg rect")) >= 2)
    b.step("flame-callers")
    sort_and_search(ck, b, url)
    d.get(url + "?file=0&page=nope")
    ck.true("bad page: the error page (%r)" % d.title, "400" in d.title)
    b.step("error", expect="status of 400")


def column(d, table, label):
    """The cells of the column headed @label of cost table @table (None: the first with
    two rows or more): (header element, [values]) with numbers exact (a cell's title has
    the exact value when it shows an abbreviation) and names as they read."""
    from selenium.webdriver.common.by import By
    tables = d.find_elements(By.CSS_SELECTOR, "table.cost")
    if table is None:
        table = next((i for i, x in enumerate(tables)
                      if len(x.find_elements(By.CSS_SELECTOR, "tbody tr")) >= 2), 0)
    t = tables[table]
    heads = t.find_elements(By.CSS_SELECTOR, "thead th")
    labels = [h.text.replace("\u25bc", "").replace("\u25b2", "").strip() for h in heads]
    if label not in labels:
        return None, []
    head = heads[labels.index(label)]
    # the first header row has Name, the groups and Where; the numbers' labels are below
    first = t.find_elements(By.CSS_SELECTOR, "thead tr")[0].find_elements(By.CSS_SELECTOR, "th")
    numbered = [h for h in heads if h not in first]
    rows = t.find_elements(By.CSS_SELECTOR, "tbody tr")
    if label == "Name":
        return head, [r.find_elements(By.CSS_SELECTOR, "td")[0].text for r in rows]
    k = 1 + numbered.index(head)
    vals = []
    for r in rows:
        td = r.find_elements(By.CSS_SELECTOR, "td")[k]
        exact = (td.get_attribute("title") or "").split(" ")[0]
        vals.append(float(exact) if exact else float(td.text.split(" ")[0] or 0))
    return head, vals


def sort_and_search(ck, b, url):
    """Every kind of header sorts both ways (a number, the name), the top page too; the
    search box finds a procedure and leads to it."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    d = b.d
    for page, label in (("top&metric=calls", "Calls"), ("top&metric=calls", "Name"),
                        ("modules", "Calls"), ("root", "Total")):
        d.get(url + "?file=0&page=" + page)
        for way in ("first", "second"):
            head, _ = column(d, None, label)
            ck.true("%s %s: a header" % (page, label), head is not None)
            if head is None:
                break
            head.find_element(By.TAG_NAME, "a").click()
            head, vals = column(d, None, label)
            desc = head.get_attribute("aria-sort") == "descending"
            ck.true("%s %s %s click: sorted (%s)" % (page, label, way,
                                                      head.get_attribute("aria-sort")),
                    head.get_attribute("aria-sort") in ("ascending", "descending"))
            want = sorted(vals, reverse=desc)
            if label == "Name":
                want = sorted(vals, key=lambda x: x.rsplit(": ", 1)[-1], reverse=desc)
            ck.eq("%s %s %s click: rows in the header's order" % (page, label, way), vals,
                  want)
            ck.true("%s %s: rows to sort (%d)" % (page, label, len(vals)), len(vals) >= 2)
            b.step("sort-%s-%s-%s" % (page.split("&")[0], label.lower(), way))
    d.get(url + "?file=0&page=top")
    box = d.find_element(By.CSS_SELECTOR, "form.search input[name=q]")
    box.send_keys("cm")
    box.send_keys(Keys.RETURN)
    ck.true("search: the search page (%r)" % d.title, "Search: cm" in d.title)
    ck.true("search: the text stays in the box",
            d.find_element(By.CSS_SELECTOR, "form.search input[name=q]")
            .get_attribute("value") == "cm")
    found = d.find_elements(By.LINK_TEXT, "cmp")
    ck.true("search: cmp found", found != [])
    b.step("search")
    if found:
        found[0].click()
        ck.true("search -> cmp's page (%r)" % d.title, "Procedure" in d.title and "cmp" in d.title)
        b.step("search-result")


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
    os.makedirs(shots, exist_ok=True)
    ctx = Ctx(args)
    ck = Checker("browser")
    b = None
    try:
        data = ctx.profile("prog", "qsort.c", args=(200,))
        os.environ.setdefault("HOME", args.work)
        with ctx.serve([data]) as srv:
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
