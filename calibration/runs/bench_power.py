#!/usr/bin/env python3
"""The power limiter's clock against the share of matrix work (data for a future power model).

bench_clocks.py showed the H100 holding its 700 W limit at 1,410 MHz under back-to-back bf16 GEMMs and
1,980 MHz under a pointwise loop. How the clock, and so a GEMM's time, depends on the duty cycle of
matrix work is what a model of GPU-bound steps needs: a training step interleaves GEMMs with
memory-bound kernels, the broad set's do_bench interleaves each call with a 256 MB L2 flush.
Each phase runs for --seconds while nvidia-smi samples the SM clock and power every 20 ms:
  gemm+castK    a 4096x4096x4096 bf16 GEMM, then K bf16 -> fp32 casts of 16.8M elements (54 us each)
  gemm+sleepK   the same GEMM, then a sleep kernel of K x 50 us (the SMs idle)
  dobench-N     an N^3 GEMM after a 256 MB memset, as triton's do_bench times it (the broad set's method)
and torch.profiler records the GEMM's and the filler's kernel times right after each phase (median of 30).
Caveat seen on the first run (validation/h100-sxm/power.json): those 30 iterations start after the
phase's final synchronization and profiler start-up, with the clock already back near boost, so the
kernel times are not the phase's steady state (GEMM 169-201 us in every phase); the clock and power
samples are. The sleep filler came out at a tenth of its nominal length (torch.cuda._sleep's cycles
are not SM clock cycles at 1,980 MHz); its phases are labelled by the requested length.

Usage (device machine): python3 calibration/runs/bench_power.py --out $OUT/power.json
"""
import argparse
import json
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import SmiSampler, env_info, loop_for, smi_epoch  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
ap.add_argument("--seconds", type=float, default=2.5)
args = ap.parse_args()

smi = SmiSampler(args.out + ".smi.csv")
dev = torch.device("cuda")
x16 = torch.randn(16 * 1024 * 1024, device=dev, dtype=torch.bfloat16)
flush = torch.empty(256 * 1024 * 1024, device=dev, dtype=torch.int8)
mats = {n: (torch.randn(n, n, device=dev, dtype=torch.bfloat16), torch.randn(n, n, device=dev, dtype=torch.bfloat16))
        for n in (2048, 4096, 8192)}
torch.cuda.synchronize()
# Sleep-kernel cycles per microsecond at the current clock is not fixed; torch.cuda._sleep counts
# cycles, so the filler is calibrated once at the start (idle GPU, boost clock).
t0 = torch.cuda.Event(enable_timing=True)
t1 = torch.cuda.Event(enable_timing=True)
t0.record()
torch.cuda._sleep(1_000_000)
t1.record()
torch.cuda.synchronize()
cycles_per_us = 1_000_000 / (t0.elapsed_time(t1) * 1e3)


def gemm(n):
    a, b = mats[n]
    return lambda: a @ b


def cast():
    return x16.to(torch.float32)


def sleep_us(us):
    return lambda: torch.cuda._sleep(int(us * cycles_per_us))


def zero_flush():
    flush.zero_()


def kernel_times(fns, iters=30):
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        for _ in range(iters):
            for f in fns:
                f()
        torch.cuda.synchronize()
    by = {}
    for e in p.events():
        if e.device_type != torch.autograd.DeviceType.CUDA:
            continue
        name = e.name
        kind = ("gemm" if ("gemm" in name.lower() or "nvjet" in name or "sm90" in name or "cutlass" in name)
                else "cast" if "unrolled_elementwise" in name
                else "sleep" if "spin" in name.lower() or "sleep" in name.lower()
                else "flush" if ("fill" in name.lower() or "memset" in name.lower())
                else "other")
        by.setdefault(kind, []).append(e.device_time)
    return {k: {"median_us": statistics.median(v), "n": len(v)} for k, v in by.items()}


phases = []
plan = [("idle", None)]
for k in (0, 1, 2, 4, 8):
    plan.append(("gemm4096+cast%d" % k, [gemm(4096)] + [cast] * k))
for k in (1, 2, 4, 8):
    plan.append(("gemm4096+sleep%d" % k, [gemm(4096), sleep_us(50 * k)]))
for n in (2048, 4096, 8192):
    plan.append(("dobench-%d" % n, [zero_flush, gemm(n)]))
for name, fns in plan:
    if fns is None:
        s = time.time()
        time.sleep(1.0)
        phases.append({"phase": name, "start": s, "end": time.time()})
        continue
    s = time.time()
    n = loop_for(fns, args.seconds, sync_every=16)
    e = time.time()
    rec = {"phase": name, "start": s, "end": e, "iterations": n, "kernels": kernel_times(fns)}
    phases.append(rec)
    print("[power]", name, n, {k: round(v["median_us"], 1) for k, v in rec["kernels"].items()}, file=sys.stderr, flush=True)
time.sleep(0.3)
samples = smi.stop()
for ph in phases:
    inside = [x for x in samples if ph["start"] + 0.3 <= smi_epoch(x[0]) <= ph["end"]]
    if inside:
        ph["sm_mhz_median"] = statistics.median(float(x[1]) for x in inside)
        ph["power_w_median"] = statistics.median(float(x[3]) for x in inside)
        ph["samples"] = len(inside)
json.dump({"env": env_info(), "cycles_per_us": cycles_per_us, "phases": phases,
           "smi_columns": "timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu", "smi": samples},
          open(args.out, "w"), indent=1)
for ph in phases:
    print("%-20s %6s MHz %6s W %s" % (ph["phase"], ph.get("sm_mhz_median"), ph.get("power_w_median"),
                                     {k: round(v["median_us"], 1) for k, v in ph.get("kernels", {}).items()}))
