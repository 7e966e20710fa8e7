#!/bin/bash
# A third, independent measurement of the broad validation set (issue 17), with the same method as
# runs 1 and 2 (suite.py --direct-backward), in a new process on a new lease. Runs 1 and 2 differ by
# more than 10% on about a tenth of the cases (host time of small library calls outrunning the L2
# flush, which moves between processes): with three runs each case has a median that no single
# run's host artifact decides. Nothing is tuned on it.
#   calibration/runs/broad_suite_run3.sh OUT_DIR
# writes OUT_DIR/<gpu>/kernels-run3.json and OUT_DIR/<gpu>/log.txt (GPU, clocks, CPU, wall times).
set -eu
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case "$gpu" in
  *H200*) OUT=$1/h200-sxm ;;
  *H100*) OUT=$1/h100-sxm ;;
  *) echo "unexpected GPU: $gpu" >&2; exit 2 ;;
esac
source "$(dirname "${BASH_SOURCE[0]}")/fresh_common.sh"
echo "$gpu" >"$OUT/gpu.txt"
cd "$D/../validation"
run python3 suite.py --direct-backward --budget-s 500 --out "$OUT/kernels-run3.json"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >>"$LOG" 2>&1
