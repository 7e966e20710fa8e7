#!/usr/bin/env python3
"""Per-kernel-class breakdown of a TP layer case: the probe's profiler trace (last of its 3 iterations,
one rank) against gpucast's prediction of the same layer with the benchmark's kernels
(validation/multi_gpu/bench_layer.py), by class: GEMM, attention, all-reduce, pointwise (the rest).
Measured: the kernels' durations; predicted: their scheduled spans (each kernel's launch gap included,
a few us per kernel that the trace shows between kernels instead).
The figures docs/accuracy.md quotes for "where the TP2 prefill's missing time went".

usage: validation/multi_gpu/tp_layer_kernels.py [--tp 2] [--mode prefill] [--len 4096] [--batch 1]
       [--rank 0] [--launch eager|graph]   (run from the repository root, gpucast built in build/)
"""
import argparse
import gzip
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TRACES = os.path.join(ROOT, "validation/runs/h200x2/probe/traces.tar.gz")


def trace_kernels(name):
    with tarfile.open(TRACES) as tar:
        data = tar.extractfile("traces/" + name).read()
    d = json.load(io.TextIOWrapper(gzip.GzipFile(fileobj=io.BytesIO(data))))
    ev = sorted((e for e in d["traceEvents"] if e.get("cat") == "kernel"), key=lambda e: e["ts"])
    per = len(ev) // 3  # 3 profiled iterations of the same layer
    return ev[2 * per:]


def klass(name):
    if "nccl" in name:
        return "all_reduce"
    if "sdpa" in name or "flash" in name or "fmha" in name:
        return "attention"
    if "nvjet" in name or "gemm" in name.lower() or "splitK" in name or "cutlass" in name:
        return "gemm"
    return "pointwise"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tp", type=int, default=2)
    ap.add_argument("--mode", default="prefill", choices=["prefill", "decode"])
    ap.add_argument("--len", type=int, default=4096)
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--rank", type=int, default=0)
    ap.add_argument("--launch", default="eager", choices=["eager", "graph"])
    ap.add_argument("--gpucast", default=os.path.join(ROOT, "build/cli/gpucast"))
    a = ap.parse_args()
    key = "tp%d_%s_b%d_%s%d%s" % (a.tp, a.mode, a.batch, "seq" if a.mode == "prefill" else "kv", a.len,
                                  "_cudagraph" if a.launch == "graph" else "")
    meas = {}
    for e in trace_kernels("%s_rank%d.json.gz" % (key, a.rank)):
        meas[klass(e["name"])] = meas.get(klass(e["name"]), 0.0) + e["dur"]
    with tempfile.TemporaryDirectory() as tmp:
        full, layer, bench = (os.path.join(tmp, f) for f in ("full.toml", "layer.toml", "bench.toml"))
        length = ["--seq", str(a.len)] if a.mode == "prefill" else ["--context", str(a.len)]
        par = ["--tp", str(a.tp)] if a.tp > 1 else []
        subprocess.run([a.gpucast, "predict", "--gpus", "2xh200-sxm", "--model", "llama-3-8b", "--layers", "1",
                        "--mode", a.mode, "--batch", str(a.batch), *length, *par, "--launch", a.launch,
                        "--dump-workload", full], check=True, stdout=subprocess.DEVNULL)
        parts = open(full).read().split("\n[[kernel]]\n")
        keep = [parts[0]] + [p for p in parts[1:] if re.search(r'^name = "l0\.', p, re.M)]
        open(layer, "w").write("\n[[kernel]]\n".join(keep))
        subprocess.run([sys.executable, os.path.join(HERE, "bench_layer.py"), layer, bench, a.mode], check=True)
        out = subprocess.run([a.gpucast, "predict", "--system", "calibrated/systems/h200x2", "--host", "h200-box",
                              "--workload", bench, "--format", "json"], check=True, capture_output=True, text=True)
    p = json.loads(out.stdout)
    pred = {}
    for k in p["kernels"]:
        c = k["op"] if k["op"] in ("gemm", "attention", "all_reduce") else "pointwise"
        pred[c] = pred.get(c, 0.0) + k["end_us"] - k["start_us"]
    print("%s, rank %d: kernel time by class, us (measured: probe trace; predicted: bench kernels)" % (key, a.rank))
    print("%-11s %10s %10s %8s" % ("class", "measured", "predicted", "error"))
    for c in ("gemm", "attention", "all_reduce", "pointwise"):
        m, q = meas.get(c, 0.0), pred.get(c, 0.0)
        print("%-11s %10.1f %10.1f %7s" % (c, m, q, ("%+.1f%%" % ((q / m - 1) * 100)) if m else "-"))
    print("%-11s %10.1f %10.1f %+7.1f%%   (GPU busy; predicted layer total %.1f us)" % (
        "sum", sum(meas.values()), sum(pred.values()), (sum(pred.values()) / sum(meas.values()) - 1) * 100,
        p["total_us"]))


if __name__ == "__main__":
    main()
