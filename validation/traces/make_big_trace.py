#!/usr/bin/env python3
"""Synthetic large trace for the import benchmark (README, docs/traces.md): repeats the profiled
window of a real trace (default: validation/runs/h100-sxm/trace-llama1b-train.json.gz, 19 MB of
JSON) back to back, shifting timestamps, correlation and External ids and step numbers, until the
JSON reaches --mb megabytes. Plain JSON out (the reader's worst case: no gzip to skip).
    python3 validation/traces/make_big_trace.py --mb 100 --out /tmp/big-trace.json
    /usr/bin/time -v build/cli/gpucast predict --gpu h100-sxm --trace /tmp/big-trace.json --step all"""
import argparse
import gzip
import json


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", default="validation/runs/h100-sxm/trace-llama1b-train.json.gz")
    ap.add_argument("--mb", type=float, default=100)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    with gzip.open(a.source, "rt") if a.source.endswith(".gz") else open(a.source) as f:
        doc = json.load(f)
    events = doc["traceEvents"]
    ts = [e["ts"] for e in events if "ts" in e]
    span = max(e["ts"] + e.get("dur", 0) for e in events if "ts" in e) - min(ts) + 1000.0
    steps = sorted({int(e["name"][13:]) for e in events if e.get("name", "").startswith("ProfilerStep#")})
    one = len(json.dumps(events))
    copies = max(1, int(a.mb * 1e6 / one + 0.999))
    out = []
    for c in range(copies):
        for e in events:
            e = dict(e)
            if "ts" in e:
                e["ts"] = e["ts"] + c * span
            if c and e.get("name", "").startswith("ProfilerStep#"):
                e["name"] = "ProfilerStep#%d" % (int(e["name"][13:]) + c * len(steps))
            args = e.get("args")
            if c and isinstance(args, dict):
                args = dict(args)
                for key in ("correlation", "External id"):
                    if isinstance(args.get(key), int) and args[key] > 0:
                        args[key] += c * 10_000_000
                e["args"] = args
            if c and e.get("ph") in ("s", "f") and isinstance(e.get("id"), int):
                e["id"] += c * 10_000_000
            out.append(e)
    doc["traceEvents"] = out
    with open(a.out, "w") as f:
        json.dump(doc, f)
    print("%s: %d copies of %d events, %.1f MB" % (a.out, copies, len(events), len(json.dumps(doc)) / 1e6))


if __name__ == "__main__":
    main()
