#!/bin/bash
# One call (2026-11-28, third stop) on whichever GPU it gets:
#   - the held-out store probe (heldout-stores-2026-11-28, all test: fills, casts to fp32, embedding
#     backward over large vocabularies), committed after the store-only DRAM rule was final and
#     predicted once;
#   - on an H200, issue 14's H200 inference set (h200_infer_alone.sh), which only an H200 can measure;
#   - otherwise, with the time left, the seven fuzz harnesses on the machine's CPU cores (no GPU use),
#     two processes each, from the archive fuzz/pack.sh made (carried as build-fuzz/pack.tar.xz).
#   calibration/runs/stores_fuzz_2026_11_28.sh OUT_DIR [FUZZ_SECONDS]
# writes OUT_DIR/probe-heldout-stores-2026-11-28.json, gpu.txt, log.txt, and OUT_DIR/fuzz/ (logs,
# cpu times, findings) or OUT_DIR/h200-sxm/infer/.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 OUT_DIR [FUZZ_SECONDS]" >&2; exit 2; }
OUT=$1
FUZZ_SECONDS=${2:-360}
source "$(dirname "${BASH_SOURCE[0]}")/fresh_common.sh"
(cd "$D/../validation" &&
  run python3 suite.py --probe heldout-stores-2026-11-28 --repeat-every 4 --budget-s 90 \
    --out "$OUT/probe-heldout-stores-2026-11-28.json")
finish_probe_call
case "$GPU_NAME" in
  *H200*) ;;
  *)
    ROOT=$(cd "$D/../.." && pwd)
    if [ -f "$ROOT/build-fuzz/pack.tar.xz" ]; then
      FZ=$(mktemp -d)
      python3 -c "import tarfile, sys; tarfile.open(sys.argv[1]).extractall(sys.argv[2])" \
        "$ROOT/build-fuzz/pack.tar.xz" "$FZ"
      mkdir -p "$OUT/fuzz"
      (cd "$ROOT" && OUT="$OUT/fuzz" run fuzz/run_parallel.sh "$FUZZ_SECONDS" 2 "$FZ")
    fi
    ;;
esac
