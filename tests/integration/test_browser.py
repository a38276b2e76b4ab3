#!/usr/bin/env python3
"""test_browser.py - `deepprof serve` in headless Chromium (Debian chromium +
chromium-driver + python3-selenium): open the menu, follow links to the root, a clique,
its procedure, the procedure's callers and the flame graph, check what each page shows,
that the browser console has no errors (CSP violations included), and save a screenshot
of every step into the artifacts directory. The interactive flame graph (deepprof.js):
frames drawn from the page's JSON, tooltips, click to zoom with root= in the URL (the
subtree fetched), reload and back, search with its share, keys, the metric chooser, the
clique's members, the sandwich page with its own zoom in the URL's fragment. Table
headers are clicked twice (numbers and names, the top page included) and the rows must
follow them both ways; the search box's search is followed to a result.

usage: test_browser.py --deepprof BIN --work DIR [--artifacts DIR]
Exit status: 0 pass, 1 fail, 77 skip (chromium, chromedriver or selenium missing).
"""
import argparse
import os
import re
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


def wait(d, cond, timeout=10):
    """Wait until @cond() is true (page scripts and fetches run asynchronously)."""
    from selenium.webdriver.support.ui import WebDriverWait
    try:
        WebDriverWait(d, timeout).until(lambda _: cond())
        return True
    except Exception:
        return False


def frame(d, name, graph=None):
    """The displayed frame (div.fn) named @name, in the graph of kind @graph if given."""
    from selenium.webdriver.common.by import By
    sel = "div.fg%s div.fn" % ('[data-kind="%s"]' % graph if graph else "")
    for e in d.find_elements(By.CSS_SELECTOR, sel):
        if e.get_attribute("data-name") == name and e.is_displayed():
            return e
    return None


def frames(ck, d, what, at_least):
    from selenium.webdriver.common.by import By
    n = len(d.find_elements(By.CSS_SELECTOR, "div.fn"))
    ck.true("%s: the script drew frames (%d)" % (what, n), n >= at_least)
    return n


def query(d):
    from urllib.parse import urlparse, parse_qs
    u = urlparse(d.current_url)
    return {k: v[0] for k, v in parse_qs(u.query).items()}, u.fragment


