#!/bin/sh
# The broad validation set (issue 17): 1,707 kernels per GPU, the first suite's 680 (same ids) and the
# cases of calibration/validation/cases_broad.py, timed by calibration/validation/suite.py.
# How validation/{h100-sxm,h200-sxm}/kernels.json were made (2026-11-22, 23:30-23:37 UTC), one call each
# on the lent nvidia-h100-x1 and nvidia-h200 machines (PyTorch 2.11.0+cu130, CUDA 13.0, cuDNN 9.19,
# Triton 3.6.0, driver 580.159.04), about 215 s per GPU:
#   python3 calibration/validation/suite.py --budget-s 470 --out kernels.json
# Every case: triton.testing.do_bench(warmup=10 ms, rep=60 ms), 256 MB L2 flush before each run,
# median; one case in four (adler32(id) % 4 == 0) timed a second time right after the first
# (`repeat_us`, the noise floor); the kernels of one profiled call. nvidia-smi before and after, and
# the run's log, are in validation/runs/<gpu>/broad-suite-*.txt. 1,705 of 1,707 cases measured on each
# GPU; the two failures are fp8 GEMMs with an inner dimension that is not a multiple of 16, which
# torch._scaled_mm refuses.
set -e
cd "$(dirname "$0")/../validation"
PYTHONUNBUFFERED=1 python3 suite.py --budget-s 470 --out "${1:-kernels.json}"
