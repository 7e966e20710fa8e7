#!/usr/bin/env python3
"""Strided pointwise kernels as a training step runs them: back to back, with L2 left warm (issue 13).

bench_strided.py times PyTorch's legacy strided kernel (`elementwise_kernel<128, vt>`) the way the broad
set does: do_bench with a 256 MB L2 flush before every call. A profiler trace sees something else: the
kernel right after the one that produced its input, with the input (or a small broadcast operand such as
RoPE's cos/sin table) still in L2. This script times the trace-shaped views of a Llama-style layer
(attention's head split and merge, RoPE's broadcast multiply and rotate_half slices, repeat_kv's expand)
both ways, so the strided model can be checked on what a trace shows:

- `measured_us`: the median GPU duration of the case's kernel over 20 back-to-back calls under
  torch.profiler (no flush: L2 as warm as the working set allows), the figure a trace records;
- `cold_kernel_us`: the same kernel's profiled duration in one call right after a 256 MB L2 flush;
- `do_bench_cold_us`: triton do_bench's median with its flush (CUDA events, launch included).

Split by the broad set's fixed rule (calibration/validation/cases.py, split_of: CRC32 of the id).
Usage (device machine): python3 calibration/runs/bench_strided_warm.py --out $OUT/strided-warm.json
"""
import argparse
import json
import os
import statistics
import sys
import time

import torch
import triton.testing

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "validation"))
from cases import split_of  # noqa: E402
import suite  # noqa: E402  (save: the broad set's file format; device_activities)

DTYPES = {"bf16": torch.bfloat16, "fp32": torch.float32}
REPEATS = 20
FLUSH = None


def flush_l2():
    global FLUSH
    if FLUSH is None:
        FLUSH = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
    FLUSH.zero_()


def profiled_kernels(fn, calls):
    """(name, us) of the device kernels of `calls` back-to-back calls (suite.device_activities)."""
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    return suite.device_activities(prof)


def layer_views(b, s, h, d, t):
    """The strided pointwise ops of one attention block's front end, with their gpucast parameters."""
    x = torch.randn(b, s, h * d, device="cuda", dtype=t)
    q = x.view(b, s, h, d).transpose(1, 2)  # [b, h, s, d] view of a [b, s, h, d] tensor
    cos = torch.randn(s, d, device="cuda", dtype=t)
    o = torch.randn(b, h, s, d, device="cuda", dtype=t)
    kv = torch.randn(b, s, max(1, h // 4), d, device="cuda", dtype=t).transpose(1, 2)
    n = b * s * h * d
    cases = {
        # attention's head split materialized: [b, s, h, d] -> [b, h, s, d]
        "headsplit-copy": (lambda: q.contiguous(), dict(elements=n, index_dims=3, inputs=1, broadcast_inputs=0,
                                                        flops_per_element=0)),
        # attention's head merge: [b, h, s, d] -> [b, s, h, d] (the output's transpose(1, 2).contiguous())
        "headmerge-copy": (lambda: o.transpose(1, 2).contiguous(),
                           dict(elements=n, index_dims=3, inputs=1, broadcast_inputs=0, flops_per_element=0)),
        # RoPE's q * cos: a strided view times an [s, d] table broadcast over b and h
        "rope-mul": (lambda: q * cos, dict(elements=n, index_dims=3, inputs=1, broadcast_inputs=1,
                                           broadcast_elements=s * d, flops_per_element=1)),
        # rotate_half's -x2: the second half of every head of a strided view
        "rotate-neg": (lambda: -q[..., d // 2:], dict(elements=n // 2, index_dims=4, inputs=1, broadcast_inputs=0,
                                                      flops_per_element=1)),
        # repeat_kv: [b, kv, s, d] expanded over 4 query heads per KV head, then reshaped (a copy)
        "repeat-kv": (lambda: kv[:, :, None].expand(b, kv.shape[1], 4, s, d).reshape(b, kv.shape[1] * 4, s, d),
                      dict(elements=n, index_dims=4, inputs=1, broadcast_inputs=0, flops_per_element=0,
                           source_elements=n // 4)),
    }
    return cases


SHAPES = [  # (b, s, h, d): GPT-2 small to Llama-3-8B heads, short to long sequences
    (1, 128, 12, 64), (4, 512, 12, 64), (8, 1024, 12, 64), (1, 2048, 16, 64), (4, 2048, 16, 64),
    (1, 512, 32, 128), (2, 1024, 32, 128), (1, 4096, 32, 128), (4, 4096, 32, 128), (16, 256, 8, 128),
    (3, 333, 7, 64), (1, 8192, 8, 128),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    torch.manual_seed(0)
    results, t0 = [], time.time()
    for dtype, t in DTYPES.items():
        for (b, s, h, d) in SHAPES:
            for name, (fn, params) in layer_views(b, s, h, d, t).items():
                cid = "strided-warm-%s-b%d-s%d-h%d-d%d-%s" % (name, b, s, h, d, dtype)
                record = {"id": cid, "family": "elementwise", "op": "elementwise", "set": split_of(cid),
                          "torch": name, "params": dict(params, dtype=dtype, contiguous=False,
                                                        shape=[b, s, h, d])}
                try:
                    fn()
                    torch.cuda.synchronize()
                    warm = [us for _, us in profiled_kernels(fn, REPEATS)]
                    flush_l2()
                    torch.cuda.synchronize()
                    cold = profiled_kernels(fn, 1)
                    med, p20, p80 = triton.testing.do_bench(fn, warmup=10, rep=40, quantiles=[0.5, 0.2, 0.8])
                    record.update({
                        "measured_us": statistics.median(warm) if warm else None,
                        "warm_p20_us": sorted(warm)[len(warm) // 5] if warm else None,
                        "cold_kernel_us": sum(us for _, us in cold),
                        "do_bench_cold_us": med * 1e3,
                        "kernels": [{"name": n, "us": round(us, 3)} for n, us in cold],
                    })
                except Exception as exc:
                    record["error"] = ("%s: %s" % (type(exc).__name__, exc))[:300]
                results.append(record)
            torch.cuda.empty_cache()
        print("[strided-warm] %s done, %.0f s" % (dtype, time.time() - t0), file=sys.stderr, flush=True)
    suite.save(args.out, results, 10, 40, t0)
    with open(args.out) as f:  # this file's method is not the broad set's do_bench alone
        doc = json.load(f)
    doc["method"] = ("calibration/runs/bench_strided_warm.py: measured_us = median profiled kernel duration over %d "
                     "back-to-back calls without an L2 flush (what a trace records); cold_kernel_us = profiled "
                     "kernel duration of one call after a 256 MB L2 flush; do_bench_cold_us = triton do_bench "
                     "(warmup=10 ms, rep=40 ms) median with its flush, launch included" % REPEATS)
    with open(args.out + ".tmp", "w") as f:
        json.dump(doc, f, indent=1)
    os.replace(args.out + ".tmp", args.out)


if __name__ == "__main__":
    main()
