"""Where do_bench's time beyond the kernels goes: each case's kernels profiled as do_bench runs
them (the 256 MB L2 flush before every call) and warm (back to back, as suite.py's kernel list is
taken), with the idle time between the flush's end and the op's first kernel.

The broad set's `measured_us` (do_bench) exceeds the sum of its profiled kernels by about 4 us for
most cases, but by 10-15 us for cuBLAS's skinny fp32 GEMMs, the sm75 fallback GEMMs and
weight-streaming GEMMs of 32 MB and more. Either the kernel runs longer after the flush (cold
operands, dirty lines written back, TLB misses) or the GPU idles before it (host time that the
flush does not hide). This tells the two apart, case by case.

Cases are dev and calibration cases only (never test), from the given measurement files, chosen
by a fixed rule: every case whose measured time exceeds its profiled kernels by more than
--gap-us, and every fourth other case as a control; over --limit per file, an even stride by id.

usage: python3 calibration/runs/bench_flush_gap.py --out OUT.json validation/h100-sxm/kernels.json ...
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "validation"))
import suite  # noqa: E402  (its make_fn builds each case exactly as it was measured)

import torch  # noqa: E402
import triton.testing  # noqa: E402

FLUSH_BYTES = 256 * 1024 * 1024  # triton.testing.do_bench's default cache
DEVICE_CATEGORIES = ("kernel", "gpu_memcpy", "gpu_memset")


def pick(path, gap_us, limit):
    cases = json.load(open(path))["cases"]
    chosen, others = [], []
    for c in cases:
        if c.get("set") == "test" or c.get("measured_us") is None or not c.get("kernels"):
            continue
        gap = c["measured_us"] - sum(k["us"] for k in c["kernels"])
        (chosen if gap > gap_us else others).append(c)
    chosen += others[::4]
    chosen.sort(key=lambda c: c["id"])
    step = -(-len(chosen) // limit) if limit else 1
    return chosen[::step]


def device_events(prof):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        path = f.name
    prof.export_chrome_trace(path)
    events = json.load(open(path))["traceEvents"]
    os.unlink(path)
    out = [e for e in events if e.get("ph") == "X" and e.get("cat") in DEVICE_CATEGORIES]
    out.sort(key=lambda e: e["ts"])
    return out


def is_flush(e):
    return "FillFunctor<int>" in e["name"] and e["dur"] > 20


def profile(fn, cache, iterations, flushed):
    """Per iteration: the op's device activities (name, start relative to the flush's end, dur)."""
    for _ in range(3):
        if flushed:
            cache.zero_()
        fn()
    torch.cuda.synchronize()
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(iterations):
            if flushed:
                cache.zero_()
            fn()
        torch.cuda.synchronize()
    events = device_events(prof)
    runs, current, anchor = [], None, None
    for e in events:
        if flushed and is_flush(e):
            if current is not None:
                runs.append(current)
            current, anchor = [], e["ts"] + e["dur"]
            continue
        if not flushed and current is None:
            current, anchor = [], e["ts"]
        if current is not None:
            current.append({"name": e["name"][:120], "start_us": round(e["ts"] - anchor, 3), "us": round(e["dur"], 3)})
    if current:
        runs.append(current)
    if not flushed:  # back to back: split by the op's kernel count, one call's worth each
        flat = runs[0] if runs else []
        per = max(1, len(flat) // iterations)
        runs = [flat[i:i + per] for i in range(0, per * iterations, per)]
        for r in runs:
            if r:
                t0 = r[0]["start_us"]
                for k in r:
                    k["start_us"] = round(k["start_us"] - t0, 3)
    return runs


def summary(runs):
    if not runs:
        return {}
    busy = [sum(k["us"] for k in r) for r in runs if r]
    idle = [r[0]["start_us"] for r in runs if r]
    span = [r[-1]["start_us"] + r[-1]["us"] for r in runs if r]
    return {"kernels_us": round(statistics.median(busy), 3), "idle_before_us": round(statistics.median(idle), 3),
            "span_us": round(statistics.median(span), 3), "iterations": len(runs),
            "kernels": [{"name": k["name"], "us": k["us"]} for k in runs[len(runs) // 2]]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--gap-us", type=float, default=7.0)
    ap.add_argument("--limit", type=int, default=80)
    ap.add_argument("--iterations", type=int, default=8)
    ap.add_argument("--budget-s", type=float, default=240)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    suite.DIRECT_BACKWARD = True
    cache = torch.empty(FLUSH_BYTES // 4, dtype=torch.int, device="cuda")
    results, t0 = [], time.time()
    for path in args.files:
        for case in pick(path, args.gap_us, args.limit):
            if time.time() - t0 > args.budget_s:
                print("[flush-gap] budget reached", file=sys.stderr)
                break
            rec = {"file": os.path.basename(path), "id": case["id"], "params": case["params"],
                   "variant": case.get("variant"), "measured_us": case["measured_us"],
                   "suite_kernels_us": round(sum(k["us"] for k in case["kernels"]), 3)}
            try:
                fn = suite.make_fn(case)
                rec["do_bench_us"] = triton.testing.do_bench(fn, warmup=10, rep=60) * 1e3
                rec["flushed"] = summary(profile(fn, cache, args.iterations, True))
                rec["warm"] = summary(profile(fn, cache, args.iterations, False))
            except Exception as exc:
                rec["error"] = f"{type(exc).__name__}: {exc}"[:300]
            fn = None
            results.append(rec)
            print(f"[flush-gap] {len(results)} {time.time() - t0:.0f}s {case['id']} "
                  f"{rec.get('do_bench_us', rec.get('error'))}", file=sys.stderr, flush=True)
    env = suite.environment()
    with open(args.out + ".tmp", "w") as f:
        json.dump({"format": "gpucast-flush-gap-1", "environment": env, "cases": results}, f, indent=1)
    os.replace(args.out + ".tmp", args.out)


if __name__ == "__main__":
    main()
