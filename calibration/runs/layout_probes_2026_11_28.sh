#!/bin/bash
# One call (2026-11-28, second stop, issue 17) on whichever GPU it gets:
#   - bench_dirty_flush.py --writes: what write-heavy kernels (fills, copies, adds, batched K = 64
#     GEMMs, 1x1 convolutions) cost after a dirty, a clean and a warm L2 (dev);
#   - the dev GEMM layout probe (cases.py gemm-layouts: every operand layout in tf32, fp32, bf16,
#     fp16, and the unaligned fallbacks);
#   - the held-out layout probe (heldout-layouts-2026-11-28, all test), committed with the dev probe
#     before either was measured, predicted only after the layout rules are final.
# On an H200 it then runs issue 14's H200 inference set (h200_infer_alone.sh), which only an H200 can
# measure.
#   calibration/runs/layout_probes_2026_11_28.sh OUT_DIR
# writes OUT_DIR/dirty-flush-writes.json, probe-gemm-layouts.json,
# probe-heldout-layouts-2026-11-28.json, gpu.txt, log.txt (and OUT_DIR/h200-sxm/infer/ on an H200).
set -eu
[ $# -ge 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
OUT=$1
source "$(dirname "${BASH_SOURCE[0]}")/fresh_common.sh"
run python3 "$D/bench_dirty_flush.py" "$OUT/dirty-flush-writes.json" --writes --reps 30
(cd "$D/../validation" &&
  run python3 suite.py --probe gemm-layouts --repeat-every 4 --budget-s 150 --out "$OUT/probe-gemm-layouts.json" &&
  run python3 suite.py --probe heldout-layouts-2026-11-28 --repeat-every 4 --budget-s 90 \
    --out "$OUT/probe-heldout-layouts-2026-11-28.json")
finish_probe_call
