#!/usr/bin/env bash
# One measuring session on a GPU machine, through gpucast's own commands:
#   gpucast calibrate  -> hardware/calibrated/<gpu>.toml (+ raw microbenchmark and framework files)
#   gpucast validate   -> validation/<gpu>/kernels.json, predicted with the fresh profile
#   e2e.py             -> validation/<gpu>/e2e.json (end-to-end model runs, eager and CUDA graph)
# Copies the results to $OUT. Needs a gpucast binary (GPUCAST_BIN, default .device-bin/gpucast).
# usage: calibration/device_session.sh GPU_ID [--quick] [--skip-e2e]
set -u
gpu=$1; shift
quick=""; e2e=1
for a in "$@"; do case "$a" in --quick) quick="--quick" ;; --skip-e2e) e2e=0 ;; esac; done
OUT=${OUT:-device-out}
mkdir -p "$OUT"
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export GPUCAST_HOME="$root"
bin=${GPUCAST_BIN:-$root/.device-bin/gpucast}
export LD_LIBRARY_PATH="$root/.device-bin/lib:${LD_LIBRARY_PATH:-}"
exec > >(tee -a "$OUT/session.log") 2>&1
echo "== $(date -u +%FT%TZ) $gpu"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,utilization.gpu --format=csv -lms 500 > "$OUT/smi.csv" 2>/dev/null &
smi=$!
calibration/build_microbench.sh build-cuda > /dev/null || { echo "microbench build failed"; exit 1; }
"$bin" calibrate --gpu "$gpu" --bench build-cuda/gpucast-microbench $quick || echo "calibrate FAILED"
cp hardware/calibrated/"$gpu".toml hardware/calibrated/"$gpu".microbench.json "$OUT"/ 2>/dev/null
cp hardware/calibrated/"$gpu".framework.json "$OUT"/ 2>/dev/null
mkdir -p validation/"$gpu"
"$bin" validate --gpu hardware/calibrated/"$gpu".toml --save validation/"$gpu"/kernels.json $quick --worst 15 \
  || echo "validate FAILED"
cp validation/"$gpu"/kernels.json "$OUT"/ 2>/dev/null
if [ "$e2e" = 1 ]; then
  PYTHONUNBUFFERED=1 timeout 240 python3 calibration/validation/e2e.py --out "$OUT/e2e.json" || echo "e2e FAILED"
fi
kill $smi 2>/dev/null
echo "== done $(date -u +%FT%TZ)"; ls -la "$OUT"
