#!/usr/bin/env python3
"""gen_corpus.py - write the importers' seed corpus (tests/corpus/import): valid (ok-*)
and malformed (bad-*) inputs of every format, named by format (.folded, .perf-script,
.pb, .pb.gz, .uftrace: see tests/fuzz/fuzz_import.c for the uftrace layout).
usage: gen_corpus.py DIR
"""
import gzip
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_import import FIXTURE, Pprof, ctx_pprof, pb_field  # noqa: E402


def uft(records, sym=None):
    """Records (time, type, addr) as uftrace's 16-byte records, magic 5."""
    out = b"".join(struct.pack("<QQ", t, ty | 5 << 3 | addr << 16) for t, ty, addr in records)
    return (sym.encode() + b"\n#DAT\n" + out) if sym is not None else out


def main():
    d = sys.argv[1]
    os.makedirs(d, exist_ok=True)
    files = {}
    files["ok-ctx.folded"] = b"main;light;shared_step;work 3\nmain;heavy;shared_step;work 27\n" \
        b"main;fib;fib;fib 4\n# comment\n"
    files["bad-noweight.folded"] = b"main;work 3\nmain;work\n"
    files["bad-emptyframe.folded"] = b"main;;work 3\n"
    with open(FIXTURE, "rb") as f:
        text = f.read()
    files["ok-fixture.perf-script"] = b"\n\n".join(text.split(b"\n\n")[:4]) + b"\n\n"
    files["ok-layouts.perf-script"] = (
        b"prog 12 [001] 5.000001: 250000 cpu-clock:u:\n\t 1a work+0x4 (/x/prog)\n"
        b"\t 2b main+0x9 (/x/prog)\n\nmy prog 11/13 250000 cpu-clock:u:\n"
        b"\t 1a [unknown] (/x/lib.so)\n\t 0 [unknown] ([unknown])\n\n")
    files["bad-nochain.perf-script"] = b"prog 12 5.0: 1 cpu-clock:\n\n"
    files["bad-tid.perf-script"] = b"prog x 5.0: 1 cpu-clock:\n\t 1a w (/x)\n"
    files["ok-ctx.pb"] = ctx_pprof()
    files["ok-ctx.pb.gz"] = gzip.compress(ctx_pprof(), mtime=0)
    files["ok-time.pb.gz"] = gzip.compress(ctx_pprof(True), mtime=0)
    files["bad-trunc.pb"] = ctx_pprof()[:-3]
    files["bad-trunc.pb.gz"] = gzip.compress(ctx_pprof(), mtime=0)[:-20]
    p = Pprof()
    p.add(2, pb_field(1, [99]) + pb_field(2, [1]))
    files["bad-noloc.pb"] = p.data()
    main_, work, fib = 0x1100, 0x1200, 0x1300
    rec = [(10, 0, main_), (11, 0, fib), (12, 0, fib), (13, 0, fib), (20, 1, fib), (21, 1, fib),
           (22, 0, work), (30, 1, work), (31, 1, fib), (40, 2, 3), (41, 0, 0x7000),
           (42, 1, 0x7000), (50, 1, main_)]
    files["ok-fib.uftrace"] = uft(rec)
    files["ok-syms.uftrace"] = uft(rec, "# symbols\n0000000000000100 T main\n"
                                        "0000000000000300 00000010 T fib\n")
    files["bad-trunc.uftrace"] = uft(rec)[:-5]
    bad = bytearray(uft(rec))
    bad[8 + 16 * 3] ^= 0x38
    files["bad-magic.uftrace"] = bytes(bad)
    files["bad-time.uftrace"] = uft([(10, 0, main_), (5, 1, main_)])
    for name, data in files.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
