#!/usr/bin/env python3
"""Host time and training steps: gpucast against measured eager PyTorch runs.

Reads the result files of each lease (LEASES: one lent machine and call; calibration/runs/bench_single.py
sections B_train and B_infer), predicts each run with `gpucast predict` on the same GPU and the lease's
host description (its kind's catalog box, or validation/host-training/hosts/<lease>.toml with its own
probe's speed), and prints per-run errors and MAPE per GPU, process (fresh / after-profiler), set and
family. Dev split: batch 4 of every training configuration; --fit tunes the one framework factor
(framework.model_factor = factor x the lease's probe speed, calibration/host/host_profile.py) on the
fresh leases' dev runs; test split: every other run.

Usage: python3 validation/host-training/evaluate.py [--gpucast build/cli/gpucast] [--markdown]
       [--fit [--fit-range 1.1,1.9]] [--host HOST] [--only TEXT] [--process fresh|after-profiler]
       [--box-only]
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "calibration", "host"))
import host_profile  # noqa: E402

R = "validation/runs/"
HOSTS = "validation/host-training/hosts/"
# One entry per lease (one machine, one call of the device tool): (GPU profile, host description,
# the lease's clean host probe or None, result files with their process). "fresh": a process that
# never started torch.profiler before the timed runs (bench_single.py --no-profile, fresh_host_set*.sh).
# "after-profiler": every earlier set, whose timed runs followed a torch.profiler session in the same
# process (section A's traces, the kernel counts of B2/B3, or the probe's profiler entry): Kineto
# leaves CUPTI subscribed after profiling (TEARDOWN_CUPTI unset, pytorch/pytorch#144455), which
# slows every later launch (docs/accuracy.md).
LEASES = [
    ("h100-sxm", "h100-box", R + "h100-sxm/fresh/probe/results.json",
     [(R + "h100-sxm/fresh/llama/results.json", "fresh"), (R + "h100-sxm/fresh/llama2/results.json", "fresh#2"),
      (R + "h100-sxm/fresh/gpt/results_gpt.json", "fresh")]),
    ("h100-sxm", HOSTS + "h100-lease2.toml", R + "h100-sxm/fresh2/probe_a/results.json",
     [(R + "h100-sxm/fresh2/gpt_train/results_gpt.json", "fresh")]),
    ("h100-sxm", HOSTS + "h100-lease3.toml", R + "h100-sxm/fresh3/probe_a/results.json",
     [(R + "h100-sxm/fresh3/llama_a/results.json", "fresh"), (R + "h100-sxm/fresh3/gpt_a/results_gpt.json", "fresh"),
      (R + "h100-sxm/fresh3/llama_b/results.json", "fresh#2"), (R + "h100-sxm/fresh3/gpt_b/results_gpt.json", "fresh#2")]),
    ("h100-sxm", HOSTS + "h100-lease4.toml", R + "h100-sxm/fresh4/probe_1/results.json",
     [(R + "h100-sxm/fresh4/llama_1/results.json", "fresh"), (R + "h100-sxm/fresh4/gpt_1/results_gpt.json", "fresh"),
      (R + "h100-sxm/fresh4/llama_2/results.json", "fresh#2"), (R + "h100-sxm/fresh4/gpt_2/results_gpt.json", "fresh#2"),
      (R + "h100-sxm/fresh4/llama_3/results.json", "fresh#3"), (R + "h100-sxm/fresh4/gpt_3/results_gpt.json", "fresh#3")]),
    # The fifth H100 lease (2026-11-26, calibration/runs/fresh_interleaved_set.sh, two calls minutes
    # apart): the earlier method (a fresh probe process, then each configuration timed in one short
    # window) and the round-robin one (bench_infer_interleaved.py: probe entries and forwards share
    # every round; medians over the call), each predicted with its own probe's speed.
    ("h100-sxm", HOSTS + "h100-lease5.toml", R + "h100-sxm/interleaved/probe/results.json",
     [(R + "h100-sxm/interleaved/llama/results.json", "fresh"), (R + "h100-sxm/interleaved/gpt/results_gpt.json", "fresh")]),
    ("h100-sxm", HOSTS + "h100-lease5-probe2.toml", R + "h100-sxm/interleaved2/probe/results.json",
     [(R + "h100-sxm/interleaved2/llama/results.json", "fresh#2"),
      (R + "h100-sxm/interleaved2/gpt/results_gpt.json", "fresh#2")]),
    ("h100-sxm", HOSTS + "h100-lease5-interleaved.toml", R + "h100-sxm/interleaved/interleaved/results.json",
     [(R + "h100-sxm/interleaved/interleaved/results.json", "interleaved")]),
    ("h100-sxm", HOSTS + "h100-lease5-interleaved2.toml", R + "h100-sxm/interleaved2/interleaved/results.json",
     [(R + "h100-sxm/interleaved2/interleaved/results.json", "interleaved#2")]),
    ("h100-sxm", HOSTS + "h100-lease6.toml", R + "h100-sxm/interleaved3/probe/results.json",
     [(R + "h100-sxm/interleaved3/llama/results.json", "fresh"), (R + "h100-sxm/interleaved3/gpt/results_gpt.json", "fresh")]),
    ("h100-sxm", HOSTS + "h100-lease6-interleaved.toml", R + "h100-sxm/interleaved3/interleaved/results.json",
     [(R + "h100-sxm/interleaved3/interleaved/results.json", "interleaved")]),
    ("h100-sxm", HOSTS + "h100x2-lease1.toml", R + "h100x2/interleaved/probe/results.json",
     [(R + "h100x2/interleaved/llama/results.json", "fresh"), (R + "h100x2/interleaved/gpt/results_gpt.json", "fresh")]),
    ("h100-sxm", HOSTS + "h100x2-lease1-interleaved.toml", R + "h100x2/interleaved/interleaved/results.json",
     [(R + "h100x2/interleaved/interleaved/results.json", "interleaved")]),
    ("h100-sxm", HOSTS + "h100-lease7-interleaved.toml", R + "h100-sxm/train-interleaved/results.json",
     [(R + "h100-sxm/train-interleaved/results.json", "interleaved")]),
    ("h100-sxm", HOSTS + "h100-lease8-train.toml", R + "h100-sxm/train-interleaved2/results.json",
     [(R + "h100-sxm/train-interleaved2/results.json", "interleaved#2")]),
    ("h100-sxm", HOSTS + "h100-lease8.toml", R + "h100-sxm/interleaved4/probe/results.json",
     [(R + "h100-sxm/interleaved4/llama/results.json", "fresh"), (R + "h100-sxm/interleaved4/gpt/results_gpt.json", "fresh")]),
    ("h100-sxm", HOSTS + "h100-lease8-interleaved.toml", R + "h100-sxm/interleaved4/interleaved/results.json",
     [(R + "h100-sxm/interleaved4/interleaved/results.json", "interleaved")]),
    # The ninth H100 lease (2026-11-26, third stop; asked as nvidia-h200, served by an H100): the earlier
    # method and the round-robin forwards (fresh_interleaved_set.sh), then the training steps round-robin.
    # Host descriptions written by calibration/host/host_profile.py --write-host.
    ("h100-sxm", HOSTS + "h100-lease9.toml", R + "h100-sxm/interleaved5/probe/results.json",
     [(R + "h100-sxm/interleaved5/llama/results.json", "fresh"), (R + "h100-sxm/interleaved5/gpt/results_gpt.json", "fresh")]),
    ("h100-sxm", HOSTS + "h100-lease9-interleaved.toml", R + "h100-sxm/interleaved5/interleaved/results.json",
     [(R + "h100-sxm/interleaved5/interleaved/results.json", "interleaved")]),
    ("h100-sxm", HOSTS + "h100-lease9-train.toml", R + "h100-sxm/train-interleaved3/results.json",
     [(R + "h100-sxm/train-interleaved3/results.json", "interleaved#3")]),
    ("h200-sxm", "h200-box", R + "h200-sxm/fresh/probe/results.json",
     [(R + "h200-sxm/fresh/llama/results.json", "fresh"), (R + "h200-sxm/fresh/llama2/results.json", "fresh#2"),
      (R + "h200-sxm/fresh/gpt/results_gpt.json", "fresh")]),
    ("h200-sxm", HOSTS + "h200-lease2.toml", R + "h200-sxm/fresh2/probe_a/results.json",
     [(R + "h200-sxm/fresh2/gpt_train/results_gpt.json", "fresh")]),
    ("h200-sxm", HOSTS + "h200-lease3.toml", R + "h200-sxm/fresh3/probe_1/results.json",
     [(R + "h200-sxm/fresh3/llama_1/results.json", "fresh"), (R + "h200-sxm/fresh3/gpt_1/results_gpt.json", "fresh"),
      (R + "h200-sxm/fresh3/llama_2/results.json", "fresh#2"), (R + "h200-sxm/fresh3/gpt_2/results_gpt.json", "fresh#2"),
      (R + "h200-sxm/fresh3/llama_3/results.json", "fresh#3"), (R + "h200-sxm/fresh3/gpt_3/results_gpt.json", "fresh#3")]),
    ("h100-sxm", "h100-box", None,
     [(R + "h100-sxm/results.json", "after-profiler"), (R + "h100-sxm/results_gpt.json", "after-profiler")]),
    ("h200-sxm", "h200-box", None,
     [(R + "h200-sxm/results.json", "after-profiler"), (R + "h200-sxm/results_gpt.json", "after-profiler"),
      (R + "h200-sxm/instance2/results_gpt_b4.json", "after-profiler"),
      (R + "h200-sxm/instance2/results_llama_b4.json", "after-profiler")]),
    ("h200-sxm", "h200x2-box", None,
     [(R + "h200x2/host/results.json", "after-profiler"), (R + "h200x2/host/results_gpt.json", "after-profiler")]),
]
EXTRA_SETS = [s for s in os.environ.get("GPUCAST_HOST_SETS", "").split() if s]
MODELS = os.path.join(ROOT, "validation", "host-training", "models")


def predict(gpucast, gpu, host, args, sets=()):
    cmd = [gpucast, "predict", "--gpu", gpu, "--host", host, "--format", "json"] + args
    for s in list(sets) + EXTRA_SETS:
        cmd += ["--set", s]
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if out.returncode != 0:
        raise RuntimeError(" ".join(cmd) + ": " + out.stderr.strip())
    d = json.loads(out.stdout)
    return d[0] if isinstance(d, list) else d


def ms(v):
    return v["median"] if isinstance(v, dict) else v


def model_file(name):
    # results.json names the Llama-style models "125m".."3b"; results_gpt.json the GPT-2-style "gpt124m"..
    if name.startswith("gpt"):
        return os.path.join(MODELS, "gpt-%s.toml" % name[3:])
    return os.path.join(MODELS, "llama-%s.toml" % name)


def runs(files):
    """(kind, key, args, measured ms, split, process) of every run in the machine's files."""
    out = []
    for fname, process in files:
        path = os.path.join(ROOT, fname)
        if os.path.exists(path):
            out += [r + (process,) for r in runs_of(json.load(open(path))["results"])]
    return out


