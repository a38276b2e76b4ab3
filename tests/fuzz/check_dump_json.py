#!/usr/bin/env python3
# tests/fuzz/check_dump_json.py - checks that `deepprof dump --format=json` output (here
# the sample profile's, written by test_format_json) parses as JSON and carries every
# documented member with the documented types (docs/FORMAT.md). Usage: FILE.
import json
import sys

TOP = {"version": int, "program": str, "argv": list, "pid": int, "sample_period_ns": int,
       "hz": int, "samples_inside": int, "samples_outside": int, "total_callseqs": int,
       "lost": dict, "stop_reason": str, "root_pd": int, "threads": list, "objects": list,
       "ps": list, "css": list, "pd": list, "csd": list}
REC = {
    "threads": {"index": int, "tid": int, "name": str, "root_pd": int, "start_ns": int,
                "end_ns": int, "flags": int},
    "objects": {"index": int, "path": str, "bias": str, "build_id": str, "segments": list},
    "ps": {"id": int, "kind": str, "addr": str, "name": str, "file": str, "line": int,
           "linkage": str, "object": int},
    "css": {"id": int, "ps": int, "addr": str, "file": str, "line": int, "kind": str,
            "callee_ps": int},
    "pd": {"id": int, "ps": int, "thread": int},
    "csd": {"id": int, "caller": int, "css": int, "callee": int, "calls": int, "exits": int,
            "unwinds": int, "samples": int, "callseqs": int, "allocs": int,
            "alloc_bytes": int},
}


def need(obj, schema, where):
    for key, typ in schema.items():
        if key not in obj or not isinstance(obj[key], typ) or isinstance(obj[key], bool):
            sys.exit(f"{where}: member {key!r} missing or not {typ.__name__}")


d = json.load(open(sys.argv[1], encoding="utf-8"))
need(d, TOP, "top level")
need(d["lost"], {"calls": int, "samples": int, "allocs": int}, "lost")
for arr, schema in REC.items():
    for i, rec in enumerate(d[arr]):
        need(rec, schema, f"{arr}[{i}]")
        key = "index" if arr in ("threads", "objects") else "id"
        if rec[key] != i + 1:
            sys.exit(f"{arr}[{i}]: {key} is {rec[key]}, expected {i + 1}")
kinds = {"ps": {"function", "root", "thread", "region"},
         "css": {"unknown", "direct", "indirect", "callback", "thread", "entry", "inlined",
                 "tail"}}
for arr, ok in kinds.items():
    for rec in d[arr]:
        if rec["kind"] not in ok:
            sys.exit(f"{arr} {rec['id']}: bad kind {rec['kind']!r}")
for rec in d["ps"]:
    if rec["linkage"] not in ("unknown", "global", "static", "weak"):
        sys.exit(f"ps {rec['id']}: bad linkage")
# exact numbers of the sample (tests/fuzz/sample_profile.c)
assert (len(d["ps"]), len(d["css"]), len(d["pd"]), len(d["csd"])) == (8, 8, 9, 10)
assert sum(c["samples"] for c in d["csd"]) == d["samples_outside"] == 13
assert sum(c["callseqs"] for c in d["csd"]) == d["total_callseqs"]
assert d["ps"][d["pd"][d["root_pd"] - 1]["ps"] - 1]["kind"] == "root"
print("dump JSON ok:", sys.argv[1])
