#!/bin/bash
# One call (2026-11-28, issue 17) on whichever GPU it gets: what the L2's dirty lines cost a kernel
# streaming after do_bench's flush (bench_dirty_flush.py: dirty, clean and warm L2 before each call;
# dev), then the held-out streaming probe (cases.py heldout-stream-2026-11-28, all test), committed
# after the GEMMs' write-back rule was final. On an H200 it then runs issue 14's H200 inference set
# (h200_infer_alone.sh), which only an H200 can measure.
#   calibration/runs/stream_probes_2026_11_28.sh OUT_DIR
# writes OUT_DIR/dirty-flush.json, probe-heldout-stream-2026-11-28.json, gpu.txt, log.txt
# (and OUT_DIR/h200-sxm/infer/ on an H200).
set -eu
[ $# -ge 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
OUT=$1
source "$(dirname "${BASH_SOURCE[0]}")/fresh_common.sh"
run python3 "$D/bench_dirty_flush.py" "$OUT/dirty-flush.json"
(cd "$D/../validation" &&
  run python3 suite.py --probe heldout-stream-2026-11-28 --repeat-every 4 --budget-s 120 \
    --out "$OUT/probe-heldout-stream-2026-11-28.json")
finish_probe_call
