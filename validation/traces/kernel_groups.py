#!/usr/bin/env python3
"""Where a trace's per-kernel MAPE comes from: every kernel an op model re-predicted in a same-GPU
replay (the cases of the report's replay-validation section), grouped by (gpucast op family, CPU op,
trace kernel's short name: loop, functor, type), with count, traced GPU time, MAPE, bias and the group's share of the trace's
summed absolute error (sum |e| / cases: the groups' shares add up to the per-kernel MAPE).
Run from the repository root after building:
    python3 validation/traces/kernel_groups.py [--gpu h100-sxm] [--trace llama125m-train] [--top 25]
                                               [--cases PATTERN] [build/cli/gpucast]
--cases PATTERN also lists the individual cases whose group key contains PATTERN."""
import argparse
import collections
import json
import re
import subprocess

ap = argparse.ArgumentParser()
ap.add_argument("gpucast", nargs="?", default="build/cli/gpucast")
ap.add_argument("--gpu", action="append")
ap.add_argument("--trace", action="append")
ap.add_argument("--top", type=int, default=25)
ap.add_argument("--cases")
args = ap.parse_args()
GPUS = args.gpu or ["h100-sxm"]
TRACES = args.trace or ["llama125m-train", "llama1b-train", "llama1b-prefill", "resnet50-fwd"]


def cases(gpu, trace):
    out = subprocess.run([args.gpucast, "predict", "--gpu", gpu, "--trace",
                          "validation/runs/%s/trace-%s.json.gz" % (gpu, trace), "--format", "json"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)["trace"]["validation"]["cases"]


for gpu in GPUS:
    for trace in TRACES:
        cs = cases(gpu, trace)
        n = len(cs)
        groups = collections.defaultdict(list)
        for c in cs:
            op = re.sub(r"_\d+$", "", c["id"])
            groups[(c["family"], op, re.sub(r" \(\+\d+\)$", "", c["measured_kernels"]))].append(c)
        total_abs = sum(abs(c["error"]) for c in cs)
        print("\n## %s on %s: %d cases, per-kernel MAPE %.1f%%" % (trace, gpu, n, 100 * total_abs / max(1, n)))
        print("| family | CPU op | trace kernel | count | traced | MAPE | bias | share of MAPE |")
        print("|---|---|---|---:|---:|---:|---:|---:|")
        rows = []
        for key, g in groups.items():
            s = sum(abs(c["error"]) for c in g)
            rows.append((s, key, g))
        rows.sort(key=lambda r: -r[0])
        for s, key, g in rows[: args.top]:
            traced = sum(c["measured_us"] for c in g)
            bias = sum(c["error"] for c in g) / len(g)
            print("| %s | %s | %s | %d | %.0f us | %.1f%% | %+.1f%% | %.2f pt |" % (
                key[0], key[1], key[2], len(g), traced, 100 * s / len(g), 100 * bias, 100 * s / max(1, n)))
        if args.cases:
            for s, key, g in rows:
                if args.cases not in " ".join(key):
                    continue
                for c in g:
                    print("   %-28s %-40s meas %8.2f pred %8.2f err %+6.1f%%  %s" % (
                        c["id"], c["shape"][:40], c["measured_us"], c["predicted_us"], 100 * c["error"],
                        c["predicted_kernel"][:50]))
