#!/usr/bin/env python3
"""The RMSNorm of the Llama-style models, forward and backward, alone, as profiler traces (issue 13).

Checks the warm-L2 rules of the fifteenth pass (sim/warm_l2.h: a producer output larger than one L2
partition's share; workloads/trace/autograd_sum_to.h: the backward's sum reads the node's full-size
gradient) on sizes no rule was set on: measured after those rules were final, nothing is tuned on it.
For each [rows, cols] input (bf16, fp32 weight, common.RMSNorm: h.float(), pow, mean, rsqrt, mul, cast,
weight mul) it runs forward and backward under torch.profiler (record_shapes, 3 active steps after
one warm-up) and writes the Chrome trace, which `gpucast predict --trace` replays kernel by kernel.
The fp32 activations span 8-67 MB: below, across and above the H100's 17.5 MB partition share.
Usage (device machine): python3 calibration/runs/bench_warm_rmsnorm.py --out $OUT/warm-rmsnorm
(then tar the folder: the device tool returns a few files per call)
"""
import argparse
import json
import os
import sys

import torch
from torch.profiler import ProfilerActivity, profile, schedule

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from common import RMSNorm, env_info  # noqa: E402

SHAPES = [(2048, 1024), (4096, 768), (2048, 2048), (5120, 1024), (8192, 768), (4096, 2048), (8192, 1024),
          (12288, 1024), (8192, 2048)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--smoke", action="store_true", help="two small shapes")
    ap.add_argument("--shapes", help="ROWSxCOLS,... instead of the default set (e.g. a held-out set)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    torch.manual_seed(0)
    shapes = SHAPES[:2] if args.smoke else SHAPES
    if args.shapes:
        shapes = [tuple(int(v) for v in s.split("x")) for s in args.shapes.split(",")]
    done = []
    for rows, cols in shapes:
        norm = RMSNorm(cols).cuda()
        x = torch.randn(1, rows, cols, device="cuda", dtype=torch.bfloat16, requires_grad=True)
        grad = torch.randn(1, rows, cols, device="cuda", dtype=torch.float32)

        def step():
            x.grad = None
            norm.weight.grad = None
            norm(x).backward(grad)

        for _ in range(3):
            step()
        torch.cuda.synchronize()
        name = "trace-rmsnorm-%dx%d.json" % (rows, cols)
        path = os.path.join(args.out, name)
        # The schedule's cycle ends with the last active step: export there (events are cleared after).
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA], record_shapes=True,
                     schedule=schedule(wait=0, warmup=1, active=3, repeat=1),
                     on_trace_ready=lambda p: p.export_chrome_trace(path)) as prof:
            for _ in range(4):
                step()
                torch.cuda.synchronize()
                prof.step()
        os.system("gzip -f %s" % path)
        done.append(name + ".gz")
        print(name, flush=True)
    with open(os.path.join(args.out, "environment.json"), "w") as f:
        json.dump({"environment": env_info(), "traces": done, "argv": sys.argv}, f, indent=1)


if __name__ == "__main__":
    main()
