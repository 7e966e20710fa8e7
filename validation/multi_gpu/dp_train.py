#!/usr/bin/env python3
"""Data-parallel training steps on 4 H100s (calibration/runs/bench_dp_train.py, two runs in
validation/runs/h100x4/dp-train/) against gpucast's PyTorch training step (--precision amp, foreach
AdamW), one rank's step:

  single  --gpu calibrated/h100-sxm, the per-GPU batch
  ddp     --system calibrated/systems/h100x4 --dp 4, the global batch (4 x the per-GPU one)
  fsdp    --system calibrated/systems/h100x4 --dp 4 --zero 3 (FSDP2)

The split was fixed before the run: the 350m model is dev, the 1b model test. Measured = the mean of
the three runs' step medians (the slowest rank's). Host: the H100 box with this machine's own probe
speed (validation/multi_gpu/hosts/h100x4-dp.toml, from the host probe of run 3's call). Writes a
Markdown table to stdout; --json also writes the rows.

usage: python3 validation/multi_gpu/dp_train.py [--set llama|gpt] [--gpucast build/cli/gpucast] [--json out.json]
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SETS = {
    "llama": ["validation/runs/h100x4/dp-train/results.json", "validation/runs/h100x4/dp-train/run2/results.json",
              "validation/runs/h100x4/dp-train/run3/results.json"],
    # GPUCAST_DP_SET=gpt: held out, measured after the rules were final.
    "gpt": ["validation/runs/h100x4/dp-train/heldout-gpt/results.json"],
    # A fourth lease (calibration/runs/dp_host_share.sh, 2026-11-27): two processes of the main set,
    # one of the GPT-2 set; its `concurrent` cases set nccl.rank_host_spread (rank_spread_fit.py).
    "share": ["validation/runs/h100x4/dp-share/steps/results.json", "validation/runs/h100x4/dp-share/steps2/results.json"],
    "share-gpt": ["validation/runs/h100x4/dp-share/steps_gpt/results.json"],
}
MODELS = {"350m": "validation/host-training/models/llama-350m.toml", "1b": "validation/host-training/models/llama-1b.toml",
          "gpt355m": "validation/host-training/models/gpt-355m.toml",
          "gpt774m": "validation/host-training/models/gpt-774m.toml"}
SPLIT = {"350m": "dev", "1b": "test", "gpt355m": "held out", "gpt774m": "held out"}
# Each lease's host: the H100 box at that lease's own probe speed.
HOSTS = {"llama": "validation/multi_gpu/hosts/h100x4-dp.toml", "gpt": "validation/multi_gpu/hosts/h100x4-dp-gpt.toml",
         "share": "validation/multi_gpu/hosts/h100x4-share.toml", "share-gpt": "validation/multi_gpu/hosts/h100x4-share.toml"}


def require_gpucast(gpucast):
    """Exits with a clear message when the gpucast binary is not there (relative to the repository)."""
    if not os.path.isfile(os.path.join(ROOT, gpucast)):
        sys.exit("%s: no gpucast binary at %s (build it, or pass --gpucast PATH)" % (os.path.basename(sys.argv[0]), gpucast))


def predict(gpucast, case, host, system_sets=()):
    b, world = case["batch_per_gpu"], case["world"]
    args = [gpucast, "predict", "--model", MODELS[case["model"]], "--mode", "train", "--precision", "amp",
            "--seq", str(case["seq"]), "--host", host, "--format", "json"]
    if case["mode"] == "single":
        args += ["--gpu", "calibrated/h100-sxm", "--batch", str(b)]
    else:
        args += ["--system", "calibrated/systems/h100x4", "--dp", str(world), "--batch", str(b * world)]
        for kv in system_sets:
            args += ["--set", kv]
        if case["mode"] == "fsdp":
            args += ["--zero", "3"]
    r = subprocess.run(args, capture_output=True, text=True, cwd=ROOT)
    if r.returncode != 0:
        return None, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "failed"
    j = json.loads(r.stdout)
    res = j["results"][0] if "results" in j else j
    return res["total_us"] / 1e3, res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpucast", default="build/cli/gpucast")
    ap.add_argument("--json")
    ap.add_argument("--set", choices=sorted(SETS), default="llama")
    ap.add_argument("--system-set", action="append", default=[], metavar="KEY=VALUE",
                    help="a --set for the system's predictions (a what-if; repeatable)")
    a = ap.parse_args()
    require_gpucast(a.gpucast)
    runs = [json.load(open(os.path.join(ROOT, p)))["cases"] for p in SETS[a.set]]
    rows = []
    for i, case in enumerate(runs[0]):
        if case.get("step_ms") is None or case["mode"] == "concurrent":
            continue
        others = [r[i] for r in runs[1:] if i < len(r) and r[i].get("step_ms") is not None and
                  (r[i]["model"], r[i]["batch_per_gpu"], r[i]["mode"]) == (case["model"], case["batch_per_gpu"], case["mode"])]
        measured = [case["step_ms"]] + [o["step_ms"] for o in others]
        m = sum(measured) / len(measured)
        p, info = predict(a.gpucast, case, HOSTS[a.set], a.system_set)
        if p is None and "--set" in info:  # a bad --system-set fails every system case alike
            sys.exit("dp_train.py: " + info)
        rows.append({"model": case["model"], "split": SPLIT[case["model"]], "batch_per_gpu": case["batch_per_gpu"],
                     "mode": case["mode"], "measured_ms": measured, "mean_ms": m, "predicted_ms": p,
                     "error": (p / m - 1) if p else None, "note": None if p else info})
    print("| model (split) | per-GPU batch | layout | measured ms (%s) | predicted ms | error |" %
          ({1: "one run", 2: "runs 1, 2", 3: "runs 1, 2, 3"}[len(runs)]))
    print("|---|---:|---|---:|---:|---:|")
    for r in rows:
        meas = ", ".join("%.1f" % v for v in r["measured_ms"])
        pred = "%.1f" % r["predicted_ms"] if r["predicted_ms"] else "(%s)" % r["note"]
        err = "%+.1f%%" % (100 * r["error"]) if r["error"] is not None else ""
        print("| %s (%s) | %d | %s | %s | %s | %s |" % (r["model"], r["split"], r["batch_per_gpu"], r["mode"], meas, pred, err))
    for split in ("dev", "test", "held out"):
        for mode in ("single", "ddp", "fsdp"):
            errs = [abs(r["error"]) for r in rows if r["split"] == split and r["mode"] == mode and r["error"] is not None]
            if errs:
                print("\n%s %s: MAPE %.1f%% over %d" % (split, mode, 100 * sum(errs) / len(errs), len(errs)), end="")
    print()
    if a.json:
        json.dump(rows, open(a.json, "w"), indent=1)


if __name__ == "__main__":
    sys.exit(main())
