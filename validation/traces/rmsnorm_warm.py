#!/usr/bin/env python3
"""Per-kernel check of the warm-L2 rules on the standalone RMSNorm traces (calibration/runs/bench_warm_rmsnorm.py:
forward and backward of one HF-style RMSNorm, fp32 activations of 8-67 MB, measured on the H100: the set
`warm-rmsnorm` is dev (the further-back share rule was set on it), `warm-rmsnorm-heldout` other sizes
measured after the rules were final). Replays each trace on its own GPU and prints,
per trace, the per-kernel MAPE and the forward mean's and backward sum's errors.
Run from the repository root after building:
    python3 validation/traces/rmsnorm_warm.py [build/cli/gpucast] [--gpu h100-sxm] [--set warm-rmsnorm-heldout]"""
import argparse
import glob
import json
import os
import subprocess

ap = argparse.ArgumentParser()
ap.add_argument("gpucast", nargs="?", default="build/cli/gpucast")
ap.add_argument("--gpu", default="h100-sxm")
ap.add_argument("--set", default="warm-rmsnorm",
                help="warm-rmsnorm (dev: the rules were set on it) or warm-rmsnorm-heldout (other sizes, "
                     "measured after the rules were final)")
args = ap.parse_args()
paths = glob.glob("validation/runs/%s/%s/trace-rmsnorm-*.json.gz" % (args.gpu, args.set))
paths.sort(key=lambda p: [int(x) for x in os.path.basename(p)[14:-8].split("x")])
print("| input (rows x cols) | fp32 MB | per-kernel MAPE (kernels) | mean: measured / predicted us | backward sum |")
print("|---|---:|---:|---:|---:|")
total, count = 0.0, 0
for p in paths:
    out = subprocess.run([args.gpucast, "predict", "--gpu", args.gpu, "--trace", p, "--format", "json"],
                         check=True, capture_output=True, text=True).stdout
    cases = json.loads(out)["trace"]["validation"]["cases"]
    rows, cols = [int(x) for x in os.path.basename(p)[14:-8].split("x")]
    errs = [abs(c["error"]) for c in cases]
    total += sum(errs)
    count += len(errs)
    # The row reductions: the forward's mean, then the backward's sum over the last dim.
    red = [c for c in cases if c["family"] == "reduce" and c["id"].split("_")[0] in ("mean", "sum")]
    cell = lambda c: "%.2f / %.2f (%+.0f%%)" % (c["measured_us"], c["predicted_us"], 100 * c["error"])
    mean = next((c for c in red if c["id"].startswith("mean")), None)
    bsum = next((c for c in red if c["id"].startswith("sum")), None)
    print("| %d x %d | %.1f | %.1f%% (%d) | %s | %s |" % (rows, cols, rows * cols * 4 / 1e6, 100 * sum(errs) / len(errs),
                                                     len(errs), cell(mean) if mean else "", cell(bsum) if bsum else ""))
print("\nall %d kernels: per-kernel MAPE %.1f%%" % (count, 100 * total / max(1, count)))
