#!/bin/bash
# The held-out convolution probe (cases.py heldout-conv-2026-11-28, all test), committed before it was
# measured, on whichever GPU the call got; on an H200 it then runs issue 14's H200 inference set too
# (h200_infer_alone.sh), which only an H200 can measure.
#   calibration/runs/heldout_conv_2026_11_28.sh OUT_DIR
# writes OUT_DIR/probe-heldout-conv-2026-11-28.json, gpu.txt, log.txt (and OUT_DIR/h200-sxm/infer/).
set -eu
[ $# -ge 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
OUT=$1
source "$(dirname "${BASH_SOURCE[0]}")/fresh_common.sh"
(cd "$D/../validation" &&
  run python3 suite.py --probe heldout-conv-2026-11-28 --repeat-every 4 --budget-s 120 \
    --out "$OUT/probe-heldout-conv-2026-11-28.json")
finish_probe_call
