#!/usr/bin/env python3
"""Sums over short rows (x.sum(dim=-1), rows of 5-100 elements, 32K-512K rows): ATen's reduce_kernel
in its rows-per-block configuration (models/reduce_strategy.h), many waves of 512-thread blocks, each
thread folding one or two elements. In the broad set the 16-bit cases of this kind run 17-34% longer
than the model says while fp32 ones land within a few percent (dev: reduce-1355 109325x35 bf16); this
sweep measures the mechanism at shapes the broad set does not have (no row length or row count of it),
fp32, bf16 and fp16, timed as suite.py times the broad set (do_bench, 256 MB flush, median) with the
kernels of one profiled call.

Split by the broad set's fixed rule (cases.split_of, CRC32 of the id): tune on `dev` and `calibration`,
report `test`.

Usage (device machine): python3 calibration/runs/bench_short_rows.py --out $OUT/short-rows.json
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
import suite  # noqa: E402

DTYPES = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}
ROWS = [32768, 131072, 524288]
COLS = [5, 17, 40, 64, 100]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    torch.manual_seed(0)
    results, t0 = [], time.time()
    for dtype in DTYPES:
        for rows in ROWS:
            for cols in COLS:
                cid = "shortrow-%s-%dx%d" % (dtype, rows, cols)
                record = {"id": cid, "family": "reduce", "op": "reduce", "set": split_of(cid),
                          "params": {"rows": rows, "cols": cols, "dtype": dtype}, "torch": "x.sum(dim=-1)"}
                try:
                    x = torch.randn(rows, cols, device="cuda", dtype=DTYPES[dtype])
                    fn = lambda: x.sum(dim=-1)  # noqa: E731
                    med, p20, p80 = triton.testing.do_bench(fn, warmup=10, rep=40, quantiles=[0.5, 0.2, 0.8])
                    record.update({"measured_us": med * 1e3, "p20_us": p20 * 1e3, "p80_us": p80 * 1e3})
                    record["repeat_us"] = triton.testing.do_bench(fn, warmup=10, rep=40) * 1e3
                    record["kernels"] = suite.kernels_of(fn)
                except Exception as exc:
                    record["error"] = ("%s: %s" % (type(exc).__name__, exc))[:300]
                results.append(record)
        print("[short-rows] %s done, %.0f s" % (dtype, time.time() - t0), file=sys.stderr, flush=True)
    suite.save(args.out, results, 10, 40, t0)


if __name__ == "__main__":
    main()
