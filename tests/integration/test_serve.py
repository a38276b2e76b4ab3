#!/usr/bin/env python3
"""test_serve.py - integration tests of `deepprof serve`, the built-in web server: every
page kind of real profiles over HTTP, several files, the security cases (path traversal,
unknown pages and ids, malformed parameters, long URLs and headers, methods, names with
<script>), concurrency and keep-alive, the command line, and stopping on SIGINT/SIGTERM.

usage: test_serve.py --deepprof BIN --work DIR TEST
Exit status: 0 pass, 1 fail, 77 skip (a compiler is missing).
"""
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dpprofile import BaseCtx, CheckError, Checker, Skip, run_named_test  # noqa: E402

PROGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "progs")
URL_RE = re.compile(r"^deepprof: serving (.+) at (http://(\S+):(\d+)/)$")

# A C++ program whose procedure names hold HTML: a template instantiated on a type
# called "script", operator<< and operator&.
NASTY_CXX = r"""
    struct script {};
    struct Out { int n; };
    template <typename T> __attribute__((noinline)) int tag(int x) { return x + 1; }
    __attribute__((noinline)) Out &operator<<(Out &o, int v) { o.n += tag<script>(v); return o; }
    __attribute__((noinline)) int operator&(const Out &o, int m) { return o.n & m; }
    int main() {
        Out o = {0};
        for (int i = 0; i < 5; i++)
            o << i;
        return (o & 0) + 0;
    }
    """