def runs_of(r):
    out = []
    for key, v in r.get("B_train", {}).items():
        if "step_ms" not in v:
            continue
        opt = "adamw-fused" if "fused" in v["optimizer"] else "adamw"
        args = ["--model", model_file(v["model"]), "--mode", "train", "--batch",
                str(v["batch"]), "--seq", str(v["seq"]), "--precision", v["precision"], "--optimizer", opt]
        split = "dev" if v["batch"] == 4 else "test"
        out.append(("train", key, args, ms(v["step_ms"]), split))
    for key, v in r.get("B_infer", {}).items():
        if "eager_event_ms" not in v:
            continue
        # A full-sequence forward returning every position's logits, no KV cache.
        base = ["--model", model_file(v["model"]), "--mode", "prefill", "--batch",
                str(v["batch"]), "--seq", str(v["seq"]), "--precision", "bf16"]
        if not key.startswith(v["model"]):
            key = v["model"] + "_" + key
        out.append(("infer-eager", key, base, ms(v["eager_wall_ms"]), "test"))
        out.append(("infer-graph", key, base + ["--launch", "graph"], ms(v["graph_wall_ms"]), "test"))
    return out


def lease_speed(probe):
    return host_profile.speed(host_profile.load_probe(os.path.join(ROOT, probe))) if probe else None


