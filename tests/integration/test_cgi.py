#!/usr/bin/env python3
"""test_cgi.py - deepprof-cgi end to end: lighttpd (Debian) on a free loopback port runs
the CGI program; bursts of parallel requests for many pages, some arriving just as the
servers' 1-second idle timeout fires, must each get exactly the page that a run of the
program without any server renders; afterwards no deepprof-cgi process, pipe, lock, want
or reply file may be left. Also: path traversal and symlink escapes (403), unknown pages
and bad parameters (400), long query strings (4xx), escaped names, page=quit and
page=timeout, recovery from a killed server and a stale lock, --no-detach, and a protocol
directory others may write to (refused).

usage: test_cgi.py --deepprof BIN --cgi BIN --work DIR [--lighttpd BIN]
Exit status: 0 pass, 1 fail, 77 skip (lighttpd or a compiler missing).
"""
import argparse
import ctypes
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dpprofile import Skip  # noqa: E402

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples",
                       "wordfreq.c")
SCRIPT = "/cgi-bin/deepprof-cgi"
TIMEOUT = 0.5  # the servers' idle timeout, seconds (--timeout-ms)
PIPE_BUF = 4096

# Pages asked for in the bursts: valid and invalid, small (inline replies) and large
# (reply files). Whatever the session answers, the server must give the same bytes.
PAGES = ["", "page=menu", "page=root", "page=action", "page=clique&id=1",
         "page=clique&id=2", "page=proc&id=2", "page=callers&proc=2", "page=modules",
         "page=top", "page=top&limit=1-1000&metric=calls", "page=flame", "page=threads",
         "page=nosuchpage", "page=menu&format=json", "page=clique&id=999999",
         "page=clique&id=999999&format=json"]



class Fail(Exception):
    pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def parse_cgi(raw):
    """A CGI response -> (status, {header: value}, body)."""
    head, sep, body = raw.partition(b"\r\n\r\n")
    if not sep:
        raise Fail("not a CGI response: %r" % raw[:200])
    headers = {}
    for line in head.decode().split("\r\n"):
        k, _, v = line.partition(":")
        headers[k.strip().lower()] = v.strip()
    return int(headers.get("status", "200").split()[0]), headers, body


def mangle(path):
    return path.replace(":", "::").replace("/", ":.")


class Ctx:
    def __init__(self, args):
        self.deepprof = os.path.abspath(args.deepprof)
        self.work = os.path.abspath(args.work)
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        self.root = os.path.join(self.work, "root")
        self.rundir = os.path.join(self.work, "run")
        self.log = os.path.join(self.work, "cgi.log")
        self.htdocs = os.path.join(self.work, "htdocs")
        os.makedirs(os.path.join(self.htdocs, "cgi-bin"))
        os.makedirs(self.root)
        # the web server runs a copy, so that its processes are told apart by their exe
        self.cgi = os.path.join(self.htdocs, "cgi-bin", "deepprof-cgi")
        shutil.copy(args.cgi, self.cgi)
        self.lighttpd = args.lighttpd or shutil.which("lighttpd") or "/usr/sbin/lighttpd"
        self.failures = []

    def check(self, what, ok, detail=""):
        print("%s: %s%s" % ("ok" if ok else "FAIL", what, "" if ok else " -- " + detail),
              flush=True)
        if not ok:
            self.failures.append(what)

    def cgi_env(self, **kw):
        env = {"PATH": "/usr/bin:/bin", "DEEPPROF_CGI_ROOT": self.root,
               "DEEPPROF_CGI_DIR": self.rundir, "DEEPPROF_CGI_TIMEOUT": timeout_env(),
               "DEEPPROF_CGI_LOG": self.log, "SCRIPT_NAME": SCRIPT, "REQUEST_METHOD": "GET",
               "GATEWAY_INTERFACE": "CGI/1.1"}
        env.update(self.san_env())
        env.update({k: v for k, v in kw.items() if v is not None})
        for k in [k for k, v in kw.items() if v is None]:
            env.pop(k, None)
        return env

    def san_env(self):
        """Sanitizer reports of detached servers (whose stderr is /dev/null) go to files
        (harmless for a binary built without sanitizers)."""
        return {"ASAN_OPTIONS": "log_path=%s/asan" % self.work,
                "UBSAN_OPTIONS": "log_path=%s/ubsan:print_stacktrace=1" % self.work}

    def sanitizer_reports(self):
        return [f for f in os.listdir(self.work) if f.startswith(("asan.", "ubsan."))]

    def direct(self, query, argv=(), **kw):
        """Run the CGI program by hand; returns (status, headers, body)."""
        r = subprocess.run([self.cgi] + list(argv), env=self.cgi_env(QUERY_STRING=query, **kw),
                           capture_output=True, timeout=60, check=False)
        return parse_cgi(r.stdout)


