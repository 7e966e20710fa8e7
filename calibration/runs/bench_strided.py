#!/usr/bin/env python3
"""PyTorch's strided pointwise kernel (CUDALoops.cuh's legacy `elementwise_kernel<128, vt>`), case by
case: dev and test data for models/elementwise_model.cpp's strided path (issues 13 and 17).

PyTorch runs a pointwise op whose operands do not all vectorize (a slice, a permuted view, a broadcast
operand) through the legacy kernel: each thread handles vt items (4 for 2-byte outputs, 2 for 4-byte),
one after another, computing every operand's offset from the linear index through the
OffsetCalculator, one integer division per dimension left after TensorIterator coalesces the
operands' dimensions. This script times that kernel over the index dimensions (2 to 5, built so that
they do not coalesce), the operand count (copy and neg: 2; mul by a broadcast tensor and add of two
views: 3), the type and the size, each the way suite.py times the broad set: triton do_bench with the
256 MB L2 flush before each call (cold), median, and the kernels of one profiled call.

Split by the broad set's fixed rule (calibration/validation/cases.py, split_of: CRC32 of the id):
tune on `dev` (and `calibration`), report `test`.

Usage (device machine): python3 calibration/runs/bench_strided.py --out $OUT/strided.json
"""
import argparse
import os
import sys
import time

import torch
import triton.testing

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "validation"))
from cases import split_of  # noqa: E402
import suite  # noqa: E402  (kernels_of, save: the broad set's file format)

DTYPES = {"bf16": torch.bfloat16, "fp32": torch.float32}
SIZES = [1 << 18, 1 << 20, 1 << 22, 1 << 24]
HEAD = 64  # the innermost run of every view (a head dimension): 128-256 contiguous bytes


def view_of(dims, n, t):
    """A strided view with n elements whose index space keeps `dims` dimensions after coalescing."""
    if dims == 2:  # the first half of every row (rotate_half's slices)
        base = torch.randn(n // HEAD, 2 * HEAD, device="cuda", dtype=t)
        return base[:, :HEAD]
    if dims == 3:  # [A, B, d] -> [B, A, d]
        a = max(1, int((n // HEAD) ** 0.5))
        while (n // HEAD) % a:
            a //= 2
        base = torch.randn(a, n // HEAD // a, HEAD, device="cuda", dtype=t)
        return base.permute(1, 0, 2)
    if dims == 4:  # [b, s, h, d] -> [b, h, s, d] (attention's head split)
        b, h = 4, 8
        s = n // (b * h * HEAD)
        base = torch.randn(b, s, h, HEAD, device="cuda", dtype=t)
        return base.transpose(1, 2)
    if dims == 5:  # repeat_kv: [b, kv, s, d] expanded over 2 query heads per KV head
        b, kv, rep = 4, 4, 2
        s = n // (b * kv * rep * HEAD)
        base = torch.randn(b, s, kv, HEAD, device="cuda", dtype=t).transpose(1, 2)
        return base[:, :, None].expand(b, kv, rep, s, HEAD)
    raise ValueError(dims)


def make(op, dims, n, t):
    v = view_of(dims, n, t)
    if op == "copy":
        return lambda: v.contiguous(), {"inputs": 1, "broadcast_inputs": 0, "flops_per_element": 0}
    if op == "neg":
        return lambda: torch.neg(v), {"inputs": 1, "broadcast_inputs": 0, "flops_per_element": 1}
    if op == "mul_bcast":  # x * cos: a [.., s, d]-shaped factor broadcast over the leading dims
        c = torch.randn(v.shape[-2:], device="cuda", dtype=t) if dims > 2 else torch.randn(v.shape[-1], device="cuda", dtype=t)
        return lambda: v * c, {"inputs": 1, "broadcast_inputs": 1, "flops_per_element": 1}
    if op == "add":  # two views of the same layout
        w = view_of(dims, n, t)
        return lambda: v + w, {"inputs": 2, "broadcast_inputs": 0, "flops_per_element": 1}
    raise ValueError(op)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    torch.manual_seed(0)
    results, t0 = [], time.time()
    for dtype in DTYPES:
        for dims in (2, 3, 4, 5):
            for op in ("copy", "neg", "mul_bcast", "add"):
                for n in SIZES:
                    cid = "strided-%s-d%d-%s-%d" % (op, dims, dtype, n)
                    params = {"elements": n, "dtype": dtype, "contiguous": False, "index_dims": dims}
                    record = {"id": cid, "family": "elementwise", "op": "elementwise", "set": split_of(cid)}
                    try:
                        fn, extra = make(op, dims, n, DTYPES[dtype])
                        params.update(extra)
                        record["params"] = params
                        record["torch"] = op
                        med, p20, p80 = triton.testing.do_bench(fn, warmup=10, rep=40, quantiles=[0.5, 0.2, 0.8])
                        record.update({"measured_us": med * 1e3, "p20_us": p20 * 1e3, "p80_us": p80 * 1e3})
                        record["kernels"] = suite.kernels_of(fn)
                    except Exception as exc:
                        record["error"] = ("%s: %s" % (type(exc).__name__, exc))[:300]
                    results.append(record)
                    torch.cuda.empty_cache()
            print("[strided] %s dims %d done, %.0f s" % (dtype, dims, time.time() - t0), file=sys.stderr, flush=True)
    suite.save(args.out, results, 10, 40, t0)


if __name__ == "__main__":
    main()