class Server:
    """A running `deepprof serve` (a context manager that always stops it)."""

    def __init__(self, deepprof, files, args=(), cwd=None):
        self.argv = [deepprof, "serve", "--port", "0"] + list(args) + list(files)
        print("+ " + " ".join(self.argv), flush=True)
        self.proc = subprocess.Popen(self.argv, cwd=cwd, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline().rstrip("\n")
        m = URL_RE.match(line)
        if not m:
            self.proc.kill()
            out, err = self.proc.communicate()
            raise CheckError("no 'serving ... at URL' line: %r %r %r" % (line, out, err))
        self.files = m.group(1)
        self.url, self.host, self.port = m.group(2), m.group(3), int(m.group(4))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.communicate()

    def stop(self, sig=signal.SIGINT, timeout=10):
        """Send @sig; return (exit status, stdout, stderr)."""
        self.proc.send_signal(sig)
        out, err = self.proc.communicate(timeout=timeout)
        return self.proc.returncode, out, err

    def get(self, target, method="GET", headers=None, conn=None, raw=False):
        """One request for the raw @target ("/?file=0&page=menu"); returns (status,
        headers dict with lower-case names, body text, or bytes when @raw)."""
        c = conn or http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            c.putrequest(method, target, skip_host=False, skip_accept_encoding=True)
            for k, v in (headers or {}).items():
                c.putheader(k, v)
            c.endheaders()
            r = c.getresponse()
            body = r.read()
            if not raw:
                body = body.decode("utf-8", "replace")
            return r.status, {k.lower(): v for k, v in r.getheaders()}, body
        finally:
            if conn is None:
                c.close()


class Ctx(BaseCtx):
    def must(self, argv):
        print("+ " + " ".join(argv), flush=True)
        r = subprocess.run(argv, cwd=self.work, env=self.env, capture_output=True, text=True,
                           check=False)
        if r.returncode != 0:
            raise CheckError("%s failed (%d):\n%s%s" % (" ".join(argv), r.returncode,
                                                         r.stdout[-3000:], r.stderr[-3000:]))
        return r

    def profile(self, name, source, args=(), cxx=False, text=None):
        """Build progs/@source (or @text written to @source) with deepprof cc/c++, run
        it and return the data file's path."""
        compiler = "g++" if cxx else "gcc"
        if not shutil.which(compiler):
            raise Skip(compiler)
        src = os.path.join(PROGS, source)
        if text is not None:
            src = os.path.join(self.work, source)
            with open(src, "w") as f:
                f.write(textwrap.dedent(text))
        exe = os.path.join(self.work, name)
        self.must([self.deepprof, "c++" if cxx else "cc", "-O0", "-I", PROGS, src, "-o", exe])
        data = os.path.join(self.work, name + ".data")
        self.must([self.deepprof, "run", "-o", data, exe] + [str(a) for a in args])
        return data

    def serve(self, files, args=()):
        return Server(self.deepprof, files, args, cwd=self.work)


def links(body, page):
    """The query strings of the links to page=@page in an HTML body (unescaped)."""
    out = []
    for href in re.findall(r'href="([^"]*)"', body):
        href = href.replace("&amp;", "&")
        q = href.split("?", 1)[-1]
        if re.search(r"(^|&)page=%s(&|$)" % re.escape(page), q):
            out.append(href)
    return out


def first_id(body, page, key="id"):
    for href in links(body, page):
        m = re.search(r"(?:^|[?&])%s=(\d+)" % key, href)
        if m:
            return int(m.group(1))
    return None


SEC_HEADERS = ("content-security-policy", "x-content-type-options")


def check_page(ck, srv, target, status=200, ctype="text/html", contains=()):
    st, hd, body = srv.get(target)
    ck.eq("%s: status" % target, st, status)
    ck.true("%s: content type %r starts with %r" % (target, hd.get("content-type"), ctype),
            hd.get("content-type", "").startswith(ctype))
    for h in SEC_HEADERS:
        ck.true("%s: header %s" % (target, h), h in hd)
    for s in contains:
        ck.true("%s: contains %r" % (target, s), s in body)
    return body


def t_pages(ctx, ck):
    """Every page kind of one profile: status, content type, content, links."""
    data = ctx.profile("rec", "recursion.c", args=(10, 10))
    with ctx.serve([data]) as srv:
        ck.eq("URL host", srv.host, "127.0.0.1")
        menu = check_page(ck, srv, "/", contains=("<!DOCTYPE html>", "rec.data"))
        ck.eq("/ and /?file=0&page=menu are the same page",
              srv.get("/?file=0&page=menu")[2], menu)
        ck.true("menu links carry file=0", all(h.startswith("/?file=0&")
                                                for h in links(menu, "root")))
        root = check_page(ck, srv, "/?file=0&page=root")
        clique = first_id(root, "clique")
        ck.true("root links to a clique", clique is not None)
        cl = check_page(ck, srv, "/?file=0&page=clique&id=%d" % clique)
        proc = first_id(cl, "proc")
        ck.true("clique page links to a procedure", proc is not None)
        check_page(ck, srv, "/?file=0&page=proc&id=%d" % proc)
        check_page(ck, srv, "/?file=0&page=callers&proc=%d" % proc)
        check_page(ck, srv, "/?file=0&page=flame_callers&proc=%d" % proc, contains=("<svg",))
        top = check_page(ck, srv, "/?file=0&page=top&metric=calls",
                         contains=("is_even", "is_odd"))
        ck.true("top links to is_even's procedure page", re.search(
            r'href="/\?file=0&amp;page=proc&amp;id=\d+">is_even<', top) is not None)
        mods = check_page(ck, srv, "/?file=0&page=modules", contains=("recursion.c",))
        mod = first_id(mods, "module")
        ck.true("modules page links to a module", mod is not None)
        check_page(ck, srv, "/?file=0&page=module&id=%d" % mod, contains=("is_even",))
        check_page(ck, srv, "/?file=0&page=action")
        check_page(ck, srv, "/?file=0&page=threads")
        flame = check_page(ck, srv, "/?file=0&page=flame&metric=callseqs",
                           contains=("<svg", "is_even"))
        ck.true("flame graph rects link to cliques", links(flame, "clique") != [])
        site = first_id(check_page(ck, srv, "/?file=0&page=proc&id=%d" % proc), "site")
        if site is not None:
            check_page(ck, srv, "/?file=0&page=site&id=%d" % site)
        for dump in ("dump_ps", "dump_pd", "dump_css", "dump_csd", "dump_clique"):
            check_page(ck, srv, "/?file=0&page=%s&id=1" % dump)
        st, hd, body = srv.get("/?file=0&page=top&metric=calls&format=json")
        ck.eq("format=json: status", st, 200)
        ck.eq("format=json: content type", hd.get("content-type", "").split(";")[0],
              "application/json")
        doc = json.loads(body)
        ck.eq("format=json: the top page", doc.get("page"), "top")
        st, hd, body = srv.get("/?file=0&page=top&metric=calls&format=text")
        ck.eq("format=text: content type", hd.get("content-type", "").split(";")[0],
              "text/plain")
        ck.true("format=text: is_even in the table", "is_even" in body)
        # keep-alive: three requests over one connection
        conn = http.client.HTTPConnection(srv.host, srv.port, timeout=30)
        got = [srv.get(t, conn=conn)[0] for t in ("/", "/?file=0&page=top", "/nope")]
        conn.close()
        ck.eq("keep-alive: three answers on one connection", got, [200, 200, 404])
        # Server-Timing: the time spent answering (wall and CPU, ms), for benchmarks
        st, hd, body = srv.get("/?file=0&page=menu")
        m = re.fullmatch(r"app;dur=(\d+\.\d{3}), cpu;dur=(\d+\.\d{3})",
                         hd.get("server-timing", ""))
        ck.true("Server-Timing: app and cpu durations (%r)" % hd.get("server-timing"),
                m is not None)
        if m:
            ck.true("Server-Timing: under a minute, cpu within wall + 1 ms (%s, %s)"
                    % m.groups(), float(m.group(1)) < 60000 and
                    float(m.group(2)) <= float(m.group(1)) + 1.0)
        st, hd, body = srv.get("/?file=0&page=menu", method="HEAD")
        ck.eq("HEAD: status", st, 200)
        ck.eq("HEAD: no body", body, "")
        ck.eq("HEAD: the GET's length", int(hd.get("content-length", -1)),
              len(menu.encode("utf-8")))
        rc, out, err = srv.stop(signal.SIGINT)
        ck.eq("SIGINT: exit status", rc, 0)
        ck.true("SIGINT: says it stopped (%r)" % out, "server stopped" in out)


DOWNLOADS = {"callgrind": ("text/plain", "callgrind.out.%s"), "pprof":
             ("application/octet-stream", "%s.pb.gz"), "folded": ("text/plain", "%s.folded"),
             "speedscope": ("application/json", "%s.speedscope.json"),
             "dot": ("text/vnd.graphviz", "%s.dot"), "json": ("application/json", "%s.json")}


def t_downloads(ctx, ck):
    """The "download as" menu of every page: each format of the page's subtree (whole
    profile, clique, procedure; view=threads kept) is byte for byte what `deepprof
    export` writes, with its Content-Type and file name; bad formats are 400 pages."""
    data = ctx.profile("rec", "recursion.c", args=(10, 10))
    with ctx.serve([data]) as srv:
        root = check_page(ck, srv, "/?file=0&page=root")
        clique = first_id(root, "clique")
        proc = first_id(check_page(ck, srv, "/?file=0&page=clique&id=%d" % clique), "proc")
        pages = [("page=top", "", "rec"),
                 ("page=clique&id=%d" % clique, "page=clique&id=%d" % clique,
                  "rec-clique%d" % clique),
                 ("page=proc&id=%d&view=threads" % proc, "page=proc&id=%d&view=threads" % proc,
                  "rec-proc%d-threads" % proc)]
        for page, query, stem in pages:
            body = check_page(ck, srv, "/?file=0&" + page, contains=("Download as",))
            hrefs = [h.replace("&amp;", "&") for h in
                     re.findall(r'<a download href="([^"]*)"', body)]
            ck.eq("%s: one download link per format" % page,
                  [h.rsplit("download=", 1)[-1] for h in hrefs], list(DOWNLOADS))
            for href in hrefs:
                fmt = href.rsplit("download=", 1)[-1]
                st, hd, got = srv.get(href, raw=True)
                ck.eq("%s: status" % href, st, 200)
                ctype, name = DOWNLOADS[fmt]
                # json is the whole file, in the merged view, whatever the page
                q, base = (query, stem) if fmt != "json" else ("", "rec")
                ck.true("%s: content type %r" % (href, hd.get("content-type")),
                        hd.get("content-type", "").startswith(ctype))
                ck.eq("%s: file name" % href, hd.get("content-disposition"),
                      'attachment; filename="%s"' % (name % base))
                out = os.path.join(ctx.work, "cli." + fmt)
                ctx.must([ctx.deepprof, "export", "--format=" + fmt, data] + ([q] if q else [])
                         + ["-o", out])
                with open(out, "rb") as f:
                    want = f.read()
                # (folded stacks of time: none in a run this short without samples)
                ck.true("%s: the bytes of deepprof export %s (%d, %d bytes)"
                        % (href, q, len(got), len(want)),
                        got == want and (len(want) > 0 or fmt == "folded"))
        st, hd, body = srv.get("/?file=0&page=clique&id=%d&download=nope" % clique)
        ck.eq("bad format: 400", st, 400)
        ck.true("bad format: a page listing the formats",
                hd.get("content-type", "").startswith("text/html") and
                "unknown format" in body and "speedscope" in body)
        ck.true("bad format: no file name", "content-disposition" not in hd)
        st, hd, body = srv.get("/?file=0&page=clique&id=999999&download=folded&format=json")
        ck.eq("bad clique: 400", st, 400)
        ck.eq("bad clique: the error in JSON", json.loads(body).get("status"), 400)
        st, hd, body = srv.get("/?file=0&download=dot", method="HEAD")
        ck.eq("HEAD of a download: status", st, 200)
        ck.true("HEAD of a download: a length", int(hd.get("content-length", 0)) > 0)


def t_files(ctx, ck):
    """Several files: the index, file=N, and what is not one of them."""
    a = ctx.profile("rec", "recursion.c", args=(6, 6))
    b = ctx.profile("qs", "qsort.c", args=(50,))
    with ctx.serve([a, b]) as srv:
        ck.eq("URL line names both files", srv.files, "%s, %s" % (a, b))
        idx = check_page(ck, srv, "/", contains=(a, b, 'href="/?file=0"', 'href="/?file=1"'))
        ck.true("index is not a profile page", "page=root" not in idx)
        m1 = check_page(ck, srv, "/?file=1", contains=("qs.data",))
        ck.true("file=1 links keep file=1", links(m1, "root") and all(
            h.startswith("/?file=1&") for h in links(m1, "root")))
        check_page(ck, srv, "/?file=0&page=top&metric=calls", contains=("is_even",))
        check_page(ck, srv, "/?page=top&file=1&metric=calls", contains=("qs.data",))
        check_page(ck, srv, "/?page=menu", status=400, contains=('href="/?file=1"',))
        for bad, st in (("2", 404), ("99999999999999", 404), ("-1", 404), ("abc", 404),
                        ("", 404), ("0x1", 404), ("1.0", 404), ("%2e%2e%2f%2e%2e%2fetc%2fpasswd",
                                                                 400),
                        ("../../etc/passwd", 400), (urllib.parse.quote(a, safe=""), 400),
                        ("%00", 400), ("%zz", 400)):
            body = check_page(ck, srv, "/?file=%s" % bad, status=st)
            ck.true("file=%s: no file contents" % bad, "root:x:0" not in body)
        check_page(ck, srv, "/?file=0&file=1", status=400)
        check_page(ck, srv, "/?file=1&file=1", contains=("qs.data",))
        st, hd, body = srv.get("/?file=7&format=json")
        ck.eq("file=7&format=json: 404", st, 404)
        ck.eq("file=7&format=json: a JSON error", json.loads(body).get("status"), 404)
        # format= is read first: the errors of the router and of the query, one shape
        for qs, want in (("file=0&page=bogus&format=json", 400),
                         ("format=json&page=menu", 400),
                         ("format=json&file=0&file=1", 400),
                         ("file=0&page=clique&id=999999&format=json", 404),
                         ("file=0&page=quit&format=json", 400)):
            st, hd, body = srv.get("/?" + qs)
            ck.eq(qs + ": status", st, want)
            ck.eq(qs + ": content type", hd.get("content-type", "").split(";")[0],
                  "application/json")
            try:
                doc = json.loads(body)
            except ValueError:
                doc = {}
            ck.eq(qs + ": the error shape", sorted(doc), ["error", "status"])
            ck.eq(qs + ": its status", doc.get("status"), want)
            ck.true(qs + ": no server-control page offered", "quit" not in
                    str(doc.get("error")) or "unknown page 'quit'" in doc.get("error"))
        rc, out, err = srv.stop(signal.SIGTERM)
        ck.eq("SIGTERM: exit status", rc, 0)
        ck.true("SIGTERM: says it stopped", "server stopped" in out)


def t_security(ctx, ck):
    """Path traversal, unknown pages and ids, malformed parameters, long requests, methods,
    and procedure names holding HTML."""
    data = ctx.profile("nasty", "nasty.cpp", cxx=True, text=NASTY_CXX)
    with ctx.serve([data]) as srv:
        for path in ("/../../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/etc/passwd",
                     "/..%2f..%2fetc%2fpasswd", "//etc/passwd", "/index.html", "/x?file=0",
                     "/%00", "/./", "/" + "a" * 4000):
            body = check_page(ck, srv, path, status=404)
            ck.true("%s: no file contents" % path[:40], "root:x:0" not in body)
        check_page(ck, srv, "/?page=nope", status=400, contains=("clique",))
        for q in ("page=clique&id=999999", "page=proc&id=999999", "page=module&id=999999",
                  "page=site&id=999999", "page=proc&name=no_such_function"):
            check_page(ck, srv, "/?" + q, status=404)
        for q in ("page=clique&id=abc", "page=clique&id=-1", "page=clique&id=1e3",
                  "page=top&limit=zz", "page=menu&nosuch=1", "page=menu&page=top",
                  "page=%zz", "page=menu%", "page=quit", "page=timeout&timeout=1",
                  "page=top&metric=<b>", "=", "&&&page=x"):
            check_page(ck, srv, "/?" + q, status=400)
        body = check_page(ck, srv, "/?page=%3Cscript%3Ealert(1)%3C/script%3E", status=400)
        ck.true("bad page name is escaped", "<script>alert" not in body and
                "&lt;script&gt;alert" in body)
        # names holding HTML
        top = check_page(ck, srv, "/?page=top&metric=calls&limit=1-1000")
        ck.true("tag<script> is escaped on the top page", "tag&lt;script&gt;" in top)
        ck.true("operator<< is escaped on the top page", "operator&lt;&lt;" in top)
        ck.true("no raw tag<script> anywhere", "tag<script>" not in top)
        ck.true("no raw operator<<", "operator<<" not in top)
        for page in ("flame", "root", "modules"):
            body = srv.get("/?page=" + page + "&min=0")[2]
            ck.true("%s: no raw tag<script>" % page, "tag<script>" not in body)
        proc = None
        for href in re.findall(r'href="([^"]*)"[^>]*>([^<]*)<', top):
            if "tag&lt;script&gt;" in href[1]:
                proc = re.search(r"id=(\d+)", href[0])
        if proc:
            pid = int(proc.group(1))
            for q in ("page=proc&id=%d" % pid, "page=callers&proc=%d" % pid,
                      "page=flame_callers&proc=%d" % pid):
                body = check_page(ck, srv, "/?" + q, contains=("tag&lt;script&gt;",))
                ck.true("%s: no raw tag<script>" % q, "tag<script>" not in body)
        ck.true("tag<script> found on the top page with a link", proc is not None)
        # long URLs and headers
        for n in (9000, 100 * 1024):
            st = srv.get("/?page=menu&name=" + "a" * n)[0]
            ck.eq("URL of %d bytes: 414" % n, st, 414)
        st = srv.get("/?page=menu", headers={"X-Big": "b" * (100 * 1024)})[0]
        ck.true("100 KiB header: 4xx (got %d)" % st, 400 <= st < 500)
        st = srv.get("/?page=menu", headers={"X-H%d" % i: "v" for i in range(2000)})[0]
        ck.true("2000 headers: 4xx (got %d)" % st, 400 <= st < 500)
        # methods
        for m in ("POST", "PUT", "DELETE", "OPTIONS", "TRACE", "BREW"):
            st, hd, body = srv.get("/?page=menu", method=m)
            ck.eq("%s: status" % m, st, 405 if m != "BREW" else st)
            if m != "BREW":
                ck.eq("%s: Allow header" % m, hd.get("allow"), "GET, HEAD")
        ck.true("BREW: 4xx/5xx", srv.get("/", method="BREW")[0] >= 400)
        c = http.client.HTTPConnection(srv.host, srv.port, timeout=30)
        c.request("POST", "/?page=menu", body="x" * 100000,
                  headers={"Content-Type": "text/plain"})
        ck.eq("POST with a body: 405", c.getresponse().status, 405)
        c.close()
        # garbage on the socket, then the server still answers
        s = socket.create_connection((srv.host, srv.port), timeout=10)
        s.sendall(b"\x00\x01GARBAGE \xff\xfe\r\n\r\n")
        try:
            reply = s.recv(200)
        except OSError:
            reply = b""
        s.close()
        ck.true("garbage request: 400 or closed (%r)" % reply[:20],
                reply == b"" or reply.startswith(b"HTTP/1.1 4"))
        ck.eq("still answering after the attacks", srv.get("/")[0], 200)
        hd = srv.get("/")[1]
        csp = hd.get("content-security-policy", "")
        ck.true("CSP denies by default (%r)" % csp, "default-src 'none'" in csp)
        ck.eq("nosniff", hd.get("x-content-type-options"), "nosniff")
        rc = srv.stop()[0]
        ck.eq("exit status", rc, 0)


def t_concurrency(ctx, ck):
    """Parallel clients get the same answers as a lone client."""
    data = ctx.profile("rec", "recursion.c", args=(8, 8))
    with ctx.serve([data]) as srv:
        targets = ["/", "/?page=top&metric=calls", "/?page=flame", "/?page=modules",
                   "/?page=nope", "/?file=3"]
        want = {t: srv.get(t)[:3:2] for t in targets}
        bad = []

        def client(k):
            conn = http.client.HTTPConnection(srv.host, srv.port, timeout=60)
            for i in range(30):
                t = targets[(k + i) % len(targets)]
                st, _, body = srv.get(t, conn=conn)
                if (st, body) != want[t]:
                    bad.append((t, st))
            conn.close()

        threads = [threading.Thread(target=client, args=(k,)) for k in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        ck.eq("8 clients x 30 requests: every answer as expected", bad, [])
        ck.eq("exit status", srv.stop()[0], 0)


def t_threads(ctx, ck):
    """The per-thread view, which `deepprof serve` analyses on a background thread right
    after the load: its pages equal the command line's, whether asked at once or later,
    and the merged view's pages are unchanged."""
    data = ctx.profile("thr", "threads.c", args=(50,))
    queries = ["page=top&view=threads&metric=calls&format=json",
               "page=flame&view=threads&metric=callseqs&min=0&format=json",
               "page=threads&format=json",
               "page=top&metric=calls&format=json",
               "page=flame&metric=callseqs&min=0&format=json"]
    want = {q: ctx.must([ctx.deepprof, "report", data, q]).stdout for q in queries}
    ck.true("the two views differ on this profile",
            want[queries[0]] != want[queries[3]])
    for wait in (0, 1.0):
        with ctx.serve([data]) as srv:
            time.sleep(wait)  # at once: the query waits for the background analysis
            for q in queries:
                st, _, body = srv.get("/?file=0&" + q)
                ck.eq("%s after %.0f s: status" % (q, wait), st, 200)
                ck.eq("%s after %.0f s: as the command line answers" % (q, wait),
                      body, want[q])
            ck.eq("exit status", srv.stop()[0], 0)


def t_cli(ctx, ck):
    """The command line: help, usage errors, unreadable files, ports in use, --bind."""
    def run(args):
        print("+ deepprof serve " + " ".join(args), flush=True)
        return subprocess.run([ctx.deepprof, "serve"] + args, capture_output=True, text=True,
                              timeout=30, cwd=ctx.work)

    r = run(["--help"])
    ck.eq("--help: exit status", r.returncode, 0)
    ck.true("--help: usage", "usage: deepprof serve" in r.stdout)
    for args in ([], ["--port"], ["--port", "70000", "x"], ["--port", "-1", "x"],
                 ["--port", "abc", "x"], ["--nope", "x"], ["--bind=", "x"]):
        r = run(args)
        ck.eq("%s: exit status" % args, r.returncode, 2)
        ck.true("%s: usage on stderr" % args, "usage: deepprof serve" in r.stderr)
    r = run([os.path.join(ctx.work, "missing.data")])
    ck.eq("missing file: exit status", r.returncode, 2)
    ck.true("missing file: named", "missing.data" in r.stderr)
    data = ctx.profile("rec", "recursion.c", args=(4, 4))
    with ctx.serve([data]) as srv:
        r = run(["--port", str(srv.port), data])
        ck.eq("port in use: exit status", r.returncode, 1)
        ck.true("port in use: message (%r)" % r.stderr, str(srv.port) in r.stderr)
        r = run(["--bind", "no.such.host.invalid", data])
        ck.eq("unknown bind address: exit status", r.returncode, 1)
        srv.stop()
    if socket.has_ipv6:
        try:
            socket.socket(socket.AF_INET6).bind(("::1", 0))
            v6 = True
        except OSError:
            v6 = False
        if v6:
            with ctx.serve([data], args=["--bind", "::1"]) as srv:
                ck.true("--bind ::1: URL %r" % srv.url, srv.url.startswith("http://[::1]:"))
                c = http.client.HTTPConnection("::1", srv.port, timeout=30)
                c.request("GET", "/")
                ck.eq("--bind ::1: answers", c.getresponse().status, 200)
                c.close()
                srv.stop()
    contour = os.path.join(ctx.work, "c.contour")
    with open(contour, "w") as f:
        f.write("# test\nall recursion.c\nall no_such_module.c\n")
    with ctx.serve([data], args=["--contour", contour]) as srv:
        ck.eq("--contour: serves", srv.get("/?page=callers&proc=2&contour=1")[0], 200)
        rc, out, err = srv.stop()
        ck.eq("--contour: exit status", rc, 0)
        ck.true("--contour: the unknown module is a warning (%r)" % err,
                re.search(r"^deepprof: .*rec\.data: warning: .*no_such_module", err, re.M))
    r = run(["--contour", os.path.join(ctx.work, "missing.contour"), data])
    ck.eq("missing contour file: exit status", r.returncode, 2)
    bindir = os.path.join(ctx.work, "fakebin")
    os.makedirs(bindir, exist_ok=True)
    opened = os.path.join(ctx.work, "opened.txt")
    with open(os.path.join(bindir, "xdg-open"), "w") as f:
        f.write("#!/bin/sh\necho \"$@\" > %s\n" % opened)
    os.chmod(os.path.join(bindir, "xdg-open"), 0o755)
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    p = subprocess.Popen([ctx.deepprof, "serve", "--open", "--port", "0", data], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ctx.work)
    m = URL_RE.match(p.stdout.readline().strip())
    for _ in range(100):
        if os.path.exists(opened) and os.path.getsize(opened):
            break
        time.sleep(0.05)
    p.send_signal(signal.SIGINT)
    p.communicate(timeout=10)
    with open(opened) if os.path.exists(opened) else open(os.devnull) as f:
        got = f.read().strip()
    ck.eq("--open: xdg-open gets the URL", got, m.group(2) if m else "?")
    env = dict(os.environ, PATH="/nonexistent")
    p = subprocess.Popen([ctx.deepprof, "serve", "--open", "--port", "0", data], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ctx.work)
    line = p.stdout.readline()
    ck.true("--open without xdg-open: still serves (%r)" % line, URL_RE.match(line.strip()))
    time.sleep(0.2)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=10)
    ck.eq("--open without xdg-open: exit status", p.returncode, 0)
    ck.true("--open without xdg-open: a warning (%r)" % err, "xdg-open" in err)


TESTS = {"pages": t_pages, "downloads": t_downloads, "files": t_files, "security": t_security,
         "concurrency": t_concurrency, "threads": t_threads, "cli": t_cli}


def main():
    return run_named_test(TESTS, Ctx, "serve_")


if __name__ == "__main__":
    sys.exit(main())
