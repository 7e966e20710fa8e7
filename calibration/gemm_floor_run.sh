#!/usr/bin/env bash
# Third calibration pass on a GPU machine: library GEMM rates in both the TN and the NN layout
# (PyTorch's row-major A @ B reaches cuBLAS as NN) at five square sizes, and the framework probe
# with its smallest-kernel timing at three sizes, three times each. Writes to $OUT.
set -u
OUT=${OUT:-device-out}; mkdir -p "$OUT"
root=$(cd "$(dirname "$0")/.." && pwd); cd "$root"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv | tee "$OUT/gpu.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,utilization.gpu --format=csv -lms 500 > "$OUT/smi.csv" 2>/dev/null &
smi=$!
calibration/build_microbench.sh build-cuda > /dev/null || exit 1
build-cuda/gpucast-microbench --only gemm --out "$OUT/microbench-gemm.json"
PYTHONUNBUFFERED=1 python3 calibration/microbench/framework_overhead.py > "$OUT/framework.json"
kill $smi 2>/dev/null
python3 -c "
import json
for f in ('$OUT/microbench-gemm.json', '$OUT/framework.json'):
    for r in json.load(open(f))['results']:
        print(r)"