def flame_ui(ck, b, url):
    """The interactive flame graph of qsort's profile (file 0) and recursion's (file 1)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.common.action_chains import ActionChains
    d = b.d
    # tooltip: total, self, calls, per call
    main = frame(d, "main")
    ActionChains(d).move_to_element(main).perform()
    tip = d.find_elements(By.CSS_SELECTOR, ".fgtip")
    text = tip[0].text if tip and tip[0].is_displayed() else ""
    for part in ("main", "total callseqs:", "self:", "calls: 1", "per call:", "of all"):
        ck.true("flame tooltip of main says %r (%r)" % (part, text), part in text)
    b.step("flame-tooltip")
    # click to zoom: root= in the URL, the zoomed graph fetched (its title), ancestors
    main.click()
    ok = wait(d, lambda: "Flame graph from main" in d.find_element(By.TAG_NAME, "h1").text)
    q, _ = query(d)
    ck.true("zoom: the title after the fetch", ok)
    ck.true("zoom: the window's title too (%r)" % d.title, "Flame graph from main" in d.title)
    ck.true("zoom: root= in the URL (%r)" % d.current_url, q.get("root", "").isdigit())
    anc = [e.get_attribute("data-name") for e in d.find_elements(By.CSS_SELECTOR, "div.fn.anc")]
    ck.eq("zoom: the ancestors drawn above main", anc[:2], ["<program>", "main (thread 1)"])
    main = frame(d, "main")
    box = d.find_element(By.CSS_SELECTOR, ".fgv")
    ck.true("zoom: main is as wide as the graph", main is not None and
            main.size["width"] >= box.size["width"] - 2)
    cmp_ = frame(d, "cmp")
    ck.true("zoom: cmp is under main", cmp_ is not None)
    b.step("flame-zoom")
    # the URL state survives a reload: the server answers root= itself
    zoomed = d.current_url
    d.get(zoomed)
    ck.true("reload: still zoomed at main", "Flame graph from main" in d.title)
    ck.eq("reload: the ancestors from the server's path", [
        e.get_attribute("data-name") for e in d.find_elements(By.CSS_SELECTOR, "div.fn.anc")][:2],
        ["<program>", "main (thread 1)"])
    # an ancestor zooms out; back and forward follow the history
    frame(d, "main (thread 1)").click()
    wait(d, lambda: "root=" in d.current_url and d.current_url != zoomed)
    ok = wait(d, lambda: frame(d, "main") is not None and "thread" in
              d.find_element(By.TAG_NAME, "h1").text.lower() or
              "main (thread 1)" in d.find_element(By.TAG_NAME, "h1").text)
    ck.true("zoom out to the thread (%r)" % d.current_url, ok)
    d.back()
    ck.true("back: zoomed at main again (%r)" % d.current_url,
            wait(d, lambda: d.current_url == zoomed and "Flame graph from main" in
                 d.find_element(By.TAG_NAME, "h1").text))
    # reset: the whole graph, no root= in the URL
    d.find_element(By.ID, "dp-reset").click()
    ck.true("reset: no root= (%r)" % d.current_url,
            wait(d, lambda: "root=" not in d.current_url and
                 d.find_element(By.TAG_NAME, "h1").text == "Flame graph"))
    ck.true("reset: metric=callseqs kept (%r)" % d.current_url, "metric=callseqs" in
            d.current_url)
    ck.true("reset: <program> at the root again",
            wait(d, lambda: frame(d, "<program>") is not None and
                 "anc" not in frame(d, "<program>").get_attribute("class")))
    # search: substring, its matches marked, their share, kept in the fragment
    s = d.find_element(By.ID, "dp-search")
    s.send_keys("cm")
    ck.true("search: cmp marked", wait(d, lambda: d.find_elements(By.CSS_SELECTOR, "div.fn.m")))
    marked = [e.get_attribute("data-name") for e in d.find_elements(By.CSS_SELECTOR, "div.fn.m")]
    ck.true("search: only cmp matches 'cm' (%r)" % marked, marked != [] and
            all("cm" in m for m in marked))
    out = d.find_element(By.ID, "dp-matches").text
    m = re.match(r"(\d+) frames match, ([\d.]+)% of the view, ([\d.]+)% of all", out)
    ck.true("search: the matches' share (%r)" % out, m is not None and int(m.group(1)) >= 1
            and float(m.group(2)) > 0)
    _, frag = query(d)
    ck.true("search: s=cm in the fragment (%r)" % frag, "s=cm" in frag)
    b.step("flame-search")
    s.clear()
    s.send_keys("/^(main|cmp)$/")
    ck.true("search: a regex matches main and cmp", wait(d, lambda: sorted(
        set(e.get_attribute("data-name") for e in d.find_elements(By.CSS_SELECTOR, "div.fn.m")))
        == ["cmp", "main"]))
    d.get(d.current_url)  # the search is restored from the fragment
    ck.true("search: restored on reload", wait(d, lambda: len(
        d.find_elements(By.CSS_SELECTOR, "div.fn.m")) >= 2))
    ck.eq("search: the box shows it", d.find_element(By.ID, "dp-search").get_attribute("value"),
          "/^(main|cmp)$/")
    # keys: ? shows them, arrows select, Enter zooms, u zooms out, r resets
    body = d.find_element(By.TAG_NAME, "body")
    body.send_keys("?")
    help_ = d.find_elements(By.ID, "dp-help")
    ck.true("keys: ? shows the keys", help_ != [] and help_[0].is_displayed() and
            "Enter" in help_[0].text)
    b.step("flame-keys")
    body.send_keys(Keys.ESCAPE)
    ck.true("keys: Esc hides them", not d.find_element(By.ID, "dp-help").is_displayed())
    body.send_keys(Keys.ARROW_UP, Keys.ARROW_UP)  # the root at the bottom: up, to children
    sel = d.find_elements(By.CSS_SELECTOR, "div.fn.sel")
    ck.eq("keys: up twice from the root selects main",
          sel[0].get_attribute("data-name") if sel else None, "main")
    body.send_keys(Keys.ENTER)
    ck.true("keys: Enter zooms into main", wait(
        d, lambda: "Flame graph from main" in d.find_element(By.TAG_NAME, "h1").text))
    body.send_keys("u")
    ck.true("keys: u zooms out to the thread", wait(
        d, lambda: "main (thread 1)" in d.find_element(By.TAG_NAME, "h1").text))
    body.send_keys("r")
    ck.true("keys: r resets", wait(d, lambda: "root=" not in d.current_url))
    # the metric chooser: a new page with metric=
    from selenium.webdriver.support.ui import Select
    Select(d.find_element(By.ID, "dp-metric")).select_by_value("calls")
    ck.true("metric: metric=calls in the URL", wait(d, lambda: "metric=calls" in d.current_url))
    frames(ck, d, "flame by calls", 4)
    ActionChains(d).move_to_element(frame(d, "cmp")).perform()
    tip = d.find_element(By.CSS_SELECTOR, ".fgtip").text
    ck.true("metric: the tooltip gives cmp's calls (%r)" % tip,
            re.search(r"calls: \d+ \(", tip) is not None and "total callseqs" not in tip)
    b.step("flame-calls")
    # the sandwich of cmp: callers above (main), callees below (key), each zoomable
    frame(d, "cmp").click()
    sw = [a for a in d.find_elements(By.CSS_SELECTOR, ".fgd a") if a.text == "sandwich"]
    ck.true("details: a link to cmp's sandwich", sw != [])
    if sw:
        sw[0].click()
    ck.true("sandwich: its title (%r)" % d.title, "Sandwich of cmp" in d.title)
    ck.true("sandwich: main among the callers", frame(d, "main", "callers") is not None)
    ck.true("sandwich: key among the callees", frame(d, "key", "callees") is not None)
    ck.true("sandwich: cmp at both roots", frame(d, "cmp", "callers") is not None and
            frame(d, "cmp", "callees") is not None)
    top = d.find_element(By.CSS_SELECTOR, 'div.fg[data-kind="callers"] .fgv')
    bottom = d.find_element(By.CSS_SELECTOR, 'div.fg[data-kind="callees"] .fgv')
    ck.true("sandwich: callers drawn above the callees", top.location["y"] < bottom.location["y"])
    c_root = frame(d, "cmp", "callers")
    ck.true("sandwich: cmp at the bottom of the callers graph", c_root is not None and
            c_root.location["y"] > frame(d, "main", "callers").location["y"])
    b.step("sandwich")
    frame(d, "key", "callees").click()
    _, frag = query(d)
    ck.true("sandwich: the callees' zoom in the fragment (%r)" % frag, "z-callees=" in frag)
    d.get(d.current_url)
    key = frame(d, "key", "callees")
    box = d.find_element(By.CSS_SELECTOR, 'div.fg[data-kind="callees"] .fgv')
    ck.true("sandwich: still zoomed at key after a reload", key is not None and
            key.size["width"] >= box.size["width"] - 2)
    b.step("sandwich-zoom")
    # a recursive clique: its members in the tooltip
    d.get(url + "?file=1&page=flame&min=0&metric=callseqs")
    even = frame(d, "is_even")
    ck.true("recursion: is_even drawn", even is not None)
    if even:
        ActionChains(d).move_to_element(even).perform()
        tip = d.find_element(By.CSS_SELECTOR, ".fgtip").text
        ck.true("recursion: the tooltip names is_odd, its clique's member (%r)" % tip,
                "is_odd" in tip and "clique:" in tip)
    b.step("flame-members")


def browse(ctx, ck, b, url):
    from selenium.webdriver.common.by import By
    d = b.d
    d.get(url + "?file=0")
    ck.true("menu: title names the file (%r)" % d.title, "prog.data" in d.title)
    ck.true("menu: has the navigation", d.find_elements(By.CSS_SELECTOR, "nav a") != [])
    b.step("menu")
    b.click_link(ck, "menu -> root", has(None, page="root"))
    ck.true("root: a clique page (%r)" % d.title, "Clique" in d.title)
    b.step("root")
    b.click_link(ck, "root -> flame graph", lambda h: "page=flame" in h and "callers" not in h)
    frames(ck, d, "flame", 4)
    ck.true("flame: main and cmp in the graph", frame(d, "main") is not None and
            frame(d, "cmp") is not None)
    ck.true("flame: the server's SVG is hidden", not any(
        e.is_displayed() for e in d.find_elements(By.CSS_SELECTOR, "svg.flame")))
    b.step("flame")
    d.get(url + "?file=0&page=flame&metric=callseqs")  # a run this short has few samples
    flame_ui(ck, b, url)
    d.get(url + "?file=0&page=flame")
    frame(d, "main").click()
    wait(d, lambda: "Flame graph from main" in d.find_element(By.TAG_NAME, "h1").text)
    link = [a for a in d.find_elements(By.CSS_SELECTOR, ".fgd a") if a.text == "clique"]
    ck.true("flame: the details of main link to its clique", link != [])
    if link:
        link[0].click()
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
    frames(ck, d, "flame_callers", 2)
    ck.true("flame_callers: the SVG is there for pages without script",
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
    shutil.rmtree(shots, ignore_errors=True)  # no screenshot of an earlier run stays
    os.makedirs(shots, exist_ok=True)
    ctx = Ctx(args)
    ck = Checker("browser")
    b = None
    try:
        data = ctx.profile("prog", "qsort.c", args=(200,))
        rec = ctx.profile("rec", "recursion.c", args=(15, 200))
        os.environ.setdefault("HOME", args.work)
        with ctx.serve([data, rec]) as srv:
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
