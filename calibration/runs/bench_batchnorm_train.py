#!/usr/bin/env python3
"""Training batch normalization on channels-last activations, kernel by kernel (dev data for
models/batch_norm_model.h's training kernels).

PyTorch runs a training batch norm of a channels-last [N, C, H, W] tensor as
batch_norm_collect_statistics_channels_last_kernel (Welford over the N*H*W positions of each
channel), a one-block running-statistics update, batch_norm_transform_input_channels_last_kernel;
its backward as batch_norm_backward_reduce_channels_last_kernel (sums of dy and dy * (x - mean))
and batch_norm_backward_elemt_channels_last_kernel (dx). This script times each kernel with
torch.profiler (median of 7 iterations after warm-up) at shapes of several CNNs **at batch sizes
other than 64**, so that the ResNet-50 training trace at batch 64
(validation/runs/h100-sxm/heldout/trace-resnet50-train.json.gz) stays a held-out test.

Usage (device machine): python3 calibration/runs/bench_batchnorm_train.py --out $OUT
Writes $OUT/batchnorm_train.json: per case the shape, dtype and each kernel's name, grid, block,
registers and median duration.
"""
import argparse
import json
import os
import statistics
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import env_info  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
args = ap.parse_args()
dev = torch.device("cuda")

# (channels, spatial) of ResNet-50's batch norms, plus a few other widths and odd sizes.
LAYERS = [(64, 112), (64, 56), (256, 56), (128, 28), (512, 28), (256, 14), (1024, 14), (512, 7), (2048, 7),
          (96, 35), (192, 17), (48, 73), (32, 150), (384, 9)]
BATCHES = [8, 32, 128]
DTYPES = [torch.bfloat16, torch.float32]


def kernels_of(fn, iters=7):
    from torch.profiler import ProfilerActivity, profile
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        for _ in range(iters):
            fn()
        torch.cuda.synchronize()
    by_name = {}
    for e in p.events():
        if e.device_type != torch.autograd.DeviceType.CUDA:
            continue
        by_name.setdefault(e.name, []).append(e.time_range.elapsed_us())
    return [{"name": n, "count_per_iter": len(v) / iters, "median_us": statistics.median(v)} for n, v in by_name.items()]


cases = []
t0 = time.time()
for dtype in DTYPES:
    for batch in BATCHES:
        for c, hw in LAYERS:
            if batch * c * hw * hw * 4 > 2.5e9:
                continue
            x = torch.randn(batch, c, hw, hw, device=dev, dtype=dtype).to(memory_format=torch.channels_last)
            x.requires_grad_(True)
            w = torch.ones(c, device=dev, dtype=torch.float32, requires_grad=True)
            b = torch.zeros(c, device=dev, dtype=torch.float32, requires_grad=True)
            rm = torch.zeros(c, device=dev, dtype=torch.float32)
            rv = torch.ones(c, device=dev, dtype=torch.float32)
            dy = torch.randn_like(x).contiguous(memory_format=torch.channels_last)

            def fwd():
                with torch.no_grad():
                    return F.batch_norm(x, rm, rv, w, b, training=True)

            y = F.batch_norm(x, rm, rv, w, b, training=True)

            def bwd():
                return torch.autograd.grad(y, (x, w, b), dy, retain_graph=True)

            case = {"id": "bn-%s-n%d-c%d-s%d" % (str(dtype)[6:], batch, c, hw), "n": batch, "c": c, "h": hw, "w": hw,
                    "dtype": str(dtype)[6:], "memory_format": "channels_last"}
            try:
                case["forward"] = kernels_of(fwd)
                case["backward"] = kernels_of(bwd)
            except Exception as e:  # noqa
                case["error"] = repr(e)[:200]
            cases.append(case)
            del x, dy, y
            torch.cuda.empty_cache()
            print("%6.1fs %s" % (time.time() - t0, case["id"]), flush=True)

# The launch each kernel used, from one profiled trace of a mid-size case (grid, block, registers).
launch = {}
try:
    from torch.profiler import ProfilerActivity, profile
    x = torch.randn(32, 256, 56, 56, device=dev, dtype=torch.bfloat16).to(memory_format=torch.channels_last)
    x.requires_grad_(True)
    w = torch.ones(256, device=dev, requires_grad=True)
    b = torch.zeros(256, device=dev, requires_grad=True)
    rm, rv = torch.zeros(256, device=dev), torch.ones(256, device=dev)
    path = os.path.join(args.out, "bn_launch_trace.json")
    with profile(activities=[ProfilerActivity.CUDA, ProfilerActivity.CPU]) as p:
        y = F.batch_norm(x, rm, rv, w, b, training=True)
        y.backward(torch.ones_like(y))
        torch.cuda.synchronize()
    p.export_chrome_trace(path)
    for e in json.load(open(path))["traceEvents"]:
        if e.get("cat") == "kernel":
            launch[e["name"][:120]] = {k: e["args"].get(k) for k in ("grid", "block", "registers per thread", "shared memory")}
    os.remove(path)
except Exception as e:  # noqa
    launch["error"] = repr(e)[:200]

json.dump({"env": env_info({"script": "bench_batchnorm_train.py"}), "method":
           "torch.profiler kernel durations (device time), median of 7 iterations after 3 warm-up calls; channels_last "
           "input; forward under no_grad with training=True (statistics + transform), backward via autograd.grad",
           "cases": cases, "launch_32x256x56x56_bf16": launch}, open(os.path.join(args.out, "batchnorm_train.json"), "w"),
          indent=1)
print("done", len(cases))
