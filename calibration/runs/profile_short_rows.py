#!/usr/bin/env python3
"""One call each of x.sum(dim=-1) over rows of 5-256 columns, for Nsight Compute to count (issue 17:
the short-row sums of bench_short_rows.py are issue-bound; this counts the instructions reduce_kernel
executes per warp at each row length, and in the first two calls where its warps wait).
    ncu --metrics smsp__inst_executed.sum,gpu__time_duration.sum python3 calibration/runs/profile_short_rows.py [--counts]
"""
import sys

import torch

SHAPES = [(33, torch.bfloat16), (64, torch.bfloat16), (128, torch.bfloat16), (64, torch.float32)]
if "--counts" in sys.argv:
    SHAPES = [(c, t) for t in (torch.bfloat16, torch.float32) for c in (5, 17, 33, 40, 64, 96, 100, 127, 128, 129, 200, 256)]
for cols, dtype in SHAPES:
    x = torch.randn(131072, cols, device="cuda", dtype=dtype)
    x.sum(dim=-1)
    torch.cuda.synchronize()
