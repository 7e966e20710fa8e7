#!/usr/bin/env bash
# Refits the committed calibrated profiles from their raw measurements (no GPU needed):
#   hardware/calibrated/<gpu>.{microbench,probe,gemm-*}.json   CUDA microbenchmarks
#   hardware/calibrated/<gpu>.{framework,probe-framework,framework-*}.json   PyTorch probe
# usage: calibration/refit.sh [GPUCAST_BINARY]   (default build/cli/gpucast)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=${1:-build/cli/gpucast}
for gpu in h100-sxm h200-sxm; do
  dir=hardware/calibrated
  args=()
  for f in "$dir/$gpu.microbench.json" "$dir/$gpu.probe.json" "$dir/$gpu".gemm-*.json; do args+=(--from "$f"); done
  for f in "$dir/$gpu.framework.json" "$dir/$gpu.probe-framework.json" "$dir/$gpu".framework-*.json; do
    args+=(--framework "$f")
  done
  "$bin" calibrate --gpu "$gpu" "${args[@]}" -o "$dir/$gpu.toml"
done
