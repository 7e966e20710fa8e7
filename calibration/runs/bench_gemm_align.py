#!/usr/bin/env python3
"""bf16 GEMMs with a dimension that is not a multiple of 8 (GPT-2's vocabulary 50257) against the
same GEMMs padded to 50304: the lm_head forward, its input gradient and its weight gradient as
eager PyTorch runs them (torch.mm on row-major tensors). CUDA events, median of 20 after 5 warm-ups.
Usage: python3 calibration/runs/bench_gemm_align.py --out $OUT   (writes gemm_align.json)"""
import argparse, json, os, sys
import torch

ap = argparse.ArgumentParser()
ap.add_argument("--out", required=True)
a = ap.parse_args()
torch.backends.cuda.matmul.allow_tf32 = False
dev = torch.device("cuda")


def bench(fn, iters=20, warmup=5):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(iters):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record(); fn(); e.record(); ts.append((s, e))
    torch.cuda.synchronize()
    v = sorted(x.elapsed_time(y) for x, y in ts)
    return v[len(v) // 2]


res = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "rows": []}
for T, d in ((8192, 768), (8192, 1600), (4096, 1024), (16384, 1280)):
    for V in (50257, 50304):
        x = torch.randn(T, d, device=dev, dtype=torch.bfloat16)
        w = torch.randn(V, d, device=dev, dtype=torch.bfloat16)
        g = torch.randn(T, V, device=dev, dtype=torch.bfloat16)
        flops = 2.0 * T * d * V
        for kind, fn in (("fwd x@w.t", lambda: x @ w.t()), ("dgrad g@w", lambda: g @ w),
                         ("wgrad g.t@x", lambda: g.t() @ x)):
            ms = bench(fn)
            row = {"T": T, "d": d, "V": V, "kind": kind, "ms": ms, "tflops": flops / ms / 1e9}
            res["rows"].append(row)
            print("%-12s T %5d d %4d V %5d  %.3f ms  %.0f TFLOP/s" % (kind, T, d, V, ms, row["tflops"]), flush=True)
        del x, w, g
json.dump(res, open(os.path.join(a.out, "gemm_align.json"), "w"), indent=1)
