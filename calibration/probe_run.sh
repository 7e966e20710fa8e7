#!/usr/bin/env bash
# Second calibration pass on a GPU machine: the size sweep of a streaming copy and the framework
# probe (with its do_bench of a minimal PyTorch op). Writes to $OUT.
set -u
OUT=${OUT:-device-out}; mkdir -p "$OUT"
root=$(cd "$(dirname "$0")/.." && pwd); cd "$root"
calibration/build_microbench.sh build-cuda > /dev/null || exit 1
build-cuda/gpucast-microbench --only stream_sizes,first_touch,launch --out "$OUT/microbench-extra.json"
PYTHONUNBUFFERED=1 python3 calibration/microbench/framework_overhead.py > "$OUT/framework.json"
python3 -c "import json;[print(r) for r in json.load(open('$OUT/microbench-extra.json'))['results']+json.load(open('$OUT/framework.json'))['results']]"
