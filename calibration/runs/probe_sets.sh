#!/bin/bash
# The probe sets (calibration/validation/cases.py PROBES, all dev): small targeted sets for one
# mechanism each, measured as the broad set is (suite.py: do_bench with an L2 flush before each call,
# then the kernels of one profiled call).
#   calibration/runs/probe_sets.sh OUT_DIR [PROBE ...]
# writes OUT_DIR/<gpu>/probe-<name>.json and OUT_DIR/<gpu>/log.txt (GPU, clocks, CPU, wall times).
set -eu
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu" in
  *H200*) OUT=$1/h200-sxm ;;
  *H100*) OUT=$1/h100-sxm ;;
  *) echo "unexpected GPU: $gpu" >&2; exit 2 ;;
esac
shift
probes=("$@")
[ ${#probes[@]} -gt 0 ] || probes=(skinny-fp32-gemm small-copies fp32-conv)
source "$(dirname "${BASH_SOURCE[0]}")/fresh_common.sh"
echo "$gpu" >"$OUT/gpu.txt"
cd "$D/../validation"
for p in "${probes[@]}"; do
  run python3 suite.py --probe "$p" --repeat-every 4 --budget-s 150 --out "$OUT/probe-$p.json"
done
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >>"$LOG" 2>&1