def make_profile(ctx):
    for cc in ("gcc", "clang"):
        if shutil.which(cc):
            break
    else:
        raise Skip("no C compiler")
    exe = os.path.join(ctx.work, "wordfreq")
    env = dict(os.environ, DEEPPROF_CC=cc)
    env.pop("DEEPPROF_OUTPUT", None)
    subprocess.run([ctx.deepprof, "cc", "-O1", "-o", exe, EXAMPLE], env=env, check=True,
                   cwd=ctx.work)
    data = os.path.join(ctx.root, "wf.data")
    subprocess.run([ctx.deepprof, "run", "-o", data, "--", exe, "30000"], env=env, check=True,
                   cwd=ctx.work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with open(os.path.join(ctx.root, "notprofile.data"), "w") as f:
        f.write("this is not a deepprof data file\n")
    os.symlink("/etc/passwd", os.path.join(ctx.root, "escape.data"))
    os.symlink("/", os.path.join(ctx.root, "updir"))
    return data


class Lighttpd:
    def __init__(self, ctx):
        self.ctx = ctx
        self.port = free_port()
        self.conf = os.path.join(ctx.work, "lighttpd.conf")
        env = ", ".join('"%s" => "%s"' % (k, v) for k, v in (
            ("DEEPPROF_CGI_ROOT", ctx.root), ("DEEPPROF_CGI_DIR", ctx.rundir),
            ("DEEPPROF_CGI_TIMEOUT", timeout_env()), ("DEEPPROF_CGI_LOG", ctx.log))
            + tuple(ctx.san_env().items()))
        with open(self.conf, "w") as f:
            f.write('server.document-root = "%s"\n' % ctx.htdocs)
            f.write('server.port = %d\nserver.bind = "127.0.0.1"\n' % self.port)
            f.write('server.errorlog = "%s"\n' % os.path.join(ctx.work, "lighttpd.log"))
            f.write('server.modules = ("mod_setenv", "mod_cgi")\n')
            f.write('server.max-worker = 0\n')
            f.write('$HTTP["url"] =~ "^/cgi-bin/" { cgi.assign = ("" => "") }\n')
            f.write('setenv.add-environment = (%s)\n' % env)
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen([self.ctx.lighttpd, "-D", "-f", self.conf])
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise Fail("lighttpd did not start (see %s)" % self.conf)

    def stop(self):
        if self.proc:
            self.proc.terminate()
            self.proc.wait(timeout=10)

    def request(self, query, method="GET", path=SCRIPT):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        try:
            c.request(method, path + ("?" + query if query is not None else ""))
            r = c.getresponse()
            return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
        finally:
            c.close()


def cgi_processes(ctx, servers_only=False):
    """Live processes running our copy of deepprof-cgi (with @servers_only, only the
    detached servers: session leaders, unlike a CGI client still exiting after its reply);
    reaps our zombie children (we are a subreaper, so detached servers whose parent exited
    are ours)."""
    live = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        pid = int(name)
        try:
            with open("/proc/%d/stat" % pid) as f:
                stat = f.read()
        except OSError:
            continue
        rest = stat[stat.rindex(")") + 2:].split()
        state, ppid = rest[0], int(rest[1])
        if state == "Z":
            if ppid == os.getpid():
                try:
                    os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    pass
            continue
        if servers_only and int(rest[3]) != pid:
            continue
        try:
            if os.readlink("/proc/%d/exe" % pid) == ctx.cgi:
                live.append(pid)
        except OSError:
            pass
    return live


def wait_all_gone(ctx, seconds):
    deadline = time.time() + seconds
    while True:
        procs, files = cgi_processes(ctx), sorted(os.listdir(ctx.rundir))
        if (not procs and not files) or time.time() > deadline:
            return procs, files
        time.sleep(0.1)


def log_count(ctx, word):
    try:
        with open(ctx.log) as f:
            return sum(1 for line in f if word in line)
    except FileNotFoundError:
        return 0


def expected_pages(ctx):
    """Each page rendered by a run of the program with no server (it loads the file
    itself, in its own protocol directory, and its server then times out)."""
    exp = {}
    for i, q in enumerate(PAGES):
        d = os.path.join(ctx.work, "direct%d" % i)
        exp[q] = ctx.direct("file=wf.data" + ("&" + q if q else ""), DEEPPROF_CGI_DIR=d)
    ctx.check("the menu renders (200)", exp["page=menu"][0] == 200, str(exp["page=menu"][:2]))
    for q, (st, hd, body) in exp.items():
        print("info: %-40s %d %-26s %7d bytes" % (q or "(menu)", st, hd.get("content-type"),
                                                   len(body)))
    sizes = [len(b) for _, _, b in exp.values()]
    ctx.check("pages both under and over PIPE_BUF (%d..%d bytes)" % (min(sizes), max(sizes)),
              min(sizes) < PIPE_BUF - 300 and max(sizes) > PIPE_BUF)
    ctx.check("an unknown page is 400", exp["page=nosuchpage"][0] == 400,
              str(exp["page=nosuchpage"][0]))
    compare_report(ctx, exp)
    return exp


def compare_report(ctx, exp):
    """The CGI program's JSON (no links in it) equals `deepprof report --format=json`'s:
    the same answer from an independent process, with the query echoed the same way."""
    data = os.path.join(ctx.root, "wf.data")
    same = 0
    for q in PAGES:
        if "format=" in q:
            continue
        jq = (q + "&" if q else "") + "format=json"
        r = subprocess.run([ctx.deepprof, "report", "--format=json", data, jq],
                           capture_output=True, timeout=60, check=False)
        st, hd, body = ctx.direct("file=wf.data&" + jq, DEEPPROF_CGI_DIR=os.path.join(
            ctx.work, "json"))
        if r.returncode != 0:
            ctx.check("report refuses %s; so does the CGI program (%d)" % (q, st),
                      400 <= st < 500)
            continue
        ctx.check("JSON of %s equals deepprof report's" % (q or "(menu)"),
                  st == 200 and hd.get("content-type") == "application/json" and
                  body == r.stdout, "%d %d bytes vs %d" % (st, len(body), len(r.stdout)))
        same += 1
    ctx.check("most pages compared with deepprof report (%d)" % same, same >= 8)


def timeout_env():
    """DEEPPROF_CGI_TIMEOUT for the servers: TIMEOUT in milliseconds."""
    return "%dms" % round(TIMEOUT * 1000)


def burst(ctx, lt, exp, n_threads=20, per_thread=10, offset=0):
    errors = []

    def worker(t):
        for k in range(per_thread):
            q = PAGES[(offset + t * per_thread + k) % len(PAGES)]
            try:
                st, hd, body = lt.request("file=wf.data" + ("&" + q if q else ""))
            except Exception as e:  # noqa: BLE001 - any failure is a wrong answer
                errors.append("%s: %r" % (q, e))
                continue
            est, ehd, ebody = exp[q]
            if (st, hd.get("content-type"), body) != (est, ehd.get("content-type"), ebody):
                errors.append("%s: got %d %s %d bytes, want %d %s %d bytes" % (
                    q, st, hd.get("content-type"), len(body), est, ehd.get("content-type"),
                    len(ebody)))

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


def test_bursts(ctx, lt, exp, quick):
    # around the timeout: a burst a little before it, just at it (the CGI program takes a
    # few ms to start), and after it (the server has stopped: a new one starts); quick
    # (the sanitized builds, whose processes start slowly): one small burst, for the
    # sanitizers to see the server under concurrent clients
    gaps = [TIMEOUT + (t - 1.0) for t in
            (1.0, 0.995, 0.99, 1.5, 0.997, 0.993, 1.0, 0.985, 1.1, 0.999, 1.003, 0.996)]
    if quick:
        gaps = []
    stops0, breaks0 = log_count(ctx, "stopping"), log_count(ctx, "breaking")
    died0, carry0 = log_count(ctx, "has died"), log_count(ctx, "carrying on")
    total = 0
    for i in range(len(gaps) + 1):
        per = 2 if quick else 10
        errors = burst(ctx, lt, exp, per_thread=per, offset=i)
        total += 20 * per
        ctx.check("burst %d: %d parallel requests, each the right page" % (i, 20 * per),
                  not errors,
                  "; ".join(errors[:5]) + (" (%d wrong)" % len(errors)))
        if i < len(gaps):
            time.sleep(gaps[i])
    stops = log_count(ctx, "stopping") - stops0
    print("info: %d idle timeouts carried on because a client was arriving" %
          (log_count(ctx, "carrying on") - carry0))
    ctx.check("servers timed out between bursts (%d times)" % stops, stops >= 1 or quick)
    procs, files = wait_all_gone(ctx, TIMEOUT + 10)
    ctx.check("after the last timeout: no deepprof-cgi process", not procs, str(procs))
    ctx.check("after the last timeout: no pipe, lock, want or reply file", not files,
              str(files))
    ctx.check("no server died or was replaced", log_count(ctx, "has died") == died0)
    ctx.check("no lock was broken", log_count(ctx, "breaking") == breaks0)


def test_security(ctx, lt):
    def status(q, want, what):
        st, hd, body = lt.request(q)
        ok = st == want if isinstance(want, int) else want(st)
        ctx.check("%s -> %s (got %d)" % (what, want if isinstance(want, int) else "4xx", st),
                  ok and b"root:x:0:0" not in body, body[:200].decode(errors="replace"))
        return st, hd, body

    def is4xx(s):
        return 400 <= s < 500

    q = urllib.parse.quote
    status("file=/etc/passwd", 403, "absolute path outside the root")
    status("file=../../etc/passwd", 403, "relative .. traversal")
    status("file=%2e%2e%2f%2e%2e%2fetc%2fpasswd", 403, "percent-encoded traversal")
    status("file=" + q(ctx.root + "/../../etc/passwd", safe=""), 403, "root/../.. traversal")
    status("file=" + q(ctx.root + "/./wf.data", safe=""), 403, "a '.' component")
    status("file=escape.data", 403, "symlink to a file outside the root")
    status("file=updir/etc/passwd", 403, "symlink to a directory outside the root")
    status("file=/nonexistent/x.data", 403, "missing file outside the root (no probing)")
    status("file=updir/nonexistent.data", 403, "missing file behind a symlink out")
    _, _, b1 = status("file=missing.data", 404, "missing file under the root")
    _, _, b2 = status("file=notprofile.data", 404, "a file that is not a profile")
    ctx.check("missing and not-a-profile give the same page",
              b1.replace(b"missing.data", b"X") == b2.replace(b"notprofile.data", b"X"))
    _, _, b = status("file=" + q("<script>alert(1)</script>.data", safe=""), 404,
                     "a file name with <script>")
    ctx.check("the name is escaped in the page", b"<script>alert" not in b and
              b"&lt;script&gt;alert" in b, b[:300].decode(errors="replace"))
    status("page=menu", 400, "no file= parameter")
    status("file=wf.data&file=notprofile.data", 400, "file= twice, different")
    status("file=wf.data%00.txt", 400, "a NUL byte in file=")
    status("file=wf.data&page=nosuchpage", 400, "an unknown page")
    status("file=wf.data&page=clique&id=zzz", 400, "a malformed id")
    status("file=wf.data&page=clique&id=999999", is4xx, "an unknown clique id")
    status("file=wf.data&page=timeout", 400, "page=timeout without timeout=")
    status("file=wf.data&page=timeout&timeout=abc", 400, "a malformed timeout=")
    status("file=wf.data&page=menu&pad=" + "a" * 3000, 414, "a 3 KB query string")
    status("file=wf.data&page=menu&pad=" + "a" * 100000, is4xx, "a 100 KB query string")
    st, hd, b = lt.request("file=missing.data&format=json")
    try:
        ok = st == 404 and hd["content-type"] == "application/json" and \
            json.loads(b)["status"] == 404
    except (ValueError, KeyError):
        ok = False
    ctx.check("format=json errors are JSON", ok, b[:200].decode(errors="replace"))
    # format= is read first: every error, whoever finds it, is in the one JSON shape
    for qs, want in (("file=wf.data&page=bogus&format=json", 400),
                     ("format=json&page=menu", 400),
                     ("format=json&file=wf.data&file=notprofile.data", 400),
                     ("file=wf.data&page=clique&id=999999&format=json", 404)):
        st, hd, b = lt.request(qs)
        try:
            doc = json.loads(b)
            ok = st == want and hd["content-type"] == "application/json" and \
                sorted(doc) == ["error", "status"] and doc["status"] == want and \
                isinstance(doc["error"], str) and "quit" not in doc["error"]
        except (ValueError, KeyError):
            ok = False
        ctx.check("%s: a JSON error %d" % (qs, want), ok, b[:200].decode(errors="replace"))
    for qs, want in (("file=wf.data&page=menu", 200), ("file=missing.data", 404)):
        st, hd, _ = lt.request(qs)
        ctx.check("%s -> %d with the security headers deepprof serve sends (got %d, %r)" %
                  (qs, want, st, hd), st == want and
                  "default-src 'none'" in hd.get("content-security-policy", "") and
                  hd.get("x-frame-options") == "DENY" and
                  hd.get("x-content-type-options") == "nosniff" and
                  hd.get("referrer-policy") == "no-referrer")
    st, _, _ = lt.request("file=wf.data", method="POST")
    ctx.check("POST -> 405 (got %d)" % st, st == 405)
    st, _, b = lt.request(None, path="/cgi-bin/../../../../etc/passwd")
    ctx.check("traversal in the URL path -> 4xx (got %d)" % st, is4xx(st) and
              b"root:x:0:0" not in b)
    st, _, b = lt.request(None, path="/cgi-bin/%2e%2e/%2e%2e/%2e%2e/etc/passwd")
    ctx.check("encoded traversal in the URL path -> 4xx (got %d)" % st, is4xx(st) and
              b"root:x:0:0" not in b)


def pipes_present(ctx):
    m = mangle(os.path.join(os.path.realpath(ctx.root), "wf.data"))
    return os.path.exists(os.path.join(ctx.rundir, "to-" + m))


def test_control(ctx, lt, exp):
    st, _, b = lt.request("file=wf.data&page=timeout&timeout=30")
    ctx.check("page=timeout -> 200 (got %d)" % st, st == 200 and b"30 s" in b)
    time.sleep(2 * TIMEOUT + 0.3)
    ctx.check("the new timeout holds: the server lives past the old one", pipes_present(ctx))
    st, _, b = lt.request("file=wf.data&page=quit")
    ctx.check("page=quit -> 200 (got %d)" % st, st == 200 and b"stopped" in b)
    ctx.check("page=quit removed the pipes at once", not pipes_present(ctx))
    st, _, b = lt.request("file=wf.data&page=quit")
    ctx.check("page=quit with no server -> 200", st == 200 and b"no server" in b)
    st, hd, b = lt.request("file=wf.data&page=top")
    ctx.check("a request after quit starts a new server", (st, b) == exp["page=top"][::2])


def test_recovery(ctx, lt, exp):
    m = mangle(os.path.join(os.path.realpath(ctx.root), "wf.data"))
    lt.request("file=wf.data&page=menu")
    servers = cgi_processes(ctx, servers_only=True)
    ctx.check("one server runs", len(servers) == 1, str(servers))
    for pid in servers:
        os.kill(pid, signal.SIGKILL)
    time.sleep(0.2)
    cgi_processes(ctx)
    st, _, b = lt.request("file=wf.data&page=top")
    ctx.check("a killed server is replaced: the right page", (st, b) == exp["page=top"][::2])
    ctx.check("the replacement is logged", log_count(ctx, "has died") == 1)
    # a lock left by a process that died holding it, and a want file of a dead process
    dead = subprocess.Popen(["true"])
    dead.wait()
    for name in ("lock-" + m, "want-%s.%d" % (m, dead.pid)):
        with open(os.path.join(ctx.rundir, name), "w") as f:
            f.write("%d\n" % dead.pid)
    t0 = time.time()
    st, _, b = lt.request("file=wf.data&page=top")
    ctx.check("a stale lock is broken (%.2f s): the right page" % (time.time() - t0),
              (st, b) == exp["page=top"][::2])
    ctx.check("the break is logged once", log_count(ctx, "breaking") == 1)
    procs, files = wait_all_gone(ctx, TIMEOUT + 10)
    ctx.check("stale want file swept, server timed out", not procs and not files,
              "%s %s" % (procs, files))
    # SIGTERM: the server removes its pipes and exits (its idle timeout raised first, so
    # that a slow machine cannot let it time out before the test finds it)
    lt.request("file=wf.data&page=menu&format=json")
    lt.request("file=wf.data&page=timeout&timeout=60")
    servers = cgi_processes(ctx, servers_only=True)
    for pid in servers:
        os.kill(pid, signal.SIGTERM)
    procs, files = wait_all_gone(ctx, 5)
    ctx.check("SIGTERM stops a server cleanly", len(servers) == 1 and not procs and not files
              and log_count(ctx, "signal 15: stopping") == 1, "%s %s" % (procs, files))


def test_abort(ctx, lt, exp):
    """The idle timeout gives way to a client on the way: one that has made its want
    file, or one that holds the lock (made here by hand, for this test's live pid)."""
    m = mangle(os.path.join(os.path.realpath(ctx.root), "wf.data"))
    st, _, b = lt.request("file=wf.data&page=top")
    ctx.check("a server starts", (st, b) == exp["page=top"][::2])
    prev = None
    for name, what in (("want-%s.%d" % (m, os.getpid()), "a live want file"),
                       ("lock-" + m, "a lock held by a live process")):
        carry0 = log_count(ctx, "carrying on")
        path = os.path.join(ctx.rundir, name)
        with open(path, "w") as f:
            f.write("%d\n" % os.getpid())
        if prev:
            os.unlink(prev)  # only now: the server must never be free to stop
        prev = path
        time.sleep(2 * TIMEOUT + 0.3)
        ctx.check("the timeout gives way to %s" % what,
                  pipes_present(ctx) and log_count(ctx, "carrying on") > carry0)
    os.unlink(prev)
    procs, files = wait_all_gone(ctx, TIMEOUT + 10)
    ctx.check("then it stops at the next timeout", not procs and not files,
              "%s %s" % (procs, files))


def read_response(stream):
    raw = b""
    while b"\r\n\r\n" not in raw:
        c = stream.read(1)
        if not c:
            break
        raw += c
    st, hd, _ = parse_cgi(raw)
    return st, hd, stream.read(int(hd["content-length"]))


def test_direct(ctx, exp):
    d = os.path.join(ctx.work, "open")
    os.makedirs(d, mode=0o777)
    os.chmod(d, 0o777)
    st, _, _ = ctx.direct("file=wf.data", DEEPPROF_CGI_DIR=d)
    ctx.check("a protocol directory others may write to is refused (500, got %d)" % st,
              st == 500 and not os.listdir(d))
    st, _, _ = ctx.direct("file=wf.data", DEEPPROF_CGI_ROOT=None)
    ctx.check("no DEEPPROF_CGI_ROOT -> 403 (got %d)" % st, st == 403)
    st, _, _ = ctx.direct("file=wf.data", REQUEST_METHOD="PUT")
    ctx.check("PUT -> 405 (got %d)" % st, st == 405)
    # --no-detach: the first run answers, then serves in the foreground
    fg = subprocess.Popen([ctx.cgi, "--no-detach"], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE,
                          env=ctx.cgi_env(QUERY_STRING="file=wf.data&page=menu",
                                          DEEPPROF_CGI_TIMEOUT="60", DEEPPROF_CGI_LOG=None))
    st, _, body = read_response(fg.stdout)
    ctx.check("--no-detach: the first page", (st, body) == exp["page=menu"][::2])
    st, _, body = ctx.direct("file=wf.data&page=flame")
    ctx.check("--no-detach: a client is served by it", (st, body) == exp["page=flame"][::2])
    ctx.check("--no-detach: still in the foreground", fg.poll() is None)
    st, _, _ = ctx.direct("file=wf.data&page=quit")
    try:
        rc = fg.wait(timeout=10)
    except subprocess.TimeoutExpired:
        fg.kill()
        rc = None
    log = fg.stderr.read().decode(errors="replace")
    ctx.check("--no-detach: page=quit stops it (exit %s)" % rc, st == 200 and rc == 0, log)
    ctx.check("--no-detach: logs on stderr", "serving" in log and "answered" in log, log)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--deepprof", required=True)
    ap.add_argument("--cgi", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--lighttpd")
    ap.add_argument("--timeout-ms", type=int, default=500,
                    help="the servers' idle timeout (DEEPPROF_CGI_TIMEOUT=Nms)")
    ap.add_argument("--quick", action="store_true",
                    help="one small burst instead of thirteen (sanitized builds)")
    args = ap.parse_args()
    global TIMEOUT
    TIMEOUT = args.timeout_ms / 1000.0
    # orphaned servers (their CGI parent exits) become our children: we can reap them
    # and see them go
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    ctx = Ctx(args)
    if not os.access(ctx.lighttpd, os.X_OK):
        print("SKIP: lighttpd not installed")
        return 77
    try:
        make_profile(ctx)
    except Skip as e:
        print("SKIP: %s" % e)
        return 77
    exp = expected_pages(ctx)
    lt = Lighttpd(ctx)
    lt.start()
    try:
        test_security(ctx, lt)
        test_control(ctx, lt, exp)
        test_recovery(ctx, lt, exp)
        test_abort(ctx, lt, exp)
        test_bursts(ctx, lt, exp, args.quick)
    finally:
        lt.stop()
    test_direct(ctx, exp)
    procs, files = wait_all_gone(ctx, TIMEOUT + 10)
    ctx.check("at the end: no process, no file left", not procs and not files,
              "%s %s" % (procs, files))
    for d in [os.path.join(ctx.work, "direct%d" % i) for i in range(len(PAGES))] + [
            os.path.join(ctx.work, "json")]:
        ctx.check("direct runs left %s empty" % os.path.basename(d), not os.listdir(d),
                  str(os.listdir(d)))
    reports = ctx.sanitizer_reports()
    ctx.check("no sanitizer report from any run or server", not reports, str(reports))
    if ctx.failures:
        print("%d check(s) failed: %s" % (len(ctx.failures), "; ".join(ctx.failures)))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Fail as e:
        print("FAIL: %s" % e)
        sys.exit(1)
