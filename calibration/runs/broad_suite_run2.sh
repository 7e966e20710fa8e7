#!/bin/bash
# A second, independent measurement of the broad validation set (issue 17): the same 1,707 cases, in a
# new process on a new lease, with the corrected methods from the start (`--direct-backward`: SDPA
# flags set once per case, backward through the ATen backward ops), which run 1 only got in a second
# call for those families. Nothing was tuned on it: it is read as unseen measurements, and beside
# run 1 it gives the run-to-run noise between processes and leases.
#   OUT=<dir> calibration/runs/broad_suite_run2.sh
# writes $OUT/kernels-run2.json, $OUT/log.txt (GPU, clocks, CPU at the start) and nvidia-smi after.
set -e
: "${OUT:?set OUT}"
source "$(dirname "${BASH_SOURCE[0]}")/fresh_common.sh"
cd "$D/../validation"
run python3 suite.py --direct-backward --budget-s 500 --out "$OUT/kernels-run2.json"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >>"$LOG" 2>&1
