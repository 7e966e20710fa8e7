#!/bin/bash
# One H100 call (2026-11-28): the two convolution probe sets (cases.py PROBES fp32-pointwise-conv and
# padded-conv, all dev) measured as the broad set is, and where the padded path's time beyond its
# kernels goes (conv_pad_host.py: host time per call, flush on/off, the CUDA API calls of one call).
#   calibration/runs/conv_probes_2026_11_28.sh OUT_DIR
# writes OUT_DIR/probe-fp32-pointwise-conv.json, probe-padded-conv.json, conv-pad-host.json, log.txt.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 OUT_DIR" >&2; exit 2; }
OUT=$1
source "$(dirname "${BASH_SOURCE[0]}")/fresh_common.sh"
nvidia-smi --query-gpu=name --format=csv,noheader | head -1 >"$OUT/gpu.txt"
cd "$D/../validation"
for p in fp32-pointwise-conv padded-conv; do
  run python3 suite.py --probe "$p" --repeat-every 4 --budget-s 150 --out "$OUT/probe-$p.json"
done
run python3 "$D/conv_pad_host.py" "$OUT/conv-pad-host.json"
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv >>"$LOG" 2>&1
