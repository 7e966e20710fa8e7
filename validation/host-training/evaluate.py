#!/usr/bin/env python3
"""Host time and training steps: gpucast against helper-1's measured eager PyTorch runs.

Reads validation/runs/<gpu>/results.json (calibration/runs/bench_single.py: B_train, B_infer),
predicts each run with `gpucast predict` on the same GPU and the same host profile
(hardware/catalog/hosts/<gpu-box>.toml), and prints per-run errors and MAPE for the dev split
(batch 4 of each model: the set host figures may be tuned on) and the test split (every other run).

Usage: python3 validation/host-training/evaluate.py [--gpucast build/cli/gpucast] [--markdown]
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MACHINES = {"h100-sxm": "h100-box", "h200-sxm": "h200-box"}
MODELS = os.path.join(ROOT, "validation", "host-training", "models")


def predict(gpucast, gpu, host, args, sets=()):
    cmd = [gpucast, "predict", "--gpu", gpu, "--host", host, "--format", "json"] + args
    for s in sets:
        cmd += ["--set", s]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        raise RuntimeError(" ".join(cmd) + ": " + out.stderr.strip())
    d = json.loads(out.stdout)
    return d[0] if isinstance(d, list) else d


def ms(v):
    return v["median"] if isinstance(v, dict) else v


def runs(gpu):
    path = os.path.join(ROOT, "validation", "runs", gpu, "results.json")
    if not os.path.exists(path):
        return []
    r = json.load(open(path))["results"]
    out = []
    for key, v in r.get("B_train", {}).items():
        if "step_ms" not in v:
            continue
        opt = "adamw-fused" if "fused" in v["optimizer"] else "adamw"
        args = ["--model", os.path.join(MODELS, "llama-%s.toml" % v["model"]), "--mode", "train", "--batch",
                str(v["batch"]), "--seq", str(v["seq"]), "--precision", v["precision"], "--optimizer", opt]
        split = "dev" if v["batch"] == 4 else "test"
        out.append(("train", key, args, ms(v["step_ms"]), split))
    for key, v in r.get("B_infer", {}).items():
        if "eager_event_ms" not in v:
            continue
        # A full-sequence forward returning every position's logits, no KV cache.
        base = ["--model", os.path.join(MODELS, "llama-%s.toml" % v["model"]), "--mode", "prefill", "--batch",
                str(v["batch"]), "--seq", str(v["seq"]), "--precision", "bf16"]
        out.append(("infer-eager", key, base, ms(v["eager_wall_ms"]), "test"))
        out.append(("infer-graph", key, base + ["--launch", "graph"], ms(v["graph_wall_ms"]), "test"))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpucast", default=os.path.join(ROOT, "build", "cli", "gpucast"))
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--fit", action="store_true",
                    help="print the dev-split MAPE of framework.model_factor 1.0..2.6 per machine (the tuning)")
    a = ap.parse_args()
    if a.fit:
        for gpu, host in MACHINES.items():
            dev = [r for r in runs(gpu) if r[4] == "dev"]
            best = None
            for i in range(17):
                f = 1.0 + 0.1 * i
                errs = []
                for kind, key, args, measured, split in dev:
                    p = predict(a.gpucast, gpu, host, args, ["host.framework.model_factor=%.2f" % f])
                    errs.append(abs(p["total_us"] / 1e3 - measured) / measured)
                mape = sum(errs) / len(errs)
                print("%s factor %.2f dev MAPE %.1f%%" % (gpu, f, 100 * mape))
                if best is None or mape < best[1]:
                    best = (f, mape)
            print("%s best factor %.2f (dev MAPE %.1f%%)" % (gpu, best[0], 100 * best[1]))
        return
    rows = []
    for gpu, host in MACHINES.items():
        for kind, key, args, measured, split in runs(gpu):
            try:
                p = predict(a.gpucast, gpu, host, args)
            except RuntimeError as e:
                print("skip", gpu, key, e, file=sys.stderr)
                continue
            pred = p["total_us"] / 1e3
            rows.append(dict(gpu=gpu, kind=kind, run=key, split=split, measured=measured, predicted=pred,
                             err=(pred - measured) / measured, host_bound=p["host"]["host_bound"],
                             kernels=len(p["kernels"]), host_ms=p["host"]["host_busy_us"] / 1e3,
                             gpu_ms=p["gpu_busy_us"] / 1e3))
            # Evidently host-bound: the GPU work gpucast predicts covers under 80% of the measured step.
            rows[-1]["evident"] = rows[-1]["gpu_ms"] < 0.8 * measured
    if a.markdown:
        print("| GPU | kind | run | split | measured ms | predicted ms | error | kernels | host-bound: flagged / evident |")
        print("|---|---|---|---|---:|---:|---:|---:|---|")
        for r in rows:
            print("| %s | %s | %s | %s | %.1f | %.1f | %+.1f%% | %d | %s / %s |" % (
                r["gpu"], r["kind"], r["run"], r["split"], r["measured"], r["predicted"], 100 * r["err"],
                r["kernels"], "yes" if r["host_bound"] else "no", "yes" if r["evident"] else "no"))
    else:
        for r in rows:
            print("%-9s %-12s %-28s %-4s meas %8.2f pred %8.2f err %+6.1f%% host %7.2f gpu %7.2f k %5d %s" % (
                r["gpu"], r["kind"], r["run"], r["split"], r["measured"], r["predicted"], 100 * r["err"],
                r["host_ms"], r["gpu_ms"], r["kernels"], "HOST-BOUND" if r["host_bound"] else ""))
    print()
    for gpu in MACHINES:
        for kind in ("train", "infer-eager", "infer-graph"):
            for split in ("dev", "test"):
                sel = [abs(r["err"]) for r in rows if r["gpu"] == gpu and r["kind"] == kind and r["split"] == split]
                if sel:
                    print("%s %s %s: MAPE %.1f%% over %d runs" % (gpu, kind, split, 100 * sum(sel) / len(sel),
                                                                 len(sel)))
    ev = [r for r in rows if r["evident"]]
    print("evidently host-bound runs: %d, flagged host-bound: %d; flagged but not evident: %d" % (
        len(ev), sum(r["host_bound"] for r in ev), sum(r["host_bound"] and not r["evident"] for r in rows)))


if __name__ == "__main__":
    main()
