#!/usr/bin/env python3
"""Training batch norm on channels-last activations, kernel by kernel: gpucast's predicted execution
of each kernel against the profiler's (validation/h100-sxm/batchnorm-train.json, made by
calibration/runs/bench_batchnorm_train.py; a dev set: the constants in models/batch_norm_model.cpp
marked as fitted on it). bf16 only (fp32 runs cuDNN's own kernels). Prints MAPE per kernel kind
and the worst cases.

    python3 validation/batchnorm/bn_train_accuracy.py [build/cli/gpucast] [--gpu calibrated/h100-sxm] [--cases]
"""
import json
import subprocess
import sys

args = [a for a in sys.argv[1:]]
GPUCAST = next((a for a in args if not a.startswith("--") and "/" in a and "calibrated" not in a), "build/cli/gpucast")
GPU = args[args.index("--gpu") + 1] if "--gpu" in args else "calibrated/h100-sxm"
KINDS = [("statistics", "collect_statistics"), ("transform", "transform_input"),
         ("backward reduce", "backward_reduce"), ("backward dX", "backward_elemt")]


def predicted(rows, channels, extra):
    out = subprocess.run([GPUCAST, "explain", "--gpu", GPU, "batchnorm", "rows=%d" % rows, "channels=%d" % channels,
                          "dtype=bf16", extra, "--format", "json"], capture_output=True, text=True, check=True).stdout
    d = json.loads(out)
    chosen = next(o for o in d["options"] if o.get("chosen"))
    return {k["name"]: k["exec_us"] for k in chosen["kernels"]}


data = json.load(open("validation/h100-sxm/batchnorm-train.json"))
errors = {k: [] for k, _ in KINDS}
rows_out = []
for c in data["cases"]:
    if c["dtype"] != "bfloat16" or "error" in c:
        continue
    positions = c["n"] * c["h"] * c["w"]
    pred = {}
    pred.update(predicted(positions, c["c"], "training=true"))
    pred.update(predicted(positions, c["c"], "backward=true"))
    for kind, needle in KINDS:
        m = next((k["median_us"] for k in c["forward"] + c["backward"] if needle in k["name"]), None)
        p = next((v for n, v in pred.items() if needle in n), None)
        if m is None or p is None:
            continue
        errors[kind].append(abs(p - m) / m)
        rows_out.append((abs(p - m) / m, c["id"], kind, m, p))
print("| kernel | cases | MAPE |")
print("|---|---:|---:|")
allv = []
for kind, v in errors.items():
    allv += v
    print("| %s | %d | %.1f%% |" % (kind, len(v), 100 * sum(v) / max(1, len(v))))
print("| **all** | %d | %.1f%% |" % (len(allv), 100 * sum(allv) / max(1, len(allv))))
if "--cases" in args:
    for e, i, kind, m, p in sorted(rows_out, reverse=True)[:25]:
        print("%-28s %-16s %8.1f us -> %8.1f (%+.0f%%)" % (i, kind, m, p, 100 * (p / m - 1)))
if "--bias" in args:
    import statistics
    for kind, _ in KINDS:
        r = [p / m for e, i, k, m, p in rows_out if k == kind]
        print("%-16s median predicted/measured %.2f  (min %.2f max %.2f)" % (kind, statistics.median(r), min(r), max(r)))
