#!/usr/bin/env bash
# Refits the committed calibrated profiles from their raw measurements (no GPU needed):
#   hardware/calibrated/<gpu>.{microbench,probe,gemm-*}.json   CUDA microbenchmarks
#   hardware/calibrated/<gpu>.{framework,probe-framework,framework-*}.json   PyTorch probe
# usage: calibration/refit.sh [GPUCAST_BINARY [OUT_DIR]]   (default build/cli/gpucast, hardware/calibrated)
# tests/calibration/refit_test.sh refits into a temporary folder and fails when a committed profile
# differs: a model change that moves a fitted value must come with the refit profiles.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=${1:-build/cli/gpucast}
out=${2:-hardware/calibrated}
for gpu in h100-sxm h200-sxm; do
  dir=hardware/calibrated
  args=()
  for f in "$dir/$gpu.microbench.json" "$dir/$gpu.probe.json" "$dir/$gpu".gemm-*.json; do args+=(--from "$f"); done
  for f in "$dir/$gpu.framework.json" "$dir/$gpu.probe-framework.json" "$dir/$gpu".framework-*.json; do
    args+=(--framework "$f")
  done
  # Hand-set values that replace a fit, each with its evidence (calibration/adjustments.h).
  if [[ -f "$dir/$gpu.adjust.toml" ]]; then args+=(--adjust "$dir/$gpu.adjust.toml"); fi
  "$bin" calibrate --gpu "$gpu" "${args[@]}" -o "$out/$gpu.toml"
done
