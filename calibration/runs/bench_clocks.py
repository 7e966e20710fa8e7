#!/usr/bin/env python3
"""Does a pointwise kernel run slower beside matrix work? The SM clock under sustained load (issue 13).

In a GPU-bound training step the trace's pointwise kernels run 10-20% slower per element than the same
kernels in a host-bound step (H100 traces: the bf16 -> fp32 cast of a GEMM's output, 6.3M elements at
385 M elements/ms in the 125M step, 16.8M at 313 M/ms in the 1B step). A candidate cause is the power
limiter lowering the SM clock while GEMMs run. This script measures it: nvidia-smi samples the SM clock
and power every 20 ms while the GPU runs, phase after phase,
  idle      nothing (1 s)
  cast      a loop of bf16 -> fp32 casts of 16.8M elements (a pointwise kernel alone)
  gemm      a loop of 8192^3 bf16 GEMMs (matrix work alone)
  mixed     GEMM, cast, GEMM, cast, ... (the kernels of a GPU-bound step, back to back)
and torch.profiler times the cast kernel in the `cast` and `mixed` phases (median of its instances).

Usage (device machine): python3 calibration/runs/bench_clocks.py --out $OUT/clocks.json
"""
import argparse
import json
import os
import statistics
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import SmiSampler, env_info, loop_for  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
ap.add_argument("--seconds", type=float, default=4.0)
args = ap.parse_args()

smi = SmiSampler(args.out + ".smi.csv", extra="clocks_throttle_reasons.active")
dev = torch.device("cuda")
x16 = torch.randn(16 * 1024 * 1024, device=dev, dtype=torch.bfloat16)
a = torch.randn(8192, 8192, device=dev, dtype=torch.bfloat16)
b = torch.randn(8192, 8192, device=dev, dtype=torch.bfloat16)
torch.cuda.synchronize()


def cast():
    return x16.to(torch.float32)


def gemm():
    return a @ b


def cast_kernel_us(fns, iters):
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        for _ in range(iters):
            for f in fns:
                f()
        torch.cuda.synchronize()
    d = [e.device_time for e in p.events() if e.device_type == torch.autograd.DeviceType.CUDA
         and "unrolled_elementwise_kernel" in e.name]
    g = [e.device_time for e in p.events() if e.device_type == torch.autograd.DeviceType.CUDA
         and ("gemm" in e.name.lower() or "nvjet" in e.name or "sm90" in e.name)]
    return {"cast_median_us": statistics.median(d) if d else None, "cast_n": len(d),
            "gemm_median_us": statistics.median(g) if g else None, "gemm_n": len(g)}


phases = []
for name, fns in (("idle", None), ("cast", [cast]), ("gemm", [gemm]), ("mixed", [gemm, cast]), ("cast_after", [cast])):
    start = time.time()
    if fns is None:
        time.sleep(1.0)
        rec = {}
    else:
        n = loop_for(fns, args.seconds, sync_every=8)
        rec = {"iterations": n}
        rec.update(cast_kernel_us(fns, 20))
    phases.append({"phase": name, "start": start, "end": time.time(), **rec})
    print("[clocks]", phases[-1], file=sys.stderr, flush=True)
time.sleep(0.3)
samples = smi.stop()
json.dump({"env": env_info(), "phases": phases, "smi_columns": "timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,throttle",
           "smi": samples}, open(args.out, "w"), indent=1)
