#!/usr/bin/env python3
"""One call each of PyTorch row kernels at dev and calibration shapes of the broad set (never a test
shape), for Nsight Compute to count: instructions per warp, issue activity, DRAM throughput (issue 17:
whether a row kernel is bound by issuing its instructions, as the short-row sums are).
    calibration/runs/profile_row_kernels.sh OUT_DIR
"""
import torch
import torch.nn.functional as F

T = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}
SOFTMAX = [(1024, 512, "bf16"), (1024, 512, "fp32"), (64, 1024, "bf16"), (37832, 10, "fp32"), (12870, 136, "bf16"),
           (262144, 64, "fp16"), (65536, 77, "fp32"), (2700, 465, "bf16"), (8192, 1025, "bf16"), (32768, 197, "fp32")]
for rows, cols, t in SOFTMAX:
    x = torch.randn(rows, cols, device="cuda", dtype=T[t])
    F.softmax(x, dim=-1)
    torch.cuda.synchronize()