def mape(errs):
    return 100 * sum(abs(e) for e in errs) / len(errs) if errs else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gpucast", default=os.path.join(ROOT, "build", "cli", "gpucast"))
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--fit", action="store_true",
                    help="print the dev-split MAPE of the framework factor (model_factor = factor x the lease's probe "
                         "speed) over every fresh lease together: the tuning")
    ap.add_argument("--fit-range", default="1.0,2.2", help="factors tried by --fit: MIN,MAX (0.1 steps)")
    ap.add_argument("--host", default="", help="only leases with this host description")
    ap.add_argument("--only", default="", help="only runs whose key contains this text (e.g. gpt)")
    ap.add_argument("--process", default="", help="only this process kind (fresh, after-profiler)")
    ap.add_argument("--box-only", action="store_true",
                    help="predict every lease with its kind's catalog box (h100-box, h200-box), not its own probe's host")
    a = ap.parse_args()
    if a.box_only:
        box = {"h100-sxm": "h100-box", "h200-sxm": "h200-box"}
        LEASES[:] = [(g, box[g] if h.startswith(HOSTS) else h, p, f) for g, h, p, f in LEASES]
    leases = [(g, h, p, f) for g, h, p, f in LEASES if (not a.host or h == a.host)
              and (not a.process or any(pr.startswith(a.process) for _, pr in f))]
    if a.fit:
        lo, hi = (float(v) for v in a.fit_range.split(","))
        # One factor for every machine, fitted on the dev runs (batch 4) of the fresh leases.
        dev = []
        for gpu, host, probe, files in leases:
            if probe is None:
                continue
            sp = lease_speed(probe)
            dev += [(gpu, host, sp, r) for r in runs(files) if r[4] == "dev" and r[5].startswith("fresh")]
        best = None
        for i in range(int(round((hi - lo) / 0.1)) + 1):
            f = lo + 0.1 * i
            errs = []
            for gpu, host, sp, (kind, key, args, measured, split, process) in dev:
                p = predict(a.gpucast, gpu, host, args, ["host.framework.model_factor=%.4f" % (f * sp)])
                errs.append((p["total_us"] / 1e3 - measured) / measured)
            print("framework factor %.2f: dev MAPE %.1f%% over %d runs" % (f, mape(errs), len(errs)))
            if best is None or mape(errs) < best[1]:
                best = (f, mape(errs))
        print("best framework factor %.2f (dev MAPE %.1f%%)" % best)
        return
    rows = []
    for gpu, host, probe, files in leases:
        for kind, key, args, measured, split, process in runs(files):
            if a.only not in key or (a.process and not process.startswith(a.process)):
                continue
            try:
                p = predict(a.gpucast, gpu, host, args)
            except RuntimeError as e:
                print("skip", gpu, key, e, file=sys.stderr)
                continue
            pred = p["total_us"] / 1e3
            rows.append(dict(gpu=gpu, host=os.path.basename(host).replace(".toml", ""), process=process, kind=kind,
                             run=key, split=split, measured=measured, predicted=pred,
                             err=(pred - measured) / measured, host_bound=p["host"]["host_bound"],
                             kernels=len(p["kernels"]), host_ms=p["host"]["host_busy_us"] / 1e3,
                             gpu_ms=p["gpu_busy_us"] / 1e3))
            # Evidently host-bound: the GPU work gpucast predicts covers under 80% of the measured step.
            rows[-1]["evident"] = rows[-1]["gpu_ms"] < 0.8 * measured
    if a.markdown:
        print("| GPU | host | process | kind | run | split | measured ms | predicted ms | error | kernels | host-bound: flagged / evident |")
        print("|---|---|---|---|---|---|---:|---:|---:|---:|---|")
        for r in rows:
            print("| %s | %s | %s | %s | %s | %s | %.1f | %.1f | %+.1f%% | %d | %s / %s |" % (
                r["gpu"], r["host"], r["process"], r["kind"], r["run"], r["split"], r["measured"], r["predicted"], 100 * r["err"],
                r["kernels"], "yes" if r["host_bound"] else "no", "yes" if r["evident"] else "no"))
    else:
        for r in rows:
            print("%-9s %-12s %-14s %-12s %-30s %-4s meas %8.2f pred %8.2f err %+6.1f%% host %7.2f gpu %7.2f k %5d %s" % (
                r["gpu"], r["host"], r["process"], r["kind"], r["run"], r["split"], r["measured"], r["predicted"], 100 * r["err"],
                r["host_ms"], r["gpu_ms"], r["kernels"], "HOST-BOUND" if r["host_bound"] else ""))
    print()
    for gpu in ("h100-sxm", "h200-sxm"):
        for process in ("fresh", "interleaved", "after-profiler"):
            for kind in ("train", "infer-eager", "infer-graph"):
                for split in ("dev", "test"):
                    for fam in ("llama", "gpt", ""):
                        sel = [r for r in rows if r["gpu"] == gpu and r["process"].startswith(process) and r["kind"] == kind
                               and r["split"] == split and (r["run"].startswith("gpt") == (fam == "gpt") or not fam)]
                        if sel:
                            hb = [r["err"] for r in sel if r["evident"]]
                            print("%s %s %s %s %s: MAPE %.1f%% over %d runs; evidently host-bound %.1f%% over %d" % (
                                gpu, process, kind, split, fam or "both", mape([r["err"] for r in sel]), len(sel),
                                mape(hb), len(hb)))
    ev = [r for r in rows if r["evident"]]
    print("evidently host-bound runs: %d, flagged host-bound: %d; flagged but not evident: %d" % (
        len(ev), sum(r["host_bound"] for r in ev), sum(r["host_bound"] and not r["evident"] for r in rows)))
    for gpu, host, probe, files in leases:
        if probe:
            print("lease %s %s: probe speed %.3f (%s)" % (gpu, host, lease_speed(probe), probe))


if __name__ == "__main__":
    main()
