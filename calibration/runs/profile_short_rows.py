#!/usr/bin/env python3
"""One call each of x.sum(dim=-1) over short rows, for Nsight Compute to profile (issue 17: the
short-row sums of bench_short_rows.py cost per block, not per byte; this asks the kernel where its
warps wait). Shapes: 131072 rows of 33, 64 and 128 bf16 columns and 64 fp32 columns.
    ncu --set full --page source --print-source sass --csv python3 calibration/runs/profile_short_rows.py
"""
import torch

for cols, dtype in ((33, torch.bfloat16), (64, torch.bfloat16), (128, torch.bfloat16), (64, torch.float32)):
    x = torch.randn(131072, cols, device="cuda", dtype=dtype)
    x.sum(dim=-1)
    torch.cuda.synchronize()
