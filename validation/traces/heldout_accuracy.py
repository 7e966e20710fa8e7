#!/usr/bin/env python3
"""Held-out trace accuracy (docs/accuracy.md, "Traces: held-out workloads"): the traces of
calibration/runs/bench_traces_heldout.py (validation/runs/h100-sxm/heldout/, workloads no recognition
rule or model constant was developed on), replayed on the GPU they were recorded on. Per trace: the
traced step and the replay, the step measured without the profiler (results_heldout*.json; and the
second run's, heldout-repeat/), the per-kernel MAPE of the kernels op models re-predicted, the share
of traced GPU time they cover, and the worst kernel groups.

    python3 validation/traces/heldout_accuracy.py [build/cli/gpucast] [--groups N] [--run DIR]
"""
import collections
import json
import os
import re
import subprocess
import sys

_run_value = sys.argv[sys.argv.index("--run") + 1] if "--run" in sys.argv else None
GPUCAST = next((a for a in sys.argv[1:] if not a.startswith("--") and not a.isdigit() and a != _run_value),
               "build/cli/gpucast")
GROUPS = int(sys.argv[sys.argv.index("--groups") + 1]) if "--groups" in sys.argv else 0
# --run DIR: the traces of another lease (heldout-lease3/: a third H100 lease, 2026-11-26), whose own
# unprofiled steps are then "run 1".
RUN = sys.argv[sys.argv.index("--run") + 1] if "--run" in sys.argv else "validation/runs/h100-sxm/heldout"
REPEAT = "validation/runs/h100-sxm/heldout-repeat"
CASES = ["gpt124m-train", "gpt355m-train-bf16", "resnet50-train", "vit-b16-fwd", "encoder-fwd", "llama350m-compile"]


def measured_ms(folder, case):
    for name in ("results_heldout.json", "results_heldout_compile.json"):
        path = os.path.join(folder, name)
        if os.path.exists(path):
            r = json.load(open(path))["results"].get("heldout", {}).get(case)
            if r and "step_ms" in r:
                return r["step_ms"]["median"]
    return None


def groups(cases, n):
    g = collections.defaultdict(list)
    for c in cases:
        k = re.sub(r"\(.*", "", c.get("measured_kernels") or c["predicted_kernel"])[:60]
        g[(c["id"].rsplit("_", 1)[0], k)].append(c)
    rows = sorted(g.items(), key=lambda kv: -sum(abs(c["predicted_us"] - c["measured_us"]) for c in kv[1]))
    for (op, k), cs in rows[:n]:
        m = sum(c["measured_us"] for c in cs)
        p = sum(c["predicted_us"] for c in cs)
        print("  %-34s %-60s %4d  %9.1f us -> %9.1f (%+.0f%%)" % (op, k, len(cs), m, p, 100 * (p / m - 1)))


print("| trace | traced step | replayed | error | without profiler (run 1 / run 2) | replay vs run 1 | per-kernel MAPE (kernels) | op-model share |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for case in CASES:
    path = os.path.join(RUN, "trace-%s.json.gz" % case)
    if not os.path.exists(path):
        continue
    out = subprocess.run([GPUCAST, "predict", "--gpu", "h100-sxm", "--trace", path, "--format", "json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        print("| %s | failed: %s |" % (case, out.stderr.strip()[:120]))
        continue
    d = json.loads(out.stdout)
    t = d["trace"]
    traced = t["measured_step_us"] / 1e3
    replay = d["total_us"] / 1e3
    v = t["validation"]
    cases = v["cases"]
    mape = 100 * sum(abs(c["error"]) for c in cases) / max(1, len(cases))
    share = 100 * t["re_predicted_share"]
    m1, m2 = measured_ms(RUN, case), measured_ms(REPEAT, case)
    print("| %s | %.2f ms | %.2f ms | %+.1f%% | %s / %s ms | %s | %.1f%% (%d) | %.1f%% |" % (
        case, traced, replay, 100 * (replay / traced - 1), "%.2f" % m1 if m1 else "-", "%.2f" % m2 if m2 else "-",
        "%+.1f%%" % (100 * (replay / m1 - 1)) if m1 else "-", mape, len(cases), share))
    if GROUPS:
        groups(cases, GROUPS)
