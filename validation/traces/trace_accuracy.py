#!/usr/bin/env python3
"""Trace replay accuracy (docs/accuracy.md, "Traces"): every trace helper-1 recorded under
validation/runs/<gpu>/ (calibration/runs/README.md says how), predicted on its own GPU (replay) and
on the other one (cross-GPU), against the trace's own step and against the step measured without
the profiler (results.json, A_traces). Run from the repository root after building:
    python3 validation/traces/trace_accuracy.py [build/cli/gpucast]
Prints Markdown tables."""
import json
import subprocess
import sys

GPUCAST = sys.argv[1] if len(sys.argv) > 1 else "build/cli/gpucast"
GPUS = ["h100-sxm", "h200-sxm"]
CASES = ["llama125m-train", "llama125m-train-noshapes", "llama1b-train", "llama1b-prefill", "resnet50-fwd"]


def measured_ms(gpu, case):
    d = json.load(open("validation/runs/%s/results.json" % gpu))
    r = d["results"]["A_traces"].get(case.replace("-noshapes", ""))
    return r["step_ms"]["median"] if r else None


def predict(gpu, trace):
    out = subprocess.run([GPUCAST, "predict", "--gpu", gpu, "--trace", trace, "--format", "json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def pct(x):
    return "%+.1f%%" % (100 * x)


print("| trace | recorded on | traced step | replayed | error | per-kernel MAPE (kernels) | op-model share | GPU idle (replay) |")
print("|---|---|---|---|---|---|---|---|")
for gpu in GPUS:
    for case in CASES:
        j = predict(gpu, "validation/runs/%s/trace-%s.json.gz" % (gpu, case))
        t = j["trace"]
        v = t["validation"]
        overall = v["families"]["overall"]["all"] if "families" in v else None
        mape = overall["mape"] if overall else float("nan")
        n = overall["cases"] if overall else 0
        print("| %s | %s | %.2f ms | %.2f ms | %s | %.1f%% (%d) | %.1f%% | %.0f%% |" % (
            case, gpu, t["measured_step_us"] / 1e3, j["total_us"] / 1e3, pct(t["step_error"]), 100 * mape, n,
            100 * t["re_predicted_share"], 100 * (j["total_us"] - j["gpu_busy_us"]) / j["total_us"]))
print()
print("| trace | from -> to | predicted | measured on target (no profiler) | error | target's traced step | error vs traced |")
print("|---|---|---|---|---|---|---|")
for src, dst in (("h100-sxm", "h200-sxm"), ("h200-sxm", "h100-sxm")):
    for case in CASES:
        j = predict(dst, "validation/runs/%s/trace-%s.json.gz" % (src, case))
        other = predict(dst, "validation/runs/%s/trace-%s.json.gz" % (dst, case))["trace"]["measured_step_us"]
        m = measured_ms(dst, case)
        p = j["total_us"] / 1e3
        print("| %s | %s -> %s | %.2f ms | %s | %s | %.2f ms | %s |" % (
            case, src, dst, p, "%.2f ms" % m if m else "-", pct(p / m - 1) if m else "-", other / 1e3,
            pct(p / (other / 1e3) - 1)))
