#!/usr/bin/env python3
"""One call each of PyTorch's block softmax and norm kernels (forward and backward) at dev and
calibration shapes of the broad set (never a test shape), for Nsight Compute to count the
instructions every warp issues (issue 17: which of these kernels are bound by issuing them, and at
what count per element, as profile_row_kernels.py did for the warp softmax).
    calibration/runs/profile_norm_kernels.sh OUT_DIR
"""
import torch
import torch.nn.functional as F

T = {"bf16": torch.bfloat16, "fp16": torch.float16, "fp32": torch.float32}
BLOCK_SOFTMAX = [(64, 131072, "fp32"), (1024, 8192, "fp32"), (8192, 4096, "fp32"), (8192, 8192, "bf16"),
                 (4096, 32000, "bf16"), (64, 128256, "fp32"), (256, 128256, "bf16"), (1396, 23712, "fp32"),
                 (1, 32768, "fp32"), (8, 32000, "fp32")]
LAYER_NORM = [(8192, 768, "bf16"), (32768, 2048, "bf16"), (32768, 1024, "fp32"), (1000, 4099, "fp16"),
              (65536, 320, "fp16"), (16, 12288, "bf16"), (7, 16384, "fp32"), (4096, 64, "fp16")]
RMS_NORM = [(32768, 4096, "bf16"), (8192, 2048, "fp32"), (65536, 320, "bf16"), (1000, 4099, "fp16"),
            (100, 4099, "fp32"), (256, 12288, "bf16")]
LAYER_NORM_BWD = [(65536, 64, "bf16"), (16384, 320, "bf16"), (16384, 64, "fp16"), (4096, 16384, "bf16"),
                  (16384, 5120, "bf16"), (1, 4099, "bf16"), (4096, 7168, "fp16")]
RMS_NORM_BWD = [(65536, 64, "fp16"), (16384, 320, "bf16"), (4096, 320, "bf16"), (4096, 7168, "bf16"),
                (65536, 2560, "bf16"), (100, 16384, "fp32"), (1000, 4099, "fp32")]

for rows, cols, t in BLOCK_SOFTMAX:
    x = torch.randn(rows, cols, device="cuda", dtype=T[t])
    F.softmax(x, dim=-1)
for rows, h, t in LAYER_NORM:
    x = torch.randn(rows, h, device="cuda", dtype=T[t])
    w, b = torch.randn(h, device="cuda", dtype=T[t]), torch.randn(h, device="cuda", dtype=T[t])
    F.layer_norm(x, (h,), w, b)
for rows, h, t in RMS_NORM:
    x = torch.randn(rows, h, device="cuda", dtype=T[t])
    F.rms_norm(x, (h,), torch.randn(h, device="cuda", dtype=T[t]))
for rows, h, t in LAYER_NORM_BWD:
    x = torch.randn(rows, h, device="cuda", dtype=T[t], requires_grad=True)
    w = torch.randn(h, device="cuda", dtype=T[t], requires_grad=True)
    b = torch.randn(h, device="cuda", dtype=T[t], requires_grad=True)
    y = F.layer_norm(x, (h,), w, b)
    torch.autograd.grad(y, (x, w, b), torch.randn_like(y))
for rows, h, t in RMS_NORM_BWD:
    x = torch.randn(rows, h, device="cuda", dtype=T[t], requires_grad=True)
    w = torch.randn(h, device="cuda", dtype=T[t], requires_grad=True)
    y = F.rms_norm(x, (h,), w)
    torch.autograd.grad(y, (x, w), torch.randn_like(y))
torch.cuda.synchronize()
