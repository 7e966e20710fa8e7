#!/usr/bin/env python3
"""The SM clock and board power while the traced workloads run back to back (data for the power model).

bench_power.py measured the power limiter on synthetic loops (GEMMs alone, GEMMs between casts, do_bench
calls). This script runs the workloads whose profiler traces gpucast replays (validation/runs/<gpu>/
trace-*.json.gz, bench_single.py section A: the same models, sizes and precisions) for --seconds each,
steps back to back as a training loop runs them, while nvidia-smi samples the SM clock and power every
20 ms; each phase's median step time comes from CUDA events around every step. A GPU-bound step that
is mostly matrix work should sit at the limiter's clock; a host-bound one near boost.

  llama125m-train  Llama-style 125M, batch 8, sequence 1024, amp (fp32 weights, bf16 autocast), foreach AdamW
  llama1b-train    Llama-style 1B, batch 4, sequence 2048, amp, foreach AdamW
  llama1b-prefill  Llama-style 1B, bf16 weights, no_grad, batch 1, sequence 2048
  resnet50-fwd     torchvision ResNet-50, batch 64, channels_last, bf16 autocast, no_grad (if torchvision)
  idle             nothing (the idle clock between phases)

Usage (device machine): python3 calibration/runs/bench_step_clock.py --out $OUT/step_clock.json [--seconds 8]
Writes OUT (JSON: per phase the step times and the clock/power sample statistics) and OUT.smi.csv.
"""
import argparse
import json
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import SmiSampler, build_llama, elapsed_log, env_info, free_cuda, smi_epoch, train_step  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
ap.add_argument("--seconds", type=float, default=8.0)
ap.add_argument("--smoke", action="store_true", help="two layers, short sequences, 1 s phases")
args = ap.parse_args()
log = elapsed_log()
dev = torch.device("cuda")
VOCAB = 32000
LAYERS = 2 if args.smoke else None
SECONDS = 1.0 if args.smoke else args.seconds


def llama_train(name, batch, seq):
    model, _ = build_llama(name, dtype=torch.float32, layers=LAYERS, max_seq=max(seq, 2048))
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.1, foreach=True)
    x = torch.randint(0, VOCAB, (batch, seq), device=dev)
    y = torch.randint(0, VOCAB, (batch, seq), device=dev)
    return (lambda: train_step(model, opt, x, y, True)), (model, opt, x, y)


def llama_prefill(seq):
    model, _ = build_llama("1b", dtype=torch.bfloat16, layers=LAYERS)
    x = torch.randint(0, VOCAB, (1, seq), device=dev)

    def fwd():
        with torch.no_grad():
            return model(x)
    return fwd, (model, x)


def resnet_fwd(batch):
    import torchvision
    model = torchvision.models.resnet50(weights=None).to(dev).to(memory_format=torch.channels_last).eval()
    x = torch.randn(batch, 3, 224, 224, device=dev).to(memory_format=torch.channels_last)

    def fwd():
        with torch.no_grad(), torch.autocast("cuda", dtype=torch.bfloat16):
            return model(x)
    return fwd, (model, x)


def run_phase(fn, seconds):
    """Steps back to back for `seconds` (after 3 warm-up steps); CUDA-event time of every step, the
    host never more than one step ahead (the event of the step before is waited on)."""
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times, events = [], []
    t_start = time.time()
    while time.time() - t_start < seconds:
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        events.append((a, b))
        if len(events) >= 2:
            events[-2][1].synchronize()
    torch.cuda.synchronize()
    times = [a.elapsed_time(b) for a, b in events]
    return t_start, time.time(), times


smi = SmiSampler(args.out + ".smi.csv")
phases = {}
s125, b125 = (64, 1) if args.smoke else (1024, 8)
s1b, b1b = (64, 1) if args.smoke else (2048, 4)
builders = [
    ("idle", None),
    ("llama125m-train", lambda: llama_train("125m", b125, s125)),
    ("llama1b-train", lambda: llama_train("1b", b1b, s1b)),
    ("llama1b-prefill", lambda: llama_prefill(s1b)),
    ("resnet50-fwd", lambda: resnet_fwd(2 if args.smoke else 64)),
]
for name, build in builders:
    try:
        if build is None:
            t0 = time.time()
            time.sleep(SECONDS)
            phases[name] = {"start": t0, "end": time.time(), "step_ms": []}
        else:
            fn, keep = build()
            t0, t1, times = run_phase(fn, SECONDS)
            phases[name] = {"start": t0, "end": t1, "step_ms": times}
            del fn, keep
            free_cuda()
        log(name, "steps", len(phases[name]["step_ms"]),
            "median ms %.3f" % statistics.median(phases[name]["step_ms"]) if phases[name]["step_ms"] else "")
    except Exception as e:  # a phase that fails (e.g. no torchvision) is recorded, the others run
        phases[name] = {"error": repr(e)[:300]}
        log(name, "failed", repr(e)[:200])
    time.sleep(1.0)  # a gap between phases, so their samples do not mix
samples = smi.stop()

out = {"format": "gpucast-step-clock/1", "env": env_info(), "seconds_per_phase": SECONDS,
       "columns": SmiSampler.COLUMNS.split(","), "phases": {}}
for name, p in phases.items():
    if "error" in p:
        out["phases"][name] = p
        continue
    # Samples inside the phase, skipping its first half second (the clock settles).
    inside = [s for s in samples if p["start"] + 0.5 <= smi_epoch(s[0]) <= p["end"]]
    clocks = [float(s[1]) for s in inside if s[1].replace(".", "").isdigit()]
    power = [float(s[3]) for s in inside if s[3].replace(".", "").isdigit()]
    st = p["step_ms"]
    out["phases"][name] = {
        "steps": len(st), "step_ms_median": statistics.median(st) if st else None,
        "step_ms_min": min(st) if st else None, "samples": len(inside),
        "sm_clock_mhz_median": statistics.median(clocks) if clocks else None,
        "sm_clock_mhz_p10": sorted(clocks)[len(clocks) // 10] if clocks else None,
        "sm_clock_mhz_p90": sorted(clocks)[(9 * len(clocks)) // 10] if clocks else None,
        "power_w_median": statistics.median(power) if power else None,
    }
    log(name, json.dumps(out["phases"][name]))
tmp = args.out + ".tmp"
with open(tmp, "w") as f:
    json.dump(out, f, indent=1)
os.replace(tmp, args.out)
log("wrote", args.out)
