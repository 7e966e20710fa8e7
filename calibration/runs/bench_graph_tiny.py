#!/usr/bin/env python3
"""What one tiny kernel costs inside a CUDA graph, by kind: the slope of a graph's replay time over
the number of copies of one op it holds (50 and 150 copies; each replay timed with CUDA events,
median of 30), for an empty kernel (torch.cuda._sleep(0)) and for the small pointwise, strided,
reduction and cast kernels a decode-like forward is made of (2,048-16,384 elements, inputs warm in
the L2: each copy reads what the one before it read or wrote).

Why: gpucast's graph timeline charges launch.graph_kernel_us (the empty kernel's slope) plus each
kernel's modeled execution; the Llama decode-like forwards replayed as graphs (about 700 such
kernels) were predicted 10-20% short. The difference between a kind's slope and the empty kernel's
is what that kernel's own execution costs back to back; a calibration measurement (not the
inference forwards the issue reports on).

Usage (device machine): python3 calibration/runs/bench_graph_tiny.py --out $OUT/graph_tiny.json
"""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import torch  # noqa: E402

from common import capture_graph, env_info, stats  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
args = ap.parse_args()
dev = torch.device("cuda")


def kinds():
    K = {}
    for n in (2048, 16384):
        x32 = torch.randn(n, device=dev)
        y32 = torch.randn(n, device=dev)
        xb = torch.randn(n, device=dev, dtype=torch.bfloat16)
        rows = torch.randn(n // 128, 256, device=dev, dtype=torch.bfloat16)  # a slice of it: 128 of 256
        h = torch.randn(1, n, device=dev)
        K["add_inplace_fp32_%d" % n] = lambda x=x32: x.add_(1.0)
        K["add_out_fp32_%d" % n] = lambda x=x32, y=y32: torch.add(x, y, out=y)
        K["mul_alloc_bf16_%d" % n] = lambda x=xb: x * x
        K["neg_strided_bf16_%d" % n] = lambda r=rows: -r[:, 128:]
        K["cat_halves_bf16_%d" % n] = lambda r=rows: torch.cat((r[:, 128:], r[:, :128]), dim=-1)
        K["mean_row_fp32_%d" % n] = lambda t=h: t.mean(-1, keepdim=True)
        K["cast_bf16_to_fp32_%d" % n] = lambda x=xb: x.float()
        K["cast_fp32_to_bf16_%d" % n] = lambda x=x32: x.to(torch.bfloat16)
    K["empty_sleep0"] = lambda: torch.cuda._sleep(0)
    return K


def graph_of(fn, copies):
    return capture_graph(fn, copies)[0]


def replay_ms(g, n=30):
    for _ in range(3):
        g.replay()
    torch.cuda.synchronize()
    out = []
    for _ in range(n):
        a = torch.cuda.Event(enable_timing=True)
        b = torch.cuda.Event(enable_timing=True)
        a.record()
        g.replay()
        b.record()
        torch.cuda.synchronize()
        out.append(a.elapsed_time(b))
    return out


res = {"env": env_info({}), "method": __doc__.split("\n\n")[0], "kinds": {}}
LO, HI = 50, 150
for name, fn in kinds().items():
    lo = replay_ms(graph_of(fn, LO))
    hi = replay_ms(graph_of(fn, HI))
    slope_us = (stats(hi)["median"] - stats(lo)["median"]) * 1e3 / (HI - LO)
    res["kinds"][name] = {"slope_us_per_kernel": slope_us, "replay_ms_%d" % LO: lo, "replay_ms_%d" % HI: hi}
    print("%-26s %6.3f us per kernel in a graph" % (name, slope_us), flush=True)
json.dump(res, open(args.out, "w"), indent=1)
